/**
 * Letters to schools, from the parent's confirmation to the school's inbox: written to the mail
 * layer in the school's hours (mail/schedule.ts), sent by the scheduled run, one by one or, when
 * several wait for the same window and SCHOOL_DELIVERY=digest, as one digest; and what the mail
 * layer reports moves the letter on (outbox.ts): sent (the letter counts, the school's page is
 * published), or bounced (the parent is told once, with a way to correct the address).
 *
 * The same run sends every other email that is due, gives a request nobody confirmed its one
 * reminder, and ends the ones whose link expired.
 */
import { recordDelivery } from './analytics/record';
import { dayInWords } from '../lib/dates';
import { query, sql } from './db';
import { recordSent } from './impact';
import { mailboxKey, parentKey, sameDomain } from './identity';
import { composeDigest, composeLetter, organisationSender } from './mail/compose';
import { deliverEmail, dueEmailIds, enqueueEmail, newEmailId, readEmail, type Delivery, type StoredEmail } from './mail/queue';
import { letterTime } from './mail/schedule';
import { mailSender, fromName, type MailSender } from './mail/senders';
import { serverEnv } from './env';
import { emailConfirmation, emailDeliveryFailure, emailDigestNotice } from './notify';
import { readDraft } from './email-drafts';
import { dueReminders, expireUnconfirmed, newFollowUp, readMessage, updateMessage, type OutboxMessage } from './outbox';
import { queueReview } from './review-items';
import { publishSchoolPage, readSchoolPage, schoolPageHref, schoolPageKeyIfConfigured } from './school-pages';
import { updatesStopped } from './school-updates';
import { countStoredAnswer } from './school-answers';

/**
 * Writes a confirmed letter to the mail layer, to go in the school's hours (or at once with
 * SCHOOL_DELIVERY_HOURS=off), under the message's own id so a repeat writes it once. Returns the
 * message with when it goes.
 */
export async function queueLetter(message: OutboxMessage, timeZone: string | undefined, now = new Date()): Promise<OutboxMessage> {
  const time = await letterTime(mailboxKey(message.to), timeZone, now);
  const rendered = await composeLetter({ subject: message.subject, body: message.body, parentName: message.parentName });
  await enqueueEmail(
    {
      id: message.id,
      kind: 'school_letter',
      to: message.to,
      notBefore: time.at,
      ref: message.id,
      content: {
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        from: { name: fromName(message.parentName), address: organisationSender().address },
        replyTo: { name: message.parentName, address: message.parentEmail },
        lang: 'en',
      },
    },
    now,
  );
  return { ...message, delivery: { at: time.at.toISOString(), timeZone: time.timeZone, state: 'scheduled' } };
}

/**
 * A letter went: it counts now (the figures, the school's page, whose name the first letter sets),
 * and its follow-up is due in some days. A letter a parent sent to their own domain counts only
 * once staff approve it (a catch-all domain could otherwise be its own "school").
 */
export async function letterSent(id: string, at: Date): Promise<OutboxMessage | undefined> {
  // A letter is written to the mail layer only once its parent confirmed (and its limits were
  // taken); a confirmation whose last step failed may still read as waiting: it went all the same.
  const message = await updateMessage(id, (current) =>
    current.status === 'queued' || (current.status === 'awaiting_confirmation' && current.channel === 'platform') ? { ...current, status: 'sent', sentAt: at.toISOString(), followUp: current.followUp ?? newFollowUp(at), delivery: { ...current.delivery!, state: 'sent' }, lastError: undefined, updatedAt: at.toISOString() } : undefined,
  );
  if (!message) return undefined;
  await countLetter(message, at);
  return message;
}

/**
 * A delivered letter counts: its school's page is published (the first letter names it), the
 * figures take it, and any answer its parent gave already. All idempotent, so the scheduled run
 * finishes what a run that died part-way left. A letter to its parent's own domain waits for staff.
 */
