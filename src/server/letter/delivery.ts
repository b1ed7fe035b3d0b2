/**
 * Letters to schools, from the parent's confirmation to the school's inbox: written to the mail
 * layer in the school's hours (mail/schedule.ts), sent by the every-minute run one by one or, when
 * several wait for one school contact and SCHOOL_DELIVERY=digest, as one digest; and what became of
 * each email moves its letter on (life.ts) and sets off what follows: a letter that went counts on
 * its school's page when it rests on proof (schools/publication.ts), a dead end reaches its parent
 * (notices.ts).
 *
 * The same run ends requests whose link expired and letters that waited too long, gives a request
 * nobody confirmed its one reminder, and settles what a run that died part-way left. Every piece
 * is safe to run twice at once: emails have ids of their own (a repeat writes nothing), claims are
 * one locking statement, and letters move by compare-and-swap.
 */
import { recordDelivery } from '../analytics/record';
import { dayInWords } from '../dates';
import { query, queryOne, sql } from '../db';
import { readDraft } from './drafts';
import { serverEnv } from '../env';
import { exactAddressKey, mailboxKey, parentKey, schoolGroupKey } from '../identity';
import { composeDigest, composeLetter, organisationSender } from '../mail/compose';
import { deliverEmail, dueEmailIds, enqueueEmail, readEmail, releaseWithdrawnDigests, type Delivery, type StoredEmail } from '../mail/queue';
import { letterTime } from '../mail/schedule';
import { fromName, mailSender, type MailSender } from '../mail/senders';
import type { EmailState } from '../mail/states';
import { defaultWindow, type SchoolWindow } from '../mail/window';
import { emailConfirmation, emailDigestNotice } from '../mail/notify';
import { dueReminders, readMessage, updateMessage, wentOut, type OutboxMessage } from './outbox';
import { readSchoolPage } from '../schools/pages';
import { updatesStopped } from '../schools/updates';
import { schoolOfLetter, type LetterSchool } from '../schools/letters';
import { countLetter } from '../schools/publication';
import { windowOfSchool } from '../schools/records';
import { expireLetters, expireRequests, follow, isDeadEnd, withdraw } from './life';
import { tellParent, tellUntold } from './notices';

/** The hours a letter goes in: its school's record's, or, for a school the site does not know, the default hours in the parent's zone. */
export function windowOfLetter(place: LetterSchool, timeZone: string | undefined): SchoolWindow {
  return place.onRecord && place.school ? windowOfSchool(place.school) : defaultWindow(timeZone ?? serverEnv.schoolTimeZone);
}

/**
 * Writes a confirmed letter to the mail layer, to go in its school's hours (or at once with
 * SCHOOL_DELIVERY_HOURS=off), under the letter's own id so a repeat writes it once. Returns when it goes.
 */
