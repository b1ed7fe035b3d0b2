import { publicEnv } from './env';

/**
 * Every embedded HubSpot form, named by purpose. Region and portal are the account's; each
 * form id can be overridden by environment (see `.env.example`).
 */
export const hubspot = {
  region: publicEnv.hubspotRegion,
  portalId: publicEnv.hubspotPortalId,
  /** Always https: the embed must never be loaded protocol-relative. */
  embedScriptUrl: 'https://js.hsforms.net/forms/embed/v2.js',
} as const;

export const forms = {
  newsletter: { formId: publicEnv.formIds.newsletter, title: 'Get insights and advocacy tips' },
  emailGenerator: { formId: publicEnv.formIds.emailGenerator, title: 'Generate your school email' },
  resources: { formId: publicEnv.formIds.resources, title: 'Get the advocacy resources' },
  partnership: { formId: publicEnv.formIds.partnership, title: 'Partnership application' },
  webinarSignup: { formId: publicEnv.formIds.webinarSignup, title: 'Webinar sign-up' },
  contact: { formId: publicEnv.formIds.contact, title: 'Ask a question' },
  referSchool: { formId: publicEnv.formIds.referSchool, title: 'Refer Your School' },
  toolkit: { formId: publicEnv.formIds.toolkit, title: 'Get Your Toolkit' },
} as const;

export type FormPurpose = keyof typeof forms;

/**
 * The HubSpot field names of the email-generation and referral forms, by the email data they
 * fill (§3 "CRM form field labels read on submit"). Change a name here when the form changes.
 */
export const emailFormFields = {
  childFullName: 'child_full_name',
  childGrade: 'child_grade',
  schoolName: 'school_name',
  schoolContactName: 'school_contact_name',
  schoolContactEmail: 'school_contact_email',
  parentFullName: 'full_name',
  parentEmail: 'email',
  role: 'role_to_student',
  state: 'state',
  city: 'city',
} as const;

/** The field with the parent's choice, and the answer that asks the platform to send. */
export const sendChoiceField = {
  name: 'choose_how_to_send_your_email',
  platformValue: 'Send via our platform',
} as const;

/** The hidden input filled with the page and the ambassador id. */
export const referralSourceField = 'referral_source';

/** The embedded forms of /form, by its `type` query parameter. */
export const formPageTypes = {
  referSchool: {
    purpose: 'referSchool',
    title: 'Refer Your School',
    lead: "Tell us about your child's school and we'll draft an email to its leadership for you.",
  },
  toolkit: {
    purpose: 'toolkit',
    title: 'Get Your Toolkit',
    lead: 'Social media templates, visual graphics and fact sheets to share the case for mastery learning.',
  },
  newsletter: {
    purpose: 'newsletter',
    title: 'Stay Connected',
    lead: 'Research, stories and advocacy tips from the movement, once or twice a month.',
  },
} as const satisfies Record<string, { purpose: FormPurpose; title: string; lead: string }>;

export type FormPageType = keyof typeof formPageTypes;
