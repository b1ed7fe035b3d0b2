import { useState } from 'react';
import type { WebhookLogView as WebhookLog, WebhookLogsPage } from '../../../lib/shared/schemas/admin';
import { canRetrySync } from '../../../lib/shared/webhook-logs';
import { apiRequest, formatDateTime } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { AdminList, RefreshButton, replacing, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { BusyButton, SectionHeader, StatusBadge } from './fields';

const PATH = '/api/webhook-logs';

const text: AdminListText = {
  loading: 'Loading activity…',
  failure: 'The webhook activity could not be loaded.',
  empty: 'No webhook activity yet',
  emptyHint: 'Deliveries from Calendly will appear here.',
  more: 'Load older activity',
};

/** §3: success and error as they are, anything else shown as pending. */
function statusBadge(status: string) {
  if (status === 'success') return <StatusBadge tone="success">success</StatusBadge>;
  if (status === 'error') return <StatusBadge tone="error">error</StatusBadge>;
  return <StatusBadge tone="pending">pending</StatusBadge>;
}

function syncBadge(status: string) {
  // Events that change nothing on a contact (no-shows) never sync: say so rather than "pending".
  if (status === 'skipped') return <StatusBadge tone="neutral">not needed</StatusBadge>;
  return statusBadge(status);
}

export function ActivityLogsTab() {
  const list = useKeysetList(PATH, async (cursor) => {
    const page = await apiRequest<WebhookLogsPage>('GET', withCursor(PATH, cursor));
    return { rows: page.logs, nextCursor: page.nextCursor };
  });
  const [viewing, setViewing] = useState<WebhookLog | null>(null);
  const { busy, run } = useRowTask();

  const retry = (log: WebhookLog) =>
    run(log.id, 'Failed to retry the HubSpot sync', async () => {
      const { log: updated } = await apiRequest<{ log: WebhookLog }>('POST', `${PATH}/${log.id}/retry`);
      list.update(replacing(updated));
      if (updated.hubspotSyncStatus === 'success') showToast({ title: 'Success', description: 'HubSpot sync completed successfully' });
      else showToast({ title: 'Error', description: updated.error ?? 'The HubSpot sync failed again.', variant: 'destructive' });
    });

  const columns: ReadonlyArray<AdminColumn<WebhookLog>> = [
    { header: 'Timestamp', cell: (log) => formatDateTime(log.createdAt), className: 'whitespace-nowrap' },
    { header: 'Event Type', cell: (log) => <code className="text-[0.8rem]">{log.eventType}</code> },
    { header: 'Status', cell: (log) => statusBadge(log.status) },
    {
      header: 'HubSpot Sync',
      cell: (log) => (
        <>
          {syncBadge(log.hubspotSyncStatus)}
          {log.error && <p className="mt-1 max-w-56 text-xs text-danger-600">{log.error}</p>}
        </>
      ),
    },
    {
      header: 'Actions',
      kind: 'actions',
      cell: (log) => (
        <RowActions>
          <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setViewing(log)}>
            View payload
          </button>
          {canRetrySync(log) && (
            <BusyButton busy={busy === log.id} busyLabel="Retrying…" onClick={() => retry(log)}>
              Retry sync
            </BusyButton>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <section aria-labelledby="logs-title">
      <SectionHeader id="logs-title" title="Activity Logs" actions={<RefreshButton list={list} />}>
        Every Calendly delivery, newest first, and whether it reached HubSpot.
      </SectionHeader>
      <AdminList label="Webhook activity table" list={list} text={text} columns={columns} />

      <ReactDialog open={viewing !== null} onClose={() => setViewing(null)} title="Webhook payload" size="lg">
        {viewing && (
          <>
            <p className="mb-3 text-sm text-muted">
              <code>{viewing.eventType}</code> received {formatDateTime(viewing.createdAt)}
              {viewing.hubspotContactId ? `, HubSpot contact ${viewing.hubspotContactId}` : ''}.
            </p>
            <pre tabIndex={0} className="max-h-[60vh] overflow-auto rounded-lg bg-ink p-4 text-xs text-white">
              {JSON.stringify(viewing.payload, null, 2)}
            </pre>
          </>
        )}
      </ReactDialog>
    </section>
  );
}
