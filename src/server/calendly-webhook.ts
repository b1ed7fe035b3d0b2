/**
 * Calendly deliveries: the signature check (`Calendly-Webhook-Signature: t=…,v1=…`, HMAC-SHA256 of
 * `{t}.{raw body}`), the webhook log (one per event, however often Calendly retries it) and the
 * HubSpot sync that writes the booking onto the invitee's contact.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { activeHubSpotToken } from './staff/admin-config';
import { serverEnv } from './env';
import { createOrFillContactByEmail, hubspotClient, statusOf } from './hubspot';
import { HttpError } from './http';
import { isUniqueViolation, query, queryOne, sql } from './db';
import { recordKey } from './ids';

/** Deliveries signed longer ago than this are refused as stale. */
export const SIGNATURE_TOLERANCE_S = 180;

export type SignatureCheck = { ok: true; webhookId: string; t: number; v1: string } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

export function signPayload(key: string, t: number, body: string): string {
  return createHmac('sha256', key).update(`${t}.${body}`).digest('hex');
}

export function parseSignatureHeader(header: string): { t: number; v1: string } | null {
  const parts = Object.fromEntries(
    header.split(',').map((part) => {
      const [name, ...rest] = part.trim().split('=');
      return [name, rest.join('=')];
    }),
  );
  const t = Number(parts.t);
  const v1 = parts.v1 ?? '';
  if (!Number.isInteger(t) || t <= 0 || !/^[0-9a-f]{64}$/i.test(v1)) return null;
  return { t, v1: v1.toLowerCase() };
}

/**
 * What can be told of a signature header without any key: missing, malformed or stale. The
 * receiver asks this before it reads the signing keys, so that unsigned requests never reach
 * the configuration.
 */
