/**
 * Server-side configuration: the only module of the functions that reads the environment.
 * A missing secret is reported as "not configured" by the caller, never as a crash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const plain = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
};

/**
 * The secrets a deploy preview or branch deploy never reads under their production names: there it
 * reads `PREVIEW_<NAME>` (a preview's own token, keys and bootstrap password, or none), so a
 * variable scoped to every context still never hands a preview production's HubSpot token, keys
 * or owners. docs/deploying.md, "Deploy previews".
 */
export const PREVIEW_SECRETS = new Set([
  'HUBSPOT_ACCESS_TOKEN',
  'CONFIG_ENCRYPTION_KEY',
  'ADMIN_PASSWORD',
  'ADMIN_PASSWORD_HASH',
  'CALENDLY_ACCESS_TOKEN',
  'SCHOOL_PAGE_SECRET',
  'SMTP_URL',
  'SMTP_PASS',
  'DKIM_PRIVATE_KEY',
  'MAILGUN_WEBHOOK_SIGNING_KEY',
  'BUILD_HOOK_URL',
]);

let builtContext: string | undefined;

/**
 * Netlify's deploy context (`production`, `deploy-preview`, `branch-deploy`, `dev`): CONTEXT where
 * the process has it (the build), else what the build wrote beside the functions
 * (dist/api/deploy-context.json, src/pages/api/deploy-context.json.ts), else `dev`.
 */
export function deployContext(): string {
  const given = plain('CONTEXT');
  if (given) return given;
  if (builtContext === undefined) {
    try {
      const file = JSON.parse(readFileSync(join(process.cwd(), 'dist', 'api', 'deploy-context.json'), 'utf8')) as { context?: unknown };
      builtContext = typeof file.context === 'string' && /^[a-z-]{1,40}$/.test(file.context) ? file.context : 'dev';
    } catch {
      builtContext = 'dev';
    }
  }
  return builtContext;
}

export const isPreviewContext = (context = deployContext()) => context === 'deploy-preview' || context === 'branch-deploy';

const read = (name: string): string | undefined => (PREVIEW_SECRETS.has(name) && isPreviewContext() ? plain(`PREVIEW_${name}`) : plain(name));

