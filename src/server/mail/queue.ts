/**
 * The mail layer's store: every email the site sends is a row of `emails` (migrations 0014, 0032),
 * written before anything is sent and moved through its life (states.ts) by this module only.
 *
 * - **Allowances.** An email a person's action causes takes one of the day's emails of its mailbox
 *   for its purpose, from the network that asked (`email_budgets`), and one of the mailbox's day in
 *   all (`recipient_days`, MAIL_DAILY_PER_RECIPIENT): a stranger who types someone's address spends
 *   only their own network's allowance, and however many networks ask, the mailbox gets a bounded
 *   number of emails a day. Taken in the statement that writes the email (the day it is to go), so a
 *   refused email takes nothing and an email written twice (a retried request) takes once.
 * - **Suppression fits its cause.** Only a mailbox reported not to exist (or a complaint) blocks an
 *   address, exactly as written (a `+tag` is another address), for MAIL_SUPPRESSION_DAYS unless a
 *   new bounce renews it; staff may lift a block. A policy or spam refusal fails that one email; a
 *   full mailbox is tried again later. Checked when an email is written and again, in the same
 *   statement, when a run claims it.
 * - **Exactly once.** A run claims an email (scheduled → sending, with a lease) before it calls the
 *   sender, with the email id as the provider's idempotency key. An email whose outcome is unknown
 *   (the connection ended after the message was handed over) is never resent blindly: a provider's
 *   report settles it, or staff decide. A report that comes before the email is recorded waits.
 * - **A school's hours, at every claim.** A letter or digest is claimed only while its school is
 *   open, and takes a place in that clock hour's maximum (SCHOOL_HOURLY_LIMIT, a CHECK) unless it
 *   already holds one: retries, reclaimed sends and a backlog after an outage wait for the next
 *   open place, never going at night or over the maximum.
 */
import { isCheckViolation, isUniqueViolation, query, queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress, exactAddress, exactAddressKey, mailboxKey } from '../identity';
import { recordKey } from '../ids';
import type { MailSender, OutgoingEmail, SendResult } from './senders';
import { kindRules, type EmailKind, type EmailState } from './states';
import { hourOf, isOpen, nextOpening, openHours, type SchoolWindow } from './window';

/** Tries a waiting email gets before it fails. */
export const MAX_MAIL_ATTEMPTS = 8;
/** How long one run holds an email it is sending. */
const LEASE_MS = 2 * 60_000;
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 6 * 3600_000;
/** A full mailbox is tried again no sooner than this. */
const SOFT_BOUNCE_MS = 30 * 60_000;
/** Emails are deleted this long after they were sent (or, never sent, after they were made). */
export const EMAIL_RETENTION_MS = 90 * 24 * 3600_000;
/** A provider report about an email not recorded yet is kept this long. */
const WAITING_REPORT_MS = 2 * 24 * 3600_000;

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
  schoolKey: string | null;
  schoolWindow: SchoolWindow | null;
  slotHour: string | null;
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
  school_key: string | null;
  school_window: SchoolWindow | null;
  slot_hour: Date | null;
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
  schoolKey: row.school_key,
  schoolWindow: row.school_window,
  slotHour: row.slot_hour?.toISOString() ?? null,
});

const columns = sql`id, kind, recipient, recipient_key, state, essential, not_before, next_attempt_at, attempts, ref, digest_id, content, sender, provider_status, last_error, created_at, updated_at, sent_at, school_key, school_window, slot_hour`;
const day = (at: Date) => at.toISOString().slice(0, 10);

/** The active block of an address (exact hash) for an email that is or is not essential, as a condition on `s`. */
const activeBlock = (now: Date, essential: ReturnType<typeof sql>) =>
  sql`s.lifted_at IS NULL AND s.expires_at > ${now} AND (s.reason = 'bounced' OR NOT ${essential})`;

export function newEmailId(now = new Date()): string {
  return recordKey(now);
}

/** Where a letter or digest goes: its school's key, its hours, and the clock hour it holds a place in. */
export interface SchoolSlot {
  key: string;
  window: SchoolWindow;
  hour?: Date;
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
  /** For a letter or digest: the school it goes to. */
  school?: SchoolSlot;
  /** An email that gathers others of its kind while it waits (see `enqueueCoalesced`). */
  coalesceKey?: string;
}

