/**
 * The mail layer's store: every email the site sends is a row of `emails` (migration 0014), written
 * before anything is sent and moved through its life (states.ts) by this module only.
 *
 * - **Budgets.** An email a person's action causes takes one of the day's emails of its mailbox for
 *   its purpose, from the network that asked (`email_budgets`, a CHECK keeps the cap): a stranger
 *   who types someone's address spends only their own network's allowance, and data links never
 *   starve a confirmation. Taken in the same statement that writes the email, so a refused email
 *   takes nothing and an email written twice (a retried request) takes once.
 * - **Suppression.** An address that bounced gets nothing more; one that complained gets only what
 *   it asks for (essential emails). Checked when an email is written and again, in the same
 *   statement, when a run claims it for sending, so a report that arrives meanwhile still stops it.
 * - **Exactly once.** A run claims an email (scheduled → sending, with a lease) before it calls
 *   the sender, with the email id as the provider's idempotency key; an email whose run died is
 *   claimed again after its lease and sent with the same id.
 */
import { query, queryOne, isCheckViolation, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress, mailboxKey } from '../identity';
import { recordKey } from '../ids';
import type { MailSender, OutgoingEmail, SendResult } from './senders';
import { kindRules, type EmailKind, type EmailState } from './states';

/** Tries a waiting email gets before it fails. */
export const MAX_MAIL_ATTEMPTS = 8;
/** How long one run holds an email it is sending. */
const LEASE_MS = 2 * 60_000;
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 3600_000;
/** Emails are deleted this long after they were sent (or, never sent, after they were made). */
export const EMAIL_RETENTION_MS = 90 * 24 * 3600_000;

/** What an email says and who it is from: stored whole, sent as stored. */
export interface EmailContent {
  subject: string;
  text: string;
  html?: string;
  from: { name?: string; address: string };
  replyTo?: { name?: string; address: string };
  unsubscribeUrl?: string;
  lang?: string;
}

export interface StoredEmail {
  id: string;
  kind: EmailKind;
  recipient: string | null;
  recipientKey: string;
  state: EmailState;
  essential: boolean;
  notBefore: string;
  nextAttemptAt: string;
  attempts: number;
  ref: string | null;
  digestId: string | null;
  content: EmailContent | null;
  sender: string | null;
  providerStatus: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
}

interface EmailRow {
  id: string;
  kind: EmailKind;
  recipient: string | null;
  recipient_key: string;
  state: EmailState;
  essential: boolean;
  not_before: Date;
  next_attempt_at: Date;
  attempts: number;
  ref: string | null;
  digest_id: string | null;
  content: EmailContent | null;
  sender: string | null;
  provider_status: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
}

const toEmail = (row: EmailRow): StoredEmail => ({
  id: row.id,
  kind: row.kind,
  recipient: row.recipient,
  recipientKey: row.recipient_key,
  state: row.state,
  essential: row.essential,
  notBefore: row.not_before.toISOString(),
  nextAttemptAt: row.next_attempt_at.toISOString(),
  attempts: row.attempts,
  ref: row.ref,
  digestId: row.digest_id,
  content: row.content,
  sender: row.sender,
  providerStatus: row.provider_status,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  sentAt: row.sent_at?.toISOString() ?? null,
});

const columns = sql`id, kind, recipient, recipient_key, state, essential, not_before, next_attempt_at, attempts, ref, digest_id, content, sender, provider_status, last_error, created_at, updated_at, sent_at`;
const day = (now: Date) => now.toISOString().slice(0, 10);

export function newEmailId(now = new Date()): string {
  return recordKey(now);
}

export interface NewEmail {
  /** Given when the caller must find it again or a repeat must write it once (a retried request). */
  id?: string;
  kind: EmailKind;
  to: string;
  content: EmailContent;
  /** Not before this time (a school's hours); at once when not given. */
  notBefore?: Date;
  /** What the email is about: an outbox message, an invitation… */
  ref?: string;
  /** The network that asked (`networkKey`), or 'system' for emails nobody asked for just now. */
  network?: string;
}

