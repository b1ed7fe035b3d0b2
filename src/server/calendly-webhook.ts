/**
 * Calendly deliveries: the signature check (`Calendly-Webhook-Signature: t=…,v1=…`, HMAC-SHA256 of
 * `{t}.{raw body}`), the webhook log (one per event, however often Calendly retries it) and the
 * HubSpot sync that writes the booking onto the invitee's contact.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { activeHubSpotToken } from './admin-config';
import { serverEnv } from './env';
import { createOrFillContactByEmail, hubspotClient, statusOf } from './hubspot';
import { HttpError } from './http';
import { recordKey, store, withStore } from './store';

/** Deliveries signed longer ago than this are refused as stale. */
export const SIGNATURE_TOLERANCE_S = 180;

export type SignatureCheck =
  | { ok: true; webhookId: string; t: number; v1: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

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

export function verifySignature(
  header: string | null,
  body: string,
  keys: Array<{ webhookId: string; key: string }>,
  now = Date.now(),
): SignatureCheck {
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

const logs = () => store('webhook-logs', { strong: true });
const logKey = (id: string) => `log/${id}`;
const logIdPattern = /^\d{13}-[0-9a-f-]{36}$/;

/** Marks a signature as used; false when it was seen before (a replay). */
export async function claimSignature(v1: string): Promise<boolean> {
  const result = await withStore(() => logs().set(`signature/${v1}`, String(Date.now()), { onlyIfNew: true }));
  return result.modified;
}

/** The identity of an event across Calendly's retries of it. */
export function eventFingerprint(delivery: CalendlyDelivery): string {
  return createHash('sha256')
    .update([delivery.event, delivery.payload.uri ?? '', delivery.created_at].join('|'))
    .digest('hex');
}

/**
 * Creates the log of a delivery, or returns null when this event was already handled. An event
 * whose earlier delivery failed part-way (the store went down after the claim, or before the sync
 * was recorded) is taken up again under the same log id, so it still gets exactly one log.
 */
export async function startLog(delivery: CalendlyDelivery, webhookId: string): Promise<WebhookLog | null> {
  const now = new Date();
  const claim = `event/${eventFingerprint(delivery)}`;
  let id = recordKey(now);
  const claimed = await withStore(() => logs().set(claim, id, { onlyIfNew: true }));
  if (!claimed.modified) {
    const claimedId = await withStore(() => logs().get(claim, { type: 'text' }));
    if (!claimedId || !logIdPattern.test(claimedId)) return null;
    const existing = await getLog(claimedId);
    // Calendly sends an event again only after an error answer, so a log still pending here is
    // one whose sync was never recorded, not one in progress.
    if (existing) return existing.hubspotSyncStatus === 'pending' ? existing : null;
    id = claimedId;
  }
  const log: WebhookLog = {
    id,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    eventType: delivery.event,
    webhookId,
    status: 'received',
    hubspotSyncStatus: 'pending',
    attempts: 0,
    payload: delivery,
  };
  await saveLog(log);
  return log;
}

export async function saveLog(log: WebhookLog): Promise<void> {
  await withStore(() => logs().setJSON(logKey(log.id), log));
}

export async function getLog(id: string): Promise<WebhookLog | null> {
  if (!logIdPattern.test(id)) return null;
  return (await withStore(() => logs().get(logKey(id), { type: 'json' }))) as WebhookLog | null;
}

/** Newest first; `cursor` is the id of the last log of the previous page. */
export async function listLogs(limit: number, cursor?: string): Promise<{ logs: WebhookLog[]; nextCursor: string | null }> {
  const { blobs } = await withStore(() => logs().list({ prefix: 'log/' }));
  const ids = blobs.map((blob) => blob.key.slice('log/'.length)).sort();
  const start = cursor ? ids.findIndex((id) => id > cursor) : 0;
  const page = start < 0 ? [] : ids.slice(start, start + limit);
  const found = await Promise.all(page.map((id) => getLog(id)));
  const more = start >= 0 && start + limit < ids.length;
  return { logs: found.filter((log): log is WebhookLog => Boolean(log)), nextCursor: more ? (page.at(-1) ?? null) : null };
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
    try {
      const client = hubspotClient(await activeHubSpotToken());
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
  const since = (input.now ?? Date.now()) - BOOKING_LOOKUP_WINDOW_MS;
  const email = input.email.trim().toLowerCase();
  const suffix = `/invitees/${input.inviteeUuid}`;
  const { blobs } = await withStore(() => logs().list({ prefix: 'log/' }));
  // Log ids are record keys: an inverted time first (see recordKey), so they sort newest first.
  const ids = blobs
    .map((blob) => blob.key.slice('log/'.length))
    .filter((id) => logIdPattern.test(id) && 9_999_999_999_999 - Number(id.slice(0, 13)) >= since)
    .sort();
  for (const id of ids) {
    const log = await getLog(id);
    const invitee = log?.payload.payload;
    if (log?.eventType === 'invitee.created' && invitee?.uri?.endsWith(suffix) && invitee.email?.trim().toLowerCase() === email) return log;
  }
  return undefined;
}
