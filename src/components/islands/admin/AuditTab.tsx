import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { auditActionLabels, auditActions, type AuditEntry } from '../../../lib/audit';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/admin-api';
import { buttonClass } from '../../../lib/ui';
import { EmptyState, LoadOlder, ScrollTable, tableHeadClass } from './fields';

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

/**
 * Audit: who signed in (or failed to), changed settings, exported, retried, released, deleted or
 * looked at parents' data, newest first; filtered by action, person and dates; as a CSV download.
 */
export function AuditTab() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string>();
  const [loadError, setLoadError] = useState<string>();
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const id = useId();
  /** Only the answer to the latest request is shown (an earlier, slower one must not overwrite it). */
  const latest = useRef(0);

  const load = useCallback(async (current: Filters, after?: string) => {
    const ticket = ++latest.current;
    if (!after) setEntries(null);
    try {
      const page = await apiRequest<{ entries: AuditEntry[]; nextCursor?: string }>('GET', auditUrl(current, { cursor: after }));
      if (ticket !== latest.current) return;
      setEntries((shown) => (after && shown ? [...shown, ...page.entries] : page.entries));
      setCursor(page.nextCursor);
      setLoadError(undefined);
    } catch (error) {
      if (ticket !== latest.current) return;
      setLoadError(failureMessage(error, 'The audit log could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load(applied);
  }, [load, applied]);

  function apply(event: FormEvent) {
    event.preventDefault();
    setApplied({ ...filters });
  }

  const inputClass = 'mt-1 block w-full rounded-lg border border-line bg-white px-3 py-2 text-sm';
  return (
    <section aria-labelledby="audit-title">
      <div className="mb-4">
        <h2 id="audit-title" className="text-xl font-bold">
          Audit
        </h2>
        <p className="text-sm text-muted">
          Every sign-in, settings change, export, retry, release, deletion and look at parents' data, newest first. Kept for one year; addresses are stored only
          as a keyed hash.
        </p>
      </div>

      <form onSubmit={apply} className="mb-4 grid gap-3 rounded-card border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto_auto] lg:items-end" aria-label="Filter the audit log">
        <div>
          <label htmlFor={`${id}-action`} className="block text-sm font-semibold">
            Action
          </label>
          <select id={`${id}-action`} value={filters.action} onChange={(event) => setFilters({ ...filters, action: event.target.value })} className={inputClass}>
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
          <input id={`${id}-actor`} type="text" value={filters.actor} maxLength={200} autoComplete="off" onChange={(event) => setFilters({ ...filters, actor: event.target.value })} className={inputClass} />
        </div>
        <div>
          <label htmlFor={`${id}-from`} className="block text-sm font-semibold">
            From
          </label>
          <input id={`${id}-from`} type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => setFilters({ ...filters, from: event.target.value })} className={inputClass} />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="block text-sm font-semibold">
            To
          </label>
          <input id={`${id}-to`} type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => setFilters({ ...filters, to: event.target.value })} className={inputClass} />
        </div>
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Show
        </button>
        <a className={buttonClass('secondary', 'sm')} href={auditUrl(applied, { format: 'csv' })} download>
          Download CSV
        </a>
      </form>

      {loadError && <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{loadError}</p>}
      {!entries && !loadError && <p className="text-sm text-muted" role="status">Loading the audit log…</p>}
      {entries?.length === 0 && <EmptyState title="Nothing recorded">No entry matches these filters.</EmptyState>}
      {entries && entries.length > 0 && (
        <ScrollTable label="Audit log" minWidth="min-w-[44rem]">
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">When</th>
              <th scope="col" className="px-4 py-3">Who</th>
              <th scope="col" className="px-4 py-3">Action</th>
              <th scope="col" className="px-4 py-3">Target</th>
              <th scope="col" className="px-4 py-3">From (hashed)</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {entries.map((entry) => (
              <tr key={entry.id} data-action={entry.action}>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(entry.at)}</td>
                <td className="px-4 py-3 break-all">{entry.actor}</td>
                <td className="px-4 py-3">{labelOf(entry.action)}</td>
                <td className="px-4 py-3 break-all">{entry.target ? <code className="text-[0.8rem]">{entry.target}</code> : <span className="text-muted">None</span>}</td>
                <td className="px-4 py-3">
                  {entry.addressHash ? (
                    <code className="text-[0.8rem]" title={entry.addressHash}>
                      {entry.addressHash.slice(0, 12)}…
                    </code>
                  ) : (
                    <span className="text-muted">Unknown</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {cursor && <LoadOlder onClick={() => load(applied, cursor)}>Load older entries</LoadOlder>}
    </section>
  );
}