export type Enqueued = { id: string; state: 'scheduled' | 'suppressed' } | { id: string; state: 'over_budget' } | { id: string; state: 'exists' };

/**
 * Writes an email to be sent: one statement that takes its day's allowance (unless the mailbox is
 * suppressed, when it is written as suppressed and takes nothing) and writes it. Over the
 * allowance, nothing is written. The same id again changes nothing.
 */
export async function enqueueEmail(input: NewEmail, now = new Date()): Promise<Enqueued> {
  const id = input.id ?? newEmailId(now);
  const rules = kindRules[input.kind];
  const key = mailboxKey(input.to);
  const purpose = rules.purpose ?? null;
  const network = input.network ?? 'system';
  const notBefore = input.notBefore && input.notBefore > now ? input.notBefore : now;
  try {
    const row = await queryOne<{ state: 'scheduled' | 'suppressed' }>(sql`
      WITH existing AS (
        SELECT 1 FROM emails WHERE id = ${id}
      ), suppressed AS (
        SELECT 1 FROM email_suppressions WHERE recipient_key = ${key} AND (reason = 'bounced' OR NOT ${rules.essential}::boolean)
      ), budget AS (
        INSERT INTO email_budgets AS b (recipient_key, purpose, network, day, emails, cap)
        SELECT ${key}, ${purpose}::text, ${network}, ${day(now)}, 1, ${serverEnv.mailDailyPerPurpose}
        WHERE ${purpose}::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM suppressed)
        ON CONFLICT (recipient_key, purpose, network, day) DO UPDATE SET emails = b.emails + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO emails (id, kind, recipient, recipient_key, essential, state, not_before, next_attempt_at, ref, content, created_at, updated_at)
      SELECT ${id}, ${input.kind}, ${input.to.trim()}, ${key}, ${rules.essential}, CASE WHEN EXISTS (SELECT 1 FROM suppressed) THEN 'suppressed' ELSE 'scheduled' END,
             ${notBefore}, ${notBefore}, ${input.ref ?? null}, ${input.content}, ${now}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM existing) AND (${purpose}::text IS NULL OR EXISTS (SELECT 1 FROM budget) OR EXISTS (SELECT 1 FROM suppressed))
      RETURNING state`);
    return row ? { id, state: row.state } : { id, state: 'exists' };
  } catch (error) {
    if (isCheckViolation(error, 'email_budgets_within_cap')) return { id, state: 'over_budget' };
    throw error;
  }
}

export async function readEmail(id: string): Promise<StoredEmail | undefined> {
  const row = await queryOne<EmailRow>(sql`SELECT ${columns} FROM emails WHERE id = ${id}`);
  return row && toEmail(row);
}

/** The emails about one thing (an outbox message…), oldest first. */
export async function emailsAbout(ref: string): Promise<StoredEmail[]> {
  const rows = await query<EmailRow>(sql`SELECT ${columns} FROM emails WHERE ref = ${ref} ORDER BY created_at, id LIMIT 100`);
  return rows.map(toEmail);
}

/** What became of the emails about several things (for the admin's lists), by what they are about. */
export async function emailsAboutMany(refs: string[]): Promise<Map<string, Pick<StoredEmail, 'id' | 'kind' | 'state' | 'notBefore' | 'sentAt' | 'lastError'>[]>> {
  const byRef = new Map<string, Pick<StoredEmail, 'id' | 'kind' | 'state' | 'notBefore' | 'sentAt' | 'lastError'>[]>();
  if (refs.length === 0) return byRef;
  const rows = await query<{ ref: string; id: string; kind: EmailKind; state: EmailState; not_before: Date; sent_at: Date | null; last_error: string | null }>(sql`
    SELECT ref, id, kind, state, not_before, sent_at, last_error FROM emails WHERE ref = ANY(${refs}::text[]) ORDER BY created_at, id`);
  for (const row of rows) {
    const list = byRef.get(row.ref) ?? [];
    list.push({ id: row.id, kind: row.kind, state: row.state, notBefore: row.not_before.toISOString(), sentAt: row.sent_at?.toISOString() ?? null, lastError: row.last_error });
    byRef.set(row.ref, list);
  }
  return byRef;
}

