import type { Config } from '@netlify/functions';
import { DRAFT_RETENTION_MS, type EmailDraft } from '../../src/server/email-drafts';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { deleteMessage, MESSAGE_RETENTION_MS, readMessage, saveMessage } from '../../src/server/outbox';
import { purgeOldSlots, releasePair } from '../../src/server/send-limits';
import { store, withStore } from '../../src/server/store';

/**
 * Daily: the outbox's retention. Messages are deleted 90 days after they were sent (never sent:
 * 90 days after they were made), with their one-per-school pair; drafts 30 days after their form
 * was sent; daily sending slots once their day is over. Confirmations never given in time are
 * marked failed ("not confirmed in time").
 */
export async function purgeOutbox(now = new Date()): Promise<Record<'expired' | 'messages' | 'drafts' | 'slots', number>> {
  const counts = { expired: 0, messages: 0, drafts: 0, slots: 0 };
  const outbox = store('outbox', { strong: true });
  const { blobs: messages } = await withStore(() => outbox.list({ prefix: 'messages/' }));
  for (const { key } of messages) {
    const found = await readMessage(key.slice('messages/'.length));
    if (!found) continue;
    const { message, etag } = found;
    if (message.status === 'awaiting_confirmation' && Date.parse(message.confirmation?.expiresAt ?? '') < now.getTime()) {
      await saveMessage({ ...message, status: 'failed', lastError: 'not_confirmed_in_time', updatedAt: now.toISOString() }, etag);
      counts.expired++;
      continue;
    }
    const since = Date.parse(message.sentAt ?? message.createdAt);
    if (message.status !== 'queued' && message.status !== 'awaiting_confirmation' && now.getTime() - since > MESSAGE_RETENTION_MS) {
      await deleteMessage(message.id);
      if (message.channel === 'platform' && message.status === 'sent') await releasePair(message.parentEmail, message.to);
      counts.messages++;
    }
  }
  const { blobs: drafts } = await withStore(() => outbox.list({ prefix: 'drafts/' }));
  for (const { key } of drafts) {
    const draft = (await withStore(() => outbox.get(key, { type: 'json' }))) as EmailDraft | null;
    if (draft && now.getTime() - Date.parse(draft.createdAt) > DRAFT_RETENTION_MS) {
      await withStore(() => outbox.delete(key));
      counts.drafts++;
    }
  }
  counts.slots = await purgeOldSlots(new Date(now.getTime() - 24 * 3600_000));
  return counts;
}

export default async (_req?: Request): Promise<Response> => {
  try {
    const counts = await purgeOutbox();
    console.log('[outbox-purge]', JSON.stringify(counts));
    return Response.json(counts);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '@daily' };
