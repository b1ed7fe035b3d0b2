/**
 * Submissions to the site's own forms: stored in the database first, then forwarded to HubSpot's form
 * submission API (the authenticated endpoint) exactly once, by the request itself when HubSpot
 * answers in time and by the scheduled `forms-deliver` function otherwise. A parent's input is
 * never lost because HubSpot is slow, down or not configured yet.
 *
 * Exactly once: an attempt first claims the record (state `sending` with a lease, written only over
 * the version it read), so two runs never send it at the same time. An attempt that ends without HubSpot's answer (a timeout, a
 * dropped connection, a 5xx, a run that died) may still have been recorded by HubSpot, so before
 * sending again the next attempt looks for it among the form's submissions in HubSpot, by the
 * `submittedAt` it was sent with.
 *
 * Table `form_submissions`: one row per submission (ids sort newest first), the record as `record`
 * with the columns the delivery run (`state`, `next_attempt_at`, `lease_until`, partial index of
 * what is due) and the purge (`settled_at`, 30 days later) look for.
 */
import type { Client } from '@hubspot/api-client';
import { forms, formPurposes, type FormPurpose } from '../../config/forms';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { allFields } from '../../lib/shared/forms/fields';
import type { ConsentGiven } from '../../lib/shared/forms/values';
import { activeHubSpotToken } from '../staff/admin-config';
import { serverEnv } from '../env';
import { HttpError, StoreUnavailableError } from '../http';
import { hubspotClient, searchContactsByEmail, statusOf, updateContact } from '../hubspot';
import { query, queryOne, sql } from '../db';
import { recordKey } from '../ids';

/** Delivered (or refused for good) submissions are deleted this long after. */
export const SUBMISSION_RETENTION_MS = 30 * 24 * 3600_000;
/** Held submissions nobody released are deleted this long after they came. */
export const HELD_RETENTION_MS = 7 * 24 * 3600_000;
/** The longest wait between two retries (the first is FORMS_RETRY_BASE_MS, 5 minutes, doubling). */
export const RETRY_MAX_MS = 6 * 3600_000;
/** How long a claim on a record lasts: longer than any attempt. */
export const LEASE_MS = 60_000;
/** How many pages of HubSpot's submissions (50 each) are searched for an uncertain attempt. */
const LOOKUP_PAGES = 6;

import type { Delivery, DeliveryState } from '../../lib/shared/schemas/admin';
export type { Delivery, DeliveryState };

