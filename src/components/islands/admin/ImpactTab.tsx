import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { SchoolImpactRow } from '../../../lib/schemas/admin';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/admin-api';
import { answerKinds, answerLabels } from '../../../lib/school-answers';
import { buttonClass } from '../../../lib/ui';
import { EmptyState, ScrollTable, tableHeadClass } from './fields';
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


/**
 * Impact: per school (by domain), the emails parents sent in a period, what they said the school
 * answered, the response rate and the latest comment; the same as a CSV download.
 */
export function ImpactTab() {
  const [rows, setRows] = useState<SchoolImpactRow[] | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [period, setPeriod] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState({ from: '', to: '' });
  const id = useId();

  const load = useCallback(async (current: { from: string; to: string }) => {
    setRows(null);
    try {
      const page = await apiRequest<{ rows: SchoolImpactRow[] }>('GET', query(current));
      setRows(page.rows);
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The impact figures could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load(applied);
  }, [load, applied]);

  function apply(event: FormEvent) {
    event.preventDefault();
    setApplied(period);
  }

  return (
    <section aria-labelledby="impact-title">
      <div className="mb-4">
        <h2 id="impact-title" className="text-xl font-bold">
          Impact
        </h2>
        <p className="text-sm text-muted">Per school: emails sent in the period, what parents said the school answered, and the latest comment.</p>
      </div>

      <form onSubmit={apply} className="mb-4 flex flex-wrap items-end gap-3 rounded-card border border-line bg-white p-4" aria-label="Period">
        <div>
          <label htmlFor={`${id}-from`} className="block text-sm font-semibold">
            From
          </label>
          <input id={`${id}-from`} type="date" value={period.from} max={period.to || undefined} onChange={(event) => setPeriod({ ...period, from: event.target.value })} className="mt-1 rounded-lg border border-line px-3 py-2 text-sm" />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="block text-sm font-semibold">
            To
          </label>
          <input id={`${id}-to`} type="date" value={period.to} min={period.from || undefined} onChange={(event) => setPeriod({ ...period, to: event.target.value })} className="mt-1 rounded-lg border border-line px-3 py-2 text-sm" />
        </div>
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Show
        </button>
        <a className={buttonClass('secondary', 'sm')} href={query(applied, 'csv')} download>
          Download CSV
        </a>
      </form>

      {loadError && <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{loadError}</p>}
      {!rows && !loadError && <p className="text-sm text-muted" role="status">Loading the figures…</p>}
      {rows?.length === 0 && <EmptyState title="No school emails in this period">Once parents send their emails, each school shows here.</EmptyState>}
      {rows && rows.length > 0 && (
        <ScrollTable label="Impact per school" minWidth="min-w-[56rem]">
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">School</th>
              <th scope="col" className="px-4 py-3">Emails sent</th>
              {answerKinds.map((kind) => (
                <th key={kind} scope="col" className="px-4 py-3">
                  {answerLabels[kind]}
                </th>
              ))}
              <th scope="col" className="px-4 py-3">Response rate</th>
              <th scope="col" className="px-4 py-3">Latest comment</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.school}>
                <th scope="row" className="px-4 py-3 font-medium break-all">
                  {row.school}
                </th>
                <td className="px-4 py-3 tabular-nums">{row.emailsSent}</td>
                {answerKinds.map((kind) => (
                  <td key={kind} className="px-4 py-3 tabular-nums">
                    {row.answers[kind]}
                  </td>
                ))}
                <td className="px-4 py-3 tabular-nums">{percent(row.responseRate)}</td>
                <td className="px-4 py-3">
                  {row.latestComment ? (
                    <>
                      <p className="max-w-72">“{row.latestComment}”</p>
                      <p className="text-xs text-muted">{formatDateTime(row.latestCommentAt)}</p>
                    </>
                  ) : (
                    <span className="text-muted">None</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <SchoolCampaigns />
    </section>
  );
}
