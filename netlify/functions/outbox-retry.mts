import type { Config } from '@netlify/functions';
import { hubspotClient } from './_shared/hubspot';
import { attemptDelivery, pendingIds, readRecord } from './_shared/outbox';
import { store, withStore } from './_shared/store';

/**
 * Scheduled: retries the outbox messages still pending whose retry time has come. Each message is
 * failed after MAX_ATTEMPTS attempts (see `_shared/outbox.ts`).
 */
export default async (_req?: Request): Promise<Response> => {
  const summary = { checked: 0, sent: 0, failed: 0, pending: 0, skipped: 0 };
  let client;
  try {
    client = hubspotClient();
  } catch {
    console.warn('[outbox-retry] HubSpot is not configured; messages stay pending.');
    return Response.json({ ...summary, notConfigured: true });
  }
  const now = Date.now();
  for (const id of await pendingIds()) {
    summary.checked++;
    try {
      const record = await readRecord(id);
      if (!record || record.status !== 'pending') {
        // A stale marker: the message was delivered or failed by another run.
        await withStore(() => store('outbox', { strong: true }).delete(`pending/${id}`));
        summary.skipped++;
        continue;
      }
      if (Date.parse(record.nextAttemptAt) > now) {
        summary.skipped++;
        continue;
      }
      const result = await attemptDelivery(client, record, { lagAttempts: 1 });
      summary[result.status]++;
    } catch (error) {
      // One unreadable record must not stop the others; it is tried again next run.
      console.error('[outbox-retry] record', id, error instanceof Error ? error.message : 'unknown error');
      summary.pending++;
    }
  }
  console.log('[outbox-retry]', JSON.stringify(summary));
  return Response.json(summary);
};

export const config: Config = { schedule: '*/15 * * * *' };
