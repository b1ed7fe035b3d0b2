import { useCallback, useEffect, useState } from 'react';
import type { ContactDeletion } from '../../../lib/schemas/admin';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/admin-api';
import { buttonClass } from '../../../lib/ui';
import { ScrollTable, StatusBadge, tableHeadClass } from './fields';

const errorText: Record<string, string> = {
  hubspot_not_configured: 'HubSpot is not configured; it waits',
  hubspot_unreachable: 'HubSpot could not be reached',
  no_contact: 'HubSpot had no contact for this address',
};
const describe = (code: string) => `${errorText[code] ?? (code.startsWith('hubspot_') ? `HubSpot answered ${code.slice(8)}` : code)} (${code})`;

/**
 * Parents' deletions (/your-data): each address HubSpot is asked to delete, masked, done or still
 * waiting (retried every 15 minutes until HubSpot has done it). The site's own records went at once.
 */
export function DataDeletions() {
  const [deletions, setDeletions] = useState<ContactDeletion[] | null>(null);
  const [loadError, setLoadError] = useState<string>();

  const load = useCallback(async () => {
    try {
      setDeletions((await apiRequest<{ deletions: ContactDeletion[] }>('GET', '/api/admin/data-deletions')).deletions);
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The deletions could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="data-deletions-title" className="mt-10">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="data-deletions-title" className="text-xl font-bold">
            Data deletions
          </h2>
          <p className="text-sm text-muted">Parents who deleted their data: their HubSpot contact is deleted too, retried until HubSpot has done it.</p>
        </div>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => load()}>
          Refresh
        </button>
      </div>
      {loadError && <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{loadError}</p>}
      {deletions?.length === 0 && <p className="text-sm text-muted">No parent has deleted their data.</p>}
      {deletions && deletions.length > 0 && (
        <ScrollTable label="Data deletions table" minWidth="min-w-[36rem]">
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">Asked</th>
              <th scope="col" className="px-4 py-3">Address</th>
              <th scope="col" className="px-4 py-3">HubSpot</th>
              <th scope="col" className="px-4 py-3">Attempts</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {deletions.map((deletion) => (
              <tr key={deletion.id}>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(deletion.createdAt)}</td>
                <td className="px-4 py-3">{deletion.masked}</td>
                <td className="px-4 py-3">
                  <StatusBadge tone={deletion.state === 'done' ? 'success' : 'pending'}>{deletion.state === 'done' ? 'Deleted' : 'Waiting'}</StatusBadge>
                  {deletion.doneAt && <p className="mt-1 text-xs text-muted">{formatDateTime(deletion.doneAt)}</p>}
                  {deletion.lastError && <p className="mt-1 max-w-56 text-xs text-muted">{describe(deletion.lastError)}</p>}
                  {deletion.state === 'pending' && <p className="mt-1 text-xs text-muted">Next try {formatDateTime(deletion.nextAttemptAt)}</p>}
                </td>
                <td className="px-4 py-3 tabular-nums">{deletion.attempts}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
