/**
 * Reports a mail provider sends about the emails it took (delivered, failed, complained), as
 * Mailgun's webhooks send them: JSON `{ signature: { timestamp, token, signature }, "event-data" }`,
 * the signature HMAC-SHA256(timestamp + token) under the webhook signing key. A report counts only
 * if its signature is right, it is fresh (within the 8 hours Mailgun retries a report, either way)
 * and its token was never seen (a replay changes nothing and is answered as taken), and it names an
 * email this site sent (by the Message-ID it gave: any id of ours, on the organisation's domain).
 *
 * What a permanent failure means, by Mailgun's `reason` and the receiving server's code: a mailbox
 * that does not exist (`bounce` or `suppress-bounce`, or an X.1.x code) blocks the address; a
 * complaint Mailgun holds (`suppress-complaint`) is a complaint; anything else (`old`: given up
 * after retrying, `generic`, `espblock`, a policy or spam refusal X.7.x) fails that one email. A
 * temporary failure is Mailgun's to retry, and changes nothing here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { queryOne, sql } from '../db';
import { HttpError } from '../http';
import type { ProviderEvent } from './queue';
import { enhancedStatus } from './senders';

/** How far a report's timestamp may be from now: Mailgun retries a report for 8 hours. */
export const REPORT_FRESH_MS = 9 * 3600_000;

export const mailgunReportSchema = z.object({
  signature: z.object({
    timestamp: z.string().regex(/^\d{1,12}$/),
    token: z
      .string()
      .min(20)
      .max(200)
      .regex(/^[A-Za-z0-9]+$/),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  'event-data': z.looseObject({
    event: z.string().max(40),
    severity: z.string().max(40).optional(),
    reason: z.string().max(200).optional(),
    message: z.looseObject({ headers: z.looseObject({ 'message-id': z.string().max(300) }) }),
    'delivery-status': z
      .looseObject({
        code: z.union([z.number(), z.string()]).optional(),
        message: z.string().max(2000).optional(),
        description: z.string().max(2000).optional(),
      })
      .optional(),
  }),
});

export type MailgunReport = z.infer<typeof mailgunReportSchema>;

/** Whether Mailgun signed this report with `key` (constant time). */
export function mailgunSigned(report: MailgunReport, key: string): boolean {
  const expected = createHmac('sha256', key)
    .update(report.signature.timestamp + report.signature.token)
    .digest();
  const given = Buffer.from(report.signature.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Checks a report's signature and freshness (throws a 4xx that says which, never what the key is)
 * and keeps its token: false for a report taken before (a replay, or Mailgun's retry of one we
 * answered), which changes nothing.
 */
export async function acceptMailgunReport(report: MailgunReport, key: string, now = new Date()): Promise<boolean> {
  if (!mailgunSigned(report, key)) throw new HttpError(401, 'invalid_signature', 'The report is not signed with this site’s webhook signing key.');
  const at = Number(report.signature.timestamp) * 1000;
  if (Math.abs(now.getTime() - at) > REPORT_FRESH_MS) throw new HttpError(400, 'stale_report', 'The report’s timestamp is more than 9 hours from now.');
  const fresh = await queryOne(sql`
    WITH purged AS (DELETE FROM mail_event_tokens WHERE created_at < ${new Date(now.getTime() - 2 * REPORT_FRESH_MS)})
    INSERT INTO mail_event_tokens (token, created_at) VALUES (${report.signature.token}, ${now})
    ON CONFLICT (token) DO NOTHING RETURNING 1`);
  return fresh !== undefined;
}

/** Mailgun's reasons for a permanent failure that say the mailbox does not exist (or was found not to before). */
const MAILBOX_GONE = new Set(['bounce', 'suppress-bounce']);

/**
 * What a report says about an email: its id (any id this site gives an email, on the organisation's
 * domain when one is configured) and the event, if one we act on; `not_ours` for a message this
 * site never sent.
 */
export function readMailgunEvent(report: MailgunReport, fromAddress?: string): { id: string; event: ProviderEvent; detail: string } | 'not_ours' | undefined {
  const data = report['event-data'];
  const messageId = data.message.headers['message-id'].trim().replace(/^<|>$/g, '');
  const match = /^([A-Za-z0-9._-]{1,100})@([A-Za-z0-9.-]{1,253})$/.exec(messageId);
  const domain = fromAddress?.split('@')[1]?.toLowerCase();
  if (!match || (domain && match[2]!.toLowerCase() !== domain)) return 'not_ours';
  const id = match[1]!;
  const status = data['delivery-status'];
  const detail = [status?.code, status?.description || status?.message || data.reason].filter(Boolean).join(' ').slice(0, 200);
  if (data.event === 'delivered') return { id, event: 'delivered', detail: '' };
  if (data.event === 'complained') return { id, event: 'complained', detail: 'complaint' };
  // A temporary failure is retried by Mailgun; only a permanent one changes anything.
  if (data.event !== 'failed' || data.severity !== 'permanent') return undefined;
  const reason = (data.reason ?? '').toLowerCase();
  if (reason === 'suppress-complaint') return { id, event: 'complained', detail: detail || 'complaint (held by the provider)' };
  const enhanced = enhancedStatus(`${status?.code ?? ''} ${status?.message ?? ''} ${status?.description ?? ''}`);
  const gone = MAILBOX_GONE.has(reason) ? !enhanced || enhanced.startsWith('5.1.') : enhanced?.startsWith('5.1.') === true;
  return { id, event: gone ? 'bounced' : 'failed', detail: detail || 'permanent failure' };
}
