/**
 * School letters, and the life of each in one place: the ones the platform sends in a parent's
 * name, and the ones a parent says they sent themselves (for the follow-up, and, once staff
 * approve them, the school's page). Every other module asks this one to move a message; only it
 * sets `status`.
 *
 *   awaiting_confirmation ──confirmed──► queued ──its email sent──► sent
 *        │      │                          └──refused for good──► failed
 *        │      └──a newer request of the same parent to the same school──► replaced
 *        └──expired / a limit at confirmation──► failed          sent ──the school's server refused──► bounced
 *
 * A platform letter is written to the mail layer (src/server/mail) when the parent confirms it, to
 * go in the school's hours; the mail layer says when it went. Table `outbox_messages`: one row per
 * message (ids sort newest first), the message as `record`, and `version`, which every change must name.
 */
import { messageStatuses, type MessageStatus } from '../lib/schemas/admin';
import { query, queryOne, sql } from './db';
import { serverEnv } from './env';
import { canonicalAddress } from './identity';
import { recordKey } from './ids';
import type { Attribution } from './school-pages';
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
  schoolName: string;
  /** The school contact's address and name. */
  to: string;
  toName: string;
  /** Exactly what is (or was) sent. */
  subject: string;
  body: string;
  note: string;
  /** The letter (content/letters/{id}.yaml) the body was written in, and the parent's answer in it. */
  letterId?: string;
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
    /** The limit this request met at its confirmation; the parent reads it on the page their link opens. */
    refusal?: LimitRefusal;
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

/** Every move a message may make, by status. */
export const messageMoves: Record<MessageStatus, readonly MessageStatus[]> = {
  awaiting_confirmation: ['queued', 'failed', 'replaced'],
  queued: ['sent', 'failed', 'bounced'],
  sent: ['bounced'],
  failed: ['queued'],
  replaced: [],
  bounced: [],
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

const followUpWaiting = (message: OutboxMessage) => {
  const followUp = message.followUp;
  if (!followUp || message.status !== 'sent') return false;
  if (message.channel === 'self' && message.review === 'rejected') return false;
  if (followUp.link === 'delivered') return followUp.second?.link === 'pending';
  return followUp.link === 'pending';
};

export function newMessageId(now = new Date()): string {
  return recordKey(now);
}

/** A message, unless its parent had their data deleted (its row then keeps no names: `data-rights.ts`). */
export async function readMessage(id: string): Promise<{ message: OutboxMessage; etag: string } | undefined> {
  const row = await queryOne<{ record: OutboxMessage; version: number }>(sql`SELECT record, version FROM outbox_messages WHERE id = ${id} AND erased_at IS NULL`);
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
    INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, letter_id, record)
    VALUES (${message.id}, ${message.draftId}, ${message.channel}, ${c.status}, ${message.createdAt}, ${c.updatedAt}, ${c.sentAt}, ${c.nextAttemptAt}, false, ${c.followUpWaiting}, ${message.letterId ?? null}, ${message})
    ON CONFLICT (id) DO NOTHING`);
}

/**
 * Saves a change made from the version `etag`. Returns the new version, or undefined when another
 * run changed the message first, or when the change is not a move its status may make.
 */
export async function saveMessage(message: OutboxMessage, etag: string, from?: MessageStatus): Promise<string | undefined> {
  if (from && from !== message.status && !messageMoves[from].includes(message.status)) throw new Error(`outbox: a message cannot move from ${from} to ${message.status}`);
  const c = columnsOf(message);
  const row = await queryOne<{ version: number }>(sql`
    UPDATE outbox_messages SET status = ${c.status}, updated_at = ${c.updatedAt}, sent_at = ${c.sentAt}, next_attempt_at = ${c.nextAttemptAt},
      work_left = false, follow_up_waiting = ${c.followUpWaiting}, record = ${message}, version = version + 1
    WHERE id = ${message.id} AND erased_at IS NULL AND version = ${Number(etag)}::integer
    RETURNING version`);
  return row ? String(row.version) : undefined;
}

/**
 * Changes a message by `change`, reading it again when another run changed it meanwhile (a few
 * times). Returns the message as saved, or undefined when it is gone or `change` declines (undefined).
 */
export async function updateMessage(id: string, change: (message: OutboxMessage) => OutboxMessage | undefined): Promise<OutboxMessage | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await readMessage(id);
    if (!found) return undefined;
    const next = change(found.message);
    if (!next) return undefined;
    if ((await saveMessage(next, found.etag, found.message.status)) !== undefined) return next;
  }
  throw new Error(`outbox: ${id} kept changing; not saved`);
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
 * Marks `replaced` every request of this parent to this school that still waits for its
 * confirmation (other than `keep`): one statement. Their links then send nothing. Returns their ids.
 */
export async function replaceWaitingRequests(parentEmail: string, school: string, keep: string, now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    UPDATE outbox_messages
    SET status = 'replaced', updated_at = ${now}, version = version + 1,
        record = record || jsonb_build_object('status', 'replaced', 'updatedAt', ${now.toISOString()}::text, 'lastError', 'replaced', 'replacedBy', ${keep}::text)
    WHERE canonical_address(record->>'parentEmail') = ${canonicalAddress(parentEmail)} AND canonical_address(record->>'to') = ${canonicalAddress(school)}
      AND status = 'awaiting_confirmation' AND id <> ${keep} AND erased_at IS NULL
    RETURNING id`);
  return rows.map((row) => row.id);
}

/** Marks failed ("not confirmed in time") the requests whose confirmation link has expired; returns their ids. */
export async function expireUnconfirmed(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    UPDATE outbox_messages
    SET status = 'failed', updated_at = ${now},
        record = record || jsonb_build_object('status', 'failed', 'lastError', 'not_confirmed_in_time', 'updatedAt', ${now.toISOString()}::text),
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
    DELETE FROM outbox_messages WHERE status IN ('sent', 'failed', 'replaced', 'bounced') AND coalesce(sent_at, created_at) < ${before} RETURNING 1`);
  return rows.length;
}

/** Deletes a message; its answer and its claim on the limits go with it. */
export async function deleteMessage(id: string): Promise<void> {
  await query(sql`DELETE FROM outbox_messages WHERE id = ${id}`);
}
