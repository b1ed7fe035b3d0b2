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