export function precheckSignature(header: string | null, now = Date.now()): { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' } {
  if (!header) return { ok: false, reason: 'missing' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (Math.abs(now / 1000 - parsed.t) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale' };
  return { ok: true };
}

export function verifySignature(header: string | null, body: string, keys: Array<{ webhookId: string; key: string }>, now = Date.now()): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (Math.abs(now / 1000 - parsed.t) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale' };
  const given = Buffer.from(parsed.v1, 'hex');
  for (const { webhookId, key } of keys) {
    const expected = Buffer.from(signPayload(key, parsed.t, body), 'hex');
    if (expected.length === given.length && timingSafeEqual(expected, given)) return { ok: true, webhookId, ...parsed };
  }
  return { ok: false, reason: 'mismatch' };
}

/** The parts of Calendly's webhook body (v2) the site reads; everything else is kept as is. */
export const calendlyDeliverySchema = z.looseObject({
  event: z.string().min(1).max(100),
  created_at: z.string().max(100).optional().default(''),
  payload: z.looseObject({
    uri: z.string().max(500).optional(),
    email: z.string().max(254).optional(),
    name: z.string().max(300).optional(),
    first_name: z.string().max(200).nullish(),
    last_name: z.string().max(200).nullish(),
    scheduled_event: z
      .looseObject({
        start_time: z.string().max(100).optional(),
        location: z.looseObject({ join_url: z.string().max(1000).nullish() }).nullish(),
        event_memberships: z.array(z.looseObject({ user_name: z.string().max(300).nullish() })).optional(),
      })
      .optional(),
  }),
});
export type CalendlyDelivery = z.infer<typeof calendlyDeliverySchema>;

export interface WebhookLog {
  id: string;
  createdAt: string;
  updatedAt: string;
  eventType: string;
  webhookId: string | null;
  /** received while being handled, then success or error. */
  status: 'received' | 'success' | 'error';
  /** skipped for events that change nothing on the contact. */
  hubspotSyncStatus: 'pending' | 'success' | 'error' | 'skipped';
  hubspotContactId?: string;
  error?: string;
  attempts: number;
  payload: CalendlyDelivery;
}

const logIdPattern = /^\d{13}-[0-9a-f-]{36}$/;

/** Marks a signature as used; false when it was seen before (a replay). */
export async function claimSignature(v1: string): Promise<boolean> {
  const row = await queryOne(sql`INSERT INTO calendly_signatures (signature) VALUES (${v1}) ON CONFLICT DO NOTHING RETURNING 1`);
  return row !== undefined;
}

/** The identity of an event across Calendly's retries of it. */
export function eventFingerprint(delivery: CalendlyDelivery): string {
  return createHash('sha256')
    .update([delivery.event, delivery.payload.uri ?? '', delivery.created_at].join('|'))
    .digest('hex');
}

/** The invitee's uuid: the last segment of its URI (`…/scheduled_events/{event}/invitees/{uuid}`). */
export function inviteeUuidOf(delivery: CalendlyDelivery): string | null {
  const match = /\/invitees\/([A-Za-z0-9-]{1,100})\/?$/.exec(delivery.payload.uri ?? '');
  return match?.[1] ?? null;
}

/**
 * Creates the log of a delivery, or returns null when this event was already handled. An event
 * whose earlier delivery failed part-way (before the sync was recorded) is taken up again under the
 * same log id, so it still gets exactly one log: the event's fingerprint is unique.
 */
export async function startLog(delivery: CalendlyDelivery, webhookId: string): Promise<WebhookLog | null> {
  const now = new Date();
  const log: WebhookLog = {
    id: recordKey(now),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    eventType: delivery.event,
    webhookId,
    status: 'received',
    hubspotSyncStatus: 'pending',
    attempts: 0,
    payload: delivery,
  };
  try {
    await query(sql`
      INSERT INTO webhook_logs (id, event_fingerprint, created_at, invitee_email, invitee_uuid, hubspot_sync_status, record)
      VALUES (${log.id}, ${eventFingerprint(delivery)}, ${log.createdAt}, ${delivery.payload.email?.trim().toLowerCase() ?? null}, ${inviteeUuidOf(delivery)}, ${log.hubspotSyncStatus}, ${log})`);
    return log;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await queryOne<{ record: WebhookLog }>(sql`SELECT record FROM webhook_logs WHERE event_fingerprint = ${eventFingerprint(delivery)}`);
    // Calendly sends an event again only after an error answer, so a log still pending here is
    // one whose sync was never recorded, not one in progress.
    return existing?.record.hubspotSyncStatus === 'pending' ? existing.record : null;
  }
}

export async function saveLog(log: WebhookLog): Promise<void> {
  await query(sql`
    INSERT INTO webhook_logs (id, event_fingerprint, created_at, invitee_email, invitee_uuid, hubspot_sync_status, record)
    VALUES (${log.id}, ${eventFingerprint(log.payload)}, ${log.createdAt}, ${log.payload.payload.email?.trim().toLowerCase() ?? null}, ${inviteeUuidOf(log.payload)}, ${log.hubspotSyncStatus}, ${log})
    ON CONFLICT (id) DO UPDATE SET hubspot_sync_status = EXCLUDED.hubspot_sync_status, record = EXCLUDED.record`);
}

export async function getLog(id: string): Promise<WebhookLog | null> {
  if (!logIdPattern.test(id)) return null;
  return (await queryOne<{ record: WebhookLog }>(sql`SELECT record FROM webhook_logs WHERE id = ${id}`))?.record ?? null;
}

/** Newest first; `cursor` is the id of the last log of the previous page (keyset on the id). */
export async function listLogs(limit: number, cursor?: string): Promise<{ logs: WebhookLog[]; nextCursor: string | null }> {
  const rows = await query<{ id: string; record: WebhookLog }>(sql`
    SELECT id, record FROM webhook_logs WHERE (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text) ORDER BY id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  return { logs: page.map((row) => row.record), nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

/** The contact properties an event writes, or null for events that change nothing. */
export function contactUpdateFor(delivery: CalendlyDelivery): Record<string, string> | null {
  const names = serverEnv.contactProperties;
  const event = delivery.payload.scheduled_event;
  if (delivery.event === 'invitee.created') {
    const properties: Record<string, string> = { [names.meetingStatus]: 'scheduled' };
    const link = event?.location?.join_url;
    const host = event?.event_memberships?.find((member) => member.user_name)?.user_name;
    if (link) properties[names.meetingLink] = link;
    if (host) properties[names.assignedHost] = host;
    if (event?.start_time) properties[names.meetingTime] = event.start_time;
    if (delivery.payload.first_name) properties.firstname = delivery.payload.first_name;
    if (delivery.payload.last_name) properties.lastname = delivery.payload.last_name;
    return properties;
  }
  if (delivery.event === 'invitee.canceled') return { [names.meetingStatus]: 'canceled' };
  return null;
}

function describeHubSpotFailure(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  const status = statusOf(error);
  if (status === 401 || status === 403) return `HubSpot refused the access token (${status}).`;
  return status ? `HubSpot answered ${status}.` : 'HubSpot could not be reached.';
}

/** Writes the booking onto the invitee's HubSpot contact and records the outcome on the log. */
export async function syncLog(log: WebhookLog): Promise<WebhookLog> {
  const properties = contactUpdateFor(log.payload);
  const email = log.payload.payload.email?.trim();
  const updated: WebhookLog = { ...log, attempts: log.attempts + 1, updatedAt: new Date().toISOString() };
  delete updated.error;
  if (!properties) {
    Object.assign(updated, { status: 'success', hubspotSyncStatus: 'skipped' });
  } else if (!email || !z.email().safeParse(email).success) {
    Object.assign(updated, { status: 'error', hubspotSyncStatus: 'error', error: 'The delivery names no valid invitee email.' });
  } else {
    // Read before the HubSpot call's try: a database that fails here is no HubSpot outcome to record
    // (the log stays pending, so Calendly's re-send finishes it), not "HubSpot could not be reached".
    const token = await activeHubSpotToken();
    try {
      const client = hubspotClient(token);
      // The invitee's email is whatever was typed on Calendly: the booking's own properties are
      // written, the person's (name) only where the contact has none.
      const { firstname, lastname, ...booking } = properties;
      const fill = Object.fromEntries(Object.entries({ firstname, lastname }).filter(([, value]) => value !== undefined)) as Record<string, string>;
      const contactId = await createOrFillContactByEmail(client, email, { fill, always: booking });
      Object.assign(updated, { status: 'success', hubspotSyncStatus: 'success', hubspotContactId: contactId });
    } catch (error) {
      Object.assign(updated, { status: 'error', hubspotSyncStatus: 'error', error: describeHubSpotFailure(error) });
    }
  }
  updated.updatedAt = new Date().toISOString();
  await saveLog(updated);
  return updated;
}

/** How far back the /thank-you lookup looks for the booking it names. */
export const BOOKING_LOOKUP_WINDOW_MS = 24 * 3600_000;

/**
 * The logged `invitee.created` delivery of the invitee `inviteeUuid` (the last segment of the
 * invitee's URI, which Calendly also puts in its redirect as `invitee_uuid`) booked with `email`,
 * within the last day; undefined when there is none. Only deliveries whose signature verified are
 * ever logged, so a match is proof that this booking happened.
 */
export async function findBookingDelivery(input: { email: string; inviteeUuid: string; now?: number }): Promise<WebhookLog | undefined> {
  const since = new Date((input.now ?? Date.now()) - BOOKING_LOOKUP_WINDOW_MS);
  // One indexed lookup: the invitee's address and uuid are columns of the log.
  const row = await queryOne<{ record: WebhookLog }>(sql`
    SELECT record FROM webhook_logs
    WHERE lower(invitee_email) = ${input.email.trim().toLowerCase()} AND invitee_uuid = ${input.inviteeUuid}
      AND created_at >= ${since} AND record->>'eventType' = 'invitee.created'
    ORDER BY created_at DESC LIMIT 1`);
  return row?.record;
}