export type Enqueued =
  | { id: string; state: 'scheduled' | 'suppressed' }
  | { id: string; state: 'over_budget' }
  | { id: string; state: 'over_ceiling' }
  | { id: string; state: 'exists' };

/**
 * Writes an email to be sent: one statement that takes its day's allowances (unless the address is
 * blocked, when it is written as suppressed and takes nothing) and writes it. Over an allowance,
 * nothing is written. The same id again changes nothing.
 */
export async function enqueueEmail(input: NewEmail, now = new Date()): Promise<Enqueued> {
  const id = input.id ?? newEmailId(now);
  const rules = kindRules[input.kind];
  const key = exactAddressKey(input.to);
  const mailbox = mailboxKey(input.to);
  const purpose = rules.purpose ?? null;
  const network = input.network ?? 'system';
  const notBefore = input.notBefore && input.notBefore > now ? input.notBefore : now;
  const allowanceDay = day(notBefore);
  try {
    const row = await queryOne<{ state: 'scheduled' | 'suppressed' }>(sql`
      WITH existing AS (
        SELECT 1 FROM emails WHERE id = ${id}
      ), suppressed AS (
        SELECT 1 FROM email_suppressions s WHERE s.recipient_key = ${key} AND ${activeBlock(now, sql`${rules.essential}::boolean`)}
      ), budget AS (
        INSERT INTO email_budgets AS b (recipient_key, purpose, network, day, emails, cap)
        SELECT ${mailbox}, ${purpose}::text, ${network}, ${allowanceDay}, 1, ${serverEnv.mailDailyPerPurpose}
        WHERE ${purpose}::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM suppressed)
        ON CONFLICT (recipient_key, purpose, network, day) DO UPDATE SET emails = b.emails + 1, cap = EXCLUDED.cap
        RETURNING 1
      ), ceiling AS (
        INSERT INTO recipient_days AS r (mailbox_key, day, emails, cap)
        SELECT ${mailbox}, ${allowanceDay}, 1, ${serverEnv.mailDailyPerRecipient}
        WHERE ${purpose}::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM suppressed)
        ON CONFLICT (mailbox_key, day) DO UPDATE SET emails = r.emails + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO emails (id, kind, recipient, recipient_key, mailbox_key, essential, state, not_before, next_attempt_at, ref, content, created_at, updated_at, school_key, school_window, slot_hour, coalesce_key)
      SELECT ${id}, ${input.kind}, ${input.to.trim()}, ${key}, ${mailbox}, ${rules.essential}, CASE WHEN EXISTS (SELECT 1 FROM suppressed) THEN 'suppressed' ELSE 'scheduled' END,
             ${notBefore}, ${notBefore}, ${input.ref ?? null}, ${input.content}, ${now}, ${now},
             ${input.school?.key ?? null}, ${input.school ? JSON.stringify(input.school.window) : null}::jsonb, ${input.school?.hour ?? null}, ${input.coalesceKey ?? null}
      WHERE NOT EXISTS (SELECT 1 FROM existing) AND (${purpose}::text IS NULL OR (EXISTS (SELECT 1 FROM budget) AND EXISTS (SELECT 1 FROM ceiling)) OR EXISTS (SELECT 1 FROM suppressed))
      RETURNING state`);
    return row ? { id, state: row.state } : { id, state: 'exists' };
  } catch (error) {
    // Two writers of one id at once (runs writing the same reminder): both saw no row; the one whose
    // insert lost is rolled back whole, allowances included. It is written once: the other's.
    if (isUniqueViolation(error, 'emails_pkey')) return { id, state: 'exists' };
    if (isCheckViolation(error, 'email_budgets_within_cap')) return { id, state: 'over_budget' };
    if (isCheckViolation(error, 'recipient_days_within_cap')) return { id, state: 'over_ceiling' };
    throw error;
  }
}

/**
 * An email that gathers what waits while it waits: the one email scheduled under `coalesceKey` gets
 * `content` (it now says everything that waits), or, when there is none, one is written to go at
 * `notBefore`, taking that day's allowances. So a mailbox over its ceiling gets one email the next
 * day, updated as more waits, not one per request.
 */
