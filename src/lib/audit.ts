/** The audit log's actions and entries, shared by the server (src/server/audit.ts) and the Audit tab. */

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
}
