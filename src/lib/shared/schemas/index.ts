/**
 * The payload schemas of the specification (§3, §5), shared by the islands that send them and the
 * functions that receive them. Types come from z.infer, never a second hand-written interface.
 */
import { z } from 'zod';
import { defaultLocale, locales } from '../../../config/locales';
import { fieldMessages, lineProblem, namesOrganisation } from '../email/fields';
import { WORDS_CONSENT_VALUE, wordsConsentMessage } from '../email/personal-fields';

// The site's Content-Security-Policy forbids eval; zod's JIT parser probes for it, which the
// browser reports as a violation. Parsing without it is fast enough for forms of a few fields.
z.config({ jitless: true });

const text = (max = 200) => z.string().trim().min(1).max(max);
const email = z.email().max(254);

/**
 * A name the site keeps and may show or send (a school, a city, a person): one line, no link,
 * address, markup or phone number, and not the organisation's name (src/lib/shared/email/fields.ts).
 */
const name = (max: number) =>
  text(max).superRefine((value, context) => {
    const problem = lineProblem(value, max) ?? (namesOrganisation(value) ? fieldMessages.organisationSchool : undefined);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** POST /api/nominations: every field required, email valid (§5). */
export const nominationSchema = z
  .object({
    schoolName: name(150),
    city: name(120),
    yourName: name(120),
    email,
    childGrade: text(40),
    sendTo: text(200),
  })
  .strict();
export type Nomination = z.infer<typeof nominationSchema>;

/** POST /api/school-nominations: the four-field variant. */
export const schoolNominationSchema = nominationSchema.pick({ schoolName: true, city: true, yourName: true, email: true }).strict();
export type SchoolNomination = z.infer<typeof schoolNominationSchema>;

/** The values the school email is generated from (§3 "Email-generation data"). */
export const emailDataSchema = z.object({
  childFullName: z.string().max(200).default(''),
  childGrade: z.string().max(60).default(''),
  schoolName: z.string().max(200).default(''),
  schoolContactEmail: z.string().max(254).default(''),
  schoolContactName: z.string().max(200).default(''),
  parentFullName: z.string().max(200).default(''),
  parentEmail: z.string().max(254).default(''),
});
export type EmailData = z.infer<typeof emailDataSchema>;

/** The referral form adds role, state and city. */
export const referralDataSchema = emailDataSchema.extend({
  role: z.string().max(100).default(''),
  state: z.string().max(100).default(''),
  city: z.string().max(120).default(''),
});
export type ReferralData = z.infer<typeof referralDataSchema>;

/**
 * POST /api/send-email: "Send via our platform" names an accepted email-form submission and the
 * one-time token only the submitting browser received, never text; the server composes the email.
 * The optional note is the parent's own words (src/lib/shared/email/note.ts checks it).
 */
export const sendEmailSchema = z
  .object({
    submissionId: z.string().regex(/^[\w-]{8,120}$/, 'must be the id of your form submission'),
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the send token your form submission gave'),
    note: z.string().max(2000).optional(),
    /** "You may quote my words on our school's page (first name only)": true only if the parent ticked it; left out, the form's choice stands. */
    wordsConsent: z.boolean().optional(),
    /** The browser's time zone (IANA name): the school's, for its working hours. Unknown ones are ignored. */
    timeZone: z.string().max(64).optional(),
  })
  .strict();
export type SendEmailRequest = z.infer<typeof sendEmailSchema>;

/**
 * The email forms' box "You may quote my words on our school's page (first name only)" as a form
 * posts it: `WORDS_CONSENT_VALUE` when ticked, nothing when not (src/lib/shared/email/personal-fields.ts).
 */
export const formWordsConsentSchema = z
  .literal(WORDS_CONSENT_VALUE, { error: wordsConsentMessage })
  .optional()
  .transform((value) => value === WORDS_CONSENT_VALUE);

/**
 * The language of the page a form was posted from (`_locale`): its answer, its emails and the pages
 * that follow are in it. A form that posts none is English; any other value is refused.
 */
const localeField = (what: string) =>
  z.enum(locales, { error: `${what} must be one of ${locales.map((locale) => `"${locale}"`).join(', ')}.` }).default(defaultLocale);
export const formLocaleSchema = localeField('The form’s language (_locale)');

/** The language of the letter to the school (`_letter_locale`), chosen on a page in another language: English unless given. */
export const letterLocaleSchema = localeField('The letter’s language (_letter_locale)');

/**
 * POST /api/hubspot/search-contact: the invitee's email and Calendly's `invitee_uuid` from the
 * redirect to /thank-you (the lookup answers only for that booking).
 */
export const searchContactSchema = z
  .object({ email, inviteeUuid: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'must be the invitee_uuid of your Calendly booking') })
  .strict();

/**
 * The contact fields and values the browser may write: none. The send choice used to be here; it
 * is the trigger of the send workflow, so it is made only in the email form and confirmed from
 * the parent's inbox (issue 21).
 */
export const contactUpdateAllowList: Readonly<Record<string, readonly string[]>> = {};

/** POST /api/hubspot/update-contact */
export const updateContactSchema = z
  .object({
    contactId: z.string().regex(/^\d{1,20}$/, 'must be a HubSpot contact id'),
    updates: z
      .array(z.object({ field: z.string().max(100), value: z.string().max(200) }).strict())
      .min(1)
      .max(5),
  })
  .strict();
export type UpdateContactRequest = z.infer<typeof updateContactSchema>;

/** POST /api/subscribe */
export const subscribeSchema = z.object({ email }).strict();

/** Referral tracking payload sent to the ambassador host. */
export const referralTrackingSchema = z.object({
  ambassadorId: text(100),
  referralType: z.enum(['referSchool', 'toolkit', 'newsletter']),
  formDetails: z.record(z.string(), z.string()).optional(),
});

export const webhookEvents = ['invitee.created', 'invitee.canceled', 'invitee_no_show.created', 'invitee_no_show.deleted'] as const;

/** The Add Webhook form (§5 messages verbatim). */
export const webhookConfigSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  description: z.string().trim().max(500).optional().default(''),
  calendlyWebhookUrl: z.url({ error: 'Must be a valid URL' }).max(500),
  events: z.array(z.enum(webhookEvents)).min(1, 'At least one event must be selected'),
  scope: z.enum(['organization', 'user'], { error: 'Scope is required' }),
  organization: z.string().trim().min(1, 'Organization is required').max(300),
  user: z.string().trim().max(300).optional().default(''),
  signingKey: z
    .string()
    .trim()
    .max(200)
    .refine((key) => key === '' || key.length >= 32, 'The signing key must be at least 32 characters; leave it empty to have a random one generated')
    .optional()
    .default(''),
  isActive: z.boolean().default(true),
});
export type WebhookConfigInput = z.infer<typeof webhookConfigSchema>;

/** The CRM Config form. */
export const hubspotConfigSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  description: z.string().trim().max(500).optional().default(''),
  accessToken: z.string().trim().min(1, 'Access token is required').max(500),
  refreshToken: z.string().trim().max(500).optional().default(''),
  isActive: z.boolean().default(true),
});
export type HubSpotConfigInput = z.infer<typeof hubspotConfigSchema>;

/** The Test Connections dialogs. */
export const connectionTestSchema = z.object({
  accessToken: z.string().trim().min(1, 'Access token is required').max(500),
});

/** The admin sign-in (§3 login schema). */
export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(100),
  password: z.string().min(1, 'Password is required').max(200),
});

/** Declared in the specification, kept for the forms that may use them. */
export const eventSignupSchema = z.object({
  name: text(120),
  email,
  phone: z.string().max(40).optional(),
  bringToSchool: z.boolean().default(false),
});
export const contactSchema = z.object({
  contactReason: text(120),
  fullName: text(120),
  email,
  schoolAffiliation: z.string().max(200).optional(),
  message: text(5000),
});
