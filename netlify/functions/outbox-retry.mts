import type { Client } from '@hubspot/api-client';
import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { readDraft } from '../../src/server/email-drafts';
import { attemptWork, deleteMessage, pendingIds, readMessage, type OutboxMessage } from '../../src/server/outbox';
import { optionalHubSpot } from '../../src/server/platform-send';
import { schoolEmailSender } from '../../src/server/school-email-sender';
import { recordDelivery } from '../../src/server/analytics/record';

/** A request takes its draft within moments of making the message; one not taken by then never will be. */
const ORPHAN_AFTER_MS = 2 * 60_000;

type Summary = Record<'checked' | 'sent' | 'failed' | 'queued' | 'linked' | 'skipped', number>;

/**
 * Scheduled: the outbox's work left — confirmation links to hand to HubSpot and confirmed emails
 * to deliver — whose retry time has come. A delivery fails after MAX_ATTEMPTS (`src/server/outbox.ts`).
 * Without HubSpot or a school email sender nothing can be done and everything waits (the admin page shows it).
 */
export default async (_req?: Request): Promise<Response> => {
  const summary: Summary = { checked: 0, sent: 0, failed: 0, queued: 0, linked: 0, skipped: 0 };
  const client = optionalHubSpot();
  if (!client && !schoolEmailSender()) {
    console.warn('[outbox-retry] Neither HubSpot nor a school email sender is configured; the outbox waits.');
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

async function retryDue(client: Client | undefined, summary: Summary): Promise<void> {
  const now = Date.now();
  for (const id of await pendingIds()) {
    summary.checked++;
    try {
      const found = await readMessage(id);
      const message = found?.message;
      const waiting = message && (message.status === 'queued' || (message.status === 'awaiting_confirmation' && message.confirmation?.link !== 'delivered'));
      if (!found || !message || !waiting) {
        // Done by another run meanwhile.
        summary.skipped++;
        continue;
      }
      if (message.status === 'awaiting_confirmation' && now - Date.parse(message.createdAt) > ORPHAN_AFTER_MS && !(await namedByDraft(message))) {
        // The request that made it failed before its draft took it: the parent was told so, and
        // the draft may have made another. Its link must never reach the parent.
        await deleteMessage(message.id);
        summary.skipped++;
        continue;
      }
      if (Date.parse(message.nextAttemptAt) > now) {
        summary.skipped++;
        continue;
      }
      const linking = message.status === 'awaiting_confirmation';
      const result = await attemptWork(client, message, found.etag, { lagAttempts: 1 });
      await recordDelivery(result);
      if (linking) summary[result.confirmation?.link === 'delivered' ? 'linked' : 'skipped']++;
      else if (result.status === 'sent' || result.status === 'failed' || result.status === 'queued') summary[result.status]++;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      // One unreadable record must not stop the others; it is tried again next run.
      console.error('[outbox-retry] record', id, error instanceof Error ? error.message : 'unknown error');
      summary.queued++;
    }
  }
}

async function namedByDraft(message: OutboxMessage): Promise<boolean> {
  return (await readDraft(message.draftId))?.draft.messageId === message.id;
}

export const config: Config = { schedule: '*/15 * * * *' };