async function countLetter(message: OutboxMessage, at: Date): Promise<void> {
  if (sameDomain(message.parentEmail, message.to)) {
    await queueReview(message.id, 'self_report', 'own_domain', at);
    return;
  }
  await publishSchoolPage(message, 'letter', at);
  await recordSent(message);
  await countStoredAnswer(message, at);
}

/** A letter the school's server refused for good: the parent is told once, with a link to correct the address. */
export async function letterBounced(id: string, at: Date, detail: string): Promise<OutboxMessage | undefined> {
  const message = await updateMessage(id, (current) =>
    current.status === 'queued' || current.status === 'sent' || current.status === 'awaiting_confirmation'
      ? { ...current, status: 'bounced', delivery: { ...(current.delivery ?? { at: at.toISOString(), timeZone: serverEnv.schoolTimeZone }), state: 'bounced', detail }, lastError: 'bounced', bounce: current.bounce ?? { at: at.toISOString(), told: 'pending' }, updatedAt: at.toISOString() }
      : undefined,
  );
  if (!message || message.bounce?.told !== 'pending') return message;
  const told = await emailDeliveryFailure(message, at);
  return updateMessage(id, (current) => (current.bounce ? { ...current, bounce: { ...current.bounce, told } } : undefined));
}

/** A letter the mail layer could not send for another reason (refused for good, tries used up). */
async function letterFailed(id: string, at: Date, detail: string): Promise<void> {
  await updateMessage(id, (current) =>
    current.status === 'queued' || current.status === 'awaiting_confirmation' ? { ...current, status: 'failed', lastError: 'delivery_failed', ...(current.delivery ? { delivery: { ...current.delivery, state: 'failed' as const, detail } } : {}), updatedAt: at.toISOString() } : undefined,
  );
}

/** What the mail layer's answer about an email means for the letters it carried. */
export async function afterDelivery(email: StoredEmail, state: StoredEmail['state'], at: Date, detail = ''): Promise<void> {
  const letters = email.kind === 'school_letter' && email.ref ? [email.ref] : email.kind === 'school_digest' ? await digestedLetters(email.id) : [];
  for (const id of letters) {
    if (state === 'sent' || state === 'delivered') {
      const message = await letterSent(id, at);
      if (message) await recordDelivery(message, at);
      if (message && email.kind === 'school_digest' && !(await updatesStopped(parentKey(message.parentEmail)))) await tellDigested(message, letters.length, at);
    } else if (state === 'bounced') await letterBounced(id, at, detail);
    else if (state === 'failed') await letterFailed(id, at, detail);
  }
}

async function digestedLetters(digestId: string): Promise<string[]> {
  const rows = await query<{ ref: string }>(sql`SELECT ref FROM emails WHERE digest_id = ${digestId} AND kind = 'school_letter' AND ref IS NOT NULL ORDER BY id`);
  return rows.map((row) => row.ref);
}

async function tellDigested(message: OutboxMessage, count: number, at: Date): Promise<void> {
  const key = schoolPageKeyIfConfigured(message.to);
  const page = key ? await readSchoolPage(key).catch(() => undefined) : undefined;
  await emailDigestNotice(message, count, page?.published ? `${serverEnv.siteOrigin}${schoolPageHref(page)}` : undefined, at);
}

/** Sends one due email and moves its letters on. */
export async function deliverAndFollow(id: string, sender: MailSender, now: () => Date = () => new Date()): Promise<Delivery | undefined> {
  const delivery = await deliverEmail(id, sender, now);
  if (delivery) await afterDelivery(delivery.email, delivery.state, now(), delivery.result?.detail);
  return delivery;
}

/**
 * Puts together, per school, the letters that wait for the same window (SCHOOL_DELIVERY=digest):
 * two or more due letters to one school contact become one digest email, each letter whole with a
 * link that replies to its parent. One statement writes the digest and marks its letters.
 */
