import { publicEnv } from './env';

/**
 * Which HubSpot embed an embedded form uses: `v2`, the legacy embed (`hbspt.forms.create`), or `v4`,
 * the embed of forms made in HubSpot's updated forms editor (`hs-form-frame` and the
 * `hs-form-event:*` window events). PUBLIC_EMBED_V4_FORMS lists the purposes that use v4.
 */
export type EmbedGeneration = 'v2' | 'v4';

/**
 * The v4 embed's script: one per portal, on the host of the account's region. HubSpot's embed code
 * is `https://js.hsforms.net/forms/embed/{portalId}.js` for na1 and
 * `https://js-{region}.hsforms.net/forms/embed/{portalId}.js` for the other regions (eu1, na2, …).
 */
export function v4EmbedScriptUrl(region: string, portalId: string): string {
  if (!/^[a-z]{2,3}\d{1,2}$/.test(region)) throw new Error(`PUBLIC_HUBSPOT_REGION must be a HubSpot region such as "na1" or "eu1", got "${region}".`);
  if (!/^\d+$/.test(portalId)) throw new Error(`PUBLIC_HUBSPOT_PORTAL_ID must be a number, got "${portalId}".`);
  const host = region === 'na1' ? 'js.hsforms.net' : `js-${region}.hsforms.net`;
  return `https://${host}/forms/embed/${portalId}.js`;
}

/**
 * The HubSpot account of every form, named by purpose below. Region and portal are the account's;
 * each form id can be overridden by environment (see `.env.example`).
 */
export const hubspot = {
  region: publicEnv.hubspotRegion,
  portalId: publicEnv.hubspotPortalId,
  /** The legacy v2 embed. Always https: the embed must never be loaded protocol-relative. */
  embedScriptUrl: 'https://js.hsforms.net/forms/embed/v2.js',
  /** The v4 embed of this portal. */
  embedV4ScriptUrl: v4EmbedScriptUrl(publicEnv.hubspotRegion, publicEnv.hubspotPortalId),
} as const;

/** The script an embedded form of this generation loads. */
export function embedScriptUrlOf(generation: EmbedGeneration): string {
  return generation === 'v4' ? hubspot.embedV4ScriptUrl : hubspot.embedScriptUrl;
}

/**
 * How a form is shown: `native` (rendered by the site from its definition and submitted through
 * POST /api/forms/{formId}) or `embed` (HubSpot's own embed script). PUBLIC_EMBED_FORMS lists the
 * purposes to embed; a definition the native renderer cannot draw is embedded anyway (build warning).
 */
export type FormRender = 'native' | 'embed';

const form = (purpose: string, formId: string, title: string, file: string) => ({
  formId,
  title,
  /** The committed definition used without HubSpot, under content/forms/. */
  file,
  render: (publicEnv.embedForms.includes(purpose) ? 'embed' : 'native') as FormRender,
  /** The embed it uses when embedded (by configuration or because the site cannot draw it). */
  embed: (publicEnv.embedV4Forms.includes(purpose) ? 'v4' : 'v2') as EmbedGeneration,
});

export const forms = {
  newsletter: form('newsletter', publicEnv.formIds.newsletter, 'Get insights and advocacy tips', 'newsletter.yaml'),
  emailGenerator: form('emailGenerator', publicEnv.formIds.emailGenerator, 'Generate your school email', 'email-generator.yaml'),
  resources: form('resources', publicEnv.formIds.resources, 'Get the advocacy resources', 'resources.yaml'),
  partnership: form('partnership', publicEnv.formIds.partnership, 'Partnership application', 'partnership.yaml'),
  webinarSignup: form('webinarSignup', publicEnv.formIds.webinarSignup, 'Webinar sign-up', 'webinar-signup.yaml'),
  contact: form('contact', publicEnv.formIds.contact, 'Ask a question', 'contact.yaml'),
  referSchool: form('referSchool', publicEnv.formIds.referSchool, 'Refer Your School', 'refer-school.yaml'),
  toolkit: form('toolkit', publicEnv.formIds.toolkit, 'Get Your Toolkit', 'toolkit.yaml'),
} as const;

export type FormPurpose = keyof typeof forms;
export const formPurposes = Object.keys(forms) as FormPurpose[];

// A misspelt purpose would silently leave a form on the wrong renderer: fail the build instead.
for (const [name, list] of [
  ['PUBLIC_EMBED_FORMS', publicEnv.embedForms],
  ['PUBLIC_EMBED_V4_FORMS', publicEnv.embedV4Forms],
] as const) {
  const unknown = list.filter((purpose) => !Object.hasOwn(forms, purpose));
  if (unknown.length) throw new Error(`${name} names no form "${unknown.join('", "')}"; the forms are ${formPurposes.join(', ')}.`);
}

/**
 * The script origins the pages' Content-Security-Policy must allow for the embeds: the v2 embed's
 * always (any form falls back to the embed when the site cannot draw its definition), the v4
 * embed's only when a form uses it.
 */
export function embedScriptOrigins(): string[] {
  const urls = [hubspot.embedScriptUrl, ...(formPurposes.some((purpose) => forms[purpose].embed === 'v4') ? [hubspot.embedV4ScriptUrl] : [])];
  return [...new Set(urls.map((url) => new URL(url).origin))];
}

/** The purposes whose submission makes the school email (§4). */
export const emailFormPurposes = ['emailGenerator', 'referSchool'] as const satisfies readonly FormPurpose[];

/**
 * The forms shown in other languages than English, with the place of their words
 * (content/i18n/{locale}/{place}.yaml, src/lib/shared/forms/localize.ts). Other forms stay English,
 * marked `lang="en"`, on a page in another language.
 */
export const formWordsPlaces: Partial<Record<FormPurpose, string>> = {
  emailGenerator: 'emailForm',
  newsletter: 'newsletterForm',
  partnership: 'partnershipForm',
  webinarSignup: 'webinarSignupForm',
  resources: 'resourcesForm',
};

/** The configured purpose of a HubSpot form id, if any. */
export function purposeOfFormId(formId: string): FormPurpose | undefined {
  return formPurposes.find((purpose) => forms[purpose].formId === formId);
}

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
