/**
 * The outbox of school emails sent "via our platform". A message is stored before HubSpot is
 * touched, then delivered by setting the parent's contact properties (send choice, subject, body)
 * so that a HubSpot workflow sends it. A message that cannot be delivered now stays pending and
 * the scheduled `outbox-retry` function tries again, up to MAX_ATTEMPTS.
 *
 * Keys: `messages/{id}` holds the record; `pending/{id}` marks it for the retry run.
 */
import type { Client } from '@hubspot/api-client';
import { serverEnv } from './env';
import { getContact, isRetryable, searchContactsByEmail, statusOf, updateContact, type ContactResult } from './hubspot';
import { StoreUnavailableError } from './http';
import { store, withStore } from './store';

/** Attempts in all (the request's own and the scheduled retries) before a message is failed. */
export const MAX_ATTEMPTS = 6;
/** The value of the send-choice property that asks the HubSpot workflow to send (§4). */
export const PLATFORM_SEND_VALUE = 'Send Via our platform';
/** How long a claimed message is left alone by other runs. */
export const LEASE_MS = 60_000;
/** First delay between scheduled retries; doubles each time. */
export const RETRY_BASE_MS = 5 * 60_000;

/**
 * Only a parent who has just submitted the email form can have the platform send: the contact's
 * most recent form submission (HubSpot's `recent_conversion_date`) must fall between this long
 * before the request and CONVERSION_SKEW_MS after it. Knowing a parent's email is not enough to
 * send a school a message in their name.
 */
export const CONVERSION_WINDOW_MS = 30 * 60_000;
/** Clock difference allowed between HubSpot and this function. */
export const CONVERSION_SKEW_MS = 2 * 60_000;
/** HubSpot records a submission a little after the visitor sends it; until then, wait and retry. */
export const CONVERSION_LAG_MS = 10 * 60_000;
export const RECENT_CONVERSION_PROPERTY = 'recent_conversion_date';

/** Whether the contact's latest form submission is the one this message follows. */
export function followsSubmission(conversion: string | null | undefined, createdAt: string): 'yes' | 'not_yet' | 'no' {
  const requested = Date.parse(createdAt);
  const submitted = conversion ? (/^\d+$/.test(conversion) ? Number(conversion) : Date.parse(conversion)) : NaN;
  if (submitted >= requested - CONVERSION_WINDOW_MS && submitted <= requested + CONVERSION_SKEW_MS) return 'yes';
  // A later submission cannot be the one this request followed.
  if (submitted > requested + CONVERSION_SKEW_MS) return 'no';
  return Date.now() < requested + CONVERSION_LAG_MS ? 'not_yet' : 'no';
}

export type OutboxStatus = 'pending' | 'sent' | 'failed';

export interface OutboxMessage {
  parentEmail: string;
  to: string;
  subject: string;
  body: string;
}

export interface OutboxRecord {
  id: string;
  status: OutboxStatus;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  /** No run delivers this record before this time. */
  nextAttemptAt: string;
  /** A short code of the last failure; never a token or a response body. */
  lastError?: string;
  contactId?: string;
  message: OutboxMessage;
}

