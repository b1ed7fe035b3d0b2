import type { ContactDeletion } from '../../../lib/shared/schemas/admin';
import { apiRequest, formatDateTime } from '../../../lib/browser/admin-api';
import { AdminList, RefreshButton, useKeysetList, type AdminColumn, type AdminListText } from './AdminList';
import { SectionHeader, StatusBadge } from './fields';

const PATH = '/api/admin/data-deletions';

const errorText: Record<string, string> = {
  hubspot_not_configured: 'HubSpot is not configured; it waits',
  hubspot_unreachable: 'HubSpot could not be reached',
  no_contact: 'HubSpot had no contact for this address',
};
const describe = (code: string) => `${errorText[code] ?? (code.startsWith('hubspot_') ? `HubSpot answered ${code.slice(8)}` : code)} (${code})`;

const text: AdminListText = { loading: 'Loading the deletions…', failure: 'The deletions could not be loaded.', empty: 'No parent has deleted their data.' };

const columns: ReadonlyArray<AdminColumn<ContactDeletion>> = [
  { header: 'Asked', cell: (deletion) => formatDateTime(deletion.createdAt), className: 'whitespace-nowrap' },
  { header: 'Address', cell: (deletion) => deletion.masked },
  {
    header: 'HubSpot',
    cell: (deletion) => (
      <>
        <StatusBadge tone={deletion.state === 'done' ? 'success' : 'pending'}>{deletion.state === 'done' ? 'Deleted' : 'Waiting'}</StatusBadge>
        {deletion.doneAt && <p className="mt-1 text-xs text-muted">{formatDateTime(deletion.doneAt)}</p>}
        {deletion.lastError && <p className="mt-1 max-w-56 text-xs text-muted">{describe(deletion.lastError)}</p>}
        {deletion.state === 'pending' && <p className="mt-1 text-xs text-muted">Next try {formatDateTime(deletion.nextAttemptAt)}</p>}
      </>
    ),
  },
  { header: 'Attempts', cell: (deletion) => deletion.attempts, className: 'tabular-nums' },
];

/**
 * Parents' deletions (/your-data): each address HubSpot is asked to delete, masked, done or still
 * waiting (retried every 15 minutes until HubSpot has done it). The site's own records went at once.
 */
export function DataDeletions() {
  const list = useKeysetList(PATH, async () => ({ rows: (await apiRequest<{ deletions: ContactDeletion[] }>('GET', PATH)).deletions }));
  return (
    <section aria-labelledby="data-deletions-title" className="mt-10">
      <SectionHeader id="data-deletions-title" title="Data deletions" actions={<RefreshButton list={list} />}>
        Parents who deleted their data: their HubSpot contact is deleted too, retried until HubSpot has done it.
      </SectionHeader>
      <AdminList label="Data deletions table" list={list} text={text} columns={columns} />
    </section>
  );
}
