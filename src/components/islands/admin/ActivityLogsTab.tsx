import { useCallback, useEffect, useState } from 'react';
import type { WebhookLogView as WebhookLog, WebhookLogsPage } from '../../../lib/schemas/admin';
import { canRetrySync } from '../../../lib/webhook-logs';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/admin-api';
import { buttonClass } from '../../../lib/ui';
import { showToast } from '../../../stores/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { EmptyState, StatusBadge, ScrollTable, tableHeadClass, LoadOlder } from './fields';

type Page = WebhookLogsPage;

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
  const [logs, setLogs] = useState<WebhookLog[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [viewing, setViewing] = useState<WebhookLog | null>(null);
  const [busy, setBusy] = useState<string>();

  const load = useCallback(async (after?: string) => {
    try {
      const query = after ? `?cursor=${encodeURIComponent(after)}` : '';
      const page = await apiRequest<Page>('GET', `/api/webhook-logs${query}`);
      setLogs((current) => (after && current ? [...current, ...page.logs] : page.logs));
      setCursor(page.nextCursor);
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The webhook activity could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function retry(log: WebhookLog) {
    setBusy(log.id);
    try {
      const { log: updated } = await apiRequest<{ log: WebhookLog }>('POST', `/api/webhook-logs/${log.id}/retry`);
      setLogs((current) => current?.map((entry) => (entry.id === updated.id ? updated : entry)) ?? null);
      if (updated.hubspotSyncStatus === 'success') showToast({ title: 'Success', description: 'HubSpot sync completed successfully' });
      else showToast({ title: 'Error', description: updated.error ?? 'The HubSpot sync failed again.', variant: 'destructive' });
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'Failed to retry the HubSpot sync'), variant: 'destructive' });
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section aria-labelledby="logs-title">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="logs-title" className="text-xl font-bold">
            Activity Logs
          </h2>
          <p className="text-sm text-muted">Every Calendly delivery, newest first, and whether it reached HubSpot.</p>
        </div>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => load()}>
          Refresh
        </button>
      </div>

      {loadError && <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{loadError}</p>}
      {!logs && !loadError && <p className="text-sm text-muted" role="status">Loading activity…</p>}
      {logs?.length === 0 && <EmptyState title="No webhook activity yet">Deliveries from Calendly will appear here.</EmptyState>}
      {logs && logs.length > 0 && (
        <ScrollTable label="Webhook activity table" minWidth="min-w-[40rem]">
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">Timestamp</th>
              <th scope="col" className="px-4 py-3">Event Type</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="px-4 py-3">HubSpot Sync</th>
              <th scope="col" className="px-4 py-3">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {logs.map((log) => (
              <tr key={log.id}>
                <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(log.createdAt)}</td>
                <td className="px-4 py-3">
                  <code className="text-[0.8rem]">{log.eventType}</code>
                </td>
                <td className="px-4 py-3">{statusBadge(log.status)}</td>
                <td className="px-4 py-3">
                  {syncBadge(log.hubspotSyncStatus)}
                  {log.error && <p className="mt-1 max-w-56 text-xs text-danger-600">{log.error}</p>}
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-2">
                    <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setViewing(log)}>
                      View payload
                    </button>
                    {canRetrySync(log) && (
                      <button type="button" className={buttonClass('secondary', 'sm')} disabled={busy === log.id} onClick={() => retry(log)}>
                        {busy === log.id ? 'Retrying…' : 'Retry sync'}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {cursor && <LoadOlder onClick={() => load(cursor)}>Load older activity</LoadOlder>}

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
