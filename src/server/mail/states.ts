/**
 * The life of one email, in one place: what kinds the site sends, what each is for, and every state
 * an email passes through with the moves between them. The database keeps the state in one column
 * with a CHECK on these values (migration 0014); only src/server/mail/queue.ts moves it, by the
 * moves named here.
 *
 *   scheduled ──claim──► sending ──answer──► sent ──report──► delivered
 *       │  ▲                 │   └─retry─► scheduled          │    └─► bounced | complained
 *       │  └──lease over─────┘   └─refused─► failed | bounced  └──► bounced | complained
 *       ├─► suppressed  (the address bounced or complained before it went)
 *       ├─► withdrawn   (no longer wanted: a replaced request, a deleted person, a complaint)
 *       └─► digested    (a school letter that went inside the school's digest)
 */

export const emailKinds = [
  'confirmation',
  'reminder',
  'refusal',
  'follow_up',
  'second_follow_up',
  'school_update',
  'data_link',
  'staff_invitation',
  'delivery_failure',
  'digest_notice',
  'ambassador_link',
  'school_letter',
  'school_digest',
] as const;
export type EmailKind = (typeof emailKinds)[number];

/** What a daily allowance of one mailbox is counted under: one purpose cannot starve another. */
export type EmailPurpose = 'confirm' | 'data' | 'follow_up' | 'update' | 'invite' | 'notice';

interface KindRules {
  /** The allowance it is counted under; none for letters to schools (their own caps hold them). */
  purpose?: EmailPurpose;
  /**
   * An email the person just asked for (or that tells them their own letter failed): still sent to
   * an address that complained. Every other email stops at a complaint.
   */
  essential: boolean;
  /** Sent with a one-click unsubscribe (RFC 8058): every email that is not one-to-one. */
  unsubscribe: boolean;
  /** Goes to a school (in its hours), not to a parent or staff. */
  toSchool: boolean;
  /** What the admin page calls it. */
  label: string;
}

export const kindRules: Record<EmailKind, KindRules> = {
  confirmation: { purpose: 'confirm', essential: true, unsubscribe: false, toSchool: false, label: 'Confirmation link' },
  reminder: { purpose: 'confirm', essential: false, unsubscribe: false, toSchool: false, label: 'Reminder to confirm' },
  refusal: { purpose: 'confirm', essential: true, unsubscribe: false, toSchool: false, label: 'Not sent: why' },
  follow_up: { purpose: 'follow_up', essential: false, unsubscribe: true, toSchool: false, label: 'Did your school answer?' },
  second_follow_up: { purpose: 'follow_up', essential: false, unsubscribe: true, toSchool: false, label: 'Did your school answer? (again)' },
  school_update: { purpose: 'update', essential: false, unsubscribe: true, toSchool: false, label: 'School update' },
  data_link: { purpose: 'data', essential: true, unsubscribe: false, toSchool: false, label: '“Your data” link' },
  staff_invitation: { purpose: 'invite', essential: true, unsubscribe: false, toSchool: false, label: 'Staff invitation' },
  delivery_failure: { purpose: 'notice', essential: true, unsubscribe: false, toSchool: false, label: 'Your letter did not arrive' },
  digest_notice: { purpose: 'notice', essential: false, unsubscribe: true, toSchool: false, label: 'Your letter went in the digest' },
  ambassador_link: { purpose: 'invite', essential: true, unsubscribe: false, toSchool: false, label: 'Ambassador page link' },
  school_letter: { essential: false, unsubscribe: false, toSchool: true, label: 'Letter to the school' },
  school_digest: { essential: false, unsubscribe: true, toSchool: true, label: 'Digest to the school' },
};

export const emailStates = ['scheduled', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'withdrawn', 'digested'] as const;
export type EmailState = (typeof emailStates)[number];

/** Every move an email may make. */
export const emailMoves: Record<EmailState, readonly EmailState[]> = {
  scheduled: ['sending', 'suppressed', 'withdrawn', 'digested'],
  sending: ['sent', 'scheduled', 'failed', 'bounced', 'suppressed'],
  sent: ['delivered', 'bounced', 'complained'],
  delivered: ['bounced', 'complained'],
  bounced: [],
  complained: [],
  failed: ['scheduled'],
  suppressed: [],
  withdrawn: [],
  digested: [],
};

/** The states an email waits in before it is sent. */
export const waitingStates: readonly EmailState[] = ['scheduled', 'sending'];
/** The states of an email a provider took. */
export const sentStates: readonly EmailState[] = ['sent', 'delivered', 'bounced', 'complained'];

export const stateLabels: Record<EmailState, string> = {
  scheduled: 'Waiting to be sent',
  sending: 'Being sent',
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