export async function queueLetter(message: OutboxMessage, timeZone: string | undefined, now = new Date()): Promise<NonNullable<OutboxMessage['delivery']>> {
  const place = await schoolOfLetter(message);
  const window = windowOfLetter(place, timeZone);
  const key = schoolGroupKey({ schoolId: place.school?.id, onRecord: place.onRecord, to: message.to });
  const time = await letterTime(key, window, now);
  const rendered = await composeLetter({ subject: message.subject, body: message.body, parentName: message.parentName, language: message.letterLocale });
  await enqueueEmail(
    {
      id: message.id,
      kind: 'school_letter',
      to: message.to,
      notBefore: time.at,
      ref: message.id,
      school: { key, window, ...(time.hour ? { hour: time.hour } : {}) },
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
  return { at: time.at.toISOString(), timeZone: time.timeZone, state: 'scheduled' };
}

/** The letters an email carried: the letter itself, or a digest's. */
async function lettersOf(email: Pick<StoredEmail, 'id' | 'kind' | 'ref'>): Promise<string[]> {
  if (email.kind === 'school_letter' && email.ref) return [email.ref];
  if (email.kind !== 'school_digest') return [];
  const rows = await query<{ ref: string }>(
    sql`SELECT ref FROM emails WHERE digest_id = ${email.id} AND kind = 'school_letter' AND ref IS NOT NULL ORDER BY id`,
  );
  return rows.map((row) => row.ref);
}

/** What a letter's move sets off: counted when it went, its parent told at a dead end. */
export async function afterMove(message: OutboxMessage, at: Date, digest?: { count: number }): Promise<void> {
  if (wentOut(message.status)) {
    await countLetter(message, at);
    await recordDelivery(message, at);
    if (digest && !(await updatesStopped(parentKey(message.parentEmail)))) await tellDigested(message, digest.count, at);
  } else if (isDeadEnd(message.status)) {
    await tellParent(message, at);
  }
}

/** What the mail layer's answer about an email means for the letters it carried. */
export async function afterDelivery(email: StoredEmail, state: EmailState, at: Date, detail = ''): Promise<void> {
  const letters = await lettersOf(email);
  for (const id of letters) {
    const moved = await follow(id, { state, lastError: email.lastError }, at, detail);
    if (moved) await afterMove(moved, at, email.kind === 'school_digest' ? { count: letters.length } : undefined);
  }
}

async function tellDigested(message: OutboxMessage, count: number, at: Date): Promise<void> {
  const place = await schoolOfLetter(message);
  const page = place.onRecord && place.school ? await readSchoolPage(place.school.pageKey).catch(() => undefined) : undefined;
  await emailDigestNotice(message, count, page, at);
}

/** Sends one due email and moves its letters on (a letter found blocked at its claim too). */
export async function deliverAndFollow(id: string, sender: MailSender, now: () => Date = () => new Date()): Promise<Delivery | undefined> {
  const delivery = await deliverEmail(id, sender, now);
  if (delivery) {
    await afterDelivery(delivery.email, delivery.state, now(), delivery.result?.detail);
    // A provider's report that came before the send was recorded was applied with it: follow it too.
    const after = await readEmail(id);
    if (after && after.state !== delivery.state) await afterDelivery(after, after.state, now(), after.lastError ?? '');
    return delivery;
  }
  const email = await readEmail(id);
  if (email && (email.kind === 'school_letter' || email.kind === 'school_digest') && email.state === 'suppressed')
    await afterDelivery(email, 'suppressed', now());
  return undefined;
}

/** A digest's id: its school contact and the clock hour it is gathered in, so one hour makes one digest at most. */
const digestId = (recipientKey: string, now: Date) => `dg-${recipientKey.slice(0, 20)}-${now.toISOString().slice(0, 13).replace(/\D/g, '')}`;

/**
 * Puts together, per school contact, the letters on record that wait for the same window
 * (SCHOOL_DELIVERY=digest): two or more due letters become one digest. The letters are claimed in
 * one statement (locked, skipping any another run holds), which also writes the digest as
 * `preparing` under its hour's id, so two runs at once never make two digests of one letter; its
 * words are written after (`prepareDigest`), and a run that died between is finished by the next.
 */
export async function gatherDigests(now = new Date()): Promise<number> {
  if (serverEnv.schoolDelivery !== 'digest') return 0;
  const groups = await query<{ school_key: string; recipient_key: string; recipient: string; school_window: SchoolWindow | null }>(sql`
    SELECT e.school_key, e.recipient_key, min(e.recipient) AS recipient, (array_agg(e.school_window))[1] AS school_window
    FROM emails e JOIN outbox_messages o ON o.id = e.ref
    JOIN school_addresses a ON a.address = lower(trim(o.record->>'to')) AND a.school_id = o.school_id
    WHERE e.kind = 'school_letter' AND e.state = 'scheduled' AND e.next_attempt_at <= ${now} AND e.erased_at IS NULL AND e.school_key IS NOT NULL
    GROUP BY e.school_key, e.recipient_key HAVING count(*) >= 2 LIMIT 50`);
  let made = 0;
  for (const group of groups) {
    const id = digestId(group.recipient_key, now);
    const claimed = await query<{ id: string }>(sql`
      WITH candidates AS (
        SELECT e.id FROM emails e JOIN outbox_messages o ON o.id = e.ref
        JOIN school_addresses a ON a.address = lower(trim(o.record->>'to')) AND a.school_id = o.school_id
        WHERE e.kind = 'school_letter' AND e.state = 'scheduled' AND e.next_attempt_at <= ${now} AND e.erased_at IS NULL
          AND e.school_key = ${group.school_key} AND e.recipient_key = ${group.recipient_key}
        ORDER BY e.id
        FOR UPDATE OF e SKIP LOCKED
      ), digest AS (
        INSERT INTO emails (id, kind, recipient, recipient_key, mailbox_key, essential, state, not_before, next_attempt_at, ref, content, created_at, updated_at, school_key, school_window)
        SELECT ${id}, 'school_digest', ${group.recipient}, ${group.recipient_key}, ${mailboxKey(group.recipient)}, false, 'preparing', ${now}, ${now},
               ${`digest:${group.recipient_key}`}, NULL, ${now}, ${now}, ${group.school_key}, ${group.school_window ? JSON.stringify(group.school_window) : null}::jsonb
        WHERE (SELECT count(*) FROM candidates) >= 2
        ON CONFLICT (id) DO NOTHING
        RETURNING id
      )
      UPDATE emails SET state = 'digested', digest_id = (SELECT id FROM digest), updated_at = ${now}
      WHERE id IN (SELECT id FROM candidates) AND EXISTS (SELECT 1 FROM digest)
      RETURNING id`);
    if (claimed.length < 2) continue;
    if (await prepareDigest(id, now)) made++;
  }
  return made;
}

/**
 * Writes a prepared digest's words from the letters it claimed and schedules it: how many parents
 * wrote and how that changed, and each letter whole with a link that replies to its parent.
 */
export async function prepareDigest(id: string, now = new Date()): Promise<boolean> {
  const letters = (
    await query<{ ref: string }>(sql`SELECT ref FROM emails WHERE digest_id = ${id} AND state = 'digested' AND ref IS NOT NULL ORDER BY id`)
  ).map((row) => row.ref);
  const messages = (await Promise.all(letters.map(readMessage))).flatMap((found) => (found ? [found.message] : []));
  if (messages.length === 0) {
    await query(sql`UPDATE emails SET state = 'withdrawn', updated_at = ${now} WHERE id = ${id} AND state = 'preparing'`);
    return false;
  }
  const place = await schoolOfLetter(messages[0]!);
  const school = place.onRecord && place.school ? place.school.name : 'your school';
  const before = await queryOne<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM emails WHERE recipient_key = ${exactAddressKey(messages[0]!.to)} AND kind = 'school_letter'
      AND (state IN ('sent', 'delivered') OR (state = 'digested' AND digest_id <> ${id} AND digest_id IN (SELECT id FROM emails WHERE state IN ('sent', 'delivered'))))`);
  const earlier = before?.n ?? 0;
  const change =
    earlier === 0
      ? `These are the first letters parents of ${school} have sent you through us.`
      : `With these, ${earlier + messages.length} parents of ${school} have now written to you.`;
  const rendered = await composeDigest({
    school,
    change,
    letters: messages.map((message) => ({
      parentName: message.parentName,
      subject: message.subject,
      body: message.body,
      replyUrl: `mailto:${message.parentEmail}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`,
    })),
  });
  const row = await queryOne(sql`
    UPDATE emails SET content = ${{ subject: rendered.subject, text: rendered.text, html: rendered.html, from: organisationSender(), lang: 'en' }}, state = 'scheduled', updated_at = ${now}
    WHERE id = ${id} AND state = 'preparing' RETURNING 1`);
  return row !== undefined;
}

/**
 * Gives each request nobody confirmed for a day its one reminder, within the allowance of the
 * network that asked. The reminder has its own id: of two runs at once, one writes it.
 */
export async function sendReminders(now = new Date()): Promise<number> {
  let sent = 0;
  for (const id of await dueReminders(now)) {
    const found = await readMessage(id);
    if (found?.message.status !== 'awaiting_confirmation' || found.message.confirmation?.reminder) continue;
    const reminder = await emailConfirmation(found.message, 'reminder', now);
    await updateMessage(id, (current) =>
      current.status === 'awaiting_confirmation' && current.confirmation && !current.confirmation.reminder
        ? { ...current, confirmation: { ...current.confirmation, reminder } }
        : undefined,
    );
    if (reminder === 'queued') sent++;
  }
  return sent;
}

/**
 * Settles what a run or a request that died part-way left: letters whose email moved on without
 * them, letters that went but are not counted yet, dead ends not told yet, digests left preparing,
 * digests withdrawn before they went (their letters wait again), and requests whose confirmation
 * email was never written (a request whose draft never took it was answered with an error: it ends).
 */
export async function settleLeftovers(now = new Date()): Promise<number> {
  let settled = 0;
  const letters = await query<{ id: string; state: EmailState; last_error: string | null; at: Date; digest: boolean }>(sql`
    SELECT o.id, CASE WHEN e.state = 'digested' THEN d.state ELSE e.state END AS state, e.last_error,
           coalesce(e.sent_at, d.sent_at, e.updated_at) AS at, e.state = 'digested' AS digest
    FROM outbox_messages o JOIN emails e ON e.id = o.id AND e.kind = 'school_letter' LEFT JOIN emails d ON d.id = e.digest_id
    WHERE o.channel = 'platform' AND o.erased_at IS NULL AND (
      (o.status IN ('queued', 'awaiting_confirmation') AND (e.state IN ('sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'withdrawn')
        OR (e.state = 'digested' AND d.state IN ('sent', 'delivered', 'bounced', 'complained', 'failed'))))
      OR (o.status = 'sent' AND (e.state IN ('delivered', 'bounced') OR (e.state = 'digested' AND d.state IN ('delivered', 'bounced')))))
    LIMIT 200`);
  for (const letter of letters) {
    const moved = await follow(letter.id, { state: letter.state, lastError: letter.last_error }, letter.at);
    if (moved) await afterMove(moved, letter.at, letter.digest ? { count: 1 } : undefined);
    settled++;
  }
  const uncounted = await query<{ id: string }>(sql`
    SELECT o.id FROM outbox_messages o
    JOIN school_addresses a ON a.address = lower(trim(o.record->>'to'))
    JOIN schools s ON s.id = a.school_id AND s.status = 'verified'
    WHERE o.status IN ('sent', 'delivered') AND o.channel = 'platform' AND o.erased_at IS NULL AND o.sent_at > ${new Date(now.getTime() - 30 * 24 * 3600_000)}
      AND NOT EXISTS (SELECT 1 FROM impact_sends i WHERE i.message_id = o.id)
      AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.message_id = o.id AND r.reason = 'own_domain')
    ORDER BY o.id LIMIT 200`);
  for (const { id } of uncounted) {
    const found = await readMessage(id);
    if (!found) continue;
    await countLetter(found.message, new Date(found.message.sentAt ?? now));
    settled++;
  }
  settled += await tellUntold(now);
  const preparing = await query<{ id: string }>(sql`
    SELECT id FROM emails WHERE state = 'preparing' AND kind = 'school_digest' AND updated_at < ${new Date(now.getTime() - 60_000)} ORDER BY id LIMIT 20`);
  for (const { id } of preparing) if (await prepareDigest(id, now)) settled++;
  settled += await releaseWithdrawnDigests(now);
  const unsent = await query<{ id: string }>(sql`
    SELECT id FROM outbox_messages
    WHERE status = 'awaiting_confirmation' AND channel = 'platform' AND erased_at IS NULL AND created_at < ${new Date(now.getTime() - 60_000)}
      AND record->'confirmation'->>'email' IS NULL AND NOT EXISTS (SELECT 1 FROM emails e WHERE e.ref = outbox_messages.id AND e.kind = 'confirmation')
    ORDER BY id LIMIT 200`);
  for (const { id } of unsent) {
    const found = await readMessage(id);
    if (!found) continue;
    if ((await readDraft(found.message.draftId))?.draft.messageId !== id) {
      // The request was answered with an error; another request made the parent's letter.
      await withdraw(id, 'request_failed', now);
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
  unknown: number;
  notConfigured?: true;
}

/**
 * One scheduled run of the mail layer (every minute; the only function that runs it): expiries,
 * what a dead run left, reminders, digests, then every due email.
 */
export async function runMail(now: () => Date = () => new Date(), sender: MailSender | null = mailSender()): Promise<RunSummary> {
  const summary: RunSummary = { expired: 0, reminders: 0, digests: 0, sent: 0, waiting: 0, bounced: 0, failed: 0, unknown: 0 };
  summary.expired = (await expireRequests(now())).length;
  for (const message of await expireLetters(now())) {
    await afterMove(message, now());
    summary.expired++;
  }
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
    else if (delivery.state === 'unknown') summary.unknown++;
    else summary.waiting++;
  }
  return summary;
}

/** "24 November 2026": the day a letter went, as pages say it. */
export const sentDay = (message: Pick<OutboxMessage, 'sentAt' | 'createdAt'>) => dayInWords(message.sentAt ?? message.createdAt);
