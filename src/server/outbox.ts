/**
 * School emails: the ones the platform sends in a parent's name, and the ones the parent says they
 * sent themselves (for the follow-up). A platform message is made only from a draft (see
 * `email-drafts.ts`); it waits for the parent's confirmation from their own inbox (unless
 * PLATFORM_SEND_CONFIRMATION=off), takes its limits (`send-limits.ts`), and is delivered whole by
 * the configured sender (`deliver-message.ts`: HubSpot single-send or SMTP; without one it waits).
 * Everything is stored before anything outside is touched; what cannot be done now is retried by
 * the scheduled `outbox-retry` function.
 *
 * Keys in the `outbox` store: `messages/{id}` (ids sort newest first), `pending/{id}` marks a
 * message with work left (a confirmation link to hand over, or a delivery).
 */
import type { Client } from '@hubspot/api-client';
import { deliverMessage, deliveryErrorCode, type DeliveryRecord } from './deliver-message';
import { serverEnv } from './env';
import { getContact, isRetryable, searchContactsByEmail, statusOf, updateContact, type ContactResult } from './hubspot';
import { StoreUnavailableError } from './http';
import { recordKey, store, withStore } from './store';
import { recordSent } from './impact';
import { schoolEmailSender, type SchoolEmailSender } from './school-email-sender';
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
  confirmation?: {
    expiresAt: string;
    confirmedAt?: string;
    /** Handing the link to HubSpot for its workflow: done, waiting, or not possible (no HubSpot). */
    link: 'pending' | 'delivered' | 'not_configured';
    linkAttempts: number;
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
}

export interface FollowUp {
  dueAt: string;
  link: 'pending' | 'delivered' | 'not_configured';
  attempts: number;
  setAt?: string;
  lastError?: string;
}

/** The follow-up of a message sent at `sentAt`. */
export function newFollowUp(sentAt: Date): FollowUp {
  return { dueAt: new Date(sentAt.getTime() + serverEnv.followUpAfterDays * 24 * 3600_000).toISOString(), link: 'pending', attempts: 0 };
}

export const followUpKey = (id: string) => `followups/${id}`;
const followUpWaiting = (message: OutboxMessage) => Boolean(message.followUp && message.followUp.link !== 'delivered');

const outbox = () => store('outbox', { strong: true });
export const messageKey = (id: string) => `messages/${id}`;
export const pendingKey = (id: string) => `pending/${id}`;
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

export async function readMessage(id: string): Promise<{ message: OutboxMessage; etag: string } | undefined> {
  const found = await withStore(() => outbox().getWithMetadata(messageKey(id), { type: 'json' }));
  return found ? { message: found.data as OutboxMessage, etag: found.etag ?? '' } : undefined;
}

/** Stores a new message (and its pending marker when work is left). */
export async function createMessage(message: OutboxMessage): Promise<void> {
  await withStore(async () => {
    // The marker first: a marker without its message is dropped by the retry run; a message
    // without its marker would be forgotten.
    if (hasWorkLeft(message)) await outbox().set(pendingKey(message.id), '');
    if (followUpWaiting(message)) await outbox().set(followUpKey(message.id), '');
    await outbox().setJSON(messageKey(message.id), message, { onlyIfNew: true });
  });
}

function hasWorkLeft(message: OutboxMessage): boolean {
  if (message.status === 'queued') return true;
  // A link not yet with HubSpot (waiting, or HubSpot not configured then) is handed over later.
  return message.status === 'awaiting_confirmation' && message.confirmation?.link !== 'delivered';
}

/**
 * Saves a change made from the version `etag` (any version without one). Returns the new version's
 * etag, or undefined when another run changed the message first.
 */
export async function saveMessage(message: OutboxMessage, etag?: string): Promise<string | undefined> {
  return withStore(async () => {
    // Work left: the marker first, so that no state with work left is ever without one (a marker
    // whose change did not happen is dropped by the retry run). No work left: the marker last.
    const work = hasWorkLeft(message);
    if (work) await outbox().set(pendingKey(message.id), '');
    if (followUpWaiting(message)) await outbox().set(followUpKey(message.id), '');
    const saved = await outbox().setJSON(messageKey(message.id), message, etag ? { onlyIfMatch: etag } : {});
    if (!saved.modified) return undefined;
    if (!work) await outbox().delete(pendingKey(message.id));
    if (message.followUp?.link === 'delivered') await outbox().delete(followUpKey(message.id));
    return saved.etag ?? '';
  });
}

export async function pendingIds(): Promise<string[]> {
  return withStore(async () => {
    const { blobs } = await outbox().list({ prefix: 'pending/' });
    return blobs.map((blob) => blob.key.slice('pending/'.length));
  });
}

/** Every message, newest first, a page at a time. */
export async function listMessages(limit: number, cursor?: string): Promise<{ messages: OutboxMessage[]; nextCursor?: string }> {
  return withStore(async () => {
    const { blobs } = await outbox().list({ prefix: 'messages/' });
    const keys = blobs.map((blob) => blob.key).sort();
    const start = cursor ? keys.findIndex((key) => key > messageKey(cursor)) : 0;
    const page = start < 0 ? [] : keys.slice(start, start + limit);
    const messages = (await Promise.all(page.map((key) => outbox().get(key, { type: 'json' })))).filter(Boolean) as OutboxMessage[];
    const last = page.at(-1);
    const more = start >= 0 && start + limit < keys.length;
    return { messages, ...(more && last ? { nextCursor: last.slice('messages/'.length) } : {}) };
  });
}

export async function deleteMessage(id: string): Promise<void> {
  await withStore(async () => {
    await outbox().delete(messageKey(id));
    await outbox().delete(pendingKey(id));
    await outbox().delete(followUpKey(id));
    await outbox().delete(`answers/${id}`);
  });
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
    await withDeadline(updateContact(client, contact.id, { [names.confirmSendSchool]: message.schoolName, [names.confirmSendUrl]: confirmationLink(message) ?? '' }), deadline);
    return contact.id;
  } catch (error) {
    throw asDeliveryError(error);
  }
}

const nextTry = (at: Date, attempts: number) => new Date(at.getTime() + RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1)).toISOString();

/**
 * One step of work on a message: hand over its confirmation link, or deliver it. Returns the
 * message as saved. `client` is undefined when HubSpot is not configured: the link then waits
 * (the admin page shows it); without a sender a delivery stays queued.
 */
export async function attemptWork(client: Client | undefined, message: OutboxMessage, etag: string | undefined, options: AttemptOptions = {}): Promise<OutboxMessage> {
  const now = options.now ?? (() => new Date());
  const settings = { lagAttempts: options.lagAttempts ?? 5, budgetMs: options.budgetMs ?? serverEnv.sendEmailBudgetMs };
  let next: OutboxMessage;
  if (message.status === 'awaiting_confirmation' && message.confirmation && message.confirmation.link !== 'delivered') {
    if (!client) {
      next = { ...message, confirmation: { ...message.confirmation, link: 'not_configured' }, lastError: 'hubspot_not_configured', updatedAt: now().toISOString() };
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
