/** The audit log's actions and entries, shared by the server (src/server/staff/audit.ts) and the Audit tab. */

/** Every action the log records, with the words the Audit tab shows for it. */
export const auditActionLabels = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'sign_in.refused': 'Sign-in refused (too many attempts)',
  'session.signed_out': 'Signed out',
  'session.signed_out_everyone': 'Signed everyone out',
  'hubspot_config.saved': 'HubSpot settings changed',
  'webhook.created': 'Webhook added',
  'webhook.updated': 'Webhook turned on or off',
  'webhook.deleted': 'Webhook deleted',
  'webhook_log.viewed': 'Calendly logs viewed',
  'webhook_log.retried': 'Calendly sync retried',
  'submission.viewed': 'Form submissions viewed',
  'submission.retried': 'Submission retried',
  'submission.released': 'Held submission released',
  'submission.deleted': 'Submission deleted',
  'outbox.viewed': 'Outbox viewed',
  'outbox.retried': 'Outbox message retried',
  'impact.exported': 'Impact CSV downloaded',
  'data_deletion.viewed': 'Data deletions viewed',
  'data_deletion.requested': 'A parent deleted their data',
  'audit.viewed': 'Audit log viewed',
  'audit.exported': 'Audit CSV downloaded',
  'sign_in.passkey': 'Signed in with a passkey',
  'sign_in.passkey_failed': 'Passkey sign-in failed',
  'sign_in.password_refused': 'Password sign-in refused (staff use passkeys)',
  'staff.first_owner': 'First owner registered',
  'invitation.created': 'Invitation created',
  'invitation.used': 'Invitation used',
  'invitation.refused': 'Invitation refused',
  'passkey.added': 'Passkey added',
  'passkey.removed': 'Passkey removed',
  'staff.removed': 'Person removed',
  'staff.role_changed': 'Role changed',
  'staff.forbidden': 'Refused: owners only',
  'outbox.confirmation_link_viewed': 'A confirmation link shown to an owner (no mail sender)',
  'review.viewed': 'Review queue viewed',
  'review.approved': 'Claim approved',
  'review.rejected': 'Claim rejected',
  'school_page.renamed': 'School page renamed',
  'nomination.viewed': 'Nominations viewed',
  'invitation.cancelled': 'Invitation cancelled',
  'mail.viewed': 'Emails viewed',
  'mail.previewed': 'Email template previewed',
  'insights.exported': 'Insights CSV downloaded',
  'experiment.started': 'Experiment started',
  'experiment.ended': 'Experiment ended',
  'ambassador.added': 'Ambassador added',
  'ambassador.link_made': 'Ambassador link made',
  'words.viewed': "Parents' words read",
  'words.starred': "Parent's words starred",
  'words.unstarred': "Parent's words unstarred",
  'words.edited': "Starred words' copy edited",
  'schools.viewed': 'Schools viewed',
  'school.created': 'School added',
  'school.edited': 'School record changed',
  'school.verified': 'School verified',
  'school.retired': 'School retired',
  'school.merged': 'Schools merged',
  'school.imported': 'Schools imported from a CSV',
  'school.flag_settled': 'An address parents wrote to settled',
  'mail.suppression_lifted': 'An address’s block lifted',
  'mail.unknown_settled': 'An email whose outcome was unknown settled',
  'abuse.viewed': 'Abuse watch viewed',
  'abuse.blocked': 'Block added (abuse watch)',
  'abuse.unblocked': 'Block lifted (abuse watch)',
  'abuse.voided': 'Requests voided (abuse watch)',
} as const;
export type AuditAction = keyof typeof auditActionLabels;
export const auditActions = Object.keys(auditActionLabels) as AuditAction[];

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  addressHash: string | null;
  /** What a refused sign-in typed as its name (the actor is then "unknown"). */
  typedName?: string | null;
  /** Refusals of the same kind from the same network in the same window, folded into this entry. */
  count?: number;
}
