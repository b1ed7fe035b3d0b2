/**
 * School emails: the ones the platform sends in a parent's name, and the ones the parent says they
 * sent themselves (for the follow-up). A platform message is made only from a draft (see
 * `email-drafts.ts`); it waits for the parent's confirmation from their own inbox (unless
 * PLATFORM_SEND_CONFIRMATION=off), takes its limits (`send-limits.ts`), and is delivered whole by
 * the configured sender (`deliver-message.ts`: HubSpot single-send or SMTP; without one it waits).
 * Everything is stored before anything outside is touched; what cannot be done now is retried by
 * the scheduled `outbox-retry` function.
 *
 * Table `outbox_messages`: one row per message (ids sort newest first), the message as `record`
 * with the columns the scheduled runs and the purge look for (`work_left`: a confirmation link to
 * hand over, or a delivery; `follow_up_waiting`), and `version`, which every change must name.
 */
import type { Client } from '@hubspot/api-client';
import { dataLink } from './data-rights';
import { deliverMessage, deliveryErrorCode, type DeliveryRecord } from './deliver-message';
import { serverEnv } from './env';
import { getContact, isRetryable, searchContactsByEmail, statusOf, updateContact, type ContactResult } from './hubspot';
import { StoreUnavailableError } from './http';
import { query, queryOne, sql } from './db';
import { recordKey } from './ids';
import { recordSent } from './impact';
import { schoolEmailSender, type SchoolEmailSender } from './school-email-sender';
import { releaseLimits, takeEmailAllowance, type LimitRefusal } from './send-limits';
import type { Attribution } from './school-pages';
import { signToken } from './tokens';

/** Delivery attempts in all (the request's own and the scheduled retries) before a message fails. */
export const MAX_ATTEMPTS = 6;
/** How long a confirmation link is valid. */
export const CONFIRM_TTL_MS = 24 * 3600_000;
/** First delay between scheduled retries; doubles each time. */
export const RETRY_BASE_MS = 5 * 60_000;
/** Messages are deleted this long after they were sent (or, never sent, after they were made). */
export const MESSAGE_RETENTION_MS = 90 * 24 * 3600_000;

export type MessageStatus = 'awaiting_confirmation' | 'queued' | 'sent' | 'failed';
export type Channel = 'platform' | 'self';

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
    /**
     * Handing the link to HubSpot for its workflow: done, waiting, not possible (no HubSpot), or
     * not sent because the parent's address has had its emails for the day.
     */
    link: 'pending' | 'delivered' | 'not_configured' | 'limit';
    linkAttempts: number;
    /**
     * The limit this request met when it was made (taken at the request, so pending requests
     * count). Never said in the answer to the request; the parent reads it behind their link.
     */
    refusal?: LimitRefusal;
    /** With `already_sent`: when the parent's earlier email to this school was sent (or asked for). */
    earlierAt?: string;
  };
  attempts: number;
  /** A short code of the last failure; never a token or a response body. */
  lastError?: string;
  nextAttemptAt: string;
  sentAt?: string;
  /** What the sender said on the last try (provider status and detail). */
  delivery?: DeliveryRecord;
  contactId?: string;
  /** "Did your school answer?": due some days after sending, handed to HubSpot for its workflow. */
  followUp?: FollowUp;
  /** How the parent came to write (copied from the draft): direct, another parent's share, an ambassador. */
  attribution?: Attribution;
}

export interface FollowUp {
  dueAt: string;
  link: 'pending' | 'delivered' | 'not_configured' | 'limit';
  attempts: number;
  setAt?: string;
  lastError?: string;
  /**
   * The second follow-up (WriteToThem asks twice): due SECOND_FOLLOWUP_AFTER_DAYS (21) after the
   * send once the first is with HubSpot, handed over once, and not at all if the parent answered
   * the first (`answered`).
   */
  second?: SecondFollowUp;
}

export interface SecondFollowUp {
  dueAt: string;
  link: 'pending' | 'delivered' | 'not_configured' | 'limit' | 'answered';
  attempts: number;
  setAt?: string;
  lastError?: string;
}

