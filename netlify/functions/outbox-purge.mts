import type { Config } from '@netlify/functions';
import { DRAFT_RETENTION_MS, purgeDrafts } from '../../src/server/letter/drafts';
import { scheduled } from '../../src/server/http';
import { EMAIL_RETENTION_MS, purgeEmails } from '../../src/server/mail/queue';
import { expireRequests } from '../../src/server/letter/life';
import { MESSAGE_RETENTION_MS, purgeMessages } from '../../src/server/letter/outbox';
import { purgeOldSlots } from '../../src/server/letter/send-limits';
import { purgeUpdateWeeks, UPDATE_INTERVAL_MS } from '../../src/server/schools/updates';

/**
 * Daily: the outbox's retention. Messages are deleted 90 days after they were sent (never sent:
 * 90 days after they were made), with their one-per-school pair; drafts 30 days after their form
 * was sent; emails the site sent 90 days after sending; daily sending slots once their day is over, and a parent's last school
 * update once its week is. Requests never confirmed in time end as expired (letter/life.ts).
 */
export async function purgeOutbox(now = new Date()): Promise<Record<'expired' | 'messages' | 'drafts' | 'slots' | 'emails', number>> {
  const counts = { expired: 0, messages: 0, drafts: 0, slots: 0, emails: 0 };
  counts.expired = (await expireRequests(now)).length;
  counts.messages = await purgeMessages(new Date(now.getTime() - MESSAGE_RETENTION_MS));
  counts.drafts = await purgeDrafts(new Date(now.getTime() - DRAFT_RETENTION_MS));
  counts.slots = await purgeOldSlots(new Date(now.getTime() - 24 * 3600_000));
  counts.emails = await purgeEmails(new Date(now.getTime() - EMAIL_RETENTION_MS), now);
  // A parent's last school update matters only for the week after it.
  counts.slots += await purgeUpdateWeeks(new Date(now.getTime() - UPDATE_INTERVAL_MS));
  return counts;
}

export default scheduled('outbox-purge', () => purgeOutbox());

export const config: Config = { schedule: '@daily' };