const outboxStore = () => store('outbox', { strong: true });
const messageKey = (id: string) => `messages/${id}`;
const pendingKey = (id: string) => `pending/${id}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class DeliveryError extends Error {
  constructor(
    readonly code: string,
    readonly transient: boolean,
  ) {
    super(code);
  }
}

/**
 * Stores a new message under its idempotency key. Returns `created: false` and the stored record
 * when that key was used before, so a double click sends once.
 */
export async function enqueue(id: string, message: OutboxMessage, now = new Date()): Promise<{ created: boolean; record: OutboxRecord }> {
  const record: OutboxRecord = {
    id,
    status: 'pending',
    attempts: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString(),
    message,
  };
  return withStore(async () => {
    const blobs = outboxStore();
    const stored = (await blobs.get(messageKey(id), { type: 'json' })) as OutboxRecord | null;
    if (stored) return { created: false, record: stored };
    // The marker first: if the store fails between the two writes, what is left is a marker
    // without its message, which the retry run drops, never a message that nothing delivers.
    await blobs.set(pendingKey(id), '');
    const { modified } = await blobs.setJSON(messageKey(id), record, { onlyIfNew: true });
    if (!modified) {
      const existing = (await blobs.get(messageKey(id), { type: 'json' })) as OutboxRecord | null;
      return { created: false, record: existing ?? record };
    }
    return { created: true, record };
  });
}

export async function readRecord(id: string): Promise<OutboxRecord | null> {
  return withStore(async () => (await outboxStore().get(messageKey(id), { type: 'json' })) as OutboxRecord | null);
}

export async function pendingIds(): Promise<string[]> {
  return withStore(async () => {
    const { blobs } = await outboxStore().list({ prefix: 'pending/' });
    return blobs.map((blob) => blob.key.slice('pending/'.length));
  });
}

async function save(record: OutboxRecord): Promise<void> {
  await withStore(async () => {
    const blobs = outboxStore();
    await blobs.setJSON(messageKey(record.id), record);
    if (record.status === 'pending') await blobs.set(pendingKey(record.id), '');
    else await blobs.delete(pendingKey(record.id));
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
 * Finds the parent's contact, waiting out HubSpot's lag: a contact created by a form submission a
 * moment ago is not searchable for a few seconds, and an existing contact shows the new
 * submission a little after it is found. `ready` says when the contact found is up to date.
 */
async function findContact(
  client: Client,
  email: string,
  properties: string[],
  options: { lagAttempts: number; deadline: number; ready: (contact: ContactResult) => boolean },
): Promise<ContactResult> {
  let contact: ContactResult | undefined;
  for (let attempt = 1; attempt <= options.lagAttempts; attempt++) {
    const found = await withDeadline(searchContactsByEmail(client, email, ['email', ...properties]), options.deadline);
    contact = found.results[0] ?? contact;
    if (contact && options.ready(contact)) return contact;
    if (attempt < options.lagAttempts) {
      const wait = serverEnv.hubspotRetryBaseMs * 2 ** (attempt - 1);
      if (Date.now() + wait >= options.deadline) break;
      await sleep(wait);
    }
  }
  if (contact) return contact;
  throw new DeliveryError('contact_not_found', true);
}

async function deliver(client: Client, record: OutboxRecord, options: { lagAttempts: number; budgetMs: number }): Promise<string> {
  const deadline = Date.now() + options.budgetMs;
  try {
    const names = serverEnv.contactProperties;
    const wanted = {
      [names.emailSubject]: record.message.subject,
      [names.emailBody]: record.message.body,
      // Last, so the workflow that fires on this change already sees the subject and body.
      [names.sendChoice]: PLATFORM_SEND_VALUE,
    };
    // An earlier attempt may have delivered it without recording so (the store failed after
    // HubSpot accepted): the contact already holds this message, and setting it again could send
    // it twice, while changing nothing on the contact.
    const holdsMessage = (contact: ContactResult) => Object.entries(wanted).every(([name, value]) => contact.properties[name] === value);
    const follows = (contact: ContactResult) => followsSubmission(contact.properties[RECENT_CONVERSION_PROPERTY], record.createdAt);
    const properties = [...Object.keys(wanted), RECENT_CONVERSION_PROPERTY];
    const contact = record.contactId
      ? await withDeadline(getContact(client, record.contactId, properties), deadline)
      : await findContact(client, record.message.parentEmail, properties, {
          lagAttempts: options.lagAttempts,
          deadline,
          ready: (found) => holdsMessage(found) || follows(found) !== 'not_yet',
        });
    if (holdsMessage(contact)) return contact.id;
    const submitted = follows(contact);
    if (submitted !== 'yes') throw new DeliveryError('no_recent_submission', submitted === 'not_yet');
    await withDeadline(updateContact(client, contact.id, wanted), deadline);
    return contact.id;
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    const status = statusOf(error);
    throw new DeliveryError(status ? `hubspot_${status}` : 'hubspot_unreachable', isRetryable(error));
  }
}

/**
 * One delivery attempt: sent, or pending with the next retry time, or failed when the error is
 * permanent or the attempts are used up. The record is saved either way.
 */
export async function attemptDelivery(
  client: Client,
  record: OutboxRecord,
  options: { lagAttempts?: number; budgetMs?: number; now?: () => Date } = {},
): Promise<OutboxRecord> {
  const now = options.now ?? (() => new Date());
  const attempts = record.attempts + 1;
  let next: OutboxRecord;
  try {
    const contactId = await deliver(client, record, {
      lagAttempts: options.lagAttempts ?? 5,
      budgetMs: options.budgetMs ?? serverEnv.sendEmailBudgetMs,
    });
    next = { ...record, attempts, contactId, status: 'sent', lastError: undefined, updatedAt: now().toISOString() };
  } catch (error) {
    const failure = error instanceof DeliveryError ? error : new DeliveryError('unknown', true);
    const exhausted = attempts >= MAX_ATTEMPTS;
    const at = now();
    next = {
      ...record,
      attempts,
      status: failure.transient && !exhausted ? 'pending' : 'failed',
      lastError: failure.code,
      updatedAt: at.toISOString(),
      nextAttemptAt: new Date(at.getTime() + RETRY_BASE_MS * 2 ** (attempts - 1)).toISOString(),
    };
  }
  try {
    await save(next);
  } catch (error) {
    // HubSpot has been asked already, so the answer reports what it did. The store still holds
    // the message as pending, and the retry run settles it (recognising a delivered one above);
    // only "failed" would contradict that, so it stays a store failure.
    if (!(error instanceof StoreUnavailableError) || next.status === 'failed') throw error;
    console.error('[outbox] the outcome of', record.id, 'could not be recorded:', next.status);
  }
  return next;
}
