/**
 * The one step that sends a confirmed school email: the outbox message, whole, to the configured
 * sender. The outbox decides what the result means for the message (sent, wait and retry, failed).
 */
import type { OutboxMessage } from './outbox';
import type { SchoolEmailSender, SendResult } from './school-email-sender';

/** What the sender said about a message, kept on it for the admin page. */
export interface DeliveryRecord extends SendResult {
  sender: SchoolEmailSender['kind'];
  at: string;
}

/** Sends `message` to its confirmed school address, Reply-To the parent, with its id as the idempotency key. */
export async function deliverMessage(
  message: Pick<OutboxMessage, 'id' | 'to' | 'parentEmail' | 'parentName' | 'subject' | 'body'>,
  sender: SchoolEmailSender,
  now: () => Date = () => new Date(),
): Promise<DeliveryRecord> {
  const result = await sender.send({ id: message.id, to: message.to, replyTo: message.parentEmail, parentName: message.parentName, subject: message.subject, body: message.body });
  return { ...result, sender: sender.kind, at: now().toISOString() };
}

/** A short code for the outbox's `lastError`: the sender and the provider's word (`hubspot_503`, `smtp_550`). */
export function deliveryErrorCode(record: DeliveryRecord): string {
  return `${record.sender}_${record.providerStatus.replace(/^http_/, '')}`;
}
