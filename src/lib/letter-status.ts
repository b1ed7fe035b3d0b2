/**
 * Where a parent's school email stands, said as a sentence for the parent's own pages (/your-data):
 * never the stored state's name.
 */
export interface LetterState {
  channel: string;
  status: string;
  /** Why a message failed, as the outbox records it (e.g. "not_confirmed_in_time"). */
  lastError?: string;
}

const platformStates: Record<string, string> = {
  awaiting_confirmation: 'Waiting for you to confirm: the link is in your inbox.',
  queued: 'Confirmed, and waiting to be sent.',
  sent: 'Sent by our platform.',
  failed: 'Not sent: we could not deliver it.',
  replaced: 'Not sent: a newer email you made for this school replaced it.',
  withdrawn: 'Not sent: it was withdrawn.',
};

export function letterStateText(message: LetterState): string {
  if (message.channel === 'self') return 'You sent it yourself.';
  if (message.status === 'failed' && message.lastError === 'not_confirmed_in_time') return 'Not sent: it was not confirmed within 24 hours.';
  return platformStates[message.status] ?? 'We are still working on it.';
}
