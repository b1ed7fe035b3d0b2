/**
 * What the admin endpoints answer (`/api/admin/*`, `/api/hubspot-config`, `/api/calendly-webhooks`),
 * shared by the functions that build the answers and the admin islands that read them. Types come
 * from z.infer; the server modules take theirs from here, and `tests/unit/admin-payloads.test.ts`
 * parses every endpoint's real answer with these schemas.
 */
import { z } from 'zod';
import { emailKinds } from '../email/mail-kinds';
import { answerKinds } from '../answer-kinds';

const iso = z.string().min(1);
const count = z.number().int().nonnegative();

// ---- Form Submissions tab (GET /api/admin/form-submissions) ----

/** `held`: judged automated (a filled honeypot, filled far too fast); kept, not delivered, until a person releases it. */
export const deliveryStates = ['pending', 'sending', 'delivered', 'failed', 'held'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const deliverySchema = z.object({
  state: z.enum(deliveryStates),
  attempts: count,
  nextAttemptAt: iso,
  /** While `sending`: until when the claim holds. */
  leaseUntil: iso.optional(),
  /** An attempt ended without HubSpot's answer; it may have been recorded there. */
  uncertain: z.boolean().optional(),
  /** A short code of the last failure (e.g. `hubspot_503`, `INVALID_EMAIL`); never a body or a token. */
  lastError: z.string().optional(),
  /** Why a held submission was judged automated (e.g. `honeypot`, `too_fast`). */
  heldReason: z.string().optional(),
  deliveredAt: iso.optional(),
  failedAt: iso.optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const submissionViewSchema = z.object({
  id: z.string(),
  purpose: z.string(),
  createdAt: iso,
  pageUri: z.string(),
  fields: z.array(z.object({ name: z.string(), label: z.string(), value: z.string() })),
  consent: z
    .object({
      toProcess: z.boolean(),
      communications: z.array(z.object({ subscriptionTypeId: z.number(), value: z.boolean(), text: z.string() })),
    })
    .optional(),
  delivery: deliverySchema,
  deleteAfter: iso.optional(),
});
export type SubmissionView = z.infer<typeof submissionViewSchema>;

export const submissionsPageSchema = z.object({
  form: z.string(),
  forms: z.array(z.object({ purpose: z.string(), title: z.string(), count })),
  submissions: z.array(submissionViewSchema),
  total: count,
  nextCursor: z.string().optional(),
});
export type SubmissionsPage = z.infer<typeof submissionsPageSchema>;

// ---- Outbox tab (GET /api/admin/outbox) ----

export const messageStatuses = [
  'awaiting_confirmation',
  'queued',
  'sent',
  'delivered',
  'bounced',
  'failed',
  'withdrawn',
  'expired',
  'replaced',
  'voided',
] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export type Channel = 'platform' | 'self';

export const schoolAnswerSchema = z.object({
  messageId: z.string(),
  kind: z.enum(answerKinds),
  comment: z.string(),
  /** How many days the school's reply took, as the parent said it (replies only). */
  daysTaken: z.number().int().min(0).optional(),
  answeredAt: iso,
  updatedAt: iso,
  /** Whether HubSpot has the answer on the contact. */
  contact: z.enum(['pending', 'delivered', 'not_configured']),
});
export type SchoolAnswer = z.infer<typeof schoolAnswerSchema>;

/** The parts of a message the Outbox tab reads (the endpoint sends the stored message whole). */
export const outboxViewSchema = z.looseObject({
  id: z.string(),
  channel: z.enum(['platform', 'self']),
  status: z.enum(messageStatuses),
  createdAt: iso,
  parentName: z.string(),
  parentEmail: z.string(),
  schoolName: z.string(),
  to: z.string(),
  toName: z.string(),
  subject: z.string(),
  body: z.string(),
  sentAt: iso.optional(),
  attempts: count,
  lastError: z.string().optional(),
  confirmation: z.object({ confirmedAt: iso.optional(), refusal: z.string().optional() }).optional(),
  delivery: z.object({ at: iso, timeZone: z.string(), state: z.string().optional(), detail: z.string().optional() }).optional(),
  followUp: z.object({ dueAt: iso }).optional(),
  review: z.enum(['pending', 'approved', 'rejected']).optional(),
  /** What became of each email about it (the mail layer's states; never a link). */
  emails: z
    .array(z.object({ id: z.string(), kind: z.string(), state: z.string(), notBefore: iso, sentAt: iso.nullable(), lastError: z.string().nullable() }))
    .default([]),
  answer: schoolAnswerSchema.optional(),
});
export type OutboxView = z.infer<typeof outboxViewSchema>;

export const outboxPageSchema = z.object({ messages: z.array(outboxViewSchema), mailConfigured: z.boolean().default(true), nextCursor: z.string().optional() });
export type OutboxPage = z.infer<typeof outboxPageSchema>;

/** GET /api/admin/data-deletions: HubSpot deletions asked for by parents, masked. */
export const contactDeletionSchema = z.object({
  id: z.string(),
  masked: z.string(),
  state: z.enum(['pending', 'done']),
  attempts: count,
  lastError: z.string().optional(),
  createdAt: iso,
  nextAttemptAt: iso,
  doneAt: iso.optional(),
});
export type ContactDeletion = z.infer<typeof contactDeletionSchema>;
export const deletionsSchema = z.object({ deletions: z.array(contactDeletionSchema) });

// ---- Impact tab (GET /api/admin/impact, /api/admin/impact/schools[/{key}]) ----

export const schoolImpactRowSchema = z.object({
  school: z.string(),
  emailsSent: count,
  answers: z.record(z.enum(answerKinds), count),
  /** Share of the emails whose parent says the school answered (any reply, or a meeting). */
  responseRate: z.number().min(0).max(1),
  /** The median of the days the school's replies took, as parents said them (none said: null). */
  medianDaysToReply: z.number().nullable(),
  latestComment: z.string(),
  latestCommentAt: z.string(),
});
export type SchoolImpactRow = z.infer<typeof schoolImpactRowSchema>;
export const impactRowsSchema = z.object({ rows: z.array(schoolImpactRowSchema) });

export const campaignSchoolSchema = z.object({ key: z.string(), schoolName: z.string(), parents: count, updatedAt: iso });
export type CampaignSchool = z.infer<typeof campaignSchoolSchema>;
export const campaignSchoolsPageSchema = z.object({ schools: z.array(campaignSchoolSchema), nextCursor: z.string().optional() });

export const cameValues = ['direct', 'parent', 'ambassador'] as const;
export type Came = (typeof cameValues)[number];
export const updateStates = ['pending', 'sent', 'capped', 'limit', 'stopped', 'gone', 'failed'] as const;
export type UpdateState = (typeof updateStates)[number];

export const campaignParentSchema = z.object({
  messageId: z.string(),
  /** The parent's address masked (s•••@example.org); empty once the message is purged or erased. */
  parent: z.string(),
  channel: z.enum(['platform', 'self']),
  sentAt: iso,
  came: z.enum(cameValues),
  /** The parent whose share brought them (masked), and the ambassador's id, when there is one. */
  referrer: z.string().optional(),
  ambassadorId: z.string().optional(),
  letterId: z.string().optional(),
  answer: z.enum(answerKinds).optional(),
  updatesSent: count,
});
export type CampaignParent = z.infer<typeof campaignParentSchema>;

export const campaignSchema = z.object({
  school: z.object({ key: z.string(), schoolName: z.string(), contactAddress: z.string(), parents: count, emails: count }),
  parents: z.array(campaignParentSchema),
  nextCursor: z.string().optional(),
  came: z.record(z.enum(cameValues), count),
  letters: z.array(z.object({ letterId: z.string(), emails: count })),
  answers: z.array(z.object({ day: z.string(), kind: z.enum(answerKinds), count })),
  updates: z.partialRecord(z.enum(updateStates), count),
});
export type Campaign = z.infer<typeof campaignSchema>;

// ---- Review tab (GET /api/admin/review, POST /api/admin/review/{id}, POST /api/admin/school-pages/{key}) ----

export const reviewStates = ['pending', 'approved', 'rejected'] as const;
export type ReviewState = (typeof reviewStates)[number];

/** One claim nobody could check by themselves, with what staff read to judge it (the contact masked). */
export const reviewItemSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  /** `self_report`: "I've sent it myself"; `replied`, `meeting`: an outcome reported on such a letter. */
  claim: z.enum(['self_report', 'replied', 'meeting']),
  reason: z.enum(['self_report', 'outcome_on_self_report', 'outcome_reported', 'own_domain']),
  state: z.enum(reviewStates),
  createdAt: iso,
  decidedAt: iso.optional(),
  decidedBy: z.string().optional(),
  letter: z.object({
    channel: z.enum(['platform', 'self']),
    schoolName: z.string(),
    contact: z.string(),
    contactName: z.string(),
    parentFirstName: z.string(),
    parentDomain: z.string(),
    sentAt: iso.nullable(),
    subject: z.string(),
  }),
  /** The school record the letter was written to: verified or a proposal, and whether the letter's address is on it. */
  school: z.object({ id: z.string(), name: z.string(), status: z.enum(['proposed', 'verified', 'retired']), onRecord: z.boolean() }).nullable(),
  answer: z.object({ kind: z.enum(answerKinds), comment: z.string(), at: iso }).nullable(),
});
export type ReviewItemView = z.infer<typeof reviewItemSchema>;
export const reviewPageSchema = z.object({ items: z.array(reviewItemSchema), nextCursor: z.string().optional() });
export type ReviewPage = z.infer<typeof reviewPageSchema>;
export const reviewDecisionSchema = z.object({ item: reviewItemSchema });

// ---- Mail tab (GET /api/admin/mail/previews, /emails, /suppressions) ----

export const mailPreviewSchema = z.object({
  kind: z.enum(emailKinds),
  label: z.string(),
  to: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
});
export type MailPreview = z.infer<typeof mailPreviewSchema>;
export const mailPreviewsSchema = z.object({ previews: z.array(mailPreviewSchema) });

/** One email of the mail layer: never its content (a confirmation's link is for the parent alone). */
export const mailEmailSchema = z.object({
  id: z.string(),
  kind: z.enum(emailKinds),
  /** Masked, or "(erased)" once the person took their data back. */
  to: z.string(),
  state: z.string(),
  stateLabel: z.string(),
  notBefore: iso,
  attempts: count,
  lastError: z.string().nullable(),
  sentAt: iso.nullable(),
  updatedAt: iso,
});
export type MailEmail = z.infer<typeof mailEmailSchema>;
export const mailEmailsPageSchema = z.object({ emails: z.array(mailEmailSchema), nextCursor: z.string().optional() });
export type MailEmailsPage = z.infer<typeof mailEmailsPageSchema>;

export const suppressionSchema = z.object({
  key: z.string(),
  masked: z.string(),
  reason: z.enum(['bounced', 'complained']),
  detail: z.string().nullable(),
  createdAt: iso,
  expiresAt: iso,
  renewedAt: iso.nullable(),
});
export type Suppression = z.infer<typeof suppressionSchema>;
export const suppressionsSchema = z.object({ suppressions: z.array(suppressionSchema) });
/** An email whose outcome never came (the connection ended after it was handed over): staff settle it. */
export const unknownEmailSchema = z.object({ id: z.string(), kind: z.string(), to: z.string(), detail: z.string().nullable(), updatedAt: iso });
export type UnknownEmail = z.infer<typeof unknownEmailSchema>;

// ---- Activity Logs tab (GET /api/admin/webhook-logs) ----

export const webhookLogSchema = z.object({
  id: z.string(),
  createdAt: iso,
  updatedAt: iso,
  eventType: z.string(),
  webhookId: z.string().nullable(),
  /** received while being handled, then success or error. */
  status: z.enum(['received', 'success', 'error']),
  /** skipped for events that change nothing on the contact. */
  hubspotSyncStatus: z.enum(['pending', 'success', 'error', 'skipped']),
  hubspotContactId: z.string().optional(),
  error: z.string().optional(),
  attempts: count,
  /** Calendly's delivery as received (its schema is the receiver's: src/server/calendly-webhook.ts). */
  payload: z.looseObject({ event: z.string() }),
});
export type WebhookLogView = z.infer<typeof webhookLogSchema>;
export const webhookLogsPageSchema = z.object({ logs: z.array(webhookLogSchema), nextCursor: z.string().nullable() });
export type WebhookLogsPage = z.infer<typeof webhookLogsPageSchema>;

// ---- Webhooks and CRM configuration tabs ----

/** A Calendly webhook configuration as the admin sees it: the signing key only as a hint. */
export const publicWebhookSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  calendlyWebhookUrl: z.string(),
  events: z.array(z.string()),
  scope: z.enum(['organization', 'user']),
  organization: z.string(),
  user: z.string(),
  signingKey: z.string(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
  calendlySubscriptionUri: z.string().nullable(),
  registered: z.boolean(),
});
export type PublicWebhook = z.infer<typeof publicWebhookSchema>;
export const webhooksSchema = z.object({ webhooks: z.array(publicWebhookSchema), calendlyConfigured: z.boolean() });

