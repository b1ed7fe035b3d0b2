import type { Config, Context } from '@netlify/functions';
import { activeSigningKeys } from '../../src/server/staff/admin-config';
import { calendlyDeliverySchema, claimSignature, precheckSignature, startLog, syncLog, verifySignature } from '../../src/server/calendly-webhook';
import { allowMethods, clientIp, describeIssues, handle, HttpError, json, jsonError, MAX_BODY_BYTES, StoreUnavailableError } from '../../src/server/http';
import { serverEnv } from '../../src/server/env';
import { clientAddressKey } from '../../src/server/identity';
import { takeFormSubmission } from '../../src/server/rate-limit';

/** Calendly counts slow answers as failures: the sync gets this long before we answer anyway. */
const ANSWER_WITHIN_MS = 2500;

const reasons = {
  missing: 'The Calendly-Webhook-Signature header is missing.',
  malformed: 'The Calendly-Webhook-Signature header is malformed.',
  stale: 'The signature is too old.',
  mismatch: 'The signature does not match.',
};

/**
 * The Calendly receiver: verifies the signature against the active configurations' signing keys,
 * refuses replays, logs each event once and writes the booking onto the HubSpot contact. Rate
 * limited per address first; a request without a well-formed, fresh signature is refused before
 * any configuration (the signing keys) is read.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  // Per address (an IPv6 client by its /64) per 10 minutes: CALENDLY_RATE_LIMIT, 120 by default; Calendly sends far fewer.
  const limit = await takeFormSubmission(`calendly|${clientAddressKey(clientIp(req, context))}`, serverEnv.calendlyRateLimit);
  if (!limit.allowed) {
    return jsonError(429, 'too_many_requests', 'Too many requests from this address; try again later.', { 'Retry-After': String(limit.retryAfterSeconds) });
  }
  if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', 'The body is larger than 1 MB.');
  const raw = await req.text();
  if (raw.length > MAX_BODY_BYTES) throw new HttpError(413, 'payload_too_large', 'The body is larger than 1 MB.');

  const header = req.headers.get('calendly-webhook-signature');
  const precheck = precheckSignature(header);
  if (!precheck.ok) throw new HttpError(401, 'invalid_signature', reasons[precheck.reason]);
  const check = verifySignature(header, raw, await activeSigningKeys());
  if (!check.ok) throw new HttpError(401, 'invalid_signature', reasons[check.reason]);
  if (!(await claimSignature(check.v1))) throw new HttpError(401, 'replayed_signature', 'This signature was already used.');

  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  const parsed = calendlyDeliverySchema.safeParse(data);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));

  const log = await startLog(parsed.data, check.webhookId);
  if (!log) return json({ ok: true, duplicate: true });

  let failure: unknown;
  const work = syncLog(log).catch((error: unknown) => {
    failure = error;
    console.error('[calendly-webhook] sync failed', error instanceof Error ? error.message : 'unknown error');
  });
  (context as Context | undefined)?.waitUntil?.(work);
  await Promise.race([work, new Promise((resolve) => setTimeout(resolve, ANSWER_WITHIN_MS).unref?.())]);
  // The outcome could not be recorded: an error answer makes Calendly send the event again, and
  // that delivery finishes the log (see startLog).
  if (failure instanceof StoreUnavailableError) throw failure;
  return json({ ok: true, logId: log.id });
});

export const config: Config = { path: '/api/calendly/webhook', method: 'POST' };