export async function enqueueCoalesced(input: NewEmail & { coalesceKey: string; notBefore: Date }, now = new Date()): Promise<Enqueued> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const updated = await queryOne<{ id: string }>(sql`
      UPDATE emails SET content = ${input.content}, updated_at = ${now} WHERE coalesce_key = ${input.coalesceKey} AND state = 'scheduled' RETURNING id`);
    if (updated) return { id: updated.id, state: 'scheduled' };
    try {
      return await enqueueEmail(input, now);
    } catch (error) {
      // Another request wrote the gathering email meanwhile: update that one.
      if (!isUniqueViolation(error, 'emails_coalescing')) throw error;
    }
  }
  throw new Error(`mail: ${input.coalesceKey} kept changing`);
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
export async function emailsAboutMany(
  refs: string[],
): Promise<Map<string, Pick<StoredEmail, 'id' | 'kind' | 'state' | 'notBefore' | 'sentAt' | 'lastError'>[]>> {
  const byRef = new Map<string, Pick<StoredEmail, 'id' | 'kind' | 'state' | 'notBefore' | 'sentAt' | 'lastError'>[]>();
  if (refs.length === 0) return byRef;
  const rows = await query<{
    ref: string;
    id: string;
    kind: EmailKind;
    state: EmailState;
    not_before: Date;
    sent_at: Date | null;
    last_error: string | null;
  }>(sql`
    SELECT ref, id, kind, state, not_before, sent_at, last_error FROM emails WHERE ref = ANY(${refs}::text[]) ORDER BY created_at, id`);
  for (const row of rows) {
    const list = byRef.get(row.ref) ?? [];
    list.push({
      id: row.id,
      kind: row.kind,
      state: row.state,
      notBefore: row.not_before.toISOString(),
      sentAt: row.sent_at?.toISOString() ?? null,
      lastError: row.last_error,
    });
    byRef.set(row.ref, list);
  }
  return byRef;
}

/**
 * Sends a failed email again (staff retried its letter): scheduled now, its tries counted anew. A
 * letter keeps its school's hours and hourly maximum: it is claimed only when a place is open.
 */
