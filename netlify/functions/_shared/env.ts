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
    get meetingStatus() {
      return read('HUBSPOT_PROP_MEETING_STATUS') ?? 'calendly_meeting_status';
    },
  },
};