/** Sends a failed email again (staff retried its letter): scheduled now, its tries counted anew. */
export async function retryEmail(id: string, now = new Date()): Promise<boolean> {
  const row = await queryOne(sql`
    UPDATE emails SET state = 'scheduled', attempts = 0, next_attempt_at = ${now}, not_before = least(not_before, ${now}), last_error = NULL, updated_at = ${now}
    WHERE id = ${id} AND state = 'failed' RETURNING 1`);
  return row !== undefined;
}

/** The waiting emails whose time has come (or whose run died), soonest first. */
export async function dueEmailIds(now = new Date(), limit = 200): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM emails
    WHERE ((state = 'scheduled' AND next_attempt_at <= ${now}) OR (state = 'sending' AND lease_until <= ${now})) AND erased_at IS NULL
    ORDER BY next_attempt_at, id LIMIT ${limit}`);
  return rows.map((row) => row.id);
}

/**
 * Claims a due email for one run (scheduled → sending, or a dead run's sending again), unless its
 * address was suppressed meanwhile: one statement, so a suppression recorded before it is never
 * sent past. Undefined when it is not due, taken by another run, or suppressed (then marked so).
 */
export async function claimEmail(id: string, now = new Date()): Promise<StoredEmail | undefined> {
  const row = await queryOne<EmailRow>(sql`
    UPDATE emails SET state = 'sending', attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}, updated_at = ${now}
    WHERE id = ${id} AND erased_at IS NULL
      AND ((state = 'scheduled' AND next_attempt_at <= ${now}) OR (state = 'sending' AND lease_until <= ${now}))
      AND NOT EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND (s.reason = 'bounced' OR NOT emails.essential))
    RETURNING ${columns}`);
  if (row) return toEmail(row);
  await query(sql`
    UPDATE emails SET state = 'suppressed', lease_until = NULL, updated_at = ${now}
    WHERE id = ${id} AND state IN ('scheduled', 'sending')
      AND EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND (s.reason = 'bounced' OR NOT emails.essential))`);
  return undefined;
}

const retryAt = (now: Date, attempts: number) => new Date(now.getTime() + Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS));

const masked = (address: string) => {
  const at = address.lastIndexOf('@');
  return at <= 0 ? '•••' : `${address.slice(0, 1)}•••${address.slice(at)}`;
};
/** The same masking in SQL, of a `recipient` column (an erased one is all dots). */
const maskedSql = sql`coalesce(left(recipient, 1) || '•••' || substr(recipient, strpos(recipient, '@')), '•••')`;

/**
 * Records what the sender said about an email this run claimed: sent; to be tried again (until
 * MAX_MAIL_ATTEMPTS); refused for good; or bounced, when its address is suppressed in the same
 * statement. Only the run that holds it records it.
 */
export async function recordSendResult(email: StoredEmail, sender: MailSender['kind'], result: SendResult, now = new Date()): Promise<EmailState> {
  const status = result.providerStatus.slice(0, 100);
  const detail = result.detail.slice(0, 200);
  if (result.outcome === 'sent' || result.outcome === 'queued') {
    await query(sql`
      UPDATE emails SET state = 'sent', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = NULL, updated_at = ${now}
      WHERE id = ${email.id} AND state = 'sending'`);
    return 'sent';
  }
  if (result.outcome === 'bounced') {
    await query(sql`
      WITH bounced AS (
        UPDATE emails SET state = 'bounced', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail}, updated_at = ${now}
        WHERE id = ${email.id} AND state = 'sending' RETURNING recipient_key
      )
      INSERT INTO email_suppressions (recipient_key, reason, masked, email_id, detail, created_at)
      SELECT recipient_key, 'bounced', ${masked(email.recipient ?? '')}, ${email.id}, ${detail}, ${now} FROM bounced
      ON CONFLICT (recipient_key) DO UPDATE SET reason = 'bounced', email_id = EXCLUDED.email_id, detail = EXCLUDED.detail`);
    return 'bounced';
  }
  const again = result.outcome === 'retry' && email.attempts < MAX_MAIL_ATTEMPTS;
  const state: EmailState = again ? 'scheduled' : 'failed';
  await query(sql`
    UPDATE emails SET state = ${state}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail},
      next_attempt_at = ${again ? retryAt(now, email.attempts) : now}, updated_at = ${now}
    WHERE id = ${email.id} AND state = 'sending'`);
  return state;
}

/** An email as its sender takes it: recipient and content as stored. */
export function outgoing(email: StoredEmail): OutgoingEmail {
  const content = email.content!;
  return {
    id: email.id,
    to: email.recipient!,
    from: content.from,
    ...(content.replyTo ? { replyTo: content.replyTo } : {}),
    subject: content.subject,
    text: content.text,
    ...(content.html ? { html: content.html } : {}),
    ...(content.unsubscribeUrl ? { unsubscribeUrl: content.unsubscribeUrl } : {}),
    ...(content.lang ? { lang: content.lang } : {}),
  };
}

export interface Delivery {
  email: StoredEmail;
  state: EmailState;
  result?: SendResult;
}

/**
 * One try at one email: claimed, sent whole with its id, recorded. Undefined when it was not this
 * run's to send (not due, another run's, suppressed).
 */
export async function deliverEmail(id: string, sender: MailSender, now: () => Date = () => new Date()): Promise<Delivery | undefined> {
  const email = await claimEmail(id, now());
  if (!email) return undefined;
  const result = await sender.send(outgoing(email));
  const state = await recordSendResult(email, sender.kind, result, now());
  return { email, state, result };
}

/** Withdraws the waiting emails about `ref` (of the given kinds, or all): they will not be sent. Returns how many. */
export async function withdrawEmailsAbout(ref: string, kinds?: EmailKind[], now = new Date()): Promise<number> {
  const rows = await query(sql`
    UPDATE emails SET state = 'withdrawn', lease_until = NULL, updated_at = ${now}
    WHERE ref = ${ref} AND state = 'scheduled' AND (${kinds ?? null}::text[] IS NULL OR kind = ANY(${kinds ?? null}::text[]))
    RETURNING 1`);
  return rows.length;
}

export type ProviderEvent = 'delivered' | 'bounced' | 'complained';

/**
 * A provider's signed report about an email it took: delivered, bounced (the address is suppressed)
 * or complained (suppressed for all but essential emails, and every waiting non-essential email to
 * it withdrawn at once). One statement; a report about an email in a state it cannot move from (a
 * late "delivered" after a bounce) changes nothing. Undefined for an unknown email.
 */
export async function recordProviderEvent(id: string, event: ProviderEvent, detail: string, now = new Date()): Promise<{ email: StoredEmail; changed: boolean } | undefined> {
  const from: EmailState[] = event === 'delivered' ? ['sent'] : ['sent', 'delivered'];
  const row = await queryOne<{ changed: boolean }>(sql`
    WITH moved AS (
      UPDATE emails SET state = ${event}, provider_status = ${event}, last_error = ${event === 'delivered' ? null : detail.slice(0, 200)}, updated_at = ${now}
      WHERE id = ${id} AND state = ANY(${from}::text[])
      RETURNING recipient_key, recipient
    ), suppressed AS (
      INSERT INTO email_suppressions (recipient_key, reason, masked, email_id, detail, created_at)
      SELECT recipient_key, ${event}, ${maskedSql}, ${id}, ${detail.slice(0, 200)}, ${now} FROM moved WHERE ${event} <> 'delivered'
      ON CONFLICT (recipient_key) DO UPDATE SET reason = CASE WHEN email_suppressions.reason = 'bounced' THEN 'bounced' ELSE EXCLUDED.reason END
      RETURNING recipient_key
    ), stopped AS (
      UPDATE emails SET state = 'withdrawn', lease_until = NULL, updated_at = ${now}
      WHERE recipient_key IN (SELECT recipient_key FROM suppressed) AND state = 'scheduled' AND id <> ${id}
        AND (${event} = 'bounced' OR NOT essential)
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM moved) AS changed`);
  const email = await readEmail(id);
  return email && { email, changed: Boolean(row?.changed) };
}

/** Whether an address may get an email of this kind (nothing suppresses it). */
export async function addressSuppressed(address: string, kind: EmailKind): Promise<'bounced' | 'complained' | undefined> {
  const row = await queryOne<{ reason: 'bounced' | 'complained' }>(sql`SELECT reason FROM email_suppressions WHERE recipient_key = ${mailboxKey(address)}`);
  if (!row) return undefined;
  return row.reason === 'bounced' || !kindRules[kind].essential ? row.reason : undefined;
}

/**
 * The statement that forgets the addresses and words of every email to one mailbox and of every
 * email about the given messages (a parent's data deletion): waiting ones are withdrawn, all are
 * emptied. A fragment ending in its WHERE, for the deletion's one statement to extend and run.
 */
export function erasedEmails(mailbox: string, refs: string[], now: Date) {
  return sql`
    UPDATE emails SET recipient = NULL, content = NULL, erased_at = ${now}, updated_at = ${now}, lease_until = NULL,
      state = CASE WHEN state IN ('scheduled', 'sending') THEN 'withdrawn' ELSE state END
    WHERE (recipient_key = ${mailbox} OR ref = ANY(${refs}::text[])) AND erased_at IS NULL`;
}

/** Deletes emails settled before `before` (by when they were sent, else made), and old counters. */
export async function purgeEmails(before: Date, now = new Date()): Promise<number> {
  const emails = await query(sql`
    DELETE FROM emails WHERE state NOT IN ('scheduled', 'sending') AND coalesce(sent_at, created_at) < ${before} RETURNING 1`);
  await query(sql`DELETE FROM email_budgets WHERE day < ${day(new Date(now.getTime() - 2 * 24 * 3600_000))}`);
  await query(sql`DELETE FROM school_delivery_hours WHERE hour < ${new Date(now.getTime() - 2 * 24 * 3600_000)}`);
  await query(sql`DELETE FROM mail_event_tokens WHERE created_at < ${new Date(now.getTime() - 2 * 24 * 3600_000)}`);
  return emails.length;
}

/** Every email, newest first, a page at a time (keyset on the id), for the admin page. */
export async function listEmails(limit: number, cursor?: string): Promise<{ emails: StoredEmail[]; nextCursor?: string }> {
  const rows = await query<EmailRow>(sql`
    SELECT ${columns} FROM emails WHERE (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text) ORDER BY id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit).map(toEmail);
  return { emails: page, ...(rows.length > limit ? { nextCursor: page.at(-1)!.id } : {}) };
}

/** The suppressed addresses (masked), newest first: bounced schools for staff to act on. */
export async function listSuppressions(limit = 100): Promise<{ masked: string; reason: 'bounced' | 'complained'; detail: string | null; createdAt: string }[]> {
  const rows = await query<{ masked: string; reason: 'bounced' | 'complained'; detail: string | null; created_at: Date }>(sql`
    SELECT masked, reason, detail, created_at FROM email_suppressions ORDER BY created_at DESC LIMIT ${limit}`);
  return rows.map((row) => ({ masked: row.masked, reason: row.reason, detail: row.detail, createdAt: row.created_at.toISOString() }));
}

/** Whether two addresses reach the same mailbox. */
export const sameMailbox = (a: string, b: string) => canonicalAddress(a) === canonicalAddress(b);