/** The follow-up of a message sent at `sentAt`. */
export function newFollowUp(sentAt: Date): FollowUp {
  return { dueAt: new Date(sentAt.getTime() + serverEnv.followUpAfterDays * 24 * 3600_000).toISOString(), link: 'pending', attempts: 0 };
}

const followUpWaiting = (message: OutboxMessage) => {
  const followUp = message.followUp;
  if (!followUp) return false;
  if (followUp.link === 'delivered') return followUp.second?.link === 'pending' || followUp.second?.link === 'not_configured';
  return followUp.link !== 'limit';
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class DeliveryError extends Error {
  constructor(
    readonly code: string,
    readonly transient: boolean,
  ) {
    super(code);
  }
}

export function newMessageId(now = new Date()): string {
  return recordKey(now);
}

/** The parent's confirmation link for a message. */
export function confirmationLink(message: Pick<OutboxMessage, 'id' | 'confirmation'>): string | undefined {
  if (!message.confirmation) return undefined;
  const token = signToken({ purpose: 'confirm-send', id: message.id, exp: Date.parse(message.confirmation.expiresAt) });
  return `${serverEnv.siteOrigin}/confirm-send?token=${token}`;
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
  workLeft: hasWorkLeft(message),
  followUpWaiting: followUpWaiting(message),
});

/** Stores a new message (nothing happens if one with its id exists). */
export async function createMessage(message: OutboxMessage): Promise<void> {
  const c = columnsOf(message);
  await query(sql`
    INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, letter_id, record)
    VALUES (${message.id}, ${message.draftId}, ${message.channel}, ${c.status}, ${message.createdAt}, ${c.updatedAt}, ${c.sentAt}, ${c.nextAttemptAt}, ${c.workLeft}, ${c.followUpWaiting}, ${message.letterId ?? null}, ${message})
    ON CONFLICT (id) DO NOTHING`);
}

function hasWorkLeft(message: OutboxMessage): boolean {
  if (message.status === 'queued') return true;
  // A link not yet with HubSpot (waiting, or HubSpot not configured then) is handed over later.
  const link = message.confirmation?.link;
  return message.status === 'awaiting_confirmation' && (link === 'pending' || link === 'not_configured');
}

/**
 * Saves a change made from the version `etag` (any version without one). Returns the new version,
 * or undefined when another run changed the message first.
 */
export async function saveMessage(message: OutboxMessage, etag?: string): Promise<string | undefined> {
  const c = columnsOf(message);
  const version = etag === undefined ? null : Number(etag);
  const row = await queryOne<{ version: number }>(sql`
    UPDATE outbox_messages SET status = ${c.status}, updated_at = ${c.updatedAt}, sent_at = ${c.sentAt}, next_attempt_at = ${c.nextAttemptAt},
      work_left = ${c.workLeft}, follow_up_waiting = ${c.followUpWaiting}, record = ${message}, version = version + 1
    WHERE id = ${message.id} AND erased_at IS NULL AND (${version}::integer IS NULL OR version = ${version}::integer)
    RETURNING version`);
  if (row) return String(row.version);
  if (version !== null) return undefined;
  // No version named and no row: the message is new.
  await createMessage(message);
  return (await readMessage(message.id))?.etag;
}