export async function gatherDigests(now = new Date()): Promise<number> {
  if (serverEnv.schoolDelivery !== 'digest') return 0;
  const groups = await query<{ recipient_key: string; ids: string[] }>(sql`
    SELECT recipient_key, array_agg(id ORDER BY id) AS ids FROM emails
    WHERE kind = 'school_letter' AND state = 'scheduled' AND next_attempt_at <= ${now} AND erased_at IS NULL
    GROUP BY recipient_key HAVING count(*) >= 2 LIMIT 50`);
  let made = 0;
  for (const group of groups) {
    const letters = (await Promise.all(group.ids.map(readEmail))).filter((email): email is StoredEmail => Boolean(email?.content && email.recipient));
    const messages = (await Promise.all(letters.map((email) => (email.ref ? readMessage(email.ref) : undefined)))).flatMap((found) => (found ? [found.message] : []));
    if (letters.length < 2 || messages.length !== letters.length) continue;
    const before = await query<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM emails WHERE recipient_key = ${group.recipient_key} AND kind = 'school_letter' AND (state IN ('sent', 'delivered') OR (state = 'digested' AND digest_id IN (SELECT id FROM emails WHERE state IN ('sent', 'delivered'))))`);
    const earlier = before[0]?.n ?? 0;
    const school = messages.at(-1)!.schoolName || 'your school';
    const change = earlier === 0 ? `These are the first letters parents of ${school} have sent you through us.` : `With these, ${earlier + letters.length} parents of ${school} have now written to you.`;
    const rendered = await composeDigest({
      school,
      change,
      letters: messages.map((message) => ({ parentName: message.parentName, subject: message.subject, body: message.body, replyUrl: `mailto:${message.parentEmail}?subject=${encodeURIComponent(`Re: ${message.subject}`)}` })),
    });
    const digestId = newEmailId(now);
    const written = await enqueueEmail({ id: digestId, kind: 'school_digest', to: letters[0]!.recipient!, content: { subject: rendered.subject, text: rendered.text, html: rendered.html, from: organisationSender(), lang: 'en' }, ref: `digest:${group.recipient_key}` }, now);
    if (written.state !== 'scheduled') continue;
    await query(sql`UPDATE emails SET state = 'digested', digest_id = ${digestId}, updated_at = ${now} WHERE id = ANY(${letters.map((email) => email.id)}::text[]) AND state = 'scheduled'`);
    made++;
  }
  return made;
}

/**
 * Gives each request nobody confirmed for a day its one reminder, within the allowance of the
 * network that asked.
 */
export async function sendReminders(now = new Date()): Promise<number> {
  let sent = 0;
  for (const id of await dueReminders(now)) {
    const found = await readMessage(id);
    if (!found || found.message.status !== 'awaiting_confirmation' || found.message.confirmation?.reminder) continue;
    const reminder = await emailConfirmation(found.message, 'reminder', now);
    await updateMessage(id, (current) => (current.status === 'awaiting_confirmation' && current.confirmation ? { ...current, confirmation: { ...current.confirmation, reminder } } : undefined));
    if (reminder === 'queued') sent++;
  }
  return sent;
}

/**
 * Settles what a run or a request that died part-way left: a letter the mail layer has sent (or
 * bounced, or given up) whose message still reads as waiting, a sent letter not yet counted, and a
 * request whose confirmation
 * email was never written (its request failed after its draft took it). A request whose draft never
 * took it was answered with an error, and another request made the parent's letter: it ends here.
 */
export async function settleLeftovers(now = new Date()): Promise<number> {
  let settled = 0;
  const letters = await query<{ id: string; state: StoredEmail['state']; at: Date }>(sql`
    SELECT o.id, CASE WHEN e.state = 'digested' THEN d.state ELSE e.state END AS state, coalesce(e.sent_at, d.sent_at, e.updated_at) AS at
    FROM outbox_messages o JOIN emails e ON e.id = o.id AND e.kind = 'school_letter' LEFT JOIN emails d ON d.id = e.digest_id
    WHERE o.status IN ('queued', 'awaiting_confirmation') AND o.channel = 'platform'
      AND (e.state IN ('sent', 'delivered', 'bounced', 'complained', 'failed') OR (e.state = 'digested' AND d.state IN ('sent', 'delivered', 'bounced', 'failed')))
    LIMIT 200`);
  for (const letter of letters) {
    const email = await readEmail(letter.id);
    if (!email) continue;
    await afterDelivery({ ...email, kind: 'school_letter', ref: letter.id }, letter.state === 'complained' ? 'sent' : letter.state, letter.at);
    settled++;
  }
  const uncounted = await query<{ id: string }>(sql`
    SELECT o.id FROM outbox_messages o
    WHERE o.status = 'sent' AND o.channel = 'platform' AND o.erased_at IS NULL AND o.sent_at > ${new Date(now.getTime() - 30 * 24 * 3600_000)}
      AND NOT EXISTS (SELECT 1 FROM impact_sends s WHERE s.message_id = o.id)
      AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.message_id = o.id AND r.reason = 'own_domain')
    ORDER BY o.id LIMIT 200`);
  for (const { id } of uncounted) {
    const found = await readMessage(id);
    if (!found) continue;
    await countLetter(found.message, new Date(found.message.sentAt ?? now));
    settled++;
  }
  const unsent = await query<{ id: string }>(sql`
    SELECT id FROM outbox_messages
    WHERE status = 'awaiting_confirmation' AND channel = 'platform' AND erased_at IS NULL AND created_at < ${new Date(now.getTime() - 60_000)}
      AND record->'confirmation'->>'email' IS NULL AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.ref = outbox_messages.id AND e.kind = 'confirmation')
    ORDER BY id LIMIT 200`);
  for (const { id } of unsent) {
    const found = await readMessage(id);
    if (!found) continue;
    if ((await readDraft(found.message.draftId))?.draft.messageId !== id) {
      await updateMessage(id, (current) => (current.status === 'awaiting_confirmation' ? { ...current, status: 'failed', lastError: 'request_failed', updatedAt: now.toISOString() } : undefined));
    } else {
      const email = await emailConfirmation(found.message, 'confirmation', now);
      await updateMessage(id, (current) => (current.confirmation ? { ...current, confirmation: { ...current.confirmation, email } } : undefined));
    }
    settled++;
  }
  return settled;
}

export interface RunSummary {
  expired: number;
  reminders: number;
  digests: number;
  sent: number;
  waiting: number;
  bounced: number;
  failed: number;
  notConfigured?: true;
}

/** One scheduled run of the mail layer (every minute): expiries, reminders, digests, then every due email. */
export async function runMail(now: () => Date = () => new Date(), sender: MailSender | null = mailSender()): Promise<RunSummary> {
  const summary: RunSummary = { expired: 0, reminders: 0, digests: 0, sent: 0, waiting: 0, bounced: 0, failed: 0 };
  summary.expired = (await expireUnconfirmed(now())).length;
  await settleLeftovers(now());
  summary.reminders = await sendReminders(now());
  if (!sender) return { ...summary, notConfigured: true };
  summary.digests = await gatherDigests(now());
  for (const id of await dueEmailIds(now())) {
    const delivery = await deliverAndFollow(id, sender, now);
    if (!delivery) continue;
    if (delivery.state === 'sent') summary.sent++;
    else if (delivery.state === 'bounced') summary.bounced++;
    else if (delivery.state === 'failed') summary.failed++;
    else summary.waiting++;
  }
  return summary;
}

/** "24 November 2026": the day a letter went, as pages say it. */
export const sentDay = (message: Pick<OutboxMessage, 'sentAt' | 'createdAt'>) => dayInWords(message.sentAt ?? message.createdAt);
