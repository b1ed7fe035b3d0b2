/**
 * The store of school letters: the ones the platform sends in a parent's name, and the ones a parent
 * says they sent themselves. One row per letter in `outbox_messages` (ids sort newest first), the
 * letter as `record`, and `version`, which every change must name.
 *
 * A letter's life (its states and every move between them) is src/server/letter/life.ts: it is the
 * only caller of `moveMessage` and of the statements here that set `status`. Everything else may
 * change a letter's other fields with `updateMessage`, which refuses a change of status.
 */
import type { Locale } from '../../config/locales';
import { messageStatuses, type MessageStatus } from '../../lib/shared/schemas/admin';
import { query, queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress } from '../identity';
import { recordKey } from '../ids';
import type { Attribution } from '../schools/pages';
import type { LimitRefusal } from './send-limits';

export { messageStatuses, type MessageStatus };

/** How long a confirmation link is valid (one reminder goes after a day). */
export const CONFIRM_TTL_MS = 3 * 24 * 3600_000;
/** A request nobody confirmed gets its one reminder this long after it was made. */
export const REMINDER_AFTER_MS = 24 * 3600_000;
/** Messages are deleted this long after they were sent (or, never sent, after they were made). */
export const MESSAGE_RETENTION_MS = 90 * 24 * 3600_000;

export type Channel = 'platform' | 'self';

/** What became of an email the site sent about this message (the mail layer has the whole record). */
export type EmailHandOver = 'queued' | 'limit' | 'suppressed';

export interface OutboxMessage {
  id: string;
  /** The draft (form submission) it was made from. */
  draftId: string;
  channel: Channel;
  status: MessageStatus;
  createdAt: string;
  updatedAt: string;
  parentEmail: string;
  parentName: string;
  /** The school's name as the parent typed it (or the record's, when they picked a known school). */
  schoolName: string;
  /**
   * The school record the letter was written to: a verified school (picked, or whose record lists
   * the address), or the proposal its typed school made at confirmation (src/server/schools).
   */
  schoolId?: string;
  /** The school contact's address and name. */
  to: string;
  toName: string;
  /** Exactly what is (or was) sent. */
  subject: string;
  body: string;
  note: string;
  /** The letter (content/letters/{id}.yaml) the body was written in, and the parent's answer in it. */
  letterId?: string;
  /** The language the letter is written in (the parent's choice; English when absent): its footer's too. */
  letterLocale?: Locale;
  /** The language the parent wrote in (the form's page; English when absent): every email to them and the pages their links open. */
  locale?: Locale;
  ownWords?: string;
  confirmation?: {
    expiresAt: string;
    confirmedAt?: string;
    /** The confirmation email: written to the mail layer, or not (the address's allowance, a suppression). */
    email?: EmailHandOver;
    /** Its one reminder, after a day without an answer. */
    reminder?: EmailHandOver;
    /** The network that asked (a hash), whose allowance the confirmation and reminder count under. */
    network?: string;
    /** The limit (or blocked address) this request met at its confirmation; the parent reads it on the page their link opens. */
    refusal?: LimitRefusal | 'address_blocked';
    /** With `already_sent`: when the parent's earlier letter to this school went. */
    earlierAt?: string;
  };
  /** The school's time zone (the parent's browser's, else SCHOOL_TIME_ZONE) and when the letter goes. */
  delivery?: { at: string; timeZone: string; state?: 'scheduled' | 'sent' | 'bounced' | 'failed'; detail?: string };
  attempts: number;
  /** A short code of the last failure; never a token or a response body. */
  lastError?: string;
  nextAttemptAt: string;
  sentAt?: string;
  /** HubSpot's contact id, once the answer has been written to the contact. */
  contactId?: string;
  /** "Did your school answer?": due some days after sending, emailed once (and once more if unanswered). */
  followUp?: FollowUp;
  /** How the parent came to write (copied from the draft): direct, another parent's share, an ambassador. */
  attribution?: Attribution;
  /** A self-reported send counts, shows and notifies only once staff approve it (review queue). */
  review?: 'pending' | 'approved' | 'rejected';
  /** A bounced letter: the parent was told once, with a link to correct the address. */
  bounce?: { at: string; told: EmailHandOver | 'pending'; correctedBy?: string };
}

/** The follow-up's email: waiting for its day, written to the mail layer, or not sent (allowance, stopped). */
export type FollowUpState = 'pending' | 'delivered' | 'limit' | 'stopped' | 'answered';

export interface FollowUp {
  dueAt: string;
  link: Exclude<FollowUpState, 'answered'>;
  attempts: number;
  setAt?: string;
  lastError?: string;
  /** The second follow-up (WriteToThem asks twice), once the first went, not at all if it was answered. */
  second?: SecondFollowUp;
}

export interface SecondFollowUp {
  dueAt: string;
  link: FollowUpState;
  attempts: number;
  setAt?: string;
  lastError?: string;
}