export interface StoredSubmission {
  id: string;
  purpose: FormPurpose;
  formId: string;
  formName: string;
  createdAt: string;
  /** Sent to HubSpot as `submittedAt` (ms), which finds this submission there again. */
  submittedAt: number;
  /** Accepted values by HubSpot field name. */
  values: Record<string, string>;
  /** The label of each field when it was submitted, for the admin page. */
  labels: Record<string, string>;
  /** HubSpot's object type of the fields that are not contact properties (e.g. `0-2`, a company). */
  objectTypeIds?: Record<string, string>;
  consent?: ConsentGiven;
  /** What HubSpot's `legalConsentOptions` takes, fixed at submission. */
  legalConsentOptions?: Record<string, unknown>;
  context: { pageUri: string; pageName: string; hutk?: string };
  delivery: Delivery;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const newSubmissionId = (now = new Date()) => recordKey(now);
export const isSubmissionId = (id: string) => /^\d{13}-[0-9a-f-]{36}$/.test(id);

/** HubSpot's client when it is configured (the admin page's token first), else undefined. */
export async function formsHubSpot(): Promise<Client | undefined> {
  const token = (await activeHubSpotToken().catch(() => undefined)) ?? serverEnv.hubspotAccessToken;
  if (!token) return undefined;
  try {
    return hubspotClient(token);
  } catch (error) {
    if (error instanceof HttpError && error.code === 'hubspot_not_configured') return undefined;
    throw error;
  }
}

/** HubSpot's `legalConsentOptions` for what the visitor agreed to on a form of this definition. */
export function legalConsentFor(definition: FormDefinition, consent: ConsentGiven | undefined): Record<string, unknown> | undefined {
  const options = definition.legalConsentOptions;
  if (options.type === 'legitimate_interest') {
    const basis = { lead: 'LEGITIMATE_INTEREST_PQL', client: 'LEGITIMATE_INTEREST_CLIENT', other: 'LEGITIMATE_INTEREST_OTHER' }[options.lawfulBasis];
    const subscriptionTypeId = options.subscriptionTypeIds[0];
    return subscriptionTypeId === undefined
      ? undefined
      : { legitimateInterest: { value: true, subscriptionTypeId, legalBasis: basis, text: options.privacyText } };
  }
  if (options.type === 'none' || !consent) return undefined;
  return {
    consent: {
      consentToProcess: consent.toProcess,
      text: options.consentToProcessText || options.privacyText,
      communications: consent.communications,
    },
  };
}

/** A new record for accepted values, not yet stored. */
export function newSubmission(input: {
  purpose: FormPurpose;
  definition: FormDefinition;
  values: Record<string, string>;
  consent: ConsentGiven | undefined;
  context: StoredSubmission['context'];
  now?: Date;
}): StoredSubmission {
  const now = input.now ?? new Date();
  const fields = allFields(input.definition);
  const labels = Object.fromEntries(fields.map((field) => [field.name, field.label || field.name]));
  const objectTypeIds = Object.fromEntries(fields.filter((field) => field.objectTypeId !== '0-1').map((field) => [field.name, field.objectTypeId]));
  const legalConsentOptions = legalConsentFor(input.definition, input.consent);
  return {
    id: newSubmissionId(now),
    purpose: input.purpose,
    formId: input.definition.id,
    formName: forms[input.purpose].title,
    createdAt: now.toISOString(),
    submittedAt: now.getTime(),
    values: input.values,
    labels,
    ...(Object.keys(objectTypeIds).length ? { objectTypeIds } : {}),
    ...(input.consent ? { consent: input.consent } : {}),
    ...(legalConsentOptions ? { legalConsentOptions } : {}),
    context: input.context,
    delivery: { state: 'pending', attempts: 0, nextAttemptAt: now.toISOString() },
  };
}

const workLeft = (record: StoredSubmission) => record.delivery.state === 'pending' || record.delivery.state === 'sending';

/** The columns of a submission's row, from the record. */
const columnsOf = (record: StoredSubmission) => {
  const { delivery } = record;
  return {
    state: delivery.state,
    nextAttemptAt: delivery.nextAttemptAt,
    leaseUntil: delivery.state === 'sending' ? (delivery.leaseUntil ?? delivery.nextAttemptAt) : null,
    settledAt: delivery.deliveredAt ?? delivery.failedAt ?? null,
  };
};

/** Stores a new submission. */
export async function storeSubmission(record: StoredSubmission): Promise<{ record: StoredSubmission; etag: string }> {
  const c = columnsOf(record);
  const row = await queryOne<{ version: number }>(sql`
    INSERT INTO form_submissions (id, purpose, form_id, created_at, state, next_attempt_at, lease_until, settled_at, record)
    VALUES (${record.id}, ${record.purpose}, ${record.formId}, ${record.createdAt}, ${c.state}, ${c.nextAttemptAt}, ${c.leaseUntil}, ${c.settledAt}, ${record})
    ON CONFLICT (id) DO NOTHING
    RETURNING version`);
  if (!row) throw new Error(`A submission with id ${record.id} exists already.`);
  return { record, etag: String(row.version) };
}

export async function readSubmission(purpose: string, id: string): Promise<{ record: StoredSubmission; etag: string } | undefined> {
  const row = await queryOne<{ record: StoredSubmission; version: number }>(
    sql`SELECT record, version FROM form_submissions WHERE id = ${id} AND purpose = ${purpose}`,
  );
  return row ? { record: row.record, etag: String(row.version) } : undefined;
}

/** Saves a change made from version `etag`; undefined when another run changed it first. */
export async function saveSubmission(record: StoredSubmission, etag: string): Promise<string | undefined> {
  const c = columnsOf(record);
  const row = await queryOne<{ version: number }>(sql`
    UPDATE form_submissions SET state = ${c.state}, next_attempt_at = ${c.nextAttemptAt}, lease_until = ${c.leaseUntil}, settled_at = ${c.settledAt},
      record = ${record}, version = version + 1
    WHERE id = ${record.id} AND purpose = ${record.purpose} AND version = ${Number(etag)}
    RETURNING version`);
  return row ? String(row.version) : undefined;
}

/** Removes a submission. */
export async function deleteSubmission(record: StoredSubmission): Promise<void> {
  await query(sql`DELETE FROM form_submissions WHERE id = ${record.id} AND purpose = ${record.purpose}`);
}

/** The records with delivery left to do whose time has come (all of them without `dueBy`), as `{purpose, id}`. */
export async function pendingSubmissions(dueBy?: Date): Promise<Array<{ purpose: string; id: string }>> {
  const due = dueBy ?? null;
  return query<{ purpose: string; id: string }>(sql`
    SELECT purpose, id FROM form_submissions
    WHERE state IN ('pending', 'sending')
      AND (${due}::timestamptz IS NULL OR (CASE WHEN state = 'sending' THEN lease_until ELSE next_attempt_at END) <= ${due}::timestamptz)
    ORDER BY (CASE WHEN state = 'sending' THEN lease_until ELSE next_attempt_at END)
    LIMIT 500`);
}

/** One form's submissions, newest first, a page at a time (keyset on the form and id). */
export async function listSubmissions(
  purpose: FormPurpose,
  limit: number,
  cursor?: string,
): Promise<{ submissions: StoredSubmission[]; total: number; nextCursor?: string }> {
  const after = cursor ?? null;
  const [rows, count] = await Promise.all([
    query<{ id: string; record: StoredSubmission }>(sql`
      SELECT id, record FROM form_submissions WHERE purpose = ${purpose} AND (${after}::text IS NULL OR id > ${after}::text)
      ORDER BY id LIMIT ${limit + 1}`),
    queryOne<{ total: number }>(sql`SELECT count(*)::int AS total FROM form_submissions WHERE purpose = ${purpose}`),
  ]);
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { submissions: page.map((row) => row.record), total: count?.total ?? 0, ...(more ? { nextCursor: page.at(-1)!.id } : {}) };
}

/** How many submissions each form has stored. */
export async function countSubmissions(): Promise<Record<FormPurpose, number>> {
  const rows = await query<{ purpose: string; total: number }>(sql`SELECT purpose, count(*)::int AS total FROM form_submissions GROUP BY purpose`);
  const counts = Object.fromEntries(formPurposes.map((purpose) => [purpose, 0])) as Record<FormPurpose, number>;
  for (const { purpose, total } of rows) if (purpose in counts) counts[purpose as FormPurpose] = total;
  return counts;
}

/** Deletes what was settled more than the retention ago, and held submissions after 7 days; returns how many. */
export async function purgeSettled(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SUBMISSION_RETENTION_MS);
  const heldCutoff = new Date(now.getTime() - HELD_RETENTION_MS);
  const settled = await query(sql`DELETE FROM form_submissions WHERE settled_at < ${cutoff} RETURNING 1`);
  const held = await query(sql`DELETE FROM form_submissions WHERE state = 'held' AND created_at < ${heldCutoff} RETURNING 1`);
  return settled.length + held.length;
}

