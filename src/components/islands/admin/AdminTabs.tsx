import { lazy, Suspense, useId, useRef, useState, type KeyboardEvent } from 'react';
import { AbuseTab } from './AbuseTab';
import { ActivityLogsTab } from './ActivityLogsTab';
import { AuditTab } from './AuditTab';
import { CrmConfigTab } from './CrmConfigTab';
import { FormSubmissionsTab } from './FormSubmissionsTab';
import { ImpactTab } from './ImpactTab';
import { MailTab } from './MailTab';
import { OutboxTab } from './OutboxTab';
import { ReviewTab } from './ReviewTab';
import { SchoolsTab } from './SchoolsTab';
import { isOwner, useAdminSession } from './session';
import { StaffTab } from './StaffTab';
import { TestConnectionsTab } from './TestConnectionsTab';
import { WebhooksTab } from './WebhooksTab';

/** The Insights tab and its charts load only when it is opened. */
const InsightsTab = lazy(() => import('./InsightsTab').then((module) => ({ default: module.InsightsTab })));

/** Every tab; `owner`: only owners see it (the server refuses staff its calls too). */
const allTabs = [
  { key: 'webhooks', label: 'Webhooks', Panel: WebhooksTab, owner: true },
  { key: 'crm', label: 'CRM Config', Panel: CrmConfigTab, owner: true },
  { key: 'logs', label: 'Activity Logs', Panel: ActivityLogsTab, owner: false },
  { key: 'tests', label: 'Test Connections', Panel: TestConnectionsTab, owner: true },
  { key: 'submissions', label: 'Form Submissions', Panel: FormSubmissionsTab, owner: false },
  { key: 'outbox', label: 'Outbox', Panel: OutboxTab, owner: false },
  { key: 'schools', label: 'Schools', Panel: SchoolsTab, owner: false },
  { key: 'review', label: 'Review', Panel: ReviewTab, owner: false },
  { key: 'mail', label: 'Mail', Panel: MailTab, owner: false },
  { key: 'impact', label: 'Impact', Panel: ImpactTab, owner: false },
  { key: 'insights', label: 'Insights', Panel: InsightsTab, owner: false },
  { key: 'abuse', label: 'Abuse', Panel: AbuseTab, owner: false },
  { key: 'audit', label: 'Audit', Panel: AuditTab, owner: true },
  { key: 'staff', label: 'Staff', Panel: StaffTab, owner: true },
] as const;

/** The WAI-ARIA tabs pattern: one tab stop, arrow keys, Home and End move between tabs. */
export function AdminTabs() {
  const owner = isOwner(useAdminSession());
  const tabs = allTabs.filter((tab) => owner || !tab.owner);
  const [selected, setSelected] = useState(0);
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const base = useId();

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const last = tabs.length - 1;
    const next = { ArrowRight: selected + 1, ArrowLeft: selected - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = next > last ? 0 : next < 0 ? last : next;
    setSelected(index);
    refs.current[index]?.focus();
  }

  const { Panel } = tabs[selected]!;
  return (
    <div>
      <div role="tablist" aria-label="Admin sections" className="grid grid-cols-2 gap-1 rounded-card border border-line bg-white p-1 sm:flex sm:flex-wrap">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(element) => {
              refs.current[index] = element;
            }}
            id={`${base}-tab-${tab.key}`}
            type="button"
            role="tab"
            aria-selected={index === selected}
            aria-controls={`${base}-panel-${tab.key}`}
            tabIndex={index === selected ? 0 : -1}
            onClick={() => setSelected(index)}
            onKeyDown={onKeyDown}
            className={`min-h-11 grow rounded-[0.9rem] px-3 sm:grow-0 text-sm font-semibold whitespace-nowrap transition-colors ${
              index === selected ? 'bg-brand-600 text-white' : 'text-ink-soft hover:bg-brand-50'
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${base}-panel-${tabs[selected]!.key}`}
        aria-labelledby={`${base}-tab-${tabs[selected]!.key}`}
        tabIndex={0}
        className="mt-6 rounded-card"
      >
        <Suspense
          fallback={
            <p className="text-sm text-muted" role="status">
              Loading…
            </p>
          }
        >
          <Panel />
        </Suspense>
      </div>
    </div>
  );
}