/**
 * Every move a letter may make, by status (src/server/letter/life.ts names what each means).
 *
 *   awaiting_confirmation ─confirm─► queued ─sent─► sent ─report─► delivered
 *     │ │ │ └─self-report confirmed─► sent      │ │ │    │             │
 *     │ │ └─a newer one confirmed─► replaced    │ │ │    └─► bounced | failed (a report after it went)
 *     │ └─a limit at confirmation─► failed      │ │ └─► bounced | failed
 *     └─not confirmed in time─► expired         │ └─► withdrawn (school complained, data deleted, staff)
 *                                               └─► expired (could not go within its time)
 *   failed ─staff retry─► queued
 *   awaiting_confirmation | queued | sent (a self-report) ─staff void a burst─► voided
 */
export const messageMoves: Record<MessageStatus, readonly MessageStatus[]> = {
  awaiting_confirmation: ['queued', 'sent', 'failed', 'replaced', 'expired', 'withdrawn', 'voided'],
  queued: ['sent', 'delivered', 'bounced', 'failed', 'withdrawn', 'expired', 'voided'],
  sent: ['delivered', 'bounced', 'failed', 'voided'],
  delivered: ['bounced'],
  failed: ['queued'],
  bounced: [],
  withdrawn: [],
  expired: [],
  replaced: [],
  voided: [],
};

/** The follow-up of a message sent at `sentAt`. */
export function newFollowUp(sentAt: Date): FollowUp {
  return { dueAt: new Date(sentAt.getTime() + serverEnv.followUpAfterDays * 24 * 3600_000).toISOString(), link: 'pending', attempts: 0 };
}

/** The second follow-up of a message sent at `sentAt`. */
export function newSecondFollowUp(sentAt: string | undefined, now: Date): SecondFollowUp {
  const from = sentAt ? Date.parse(sentAt) : now.getTime();
  return { dueAt: new Date(from + serverEnv.secondFollowUpAfterDays * 24 * 3600_000).toISOString(), link: 'pending', attempts: 0 };
}

/** The letter reached (or was handed to) the school: sent, or reported delivered. */
export const wentOut = (status: MessageStatus) => status === 'sent' || status === 'delivered';

const followUpWaiting = (message: OutboxMessage) => {
  const followUp = message.followUp;
  if (!followUp || !wentOut(message.status)) return false;
  if (message.channel === 'self' && message.review === 'rejected') return false;
  if (followUp.link === 'delivered') return followUp.second?.link === 'pending';
  return followUp.link === 'pending';
};

export function newMessageId(now = new Date()): string {
  return recordKey(now);
}

/** A message, unless its parent had their data deleted (its row then keeps no names: `data-rights.ts`). */
export async function readMessage(id: string): Promise<{ message: OutboxMessage; etag: string } | undefined> {
  const row = await queryOne<{ record: OutboxMessage; version: number }>(
    sql`SELECT record, version FROM outbox_messages WHERE id = ${id} AND erased_at IS NULL`,
  );
  return row ? { message: row.record, etag: String(row.version) } : undefined;
}

/** The columns of a message's row, from the message. */
const columnsOf = (message: OutboxMessage) => ({
  status: message.status,
  updatedAt: message.updatedAt,
  sentAt: message.sentAt ?? null,
  nextAttemptAt: message.nextAttemptAt,
  followUpWaiting: followUpWaiting(message),
});

/** Stores a new message (nothing happens if one with its id exists). */
export async function createMessage(message: OutboxMessage): Promise<void> {
  const c = columnsOf(message);
  await query(sql`
    INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, letter_id, school_id, locale, record)
    VALUES (${message.id}, ${message.draftId}, ${message.channel}, ${c.status}, ${message.createdAt}, ${c.updatedAt}, ${c.sentAt}, ${c.nextAttemptAt}, false, ${c.followUpWaiting}, ${message.letterId ?? null}, ${message.schoolId ?? null}, ${message.locale ?? 'en'}, ${message})
    ON CONFLICT (id) DO NOTHING`);
}

/**
 * Saves a change made from the version `etag`. Returns the new version, or undefined when another
 * run changed the message first, or when the change is not a move its status may make.
 */
export async function saveMessage(message: OutboxMessage, etag: string, from?: MessageStatus): Promise<string | undefined> {
  if (from && from !== message.status && !messageMoves[from].includes(message.status))
    throw new Error(`outbox: a message cannot move from ${from} to ${message.status}`);
  const c = columnsOf(message);
  const row = await queryOne<{ version: number }>(sql`
    UPDATE outbox_messages SET status = ${c.status}, updated_at = ${c.updatedAt}, sent_at = ${c.sentAt}, next_attempt_at = ${c.nextAttemptAt},
      work_left = false, follow_up_waiting = ${c.followUpWaiting}, school_id = ${message.schoolId ?? null}, record = ${message}, version = version + 1
    WHERE id = ${message.id} AND erased_at IS NULL AND version = ${Number(etag)}::integer
    RETURNING version`);
  return row ? String(row.version) : undefined;
}