export async function retryEmail(id: string, now = new Date()): Promise<boolean> {
  const row = await queryOne(sql`
    UPDATE emails SET state = 'scheduled', attempts = 0, next_attempt_at = ${now}, not_before = least(not_before, ${now}), last_error = NULL, slot_hour = NULL, updated_at = ${now}
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

/** An email that must wait for another time (its school closed, its hour full): it keeps its state. */
async function postpone(id: string, until: Date, now: Date): Promise<void> {
  await query(
    sql`UPDATE emails SET next_attempt_at = ${until}, lease_until = NULL, updated_at = ${now} WHERE id = ${id} AND state IN ('scheduled', 'sending')`,
  );
}

/** The next clock hour of a school with a place free after `after` (a few weeks ahead at most). */
async function nextFreeHour(schoolKey: string, window: SchoolWindow, after: Date): Promise<Date> {
  const hours = openHours(after, window, 240);
  const rows = await query<{ hour: Date }>(sql`
    SELECT hour FROM school_delivery_hours WHERE school = ${schoolKey} AND hour = ANY(${hours}::timestamptz[]) AND letters >= ${serverEnv.schoolHourlyLimit}`);
  const full = new Set(rows.map((row) => row.hour.getTime()));
  const free = hours.find((hour) => !full.has(hour.getTime())) ?? nextOpening(new Date(after.getTime() + 240 * 3 * 3600_000), window);
  return new Date(Math.max(free.getTime(), nextOpening(free, window).getTime()));
}

/**
 * Claims a due email for one run (scheduled → sending, or a dead run's sending again), unless its
 * address was blocked meanwhile: one statement, so a block recorded before it is never sent past. A
 * letter or digest is claimed only while its school is open, and takes a place in the current hour
 * unless it holds one (the same statement, so two runs never take the hour's last place). Undefined
 * when it is not due, taken by another run, postponed, or suppressed (then marked so).
 */
export async function claimEmail(id: string, now = new Date()): Promise<StoredEmail | undefined> {
  const school = await queryOne<{ school_key: string | null; school_window: SchoolWindow | null; slot_hour: Date | null }>(sql`
    SELECT school_key, school_window, slot_hour FROM emails WHERE id = ${id} AND state IN ('scheduled', 'sending')`);
  let hour: Date | undefined;
  if (school?.school_key && school.school_window && serverEnv.schoolDeliveryHours === 'on') {
    const window = school.school_window;
    if (!isOpen(now, window)) {
      await postpone(id, nextOpening(now, window), now);
      return undefined;
    }
    const current = hourOf(now, window);
    if (school.slot_hour?.getTime() !== current.getTime()) hour = current;
  }
  let row: EmailRow | undefined;
  try {
    row = await queryOne<EmailRow>(sql`
      WITH claimable AS (
        -- Locked first: of two runs, the second skips it and takes no place in the hour.
        SELECT id FROM emails
        WHERE id = ${id} AND erased_at IS NULL
          AND ((state = 'scheduled' AND next_attempt_at <= ${now}) OR (state = 'sending' AND lease_until <= ${now}))
          AND NOT EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND ${activeBlock(now, sql`emails.essential`)})
        FOR UPDATE SKIP LOCKED
      ), slot AS (
        INSERT INTO school_delivery_hours AS h (school, hour, letters, cap)
        SELECT ${school?.school_key ?? null}::text, ${hour ?? null}::timestamptz, 1, ${serverEnv.schoolHourlyLimit}
        WHERE ${hour ?? null}::timestamptz IS NOT NULL AND EXISTS (SELECT 1 FROM claimable)
        ON CONFLICT (school, hour) DO UPDATE SET letters = h.letters + 1, cap = EXCLUDED.cap
        RETURNING hour
      )
      UPDATE emails SET state = 'sending', attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}, updated_at = ${now},
        slot_hour = coalesce((SELECT hour FROM slot), slot_hour)
      WHERE id IN (SELECT id FROM claimable)
      RETURNING ${columns}`);
  } catch (error) {
    if (!isCheckViolation(error, 'school_delivery_hours_within_cap')) throw error;
    // This hour's places are taken: the next open hour with a place.
    await postpone(id, await nextFreeHour(school!.school_key!, school!.school_window!, new Date(hour!.getTime() + 3600_000)), now);
    return undefined;
  }
  if (row) return toEmail(row);
  await query(sql`
    UPDATE emails SET state = 'suppressed', lease_until = NULL, updated_at = ${now},
      last_error = (SELECT 'suppressed:' || s.reason FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND ${activeBlock(now, sql`emails.essential`)} LIMIT 1)
    WHERE id = ${id} AND state IN ('scheduled', 'sending')
      AND EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND ${activeBlock(now, sql`emails.essential`)})`);
  return undefined;
}

const retryAt = (now: Date, attempts: number, least = 0) =>
  new Date(now.getTime() + Math.max(least, Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS)));

const masked = (address: string) => {
  const at = address.lastIndexOf('@');
  return at <= 0 ? '•••' : `${address.slice(0, 1)}•••${address.slice(at)}`;
};
/** The same masking in SQL, of a `recipient` column (an erased one is all dots). */
const maskedSql = sql`coalesce(left(recipient, 1) || '•••' || substr(recipient, strpos(recipient, '@')), '•••')`;

/** A block's end: MAIL_SUPPRESSION_DAYS from now. */
const blockEnds = (now: Date) => new Date(now.getTime() + serverEnv.suppressionDays * 24 * 3600_000);

/**
 * Records what the sender said about an email this run claimed: sent; to be tried again (until
 * MAX_MAIL_ATTEMPTS; a full mailbox no sooner than half an hour); refused for good (that email
 * only); bounced, when the mailbox does not exist (its address is blocked in the same statement);
 * or unknown, when the message may have been handed over before the connection ended (it waits
 * for a report or for staff, never resent blindly). Only the run that holds it records it.
 */
export async function recordSendResult(email: StoredEmail, sender: MailSender['kind'], result: SendResult, now = new Date()): Promise<EmailState> {
  const status = result.providerStatus.slice(0, 100);
  const detail = result.detail.slice(0, 200);
  let state: EmailState;
  if (result.outcome === 'sent' || result.outcome === 'queued') {
    await query(sql`
      UPDATE emails SET state = 'sent', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = NULL, updated_at = ${now}
      WHERE id = ${email.id} AND state = 'sending'`);
    state = 'sent';
  } else if (result.outcome === 'bounced') {
    await query(sql`
      WITH bounced AS (
        UPDATE emails SET state = 'bounced', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail}, updated_at = ${now}
        WHERE id = ${email.id} AND state = 'sending' RETURNING recipient_key
      )
      INSERT INTO email_suppressions (recipient_key, reason, masked, email_id, detail, created_at, expires_at)
      SELECT recipient_key, 'bounced', ${masked(email.recipient ?? '')}, ${email.id}, ${detail}, ${now}, ${blockEnds(now)} FROM bounced
      ON CONFLICT (recipient_key) DO UPDATE SET reason = 'bounced', email_id = EXCLUDED.email_id, detail = EXCLUDED.detail,
        expires_at = EXCLUDED.expires_at, renewed_at = EXCLUDED.created_at, lifted_at = NULL, lifted_by = NULL`);
    state = 'bounced';
  } else if (result.outcome === 'unknown') {
    await query(sql`
      UPDATE emails SET state = 'unknown', lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail}, updated_at = ${now}
      WHERE id = ${email.id} AND state = 'sending'`);
    state = 'unknown';
  } else {
    const again = (result.outcome === 'retry' || result.outcome === 'soft_bounce') && email.attempts < MAX_MAIL_ATTEMPTS;
    state = again ? 'scheduled' : 'failed';
    const next = again ? retryAt(now, email.attempts, result.outcome === 'soft_bounce' ? SOFT_BOUNCE_MS : 0) : now;
    await query(sql`
      UPDATE emails SET state = ${state}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail},
        next_attempt_at = ${next}, updated_at = ${now}
      WHERE id = ${email.id} AND state = 'sending'`);
  }
  if (state === 'sent' || state === 'unknown') await applyWaitingReports(email.id, now);
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
 * run's to send (not due, another run's, its school closed or its hour full, suppressed).
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
    WHERE ref = ${ref} AND state IN ('scheduled', 'preparing') AND (${kinds ?? null}::text[] IS NULL OR kind = ANY(${kinds ?? null}::text[]))
    RETURNING 1`);
  return rows.length;
}