/** The HubSpot configuration as the admin sees it: tokens only as hints. */
export const publicHubSpotConfigSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  accessToken: z.string(),
  refreshToken: z.string(),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});
export type PublicHubSpotConfig = z.infer<typeof publicHubSpotConfigSchema>;
export const hubSpotConfigAnswerSchema = z.object({ config: publicHubSpotConfigSchema.nullable(), environmentTokenConfigured: z.boolean() });
export type HubSpotConfigAnswer = z.infer<typeof hubSpotConfigAnswerSchema>;

// ---- Staff tab and the first owner (POST /api/admin/staff/invitations, the bootstrap passkey) ----

/**
 * A staff member's email address, checked in the form before it is sent; the server checks it again
 * (src/server/staff/members.ts), and tests/unit/staff-email.test.ts holds the two to one answer.
 */
export const staffEmailSchema = z
  .string()
  .trim()
  .pipe(z.email('Enter a valid email address').min(3, 'Enter a valid email address').max(254, 'Enter a valid email address'));

// ---- Schools tab (GET /api/admin/schools, /api/admin/schools/{id}, /api/admin/schools/flags) ----

const leaderView = z.object({ name: z.string(), role: z.string(), address: z.string() });
/** A school as the Schools tab reads it, with how many letters it has. */
export const schoolViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  city: z.string().nullable(),
  status: z.enum(['proposed', 'verified', 'retired']),
  source: z.enum(['nomination', 'letter', 'staff', 'import']),
  pageKey: z.string().regex(/^[0-9a-f]{32}$/),
  leaders: z.array(leaderView),
  emailDomains: z.array(z.string()),
  website: z.string().nullable(),
  timeZone: z.string(),
  hours: z.object({ days: z.array(z.number().int().min(0).max(6)), opens: z.string(), closes: z.string() }),
  holidays: z.array(z.string()),
  evidence: z.object({ kind: z.enum(['website', 'reply', 'note']), detail: z.string() }).nullable(),
  mergedInto: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  verifiedAt: iso.nullable(),
  verifiedBy: z.string().nullable(),
  letters: z.object({ letters: count, confirmed: count }),
});
export const schoolsPageSchema = z.object({ schools: z.array(schoolViewSchema), nextCursor: z.string().optional() });
export const schoolFlagsSchema = z.object({
  flags: z.array(z.object({ schoolId: z.string(), schoolName: z.string(), address: z.string(), letters: count, createdAt: iso })),
});
