/**
 * Which outbox messages the admin may send again: one rule for the Outbox tab's button and the
 * retry endpoint. Only a confirmed platform message whose delivery failed; never one a sending
 * limit refused, and never one the parent did not confirm.
 */
export const LIMIT_REFUSALS = ['already_sent', 'school_limit', 'parent_limit'] as const;

export function canRetryMessage(message: { channel: string; status: string; lastError?: string; confirmation?: { confirmedAt?: string } }): boolean {
  if (message.channel !== 'platform' || message.status !== 'failed') return false;
  if (message.confirmation && !message.confirmation.confirmedAt) return false;
  return !(LIMIT_REFUSALS as readonly string[]).includes(message.lastError ?? '');
}
