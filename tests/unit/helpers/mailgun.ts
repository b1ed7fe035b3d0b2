/**
 * Mailgun's signed webhook, as its reports reach /api/mail/events/mailgun: an event about a message
 * the site sent (by its Message-ID), signed with the key the site is given, and the function that
 * takes it. Mailgun is outside this machine; this is its wire format.
 */
import { createHmac } from 'node:crypto';
import mailEvents from '../../../netlify/functions/mail-events.mts';

export const MAILGUN_KEY = 'key-mailgun-webhook-signing-test';
let seq = 0;

/** A report of `event` about `messageId`, signed with `key` (the site's unless given) at `at` (now). */
export function mailgunReport(messageId: string, event: Record<string, unknown>, options: { key?: string; at?: number; token?: string } = {}) {
  const timestamp = String(Math.floor((options.at ?? Date.now()) / 1000));
  const token = options.token ?? `${Date.now()}${++seq}abcdefghijklmnopqrstuvwxyz`;
  const signature = createHmac('sha256', options.key ?? MAILGUN_KEY)
    .update(timestamp + token)
    .digest('hex');
  return { signature: { timestamp, token, signature }, 'event-data': { ...event, message: { headers: { 'message-id': messageId } } } };
}

/** A permanent failure as Mailgun reports it: its reason, and the receiving server's answer. */
export const permanentFailure = (reason: string, code: number, message: string) => ({
  event: 'failed',
  severity: 'permanent',
  reason,
  'delivery-status': { code, message, description: '' },
});

/** Posts a report to the site's receiver; its status and JSON body. */
export async function postMailgunReport(body: unknown) {
  const response = await mailEvents(
    new Request('https://site.example/api/mail/events/mailgun', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    {},
  );
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string }; changed?: boolean; ok?: boolean } };
}