function positiveInt(name: string, fallback: number): number {
  const value = read(name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of at least 1, got "${value}".`);
  return number;
}

export const serverEnv = {
  get hubspotAccessToken() {
    return read('HUBSPOT_ACCESS_TOKEN');
  },
  /** Points the HubSpot client at a local fake in tests; the real API otherwise. */
  get hubspotBasePath() {
    return read('HUBSPOT_BASE_PATH') ?? 'https://api.hubapi.com';
  },
  /** HubSpot's Forms submission API lives on its own host. */
  get hubspotFormsBasePath() {
    return read('HUBSPOT_FORMS_BASE_PATH') ?? 'https://api.hsforms.com';
  },
  /** First delay of the retry backoff for HubSpot calls, in milliseconds. */
  get hubspotRetryBaseMs() {
    return Number(read('HUBSPOT_RETRY_BASE_MS') ?? 400);
  },
  /**
   * How long POST /api/hubspot/search-contact waits for the booking's Calendly delivery to arrive
   * (the redirect to /thank-you can come before the webhook), in milliseconds.
   */
  get bookingLookupWaitMs() {
    return positiveInt('BOOKING_LOOKUP_WAIT_MS', 4000);
  },
  get calendlyAccessToken() {
    return read('CALENDLY_ACCESS_TOKEN');
  },
  get calendlyBaseUrl() {
    return read('CALENDLY_BASE_URL') ?? 'https://api.calendly.com';
  },
  get adminUsername() {
    return read('ADMIN_USERNAME') ?? 'admin';
  },
  get adminPassword() {
    return read('ADMIN_PASSWORD');
  },
  get adminPasswordHash() {
    return read('ADMIN_PASSWORD_HASH');
  },
  get configEncryptionKey() {
    return read('CONFIG_ENCRYPTION_KEY');
  },
  /**
   * The secret school page keys (/schools/{key}) are made with. Unset: derived from
   * CONFIG_ENCRYPTION_KEY (src/server/schools/pages.ts). Changing it moves every school page.
   */
  get schoolPageSecret() {
    return read('SCHOOL_PAGE_SECRET');
  },
  /** Base delay added to every failed admin sign-in (grows with repeated failures). */
  get adminLoginDelayMs() {
    return Number(read('ADMIN_LOGIN_DELAY_MS') ?? 400);
  },
  /** The site's public origins (Netlify's URL and deploy URL, or SITE_URL), for same-origin checks. */
  get siteOrigins() {
    return ['SITE_URL', 'URL', 'DEPLOY_PRIME_URL', 'DEPLOY_URL']
      .map((name) => read(name))
      .filter((value): value is string => Boolean(value))
      .flatMap((value) => {
        try {
          return [new URL(value).origin];
        } catch {
          return [];
        }
      });
  },
  get buildHookUrl() {
    return read('BUILD_HOOK_URL');
  },
  /**
   * Where the blog comes from at build: `hubspot`, `local` (content/blog), or unset for
   * HubSpot when HUBSPOT_ACCESS_TOKEN is set and the local posts otherwise.
   */
  get blogSource(): 'hubspot' | 'local' {
    const wanted = read('BLOG_SOURCE')?.toLowerCase();
    if (wanted === 'hubspot' || wanted === 'local') return wanted;
    if (wanted && wanted !== 'auto') throw new Error(`BLOG_SOURCE must be "hubspot", "local" or "auto", got "${wanted}".`);
    return read('HUBSPOT_ACCESS_TOKEN') ? 'hubspot' : 'local';
  },
  /**
   * Where form definitions come from at build: `hubspot` (the Marketing Forms v3 API), `local`
   * (content/forms), or unset for HubSpot when HUBSPOT_ACCESS_TOKEN is set and local otherwise.
   */
  get formsSource(): 'hubspot' | 'local' {
    const wanted = read('FORMS_SOURCE')?.toLowerCase();
    if (wanted === 'hubspot' || wanted === 'local') return wanted;
    if (wanted && wanted !== 'auto') throw new Error(`FORMS_SOURCE must be "hubspot", "local" or "auto", got "${wanted}".`);
    return read('HUBSPOT_ACCESS_TOKEN') ? 'hubspot' : 'local';
  },
  /** The form definitions the build wrote (dist/api/form-definitions.json); tests point elsewhere. */
  get formDefinitionsFile() {
    return read('FORM_DEFINITIONS_FILE');
  },
  /** The words of the site's emails (content/emails); tests point elsewhere. */
  get emailsDir() {
    return read('EMAILS_DIR');
  },
  /** The letters of the school email (content/letters); tests point elsewhere. */
  get lettersDir() {
    return read('LETTERS_DIR');
  },
  /** The built site (dist/), whose pages the forms function fills in for visitors without JavaScript. */
  get siteDir() {
    return read('SITE_DIR');
  },
  get ambassadorHost() {
    return (read('PUBLIC_AMBASSADOR_HOST') ?? 'https://ambassadors.masteryparents.org').replace(/\/+$/, '');
  },
  get hubspotPortalId() {
    return read('PUBLIC_HUBSPOT_PORTAL_ID') ?? '48526151';
  },
  /** The embedded newsletter form that POST /api/subscribe submits to (same default as src/config/env.ts). */
  get hubspotNewsletterFormId() {
    return read('PUBLIC_HUBSPOT_FORM_NEWSLETTER') ?? 'c4c2f6a4-3a1e-4d67-9a1c-5b8f1e2d7a01';
  },
  /** How long POST /api/forms/{formId} waits for HubSpot before it answers and leaves delivery to the retry run. */
  get formsDeliveryBudgetMs() {
    return positiveInt('FORMS_DELIVERY_BUDGET_MS', 2500);
  },
  /** How long the scheduled retry run gives HubSpot per submission. */
  get formsRetryBudgetMs() {
    return positiveInt('FORMS_RETRY_BUDGET_MS', 8000);
  },
  /** First wait before the retry run sends a submission HubSpot did not take again (doubles each time). */
  get formsRetryBaseMs() {
    return positiveInt('FORMS_RETRY_BASE_MS', 5 * 60_000);
  },
  /** Submissions one address may make to the site's forms in 10 minutes. */
  get formsRateLimit() {
    return positiveInt('FORMS_RATE_LIMIT', 20);
  },
  /**
   * Calendly deliveries one address (an IPv6 client by its /64) may send in 10 minutes; Calendly
   * sends far fewer (`npm run load` lifts it: its 500 come from one address).
   */
  get calendlyRateLimit() {
    return positiveInt('CALENDLY_RATE_LIMIT', 120);
  },
  /**
   * A submission sent sooner than this after its form became ready (ms) is a bot's, refused quietly.
   * 0 turns the check off.
   */
  get formsMinFillMs() {
    const value = read('FORMS_MIN_FILL_MS');
    if (value === undefined) return 2000;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new Error(`FORMS_MIN_FILL_MS must be a whole number of milliseconds, got "${value}".`);
    return number;
  },
  /** How long POST /api/send-email may spend reaching HubSpot or the mail server before it leaves the message queued. */
  get sendEmailBudgetMs() {
    return Number(read('SEND_EMAIL_BUDGET_MS') ?? 8000);
  },
  /**
   * Whether "Send via our platform" waits for the parent to confirm from their own inbox
   * (`email`, the default) or sends at once (`off`).
   */
  get platformSendConfirmation(): 'email' | 'off' {
    const wanted = read('PLATFORM_SEND_CONFIRMATION')?.toLowerCase();
    if (wanted === undefined || wanted === 'email') return 'email';
    if (wanted === 'off') return 'off';
    throw new Error(`PLATFORM_SEND_CONFIRMATION must be "email" or "off", got "${wanted}".`);
  },
  /** Platform sends a day to one school contact address, across all parents. */
  get schoolDailySendLimit() {
    return positiveInt('PLATFORM_SEND_SCHOOL_DAILY_LIMIT', 5);
  },
  /** Platform sends a day from one parent. */
  get parentDailySendLimit() {
    return positiveInt('PLATFORM_SEND_PARENT_DAILY_LIMIT', 3);
  },
  /** Days after a school email is sent before the parent is asked whether the school answered. */
  get followUpAfterDays() {
    // 0 asks at once (the end-to-end tests walk the whole follow-up that way).
    const value = read('FOLLOWUP_AFTER_DAYS');
    if (value === undefined) return 10;
    const days = Number(value);
    if (!Number.isFinite(days) || days < 0) throw new Error(`FOLLOWUP_AFTER_DAYS must be a number of days of at least 0, got "${value}".`);
    return days;
  },
  /** Days after a school email is sent before the second follow-up, when the first got no answer. */
  get secondFollowUpAfterDays() {
    const value = read('SECOND_FOLLOWUP_AFTER_DAYS');
    if (value === undefined) return 21;
    const days = Number(value);
    if (!Number.isFinite(days) || days < 0) throw new Error(`SECOND_FOLLOWUP_AFTER_DAYS must be a number of days of at least 0, got "${value}".`);
    return days;
  },
  /** The site's own origin for links sent by email (SITE_URL, else Netlify's URL). */
  get siteOrigin() {
    return this.siteOrigins[0] ?? 'http://localhost:8888';
  },
  /**
   * Which sender delivers every email the site sends: `hubspot` (transactional single-send), `smtp`,
   * or unset for whichever is configured (HubSpot first). See src/server/mail/senders.ts.
   * SCHOOL_EMAIL_SENDER is its older name.
   */
  get mailSender(): 'hubspot' | 'smtp' | undefined {
    const wanted = (read('MAIL_SENDER') ?? read('SCHOOL_EMAIL_SENDER'))?.toLowerCase();
    if (wanted === undefined || wanted === 'auto') return undefined;
    if (wanted === 'hubspot' || wanted === 'smtp') return wanted;
    throw new Error(`MAIL_SENDER must be "hubspot", "smtp" or "auto", got "${wanted}".`);
  },
  /**
   * The address every email comes from: on the organisation's own authenticated domain (SPF, DKIM,
   * DMARC). SCHOOL_EMAIL_FROM_ADDRESS is its older name. Unset: nothing is sent.
   */
  get mailFromAddress() {
    const value = read('MAIL_FROM_ADDRESS') ?? read('SCHOOL_EMAIL_FROM_ADDRESS');
    if (value !== undefined && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$|^[^\s@<>"]+@localhost$/.test(value))
      throw new Error(`MAIL_FROM_ADDRESS must be an email address, got "${value}".`);
    return value;
  },
  /** DKIM signing of SMTP mail: all three set, or none (the provider may sign instead). */
  get dkim(): { domainName: string; keySelector: string; privateKey: string } | undefined {
    const privateKey = read('DKIM_PRIVATE_KEY')?.replace(/\\n/g, '\n');
    const keySelector = read('DKIM_SELECTOR');
    const domainName = read('DKIM_DOMAIN');
    if (!privateKey && !keySelector && !domainName) return undefined;
    if (!privateKey || !keySelector || !domainName) throw new Error('DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN must be set together.');
    return { domainName, keySelector, privateKey };
  },
  /** The time zone a school is in when the parent's browser did not say (IANA name). */
  get schoolTimeZone() {
    const zone = read('SCHOOL_TIME_ZONE') ?? 'America/New_York';
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      throw new Error(`SCHOOL_TIME_ZONE must be a time zone such as America/New_York, got "${zone}".`);
    }
    return zone;
  },
  /** Letters reach schools on weekdays between 8:00 and 16:00 in their time zone; `off` sends at once. */
  get schoolDeliveryHours(): 'on' | 'off' {
    const wanted = read('SCHOOL_DELIVERY_HOURS')?.toLowerCase();
    if (wanted === undefined || wanted === 'on') return 'on';
    if (wanted === 'off') return 'off';
    throw new Error(`SCHOOL_DELIVERY_HOURS must be "on" or "off", got "${wanted}".`);
  },
  /** Each letter on its own (`each`), or one digest when several wait for the same window (`digest`). */
  get schoolDelivery(): 'each' | 'digest' {
    const wanted = read('SCHOOL_DELIVERY')?.toLowerCase();
    if (wanted === undefined || wanted === 'each') return 'each';
    if (wanted === 'digest') return 'digest';
    throw new Error(`SCHOOL_DELIVERY must be "each" or "digest", got "${wanted}".`);
  },
  /** Letters one school contact gets in one hour, at most. */
  get schoolHourlyLimit() {
    return positiveInt('SCHOOL_HOURLY_LIMIT', 3);
  },
  /** Emails one mailbox gets a day for one purpose, from one network that asked. */
  get mailDailyPerPurpose() {
    return positiveInt('MAIL_DAILY_PER_PURPOSE', 3);
  },
  /**
   * Emails one mailbox gets a day in all, whatever asked for them and from however many networks:
   * the ceiling a stranger typing someone's address cannot pass. Waiting requests over it are
   * gathered into one email the next day.
   */
  get mailDailyPerRecipient() {
    return positiveInt('MAIL_DAILY_PER_RECIPIENT', 6);
  },
  /** Requests not yet confirmed from one network in a day (a confirmed one gives its place back). */
  get requestsPerNetworkDay() {
    return positiveInt('PLATFORM_SEND_NETWORK_DAILY_REQUESTS', 60);
  },
  /** How long an address stays blocked after its mailbox was reported not to exist (days; a new bounce renews it). */
  get suppressionDays() {
    return positiveInt('MAIL_SUPPRESSION_DAYS', 180);
  },
  /** Mailgun's webhook signing key: its signed delivery, bounce and complaint reports are taken. */
  get mailgunWebhookSigningKey() {
    return read('MAILGUN_WEBHOOK_SIGNING_KEY');
  },
  /** The published transactional email (HubSpot's email id) whose subject and body are custom properties. */
  get hubspotTransactionalEmailId() {
    const value = read('HUBSPOT_TRANSACTIONAL_EMAIL_ID');
    if (value === undefined) return undefined;
    if (!/^[1-9]\d{0,17}$/.test(value)) throw new Error(`HUBSPOT_TRANSACTIONAL_EMAIL_ID must be HubSpot's numeric email id, got "${value}".`);
    return Number(value);
  },
  /** The SMTP server school emails go through: SMTP_URL, or SMTP_HOST with its port, user, password. */
  get smtp(): { url: string } | { host: string; port: number; secure: boolean; user?: string; pass?: string } | undefined {
    const url = read('SMTP_URL');
    if (url) {
      if (!/^smtps?:\/\//.test(url)) throw new Error('SMTP_URL must start with smtp:// or smtps://.');
      return { url };
    }
    const host = read('SMTP_HOST');
    if (!host) return undefined;
    const secureValue = read('SMTP_SECURE')?.toLowerCase();
    const port = positiveInt('SMTP_PORT', secureValue === 'true' ? 465 : 587);
    const secure = secureValue === undefined ? port === 465 : ['1', 'true', 'yes', 'on'].includes(secureValue);
    return { host, port, secure, user: read('SMTP_USER'), pass: read('SMTP_PASS') };
  },
  /** Names of the HubSpot contact properties the functions write. */
  contactProperties: {
    get sendChoice() {
      return read('HUBSPOT_PROP_SEND_CHOICE') ?? 'choose_how_to_send_your_email';
    },
    get meetingLink() {
      return read('HUBSPOT_PROP_MEETING_LINK') ?? 'meeting_link';
    },
    get assignedHost() {
      return read('HUBSPOT_PROP_ASSIGNED_HOST') ?? 'calendly_assigned_host';
    },
    get meetingTime() {
      return read('HUBSPOT_PROP_MEETING_TIME') ?? 'calendly_meeting_time';
    },
    get schoolName() {
      return read('HUBSPOT_PROP_SCHOOL_NAME') ?? 'school_name';
    },
    get childGrade() {
      return read('HUBSPOT_PROP_CHILD_GRADE') ?? 'child_grade';
    },
    get nominationSendTo() {
      return read('HUBSPOT_PROP_NOMINATION_SEND_TO') ?? 'nomination_send_to';
    },
    get meetingStatus() {
      return read('HUBSPOT_PROP_MEETING_STATUS') ?? 'calendly_meeting_status';
    },
    /** The parent's answer: one of src/lib/shared/answer-kinds.ts answerKinds. */
    get schoolAnswer() {
      return read('HUBSPOT_PROP_SCHOOL_ANSWER') ?? 'school_answer';
    },
  },
};