/** A submission judged automated: kept as it came, not delivered, until a person releases it. */
export function heldSubmission(record: StoredSubmission, reason: string): StoredSubmission {
  return { ...record, delivery: { ...record.delivery, state: 'held', heldReason: reason } };
}

/** Releases a held submission (the admin's one click): it is delivered like any other. */
export async function releaseSubmission(
  found: { record: StoredSubmission; etag: string },
  now = new Date(),
): Promise<{ record: StoredSubmission; etag: string } | undefined> {
  if (found.record.delivery.state !== 'held') return undefined;
  const released: StoredSubmission = { ...found.record, delivery: { state: 'pending', attempts: 0, nextAttemptAt: now.toISOString() } };
  const saved = await saveSubmission(released, found.etag);
  return saved === undefined ? undefined : { record: released, etag: saved };
}

// --- Delivery -----------------------------------------------------------------------------------

class AttemptError extends Error {
  constructor(
    readonly code: string,
    /** Worth trying again later. */
    readonly transient: boolean,
    /** HubSpot may have recorded the submission even so. */
    readonly uncertain: boolean,
  ) {
    super(code);
  }
}

function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    operation,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AttemptError('timeout', true, true)), Math.max(0, ms));
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The body of HubSpot's submit endpoint for a stored record. Never the visitor's HubSpot cookie
 * (`hutk`): the address a form names is typed, not proven, and the cookie would tie whoever typed
 * it to that person's contact.
 */
