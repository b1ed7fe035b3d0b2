/**
 * Reports a mail provider sends about the emails it took (delivered, bounced, complained), as
 * Mailgun's webhooks send them: JSON `{ signature: { timestamp, token, signature }, "event-data" }`,
 * the signature HMAC-SHA256(timestamp + token) under the webhook signing key. A report counts only
 * if its signature is right, it is fresh (15 minutes either way) and its token was never seen
 * (a replay changes nothing), and it names an email this site sent (by the Message-ID it gave).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { queryOne, sql } from '../db';
import { HttpError } from '../http';
import type { ProviderEvent } from './queue';

export const REPORT_FRESH_MS = 15 * 60_000;

export const mailgunReportSchema = z.object({
  signature: z.object({
    timestamp: z.string().regex(/^\d{1,12}$/),
    token: z.string().min(20).max(200).regex(/^[A-Za-z0-9]+$/),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  'event-data': z.looseObject({
    event: z.string().max(40),
    severity: z.string().max(40).optional(),
    reason: z.string().max(200).optional(),
    message: z.looseObject({ headers: z.looseObject({ 'message-id': z.string().max(300) }) }),
    'delivery-status': z.looseObject({ code: z.union([z.number(), z.string()]).optional(), message: z.string().max(2000).optional(), description: z.string().max(2000).optional() }).optional(),
  }),
});

export type MailgunReport = z.infer<typeof mailgunReportSchema>;

/** Whether Mailgun signed this report with `key` (constant time). */
export function mailgunSigned(report: MailgunReport, key: string): boolean {
  const expected = createHmac('sha256', key).update(report.signature.timestamp + report.signature.token).digest();
  const given = Buffer.from(report.signature.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Checks a report's signature, freshness and token (kept, so a replay is refused); throws a 4xx
 * that says which, never what the key is.
 */
export async function acceptMailgunReport(report: MailgunReport, key: string, now = new Date()): Promise<void> {
  if (!mailgunSigned(report, key)) throw new HttpError(401, 'invalid_signature', 'The report is not signed with this site’s webhook signing key.');
  const at = Number(report.signature.timestamp) * 1000;
  if (Math.abs(now.getTime() - at) > REPORT_FRESH_MS) throw new HttpError(400, 'stale_report', 'The report’s timestamp is more than 15 minutes from now.');
  const fresh = await queryOne(sql`
    WITH purged AS (DELETE FROM mail_event_tokens WHERE created_at < ${new Date(now.getTime() - 2 * REPORT_FRESH_MS)})
    INSERT INTO mail_event_tokens (token, created_at) VALUES (${report.signature.token}, ${now})
    ON CONFLICT (token) DO NOTHING RETURNING 1`);
  if (!fresh) throw new HttpError(409, 'replayed_report', 'This report was received already.');
}

/** What a report says about an email: its id (from our Message-ID) and the event, if one we act on. */
export function readMailgunEvent(report: MailgunReport): { id: string; event: ProviderEvent; detail: string } | undefined {
  const data = report['event-data'];
  const messageId = data.message.headers['message-id'].replace(/^<|>$/g, '');
  const id = /^(\d{13}-[0-9a-f-]{36})@/.exec(messageId)?.[1];
  if (!id) return undefined;
  const status = data['delivery-status'];
  const detail = [status?.code, status?.description || status?.message || data.reason].filter(Boolean).join(' ').slice(0, 200);
  if (data.event === 'delivered') return { id, event: 'delivered', detail: '' };
  if (data.event === 'complained') return { id, event: 'complained', detail: 'complaint' };
  // A temporary failure is retried by Mailgun; only a permanent one is a bounce.
  if (data.event === 'failed' && data.severity === 'permanent') return { id, event: 'bounced', detail: detail || 'permanent failure' };
  return undefined;
}