/** The messages with work left whose time has come (all of them without `dueBy`), soonest first. */
export async function pendingIds(dueBy?: Date): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM outbox_messages WHERE work_left AND (${dueBy ?? null}::timestamptz IS NULL OR next_attempt_at <= ${dueBy ?? null}::timestamptz)
    ORDER BY next_attempt_at LIMIT 500`);
  return rows.map((row) => row.id);
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
 * Marks failed ("not confirmed in time") the messages whose confirmation link has expired, and
 * gives back the limits they held; returns how many.
 */
export async function expireUnconfirmed(now = new Date()): Promise<number> {
  const rows = await query<{ id: string }>(sql`
    UPDATE outbox_messages
    SET status = 'failed', work_left = false, updated_at = ${now},
        record = record || jsonb_build_object('status', 'failed', 'lastError', 'not_confirmed_in_time', 'updatedAt', ${now.toISOString()}::text),
        version = version + 1
    WHERE status = 'awaiting_confirmation' AND (record->'confirmation'->>'expiresAt')::timestamptz < ${now}
    RETURNING id`);
  await releaseLimits(rows.map((row) => row.id));
  return rows.length;
}

/**
 * Deletes the messages settled (sent or failed) before `before` (sent ones by when they were sent);
 * their answers and their claims on the limits go with them (foreign keys). Returns how many.
 */
export async function purgeMessages(before: Date): Promise<number> {
  const rows = await query(sql`
    DELETE FROM outbox_messages WHERE status IN ('sent', 'failed') AND coalesce(sent_at, created_at) < ${before} RETURNING 1`);
  return rows.length;
}

/** Deletes a message; its answer and its claim on the limits go with it. */
export async function deleteMessage(id: string): Promise<void> {
  await query(sql`DELETE FROM outbox_messages WHERE id = ${id}`);
}

function withDeadline<T>(operation: Promise<T>, deadline: number): Promise<T> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new DeliveryError('timeout', true));
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    operation,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeliveryError('timeout', true)), remaining);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Finds the parent's contact, waiting out HubSpot's lag: the form submission that created it may
 * be a moment old, and search shows a new contact a few seconds after it exists.
 */
async function findContact(client: Client, email: string, properties: string[], attempts: number, deadline: number): Promise<ContactResult> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const found = await withDeadline(searchContactsByEmail(client, email, ['email', ...properties]), deadline);
    if (found.results[0]) return found.results[0];
    if (attempt < attempts) {
      const wait = serverEnv.hubspotRetryBaseMs * 2 ** (attempt - 1);
      if (Date.now() + wait >= deadline) break;
      await sleep(wait);
    }
  }
  throw new DeliveryError('contact_not_found', true);
}

function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const status = statusOf(error);
  return new DeliveryError(status ? `hubspot_${status}` : 'hubspot_unreachable', isRetryable(error));
}

export interface AttemptOptions {
  /** How many times to search for a contact HubSpot has not indexed yet. */
  lagAttempts?: number;
  budgetMs?: number;
  now?: () => Date;
  /** The school email's sender; the configured one (`schoolEmailSender()`) when not given, null for none. */
  sender?: SchoolEmailSender | null;
}

/** Hands the confirmation link to HubSpot: a contact property a workflow emails to the parent. */
async function deliverLink(client: Client, message: OutboxMessage, options: Required<Pick<AttemptOptions, 'lagAttempts' | 'budgetMs'>>): Promise<string> {
  const deadline = Date.now() + options.budgetMs;
  const names = serverEnv.contactProperties;
  try {
    const contact = message.contactId
      ? await withDeadline(getContact(client, message.contactId, []), deadline)
      : await findContact(client, message.parentEmail, [], options.lagAttempts, deadline);
    // The "Your data" link travels with every link a workflow emails.
    const properties = { [names.confirmSendSchool]: message.schoolName, [names.confirmSendUrl]: confirmationLink(message) ?? '', [names.yourDataUrl]: dataLink(message.parentEmail) };
    await withDeadline(updateContact(client, contact.id, properties), deadline);
    return contact.id;
  } catch (error) {
    throw asDeliveryError(error);
  }
}

/**
 * Whether one more email may go to `address` today. With the database down, the link waits: the
 * message keeps its work and the retry run asks again (AllowanceUnknown ends this attempt).
 */
async function emailAllowed(address: string, at: Date): Promise<boolean> {
  try {
    return await takeEmailAllowance(address, at);
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw new AllowanceUnknown();
    throw error;
  }
}

class AllowanceUnknown extends Error {}

const nextTry = (at: Date, attempts: number) => new Date(at.getTime() + RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1)).toISOString();

/**
 * One step of work on a message: hand over its confirmation link, or deliver it. Returns the
 * message as saved. `client` is undefined when HubSpot is not configured: the link then waits
 * (the admin page shows it); without a sender a delivery stays queued.
 */
export async function attemptWork(client: Client | undefined, message: OutboxMessage, etag: string | undefined, options: AttemptOptions = {}): Promise<OutboxMessage> {
  try {
    return await attemptWorkOnce(client, message, etag, options);
  } catch (error) {
    // Nothing was sent and nothing recorded: the message keeps its work for the retry run.
    if (error instanceof AllowanceUnknown) return message;
    throw error;
  }
}

async function attemptWorkOnce(client: Client | undefined, message: OutboxMessage, etag: string | undefined, options: AttemptOptions): Promise<OutboxMessage> {
  const now = options.now ?? (() => new Date());
  const settings = { lagAttempts: options.lagAttempts ?? 5, budgetMs: options.budgetMs ?? serverEnv.sendEmailBudgetMs };
  let next: OutboxMessage;
  if (message.status === 'awaiting_confirmation' && message.confirmation && (message.confirmation.link === 'pending' || message.confirmation.link === 'not_configured')) {
    if (!client) {
      next = { ...message, confirmation: { ...message.confirmation, link: 'not_configured' }, lastError: 'hubspot_not_configured', updatedAt: now().toISOString() };
    } else if (message.confirmation.linkAttempts === 0 && !(await emailAllowed(message.parentEmail, now()))) {
      // The address has had its emails for today: nothing more is sent to it.
      next = { ...message, confirmation: { ...message.confirmation, link: 'limit' }, lastError: 'recipient_limit', updatedAt: now().toISOString() };
    } else {
      try {
        const contactId = await deliverLink(client, message, settings);
        next = { ...message, contactId, confirmation: { ...message.confirmation, link: 'delivered', linkAttempts: message.confirmation.linkAttempts + 1 }, lastError: undefined, updatedAt: now().toISOString() };
      } catch (error) {
        const failure = asDeliveryError(error);
        const linkAttempts = message.confirmation.linkAttempts + 1;
        next = { ...message, confirmation: { ...message.confirmation, linkAttempts }, lastError: failure.code, nextAttemptAt: nextTry(now(), linkAttempts), updatedAt: now().toISOString() };
      }
    }
  } else if (message.status === 'queued') {
    const sender = options.sender === undefined ? schoolEmailSender() : options.sender;
    if (!sender) {
      next = { ...message, lastError: 'sender_not_configured', updatedAt: now().toISOString() };
    } else {
      const attempts = message.attempts + 1;
      // The whole message in one request, its id the idempotency key: a repeat sends nothing more.
      const delivery = await deliverMessage(message, sender, now);
      if (delivery.outcome === 'sent' || delivery.outcome === 'queued') {
        const at = now();
        next = { ...message, attempts, delivery, status: 'sent', sentAt: at.toISOString(), followUp: message.followUp ?? newFollowUp(at), lastError: undefined, updatedAt: at.toISOString() };
      } else {
        const exhausted = attempts >= MAX_ATTEMPTS;
        next = {
          ...message,
          attempts,
          delivery,
          status: delivery.outcome === 'retry' && !exhausted ? 'queued' : 'failed',
          lastError: deliveryErrorCode(delivery),
          nextAttemptAt: nextTry(now(), attempts),
          updatedAt: now().toISOString(),
        };
      }
    }
  } else {
    return message;
  }
  try {
    if ((await saveMessage(next, etag)) === undefined) {
      // Another run recorded an outcome first; its record stands.
      return (await readMessage(message.id))?.message ?? next;
    }
  } catch (error) {
    // The sender has been asked already, so the answer reports what it did. The store still holds the
    // message as it was; the retry run settles it (sent again with the same id: HubSpot ignores a
    // repeated sendId, and over SMTP the same Message-ID lets the receiving side tell).
    if (!(error instanceof StoreUnavailableError) || next.status === 'failed') throw error;
    console.error('[outbox] the outcome of', message.id, 'could not be recorded:', next.status);
    return next;
  }
  if (next.status === 'sent') {
    // Counted for the impact figures; the follow-up run records any this misses.
    await recordSent(next).catch((error: unknown) => console.error('[outbox] impact not recorded for', next.id, error instanceof Error ? error.message : ''));
  }
  return next;
}
