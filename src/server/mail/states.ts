/**
 * The life of one email, in one place: what kinds the site sends, what each is for, and every state
 * an email passes through with the moves between them. The database keeps the state in one column
 * with a CHECK on these values (migration 0014); only src/server/mail/queue.ts moves it, by the
 * moves named here.
 *
 *   preparing ──its words written──► scheduled   (a digest: its letters claimed first)
 *   scheduled ──claim──► sending ──answer──► sent ──report──► delivered
 *       │  ▲                 │   ├─retry─► scheduled          │    └─► bounced | complained
 *       │  └──lease over─────┘   ├─refused─► failed | bounced  └──► bounced | failed | complained
 *       │                        └─no answer─► unknown ──report──► delivered | bounced | failed
 *       │                                         └──staff──► sent | scheduled
 *       ├─► suppressed  (the address bounced or complained before it went)
 *       ├─► withdrawn   (no longer wanted: a deleted person, a complaint, a letter that expired)
 *       └─► digested    (a school letter that went inside the school's digest)
 */

export { emailKinds, kindRules, type EmailKind, type EmailPurpose } from '../../lib/shared/email/mail-kinds';

export const emailStates = [
  'preparing',
  'scheduled',
  'sending',
  'unknown',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'failed',
  'suppressed',
  'withdrawn',
  'digested',
] as const;
export type EmailState = (typeof emailStates)[number];

/** Every move an email may make. */
export const emailMoves: Record<EmailState, readonly EmailState[]> = {
  preparing: ['scheduled', 'withdrawn'],
  scheduled: ['sending', 'suppressed', 'withdrawn', 'digested'],
  sending: ['sent', 'scheduled', 'failed', 'bounced', 'suppressed', 'unknown', 'delivered', 'complained'],
  unknown: ['sent', 'scheduled', 'delivered', 'bounced', 'failed', 'complained'],
  sent: ['delivered', 'bounced', 'failed', 'complained'],
  delivered: ['bounced', 'complained'],
  bounced: [],
  complained: [],
  failed: ['scheduled'],
  suppressed: [],
  withdrawn: [],
  digested: [],
};

/** The states an email waits in before it is sent. */
export const waitingStates: readonly EmailState[] = ['preparing', 'scheduled', 'sending'];
/** The states of an email a provider took. */
export const sentStates: readonly EmailState[] = ['sent', 'delivered', 'bounced', 'complained'];

export const stateLabels: Record<EmailState, string> = {
  preparing: 'Being put together',
  scheduled: 'Waiting to be sent',
  sending: 'Being sent',
  unknown: 'Handed over, not confirmed: waiting for the provider’s report or a decision',
  sent: 'Sent',
  delivered: 'Delivered',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  failed: 'Could not be sent',
  suppressed: 'Not sent: the address bounced or complained before',
  withdrawn: 'Withdrawn',
  digested: 'Sent in the school’s digest',
};

export function canMove(from: EmailState, to: EmailState): boolean {
  return emailMoves[from].includes(to);
}
