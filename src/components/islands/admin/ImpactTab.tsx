import { useState, type SubmitEvent } from 'react';
import type { SchoolImpactRow } from '../../../lib/shared/schemas/admin';
import { apiRequest, formatDateTime } from '../../../lib/browser/admin-api';
import { answerKinds, answerLabels } from '../../../lib/shared/answer-kinds';
import { buttonClass } from '../../../lib/shared/ui';
import { AdminList, useKeysetList, type AdminColumn, type AdminListText } from './AdminList';
import { PeriodFields, SectionHeader } from './fields';
import { SchoolCampaigns } from './SchoolCampaigns';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

/** The admin endpoint for a period, as JSON or as the CSV download. */
const query = (current: { from: string; to: string }, format?: 'csv') => {
  const params = new URLSearchParams();
  if (current.from) params.set('from', current.from);
  if (current.to) params.set('to', current.to);
  if (format) params.set('format', format);
  const text = params.toString();
  return `/api/admin/impact${text ? `?${text}` : ''}`;
};

const text: AdminListText = {
  loading: 'Loading the figures…',
  failure: 'The impact figures could not be loaded.',
  empty: 'No school emails in this period',
  emptyHint: 'Once parents send their emails, each school shows here.',
};

const columns: ReadonlyArray<AdminColumn<SchoolImpactRow>> = [
  { header: 'School', kind: 'title', cell: (row) => row.school, className: 'wrap-anywhere' },
  { header: 'Emails sent', cell: (row) => row.emailsSent, className: 'tabular-nums' },
  ...answerKinds.map((kind) => ({ header: answerLabels[kind], cell: (row: SchoolImpactRow) => row.answers[kind], className: 'tabular-nums' })),
  { header: 'Response rate', cell: (row) => percent(row.responseRate), className: 'tabular-nums' },
  {
    header: 'Latest comment',
    cell: (row) =>
      row.latestComment ? (
        <>
          <p className="max-w-72">“{row.latestComment}”</p>
          <p className="text-xs text-muted">{formatDateTime(row.latestCommentAt)}</p>
        </>
      ) : (
        <span className="text-muted">None</span>
      ),
  },
];

/**
 * Impact: per school (by domain), the emails parents sent in a period, what they said the school
 * answered, the response rate and the latest comment; the same as a CSV download.
 */
export function ImpactTab() {
  const [period, setPeriod] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState({ from: '', to: '' });
  const list = useKeysetList(query(applied), async () => ({ rows: (await apiRequest<{ rows: SchoolImpactRow[] }>('GET', query(applied))).rows }));

  function apply(event: SubmitEvent) {
    event.preventDefault();
    if (query(period) === query(applied)) void list.reload();
    else setApplied(period);
  }

  return (
    <section aria-labelledby="impact-title">
      <SectionHeader id="impact-title" title="Impact">
        Per school: emails sent in the period, what parents said the school answered, and the latest comment.
      </SectionHeader>

      <form onSubmit={apply} className="mb-4 flex flex-wrap items-end gap-3 rounded-card border border-line bg-white p-4" aria-label="Period">
        <PeriodFields value={period} onChange={setPeriod} inputClass="mt-1 rounded-lg border border-line px-3 py-2 text-sm" />
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Show
        </button>
      </form>

      <AdminList label="Impact per school" list={list} rowKey={(row) => row.school} text={text} columns={columns} csvHref={query(applied, 'csv')} />
      <SchoolCampaigns />
    </section>
  );
}