export function hubspotSubmitBody(record: StoredSubmission): Record<string, unknown> {
  return {
    submittedAt: String(record.submittedAt),
    fields: Object.entries(record.values)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => ({ objectTypeId: record.objectTypeIds?.[name] ?? '0-1', name, value })),
    context: { pageUri: record.context.pageUri, pageName: record.context.pageName },
    ...(record.legalConsentOptions ? { legalConsentOptions: record.legalConsentOptions } : {}),
  };
}

/** The contact properties a record holds (its fields that are the contact's, but the address). */
const contactValues = (record: StoredSubmission) =>
  Object.fromEntries(
    Object.entries(record.values).filter(([name, value]) => value !== '' && name !== 'email' && (record.objectTypeIds?.[name] ?? '0-1') === '0-1'),
  );

/**
 * A form names an address it has not proven: when HubSpot has a contact for it already, the
 * submission only fills that contact's empty properties (nothing a stranger types overwrites what a
 * person or staff set) and is not submitted as a form. True when it was handled that way.
 */
async function fillExistingContact(client: Client, record: StoredSubmission, budgetMs: number): Promise<boolean> {
  const email = record.values.email?.trim();
  if (!email) return false;
  const values = contactValues(record);
  let found: Awaited<ReturnType<typeof searchContactsByEmail>>;
  try {
    found = await withDeadline(searchContactsByEmail(client, email, Object.keys(values)), budgetMs);
  } catch (error) {
    // Nothing was submitted yet: whatever went wrong, the next attempt asks again.
    const status = statusOf(error);
    throw new AttemptError(
      status ? `hubspot_${status}` : error instanceof AttemptError ? error.code : 'hubspot_unreachable',
      status === undefined || status === 429 || status >= 500,
      false,
    );
  }
  const existing = found.results[0];
  if (!existing) return false;
  const empty = Object.fromEntries(Object.entries(values).filter(([name]) => (existing.properties[name] ?? '').trim() === ''));
  if (Object.keys(empty).length === 0) return true;
  try {
    await withDeadline(updateContact(client, existing.id, empty), budgetMs);
  } catch (error) {
    if (error instanceof AttemptError) throw error;
    const status = statusOf(error);
    throw new AttemptError(status ? `hubspot_${status}` : 'hubspot_unreachable', status === undefined || status === 429 || status >= 500, false);
  }
  return true;
}

/** HubSpot's error type of a 400 answer (`errors[0].errorType`), for the record. */
async function refusalOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { errors?: Array<{ errorType?: unknown }> } | null;
  const type = body?.errors?.[0]?.errorType;
  return typeof type === 'string' && /^[A-Z_]{1,60}$/.test(type) ? type : `hubspot_${response.status}`;
}

