import { useId, useState, type SubmitEvent } from 'react';
import { auditActionLabels, auditActions, type AuditEntry } from '../../../lib/shared/audit-actions';
import { apiRequest, formatDateTime } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { AdminList, useKeysetList, type AdminColumn, type AdminListText } from './AdminList';
import { PeriodFields, SectionHeader } from './fields';

interface Filters {
  action: string;
  actor: string;
  from: string;
  to: string;
}

const noFilters: Filters = { action: '', actor: '', from: '', to: '' };

/** The audit endpoint for the filters, one page after `cursor`, or as the CSV download. */
function auditUrl(filters: Filters, options: { cursor?: string; format?: 'csv' } = {}): string {
  const params = new URLSearchParams();
  for (const name of ['action', 'actor', 'from', 'to'] as const) {
    const value = filters[name].trim();
    if (value) params.set(name, value);
  }
  if (options.cursor) params.set('cursor', options.cursor);
  if (options.format) params.set('format', options.format);
  const text = params.toString();
  return `/api/admin/audit${text ? `?${text}` : ''}`;
}

const labelOf = (action: string) => (auditActionLabels as Record<string, string>)[action] ?? action;

const text: AdminListText = {
  loading: 'Loading the audit log…',
  failure: 'The audit log could not be loaded.',
  empty: 'Nothing recorded',
  emptyHint: 'No entry matches these filters.',
  more: 'Load older entries',
};

const columns: ReadonlyArray<AdminColumn<AuditEntry>> = [
  { header: 'When', cell: (entry) => formatDateTime(entry.at), className: 'whitespace-nowrap' },
  {
    header: 'Who',
    className: 'wrap-anywhere',
    // A refused sign-in keeps what was typed apart from the actor, so nobody can write a name into the log as its author.
    cell: (entry) =>
      entry.typedName ? (
        <>
          {entry.actor} <span className="text-muted">(typed “{entry.typedName}”)</span>
        </>
      ) : (
        entry.actor
      ),
  },
  {
    header: 'Action',
    cell: (entry) => (
      <>
        {labelOf(entry.action)}
        {entry.count !== undefined && entry.count > 1 && (
          <span
            className="ml-2 inline-block rounded-pill bg-canvas px-2 text-xs font-semibold text-ink-soft tabular-nums"
            title={`${entry.count} times in this 10-minute window`}
          >
            <span aria-hidden="true">×{entry.count}</span>
            <span className="sr-only">{entry.count} times in this 10-minute window</span>
          </span>
        )}
      </>
    ),
  },
  {
    header: 'Target',
    cell: (entry) => (entry.target ? <code className="text-[0.8rem]">{entry.target}</code> : <span className="text-muted">None</span>),
    className: 'wrap-anywhere',
  },
  {
    header: 'From (hashed)',
    cell: (entry) =>
      entry.addressHash ? (
        <code className="text-[0.8rem]" title={entry.addressHash}>
          {entry.addressHash.slice(0, 12)}…
        </code>
      ) : (
        <span className="text-muted">Unknown</span>
      ),
  },
];

/**
 * Audit: who signed in (or failed to), changed settings, exported, retried, released, deleted or
 * looked at parents' data, newest first; filtered by action, person and dates; as a CSV download.
 */
export function AuditTab() {
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const id = useId();
  const list = useKeysetList(auditUrl(applied), async (cursor) => {
    const page = await apiRequest<{ entries: AuditEntry[]; nextCursor?: string }>('GET', auditUrl(applied, { cursor }));
    return { rows: page.entries, nextCursor: page.nextCursor };
  });

  function apply(event: SubmitEvent) {
    event.preventDefault();
    // The same filters again ask again: what was recorded since shows.
    if (auditUrl(filters) === auditUrl(applied)) void list.reload();
    else setApplied({ ...filters });
  }

  const inputClass = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 py-2 text-sm';
  return (
    <section aria-labelledby="audit-title">
      <SectionHeader id="audit-title" title="Audit">
        Every sign-in, settings change, export, retry, release, deletion and look at parents' data, newest first. Kept for one year; addresses are stored only
        as a keyed hash.
      </SectionHeader>

      <form
        onSubmit={apply}
        className="mb-4 grid gap-3 rounded-card border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
        aria-label="Filter the audit log"
      >
        <div>
          <label htmlFor={`${id}-action`} className="block text-sm font-semibold">
            Action
          </label>
          <select
            id={`${id}-action`}
            value={filters.action}
            onChange={(event) => setFilters({ ...filters, action: event.target.value })}
            className={inputClass}
          >
            <option value="">All actions</option>
            {auditActions.map((action) => (
              <option key={action} value={action}>
                {auditActionLabels[action]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-actor`} className="block text-sm font-semibold">
            Who
          </label>
          <input
            id={`${id}-actor`}
            type="text"
            value={filters.actor}
            maxLength={200}
            autoComplete="off"
            onChange={(event) => setFilters({ ...filters, actor: event.target.value })}
            className={inputClass}
          />
        </div>
        <PeriodFields value={filters} onChange={(period) => setFilters({ ...filters, ...period })} inputClass={inputClass} />
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Show
        </button>
      </form>

      <AdminList label="Audit log" list={list} text={text} columns={columns} csvHref={auditUrl(applied, { format: 'csv' })} />
    </section>
  );
}