async function change(id: string, change: (message: OutboxMessage) => OutboxMessage | undefined, statusMayChange: boolean): Promise<OutboxMessage | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await readMessage(id);
    if (!found) return undefined;
    const next = change(found.message);
    if (!next) return undefined;
    if (!statusMayChange && next.status !== found.message.status)
      throw new Error(`outbox: ${id} may move from ${found.message.status} to ${next.status} only through letter/life.ts`);
    if ((await saveMessage(next, found.etag, found.message.status)) !== undefined) return next;
  }
  throw new Error(`outbox: ${id} kept changing; not saved`);
}

/**
 * Changes a letter's other fields by `change` (never its status), reading it again when another
 * run changed it meanwhile (a few times). Returns the letter as saved, or undefined when it is gone
 * or `change` declines (undefined).
 */
export async function updateMessage(id: string, update: (message: OutboxMessage) => OutboxMessage | undefined): Promise<OutboxMessage | undefined> {
  return change(id, update, false);
}

/** Moves a letter to another status (and whatever changes with it): for src/server/letter/life.ts only. */
export async function moveMessage(id: string, move: (message: OutboxMessage) => OutboxMessage | undefined): Promise<OutboxMessage | undefined> {
  return change(id, move, true);
}

/** Every message, newest first, a page at a time (keyset on the id). */
export async function listMessages(limit: number, cursor?: string): Promise<{ messages: OutboxMessage[]; nextCursor?: string }> {
  const rows = await query<{ id: string; record: OutboxMessage }>(sql`
    SELECT id, record FROM outbox_messages WHERE erased_at IS NULL AND (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text)
    ORDER BY id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { messages: page.map((row) => row.record), ...(more ? { nextCursor: page.at(-1)!.id } : {}) };
}

/**
 * Marks `replaced` every older request of this parent to this school address that still waits for
 * its confirmation (made before `keep`, which was just confirmed): one statement. Their links then
 * send nothing. Returns their ids. For src/server/letter/life.ts only.
 */
export async function replaceWaitingRequests(parentEmail: string, school: string, keep: string, now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    UPDATE outbox_messages
    SET status = 'replaced', updated_at = ${now}, version = version + 1,
        record = record || jsonb_build_object('status', 'replaced', 'updatedAt', ${now.toISOString()}::text, 'lastError', 'replaced', 'replacedBy', ${keep}::text)
    WHERE canonical_address(record->>'parentEmail') = ${canonicalAddress(parentEmail)} AND lower(trim(record->>'to')) = ${school.normalize('NFKC').trim().toLowerCase()}
      AND status = 'awaiting_confirmation' AND channel = 'platform' AND id > ${keep} AND erased_at IS NULL
    RETURNING id`);
  return rows.map((row) => row.id);
}

/** Marks expired ("not confirmed in time") the requests whose confirmation link has expired; returns their ids. For life.ts only. */
export async function expireUnconfirmed(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    UPDATE outbox_messages
    SET status = 'expired', updated_at = ${now},
        record = record || jsonb_build_object('status', 'expired', 'lastError', 'not_confirmed_in_time', 'updatedAt', ${now.toISOString()}::text),
        version = version + 1
    WHERE status = 'awaiting_confirmation' AND (record->'confirmation'->>'expiresAt')::timestamptz < ${now}
    RETURNING id`);
  return rows.map((row) => row.id);
}

/** Requests still waiting for their confirmation a day after they were made, without a reminder yet. */
export async function dueReminders(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM outbox_messages
    WHERE status = 'awaiting_confirmation' AND erased_at IS NULL AND created_at <= ${new Date(now.getTime() - REMINDER_AFTER_MS)}
      AND record->'confirmation'->>'reminder' IS NULL AND record->'confirmation'->>'email' = 'queued'
      AND (record->'confirmation'->>'expiresAt')::timestamptz > ${now}
    ORDER BY id LIMIT 200`);
  return rows.map((row) => row.id);
}

/** Every message with a follow-up not yet emailed. */
export async function followUpIds(): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`SELECT id FROM outbox_messages WHERE follow_up_waiting ORDER BY id LIMIT 1000`);
  return rows.map((row) => row.id);
}

/** Clears the follow-up mark of a message that has nothing more to send. */
export async function dropFollowUp(id: string): Promise<void> {
  await query(sql`UPDATE outbox_messages SET follow_up_waiting = false WHERE id = ${id}`);
}

/**
 * Deletes the messages settled before `before` (sent ones by when they were sent); their answers
 * and their claims on the limits go with them (foreign keys). Returns how many.
 */
export async function purgeMessages(before: Date): Promise<number> {
  const rows = await query(sql`
    DELETE FROM outbox_messages WHERE status NOT IN ('awaiting_confirmation', 'queued') AND coalesce(sent_at, created_at) < ${before} RETURNING 1`);
  return rows.length;
}

/** Deletes a message; its answer and its claim on the limits go with it. */
export async function deleteMessage(id: string): Promise<void> {
  await query(sql`DELETE FROM outbox_messages WHERE id = ${id}`);
}