async function postToHubSpot(client: Client, record: StoredSubmission, budgetMs: number): Promise<void> {
  if (await fillExistingContact(client, record, budgetMs)) return;
  const url = `${serverEnv.hubspotFormsBasePath}/submissions/v3/integration/secure/submit/${encodeURIComponent(serverEnv.hubspotPortalId)}/${encodeURIComponent(record.formId)}`;
  let response: Response;
  try {
    response = (await withDeadline(client.apiRequest({ method: 'POST', overlapUrl: url, body: hubspotSubmitBody(record) }), budgetMs)) as unknown as Response;
  } catch (error) {
    if (error instanceof AttemptError) throw error;
    throw new AttemptError('hubspot_unreachable', true, true);
  }
  if (response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const status = response.status;
  if (status === 400) throw new AttemptError(await refusalOf(response), false, false);
  await response.body?.cancel().catch(() => undefined);
  // A form HubSpot does not have, or one it will not take through the API: refused for good.
  if (status === 404 || status === 409) throw new AttemptError(`hubspot_${status}`, false, false);
  // 401/403 (token) and 429 were refused before anything was recorded; 5xx may have been recorded.
  throw new AttemptError(`hubspot_${status}`, true, status >= 500);
}

/** Whether HubSpot already has this submission (the `submittedAt` it was sent with, and the email). */
export async function foundInHubSpot(client: Client, record: StoredSubmission, budgetMs: number): Promise<boolean> {
  let after: string | undefined;
  for (let page = 0; page < LOOKUP_PAGES; page++) {
    const response = (await withDeadline(
      client.apiRequest({
        method: 'GET',
        path: `/form-integrations/v1/submissions/forms/${encodeURIComponent(record.formId)}`,
        qs: { limit: 50, ...(after ? { after } : {}) },
      }),
      budgetMs,
    )) as unknown as Response;
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AttemptError(`hubspot_lookup_${response.status}`, true, true);
    }
    const body = (await response.json()) as {
      results?: Array<{ submittedAt?: number; values?: Array<{ name: string; value: string }> }>;
      paging?: { next?: { after?: string } };
    };
    for (const result of body.results ?? []) {
      if (result.submittedAt !== record.submittedAt) continue;
      const email = record.values.email;
      if (!email || result.values?.some((value) => value.name === 'email' && value.value.toLowerCase() === email.toLowerCase())) return true;
    }
    const oldest = body.results?.at(-1)?.submittedAt;
    after = body.paging?.next?.after;
    // Newest first: once past this record's time, it is not there.
    if (!after || (typeof oldest === 'number' && oldest < record.submittedAt)) return false;
  }
  return false;
}

