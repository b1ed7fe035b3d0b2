/**
 * Public, build-time configuration. The only place in `src/` that reads the environment:
 * everything here ends up in static HTML, so no secret may ever be read in this file.
 * Server-side secrets are read in `netlify/functions/_shared/env.ts`.
 */
const env: Record<string, string | undefined> =
  typeof process !== 'undefined' && process.env ? process.env : {};

function read(name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function readFlag(name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value);
}

export const publicEnv = {
  /** Absolute origin of the deployed site. Netlify sets URL; SITE_URL wins when given. */
  siteUrl: read('SITE_URL', read('URL', 'https://masteryparents.org')).replace(/\/+$/, ''),
  /** A host name containing this marker is a staging site and is not indexed. */
  stagingMarker: read('STAGING_HOST_MARKER', 'staging'),
  /** The separate Parent Ambassador application (join and sign-in pages). */
  ambassadorHost: read('PUBLIC_AMBASSADOR_HOST', 'https://ambassadors.masteryparents.org').replace(/\/+$/, ''),
  hubspotRegion: read('PUBLIC_HUBSPOT_REGION', 'na1'),
  hubspotPortalId: read('PUBLIC_HUBSPOT_PORTAL_ID', '48526151'),
  /** Home-page sections the specification keeps switched off. */
  showNominationSection: readFlag('PUBLIC_SHOW_NOMINATION_SECTION', false),
  showParentVideosSection: readFlag('PUBLIC_SHOW_PARENT_VIDEOS_SECTION', false),
  /** Overrides for the embedded form ids, by purpose. */
  formIds: {
    newsletter: read('PUBLIC_HUBSPOT_FORM_NEWSLETTER', 'c4c2f6a4-3a1e-4d67-9a1c-5b8f1e2d7a01'),
    emailGenerator: read('PUBLIC_HUBSPOT_FORM_EMAIL', '7d3b9e12-8f4a-4c1b-b2e6-0a9f4c3d5e02'),
    resources: read('PUBLIC_HUBSPOT_FORM_RESOURCES', 'a1f5c8d3-2b7e-4e9a-8c4d-6f0b2a1e9c03'),
    partnership: read('PUBLIC_HUBSPOT_FORM_PARTNERSHIP', 'e8b2d4f6-1c3a-4b5d-9e7f-2a4c6e8b0d04'),
    webinarSignup: read('PUBLIC_HUBSPOT_FORM_WEBINAR', 'f3a5c7e9-4b6d-4f8a-a1c3-5e7b9d1f3a05'),
    contact: read('PUBLIC_HUBSPOT_FORM_CONTACT', 'b6d8f0a2-5c7e-4a9b-b3d5-7f9a1c3e5b06'),
    referSchool: read('PUBLIC_HUBSPOT_FORM_REFER_SCHOOL', 'd9f1b3c5-6e8a-4c0d-a4e6-8b0c2d4f6a07'),
    toolkit: read('PUBLIC_HUBSPOT_FORM_TOOLKIT', 'c2e4a6b8-7f9b-4d1e-b5f7-9c1d3e5a7b08'),
  },
  /**
   * The content editor (/content-editor, Decap CMS). On the deployed site it signs staff in with
   * GitHub and opens a pull request per change against `repo`'s `branch`; `npm run edit` uses
   * the local file-system backend (decap-server on `localBackendPort`) instead.
   */
  contentEditor: {
    /** "owner/name" of the GitHub repository; the editor says it is not configured without one. */
    repo: read('DECAP_REPO', ''),
    branch: read('DECAP_BRANCH', 'main'),
    /** The OAuth provider: Netlify's by default; an external one's origin otherwise. */
    authBaseUrl: read('DECAP_BASE_URL', 'https://api.netlify.com').replace(/\/+$/, ''),
    authEndpoint: read('DECAP_AUTH_ENDPOINT', 'auth'),
    /** The site name Netlify's OAuth provider knows the site by (deploy previews have other hosts). */
    siteDomain: read('DECAP_SITE_DOMAIN', ''),
    localBackendPort: Number(read('DECAP_SERVER_PORT', '8081')),
  },
  /**
   * Forms shown with HubSpot's embed instead of the native form, by purpose, comma-separated
   * (e.g. "partnership,contact"). Every other form is rendered by the site itself.
   */
  embedForms: read('PUBLIC_EMBED_FORMS', '')
    .split(',')
    .map((purpose) => purpose.trim())
    .filter(Boolean),
  /**
   * Where the build reads the latest impact figures from (the live site's /api/impact), so the
   * prebuilt pages carry them. On Netlify: the site's own URL; elsewhere none (the page starts
   * with "fewer than 5" and the live figures replace it).
   */
  impactSourceUrl: read('IMPACT_SOURCE_URL', env.NETLIFY === 'true' ? `${read('SITE_URL', read('URL', 'https://masteryparents.org')).replace(/\/+$/, '')}/api/impact` : ''),
  /** Links used inside the generated school email. */
  emailVideoUrl: read('PUBLIC_EMAIL_VIDEO_URL', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s'),
  bookingUrl: read('PUBLIC_BOOKING_URL', 'https://calendly.com/masteryparents/intro-call'),
  webinarRegistrationUrl: read(
    'PUBLIC_WEBINAR_REGISTRATION_URL',
    'https://masteryparents.org/events-webinars#join-the-conversation',
  ),
} as const;
