/**
 * Public, build-time configuration. The only place in `src/` that reads the environment:
 * everything here ends up in static HTML, so no secret may ever be read in this file.
 * Server-side secrets are read in `src/server/env.ts`.
 */
const env: Record<string, string | undefined> = typeof process !== 'undefined' && process.env ? process.env : {};

function read(name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

function readFlag(name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value);
}

/** A comma-separated list, trimmed, without empty items. */
function readList(name: string): string[] {
  return read(name, '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Absolute origin of the deployed site. Netlify sets URL; SITE_URL wins when given. */
/** The site's own pages the school email links to when its links are not set. */
const siteDefaults = { PUBLIC_EMAIL_VIDEO_URL: '/real-stories', PUBLIC_BOOKING_URL: '/partnership-form' } as const;

const siteUrl = read('SITE_URL', read('URL', 'https://masteryparents.org')).replace(/\/+$/, '');

export const publicEnv = {
  siteUrl,
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
  embedForms: readList('PUBLIC_EMBED_FORMS'),
  /**
   * Embedded forms that use HubSpot's current embed (the updated forms editor: `hs-form-frame` and
   * the `hs-form-event:*` window events), by purpose, comma-separated. A form rebuilt in today's
   * editor only works with this one. Every other embedded form uses the legacy v2 embed.
   */
  embedV4Forms: readList('PUBLIC_EMBED_V4_FORMS'),
  /**
   * Where the build reads the latest impact figures from (the live site's /api/impact), so the
   * prebuilt pages carry them. On Netlify: the site's own URL; elsewhere none (the page starts
   * with "fewer than 5" and the live figures replace it).
   */
  impactSourceUrl: read('IMPACT_SOURCE_URL', env.NETLIFY === 'true' ? `${siteUrl}/api/impact` : ''),
  /**
   * Links inside the generated school email (and the booking button). Unset, they are the site's
   * own pages (the stories with their videos, and the partnership form that books a call), so a
   * letter never carries a link to nowhere; a production build without them says so
   * (productionSettingWarnings).
   */
  emailVideoUrl: read('PUBLIC_EMAIL_VIDEO_URL', `${siteUrl}${siteDefaults.PUBLIC_EMAIL_VIDEO_URL}`),
  bookingUrl: read('PUBLIC_BOOKING_URL', `${siteUrl}${siteDefaults.PUBLIC_BOOKING_URL}`),
  /** The webinar sign-up shared from /webinar-share; by default the site's own sign-up section. */
  webinarRegistrationUrl: read('PUBLIC_WEBINAR_REGISTRATION_URL', `${siteUrl}/events-webinars#join-the-conversation`),
} as const;

/** A link that can never be a real page (the reserved `.example` domain), as older builds used. */
export function localPlaceholder(name: string): string {
  return `https://placeholder.example/set-${name}`;
}

/** Public settings a production build should be given: the links of every generated school email. */
export const requiredInProduction = [
  { name: 'PUBLIC_EMAIL_VIDEO_URL', use: 'the overview-video link in every generated school email', fallback: 'the stories page' },
  { name: 'PUBLIC_BOOKING_URL', use: 'the call-booking link in every generated school email', fallback: 'the partnership form' },
] as const;

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * True for a build that will be published. On Netlify's build servers (NETLIFY=true): the
 * production context. Anywhere else (a plain `astro build`, or the Netlify CLI, which sets
 * CONTEXT=production for `netlify serve` too): a production build (`astro build` sets NODE_ENV)
 * for an origin, SITE_URL or else URL, that is not this machine. `npm start` builds for
 * http://localhost and so keeps its local placeholders.
 */
export function isProductionBuild(source: Record<string, string | undefined> = env): boolean {
  const context = source.CONTEXT?.trim();
  if (source.NETLIFY === 'true') return context === 'production';
  if (source.NODE_ENV !== 'production' && context !== 'production') return false;
  const origin = source.SITE_URL?.trim() || source.URL?.trim();
  if (!origin) return false;
  try {
    return !LOOPBACK.test(new URL(origin).hostname);
  } catch {
    return true;
  }
}

/** What a production build lacks: each setting that is unset (its letters link to the site's own page). */
export function productionSettingWarnings(source: Record<string, string | undefined> = env): string[] {
  return requiredInProduction.flatMap(({ name, use, fallback }) =>
    source[name]?.trim() ? [] : [`${name} is not set (${use}): letters link to ${fallback} instead`],
  );
}

/** What a production build must not publish: each setting that is set but not an https URL. */
export function productionSettingProblems(source: Record<string, string | undefined> = env): string[] {
  return requiredInProduction.flatMap(({ name, use }) => {
    const value = source[name]?.trim();
    if (!value) return [];
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    return url?.protocol === 'https:' && !url.hostname.endsWith('.example') ? [] : [`${name} must be an https URL, got "${value}" (${use})`];
  });
}

/**
 * A production build warns (`warn`) about each unset link of the school email, and fails on a link
 * that is set but could not work, naming every one.
 */
export function assertProductionSettings(source: Record<string, string | undefined> = env, warn: (message: string) => void = console.warn): void {
  if (!isProductionBuild(source)) return;
  const warnings = productionSettingWarnings(source);
  if (warnings.length) warn(`This production build lacks public settings (see .env.example):\n${warnings.map((warning) => `  - ${warning}`).join('\n')}`);
  const problems = productionSettingProblems(source);
  if (problems.length === 0) return;
  throw new Error(`This production build has public settings that cannot work (see .env.example):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
}