const retryAt = (now: Date, attempts: number) => {
  // HubSpot lists a submission a moment after taking it, so even the first retry (which looks for
  // an uncertain one) waits the base delay.
  const wait = Math.min(serverEnv.formsRetryBaseMs * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
  return new Date(now.getTime() + wait).toISOString();
};

export interface DeliverOptions {
  budgetMs?: number;
  now?: () => Date;
}

/**
 * One delivery attempt for a stored record (as read, with its etag). Returns the record as it now
 * stands. Without HubSpot (`client` undefined) it waits, marked so for the admin page.
 */
export async function deliverSubmission(
  client: Client | undefined,
  found: { record: StoredSubmission; etag: string },
  options: DeliverOptions = {},
): Promise<StoredSubmission> {
  const now = options.now ?? (() => new Date());
  const budgetMs = options.budgetMs ?? serverEnv.formsDeliveryBudgetMs;
  const { record, etag } = found;
  const { delivery } = record;
  if (delivery.state === 'delivered' || delivery.state === 'failed' || delivery.state === 'held') return record;
  const leaseHeld = delivery.state === 'sending' && Date.parse(delivery.leaseUntil ?? '') > now().getTime();
  if (leaseHeld) return record;
  if (!client) {
    if (delivery.lastError === 'hubspot_not_configured') return record;
    const waiting = { ...record, delivery: { ...delivery, state: 'pending' as const, lastError: 'hubspot_not_configured' } };
    return (await saveSubmission(waiting, etag)) === undefined ? ((await readSubmission(record.purpose, record.id))?.record ?? record) : waiting;
  }

  // A run that died while sending left its claim: what it did is unknown.
  const uncertain = Boolean(delivery.uncertain) || delivery.state === 'sending';
  const claim: StoredSubmission = {
    ...record,
    delivery: {
      ...delivery,
      state: 'sending',
      attempts: delivery.attempts + 1,
      leaseUntil: new Date(now().getTime() + Math.max(LEASE_MS, budgetMs * 3)).toISOString(),
      uncertain,
    },
  };
  const claimed = await saveSubmission(claim, etag);
  if (claimed === undefined) return (await readSubmission(record.purpose, record.id))?.record ?? record;

  let next: StoredSubmission;
  try {
    const started = Date.now();
    const already = uncertain && (await foundInHubSpot(client, record, budgetMs));
    if (!already) {
      const remaining = budgetMs - (Date.now() - started);
      // Too little time left to send: nothing goes out, so nothing new is uncertain.
      if (remaining < 300) throw new AttemptError('timeout', true, false);
      await postToHubSpot(client, record, remaining);
    }
    const at = now().toISOString();
    next = { ...claim, delivery: { state: 'delivered', attempts: claim.delivery.attempts, nextAttemptAt: at, deliveredAt: at } };
  } catch (error) {
    const failure = error instanceof AttemptError ? error : new AttemptError('hubspot_unreachable', true, true);
    const at = now();
    next = failure.transient
      ? {
          ...claim,
          delivery: {
            state: 'pending',
            attempts: claim.delivery.attempts,
            nextAttemptAt: retryAt(at, claim.delivery.attempts),
            uncertain: failure.uncertain || uncertain,
            lastError: failure.code,
          },
        }
      : {
          ...claim,
          delivery: {
            state: 'failed',
            attempts: claim.delivery.attempts,
            nextAttemptAt: at.toISOString(),
            lastError: failure.code,
            failedAt: at.toISOString(),
          },
        };
  }
  try {
    if ((await saveSubmission(next, claimed)) === undefined) return (await readSubmission(record.purpose, record.id))?.record ?? next;
  } catch (error) {
    // HubSpot has been asked; the record still shows the claim, so the next run looks it up there
    // before sending again.
    if (!(error instanceof StoreUnavailableError)) throw error;
    console.error('[forms] the outcome of', record.id, 'could not be recorded:', next.delivery.state);
  }
  return next;
}

/** Lets a failed submission be sent again now (the admin's "Retry"). */
export async function requeueSubmission(
  found: { record: StoredSubmission; etag: string },
  now = new Date(),
): Promise<{ record: StoredSubmission; etag: string } | undefined> {
  const { record, etag } = found;
  const requeued: StoredSubmission = {
    ...record,
    delivery: { state: 'pending', attempts: 0, nextAttemptAt: now.toISOString(), ...(record.delivery.uncertain ? { uncertain: true } : {}) },
  };
  const saved = await saveSubmission(requeued, etag);
  if (saved === undefined) return undefined;
  return { record: requeued, etag: saved };
}

/** Delivers what is due, one record at a time; a record that cannot be read is tried next run. */
export async function deliverDue(client: Client, now = new Date()): Promise<Record<'checked' | 'delivered' | 'failed' | 'waiting' | 'skipped', number>> {
  const summary = { checked: 0, delivered: 0, failed: 0, waiting: 0, skipped: 0 };
  for (const { purpose, id } of await pendingSubmissions()) {
    summary.checked++;
    try {
      const found = await readSubmission(purpose, id);
      if (!found || !workLeft(found.record)) {
        // Settled by another run meanwhile, or deleted.
        summary.skipped++;
        continue;
      }
      const { delivery } = found.record;
      const due = delivery.state === 'sending' ? Date.parse(delivery.leaseUntil ?? '') <= now.getTime() : Date.parse(delivery.nextAttemptAt) <= now.getTime();
      if (!due) {
        summary.skipped++;
        continue;
      }
      const result = await deliverSubmission(client, found, { budgetMs: serverEnv.formsRetryBudgetMs, now: () => now });
      if (result.delivery.state === 'delivered') summary.delivered++;
      else if (result.delivery.state === 'failed') summary.failed++;
      else summary.waiting++;
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      console.error('[forms-deliver] record', id, error instanceof Error ? error.message : 'unknown error');
      summary.waiting++;
    }
    // Spread the calls a little: HubSpot's secure endpoint allows a burst, not a flood.
    await sleep(20);
  }
  return summary;
}