/**
 * What a provider reports: delivered; bounced (the mailbox does not exist: the address is blocked);
 * failed (refused for another reason, or given up: that email only); complained (the address gets
 * only essential emails from now, and its waiting non-essential ones are withdrawn).
 */
export type ProviderEvent = 'delivered' | 'bounced' | 'failed' | 'complained';

/** The states an email may be reported on from: the provider took it (we may not know yet that it did). */
const reportableFrom: Record<ProviderEvent, EmailState[]> = {
  delivered: ['sending', 'unknown', 'sent'],
  bounced: ['sending', 'unknown', 'sent', 'delivered'],
  failed: ['sending', 'unknown', 'sent'],
  complained: ['sending', 'unknown', 'sent', 'delivered'],
};

/**
 * A provider's signed report about an email it took, in one statement. A report about an email in
 * a state it cannot move from (a late "delivered" after a bounce) changes nothing. A report about an
 * email that is not recorded yet is kept (`mail_reports_waiting`) and applied when it is: undefined.
 */
export async function recordProviderEvent(
  id: string,
  event: ProviderEvent,
  detail: string,
  now = new Date(),
): Promise<{ email: StoredEmail; changed: boolean } | undefined> {
  const row = await queryOne<{ changed: boolean; known: boolean }>(sql`
    WITH moved AS (
      UPDATE emails SET state = ${event}, provider_status = ${event}, sent_at = coalesce(sent_at, ${now}), lease_until = NULL,
        last_error = ${event === 'delivered' ? null : detail.slice(0, 200)}, updated_at = ${now}
      WHERE id = ${id} AND state = ANY(${reportableFrom[event]}::text[])
      RETURNING recipient_key, recipient
    ), suppressed AS (
      INSERT INTO email_suppressions (recipient_key, reason, masked, email_id, detail, created_at, expires_at)
      SELECT recipient_key, ${event}, ${maskedSql}, ${id}, ${detail.slice(0, 200)}, ${now}, ${blockEnds(now)} FROM moved WHERE ${event} IN ('bounced', 'complained')
      ON CONFLICT (recipient_key) DO UPDATE SET reason = CASE WHEN email_suppressions.reason = 'bounced' THEN 'bounced' ELSE EXCLUDED.reason END,
        expires_at = EXCLUDED.expires_at, renewed_at = EXCLUDED.created_at, lifted_at = NULL, lifted_by = NULL
      RETURNING recipient_key
    ), stopped AS (
      -- A complaint: the person wants no more of what they did not ask for just now.
      UPDATE emails SET state = 'withdrawn', lease_until = NULL, last_error = 'suppressed:complained', updated_at = ${now}
      WHERE recipient_key IN (SELECT recipient_key FROM suppressed) AND state = 'scheduled' AND id <> ${id}
        AND ${event} = 'complained' AND NOT essential
      RETURNING 1
    ), waiting AS (
      INSERT INTO mail_reports_waiting (email_id, event, detail, received_at)
      SELECT ${id}, ${event}, ${detail.slice(0, 200)}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM moved) AND NOT EXISTS (SELECT 1 FROM emails WHERE id = ${id})
      ON CONFLICT (email_id, event) DO NOTHING
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM moved) AS changed, EXISTS (SELECT 1 FROM emails WHERE id = ${id}) AS known`);
  if (!row?.known) return undefined;
  const email = await readEmail(id);
  return email && { email, changed: Boolean(row?.changed) };
}

