/**
 * The kinds of email the site sends, and the rules of each (what allowance it counts under, whether
 * a complaint stops it, whether it carries a one-click unsubscribe). Shared by the mail layer
 * (src/server/mail), the admin page and the content editor.
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
  'letter_not_sent',
  'self_report',
  'digest_notice',
  'ambassador_link',
  'school_letter',
  'school_digest',
  'abuse_alert',
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
  /** Sent with a one-click unsubscribe (RFC 8058): the updates and follow-ups, which a parent did not ask for just now. */
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
  letter_not_sent: { purpose: 'notice', essential: true, unsubscribe: false, toSchool: false, label: 'Your letter was not sent: why' },
  self_report: { purpose: 'confirm', essential: true, unsubscribe: false, toSchool: false, label: 'Confirm you sent your letter' },
  digest_notice: { purpose: 'notice', essential: false, unsubscribe: true, toSchool: false, label: 'Your letter went in the digest' },
  ambassador_link: { purpose: 'invite', essential: true, unsubscribe: false, toSchool: false, label: 'Ambassador page link' },
  school_letter: { essential: false, unsubscribe: false, toSchool: true, label: 'Letter to the school' },
  school_digest: { essential: false, unsubscribe: false, toSchool: true, label: 'Digest to the school' },
  abuse_alert: { purpose: 'notice', essential: true, unsubscribe: false, toSchool: false, label: 'Abuse watch alert (to owners)' },
};
