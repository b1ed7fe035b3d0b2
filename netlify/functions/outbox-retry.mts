import type { Client } from '@hubspot/api-client';
import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from './_shared/http';
import { hubspotClient } from './_shared/hubspot';
import { attemptDelivery, pendingIds, readRecord } from './_shared/outbox';
import { store, withStore } from './_shared/store';

type Summary = Record<'checked' | 'sent' | 'failed' | 'pending' | 'skipped', number>;

/**
 * Scheduled: retries the outbox messages still pending whose retry time has come. Each message is
 * failed after MAX_ATTEMPTS attempts (see `_shared/outbox.ts`).
 */
export default async (_req?: Request): Promise<Response> => {
  const summary: Summary = { checked: 0, sent: 0, failed: 0, pending: 0, skipped: 0 };
  let client;
  try {
    client = hubspotClient();
  } catch {
    console.warn('[outbox-retry] HubSpot is not configured; messages stay pending.');
    return Response.json({ ...summary, notConfigured: true });
  }
  try {
    await retryDue(client, summary);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    // The store is down: every other record would fail the same way, so the run stops here.
    console.error('[outbox-retry] the store is unavailable; stopping this run.', JSON.stringify(summary));
    return storeUnavailable();
  }
  console.log('[outbox-retry]', JSON.stringify(summary));
  return Response.json(summary);
};

async function retryDue(client: Client, summary: Summary): Promise<void> {
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
      if (error instanceof StoreUnavailableError) throw error;
      // One unreadable record must not stop the others; it is tried again next run.
      console.error('[outbox-retry] record', id, error instanceof Error ? error.message : 'unknown error');
      summary.pending++;
    }
  }
}

export const config: Config = { schedule: '*/15 * * * *' };