/** Applies the reports that came before their email was recorded (the worst one wins). */
export async function applyWaitingReports(id: string, now = new Date()): Promise<ProviderEvent | undefined> {
  const reports = await query<{ event: ProviderEvent; detail: string | null }>(sql`
    DELETE FROM mail_reports_waiting WHERE email_id = ${id} RETURNING event, detail`);
  const order: ProviderEvent[] = ['complained', 'bounced', 'failed', 'delivered'];
  const worst = order.find((event) => reports.some((report) => report.event === event));
  if (!worst) return undefined;
  // "Delivered" first, then the worse news, as the provider would have sent them.
  if (worst !== 'delivered' && reports.some((report) => report.event === 'delivered')) await recordProviderEvent(id, 'delivered', '', now);
  await recordProviderEvent(id, worst, reports.find((report) => report.event === worst)?.detail ?? '', now);
  return worst;
}

/** Reports still waiting for emails that never came: forgotten after two days. */
export async function purgeWaitingReports(now = new Date()): Promise<number> {
  return (await query(sql`DELETE FROM mail_reports_waiting WHERE received_at < ${new Date(now.getTime() - WAITING_REPORT_MS)} RETURNING 1`)).length;
}

/** Whether an address may get an email of this kind: the reason it may not, exactly as written. */
export async function addressSuppressed(address: string, kind: EmailKind, now = new Date()): Promise<'bounced' | 'complained' | undefined> {
  const row = await queryOne<{ reason: 'bounced' | 'complained' }>(sql`
    SELECT reason FROM email_suppressions s WHERE s.recipient_key = ${exactAddressKey(address)} AND ${activeBlock(now, sql`${kindRules[kind].essential}::boolean`)}`);
  return row?.reason;
}

/**
 * Staff lift the block of an address (its mailbox was fixed, the school asked again): one statement,
 * audited by the caller. Undefined when nothing blocks it now.
 */
export async function liftSuppression(recipientKey: string, by: string, now = new Date()): Promise<{ masked: string } | undefined> {
  return queryOne<{ masked: string }>(sql`
    UPDATE email_suppressions SET lifted_at = ${now}, lifted_by = ${by.slice(0, 200)}
    WHERE recipient_key = ${recipientKey} AND lifted_at IS NULL AND expires_at > ${now} RETURNING masked`);
}

/**
 * The statement that forgets the addresses and words of every email to one mailbox and of every
 * email about the given messages (a parent's data deletion), and of the digests that carried those
 * messages: waiting ones are withdrawn, all are emptied. A fragment ending in its WHERE, for the
 * deletion's one statement to extend and run. (A digest still waiting gives its other letters back
 * to be gathered again: `releaseDigestsOf`.)
 */
export function erasedEmails(mailbox: string, refs: string[], now: Date) {
  return sql`
    UPDATE emails SET recipient = NULL, content = NULL, erased_at = ${now}, updated_at = ${now}, lease_until = NULL,
      state = CASE WHEN state IN ('scheduled', 'sending', 'preparing') THEN 'withdrawn' ELSE state END
    WHERE (mailbox_key = ${mailbox} OR recipient_key = ${mailbox} OR ref = ANY(${refs}::text[])
           OR id IN (SELECT digest_id FROM emails WHERE ref = ANY(${refs}::text[]) AND digest_id IS NOT NULL))
      AND erased_at IS NULL`;
}

/** The letters of digests that were withdrawn before they went (a parent's deletion): back to waiting, to be gathered again. */
export async function releaseWithdrawnDigests(now = new Date()): Promise<number> {
  const rows = await query(sql`
    UPDATE emails l SET state = 'scheduled', digest_id = NULL, updated_at = ${now}
    FROM emails d
    WHERE l.digest_id = d.id AND d.kind = 'school_digest' AND d.state = 'withdrawn' AND l.state = 'digested' AND l.erased_at IS NULL
    RETURNING 1`);
  return rows.length;
}

