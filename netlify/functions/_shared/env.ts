/**
 * Server-side configuration: the only module of the functions that reads the environment.
 * A missing secret is reported as "not configured" by the caller, never as a crash.
 */
const read = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
};

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
  /** How long POST /api/send-email may spend reaching HubSpot before it leaves the message queued. */
  get sendEmailBudgetMs() {
    return Number(read('SEND_EMAIL_BUDGET_MS') ?? 8000);
  },
  /** Names of the HubSpot contact properties the functions write. */
  contactProperties: {
    get sendChoice() {
      return read('HUBSPOT_PROP_SEND_CHOICE') ?? 'choose_how_to_send_your_email';
    },
    get emailSubject() {
      return read('HUBSPOT_PROP_EMAIL_SUBJECT') ?? 'generated_email_subject';
    },
    get emailBody() {
      return read('HUBSPOT_PROP_EMAIL_BODY') ?? 'generated_email_body';
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
  },
};