/** Deletes emails settled before `before` (by when they were sent, else made), and old counters. */
export async function purgeEmails(before: Date, now = new Date()): Promise<number> {
  const emails = await query(sql`
    DELETE FROM emails WHERE state NOT IN ('scheduled', 'sending', 'unknown', 'preparing') AND coalesce(sent_at, created_at) < ${before} RETURNING 1`);
  const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3600_000);
  await query(sql`DELETE FROM email_budgets WHERE day < ${day(twoDaysAgo)}`);
  await query(sql`DELETE FROM recipient_days WHERE day < ${day(twoDaysAgo)}`);
  await query(sql`DELETE FROM school_delivery_hours WHERE hour < ${twoDaysAgo}`);
  await query(sql`DELETE FROM mail_event_tokens WHERE created_at < ${twoDaysAgo}`);
  await query(sql`DELETE FROM email_suppressions WHERE expires_at < ${now} OR lifted_at < ${new Date(now.getTime() - 30 * 24 * 3600_000)}`);
  await purgeWaitingReports(now);
  return emails.length;
}

/** Every email, newest first, a page at a time (keyset on the id), for the admin page. */
export async function listEmails(limit: number, cursor?: string): Promise<{ emails: StoredEmail[]; nextCursor?: string }> {
  const rows = await query<EmailRow>(sql`
    SELECT ${columns} FROM emails WHERE (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text) ORDER BY id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit).map(toEmail);
  return { emails: page, ...(rows.length > limit ? { nextCursor: page.at(-1)!.id } : {}) };
}

export interface Suppression {
  /** The address's key (a hash): what staff name when they lift the block. */
  key: string;
  masked: string;
  reason: 'bounced' | 'complained';
  detail: string | null;
  createdAt: string;
  expiresAt: string;
  renewedAt: string | null;
}

/** The blocked addresses (masked) still in force, newest first: bounced schools for staff to act on. */
export async function listSuppressions(limit = 100, now = new Date()): Promise<Suppression[]> {
  const rows = await query<{
    recipient_key: string;
    masked: string;
    reason: 'bounced' | 'complained';
    detail: string | null;
    created_at: Date;
    expires_at: Date;
    renewed_at: Date | null;
  }>(sql`
    SELECT recipient_key, masked, reason, detail, created_at, expires_at, renewed_at FROM email_suppressions
    WHERE lifted_at IS NULL AND expires_at > ${now} ORDER BY coalesce(renewed_at, created_at) DESC LIMIT ${limit}`);
  return rows.map((row) => ({
    key: row.recipient_key,
    masked: row.masked,
    reason: row.reason,
    detail: row.detail,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    renewedAt: row.renewed_at?.toISOString() ?? null,
  }));
}

/** The emails whose outcome is unknown, oldest first: staff decide (sent, or send again). */
export async function unknownEmails(limit = 50): Promise<StoredEmail[]> {
  const rows = await query<EmailRow>(sql`SELECT ${columns} FROM emails WHERE state = 'unknown' ORDER BY updated_at LIMIT ${limit}`);
  return rows.map(toEmail);
}

/**
 * Staff settle an email whose outcome was unknown: it went (the recipient has it), or it did not
 * and is sent again under the same id. One statement; false when it is not unknown any more.
 */
export async function settleUnknown(id: string, decision: 'sent' | 'resend', now = new Date()): Promise<boolean> {
  const row = await queryOne(sql`
    UPDATE emails SET state = ${decision === 'sent' ? 'sent' : 'scheduled'}, sent_at = ${decision === 'sent' ? now : null}, next_attempt_at = ${now},
      provider_status = ${decision === 'sent' ? 'settled_by_staff' : null}, slot_hour = NULL, updated_at = ${now}
    WHERE id = ${id} AND state = 'unknown' RETURNING 1`);
  return row !== undefined;
}

/** Whether two addresses reach the same mailbox. */
export const sameMailbox = (a: string, b: string) => canonicalAddress(a) === canonicalAddress(b);
/** Whether two addresses are exactly the same address. */
export const sameAddress = (a: string, b: string) => exactAddress(a) === exactAddress(b);
