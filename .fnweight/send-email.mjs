// netlify/functions/send-email.mts
import { z as z11 } from "zod";

// src/lib/schemas/index.ts
import { z } from "zod";
z.config({ jitless: true });
var text = (max = 200) => z.string().trim().min(1).max(max);
var email = z.email().max(254);
var nominationSchema = z.object({
  schoolName: text(),
  city: text(120),
  yourName: text(120),
  email,
  childGrade: text(40),
  sendTo: text(200)
}).strict();
var schoolNominationSchema = nominationSchema.pick({ schoolName: true, city: true, yourName: true, email: true }).strict();
var emailDataSchema = z.object({
  childFullName: z.string().max(200).default(""),
  childGrade: z.string().max(60).default(""),
  schoolName: z.string().max(200).default(""),
  schoolContactEmail: z.string().max(254).default(""),
  schoolContactName: z.string().max(200).default(""),
  parentFullName: z.string().max(200).default(""),
  parentEmail: z.string().max(254).default("")
});
var referralDataSchema = emailDataSchema.extend({
  role: z.string().max(100).default(""),
  state: z.string().max(100).default(""),
  city: z.string().max(120).default("")
});
var sendEmailSchema = z.object({
  submissionId: z.string().regex(/^[\w-]{8,120}$/, "must be the id of your form submission"),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be the send token your form submission gave"),
  note: z.string().max(2e3).optional(),
  /** The browser's time zone (IANA name): the school's, for its working hours. Unknown ones are ignored. */
  timeZone: z.string().max(64).optional()
}).strict();
var searchContactSchema = z.object({ email, inviteeUuid: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, "must be the invitee_uuid of your Calendly booking") }).strict();
var updateContactSchema = z.object({
  contactId: z.string().regex(/^\d{1,20}$/, "must be a HubSpot contact id"),
  updates: z.array(z.object({ field: z.string().max(100), value: z.string().max(200) }).strict()).min(1).max(5)
}).strict();
var subscribeSchema = z.object({ email }).strict();
var referralTrackingSchema = z.object({
  ambassadorId: text(100),
  referralType: z.enum(["referSchool", "toolkit", "newsletter"]),
  formDetails: z.record(z.string(), z.string()).optional()
});
var webhookEvents = ["invitee.created", "invitee.canceled", "invitee_no_show.created", "invitee_no_show.deleted"];
var webhookConfigSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  description: z.string().trim().max(500).optional().default(""),
  calendlyWebhookUrl: z.url({ error: "Must be a valid URL" }).max(500),
  events: z.array(z.enum(webhookEvents)).min(1, "At least one event must be selected"),
  scope: z.enum(["organization", "user"], { error: "Scope is required" }),
  organization: z.string().trim().min(1, "Organization is required").max(300),
  user: z.string().trim().max(300).optional().default(""),
  signingKey: z.string().trim().max(200).refine((key2) => key2 === "" || key2.length >= 32, "The signing key must be at least 32 characters; leave it empty to have a random one generated").optional().default(""),
  isActive: z.boolean().default(true)
});
var hubspotConfigSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  description: z.string().trim().max(500).optional().default(""),
  accessToken: z.string().trim().min(1, "Access token is required").max(500),
  refreshToken: z.string().trim().max(500).optional().default(""),
  isActive: z.boolean().default(true)
});
var connectionTestSchema = z.object({
  accessToken: z.string().trim().min(1, "Access token is required").max(500)
});
var loginSchema = z.object({
  username: z.string().trim().min(1, "Username is required").max(100),
  password: z.string().min(1, "Password is required").max(200)
});
var eventSignupSchema = z.object({
  name: text(120),
  email,
  phone: z.string().max(40).optional(),
  bringToSchool: z.boolean().default(false)
});
var contactSchema = z.object({
  contactReason: text(120),
  fullName: text(120),
  email,
  schoolAffiliation: z.string().max(200).optional(),
  message: text(5e3)
});

// src/server/http.ts
var MAX_BODY_BYTES = 1024 * 1024;
var securityHeaders = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'"
};
function json(body2, status = 200, headers = {}) {
  const merged = new Headers(securityHeaders);
  for (const [key2, value] of new Headers(headers)) merged[key2.toLowerCase() === "set-cookie" ? "append" : "set"](key2, value);
  return Response.json(body2, { status, headers: merged });
}
function jsonError(status, code, message, headers = {}) {
  return json({ error: { code, message } }, status, headers);
}
function allowMethods(req, methods) {
  if (methods.includes(req.method)) return void 0;
  return jsonError(405, "method_not_allowed", `Use ${methods.join(" or ")} for this endpoint.`, {
    Allow: methods.join(", ")
  });
}
var HttpError = class extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
  status;
  code;
  toResponse() {
    return jsonError(this.status, this.code, this.message);
  }
};
function describeIssues(error) {
  return error.issues.slice(0, 3).map((issue) => issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message).join("; ");
}
async function readJson(req, schema) {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new HttpError(415, "unsupported_media_type", "Send the body as JSON (Content-Type: application/json).");
  }
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, "payload_too_large", "The body is larger than 1 MB.");
  let text3;
  try {
    text3 = await readLimited(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "unreadable_body", "The body could not be read.");
  }
  let data;
  try {
    data = JSON.parse(text3);
  } catch {
    throw new HttpError(400, "invalid_json", "The body is not valid JSON.");
  }
  if (text3.includes("\\u0000") && holdsNul(data)) {
    throw new HttpError(400, "invalid_request", "The text contains a NUL character, which no field accepts.");
  }
  const result = schema.safeParse(data);
  if (!result.success) throw new HttpError(400, "invalid_request", describeIssues(result.error));
  return result.data;
}
function holdsNul(value) {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === "object") return Object.entries(value).some(([key2, item]) => key2.includes("\0") || holdsNul(item));
  return false;
}
async function readLimited(req, limit) {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks = [];
  let size = 0;
  for (; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new HttpError(413, "payload_too_large", `The body is larger than ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${Math.floor(limit / 1024)} KB`}.`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
var LOOPBACK = /* @__PURE__ */ new Set(["localhost", "127.0.0.1", "[::1]"]);
function isPlainLoopback(req) {
  const url = new URL(req.url);
  return url.protocol === "http:" && LOOPBACK.has(url.hostname);
}
function forPlainLoopback(req, response) {
  const cookies = response.headers.getSetCookie();
  if (!isPlainLoopback(req) || !cookies.some((cookie) => cookie.startsWith("__Host-"))) return response;
  const headers = new Headers(response.headers);
  headers.delete("set-cookie");
  for (const cookie of cookies) {
    headers.append("set-cookie", cookie.startsWith("__Host-") ? cookie.slice("__Host-".length).replace(/;\s*Secure(?=;|$)/i, "") : cookie);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
function handle(handler) {
  return async (req, context) => {
    try {
      return forPlainLoopback(req, await handler(req, context));
    } catch (error) {
      if (error instanceof HttpError) return error.toResponse();
      if (error instanceof StoreUnavailableError) return storeUnavailable();
      console.error(`[${new URL(req.url).pathname}]`, error instanceof Error ? error.message : "unknown error");
      return jsonError(500, "internal_error", "Something went wrong on our side. Please try again.");
    }
  };
}
var StoreUnavailableError = class extends Error {
};
function storeUnavailable() {
  return jsonError(503, "store_unavailable", "Storage is unavailable right now. Nothing was saved; please try again shortly.");
}
function clientIp(req, context) {
  const fromContext = context?.ip;
  return fromContext || req.headers.get("x-nf-client-connection-ip") || req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

// src/server/identity.ts
import { createHash, createHmac, hkdfSync } from "node:crypto";

// src/lib/school-answers.ts
var answerKinds = ["replied", "replied_not_answered", "acknowledged", "meeting", "no_reply_expected", "no_answer"];
var schoolResponded = /* @__PURE__ */ new Set(["replied", "replied_not_answered", "acknowledged", "meeting"]);
var IMPACT_MIN_SHOWN = 5;
var impactStarting = `We are just getting started: fewer than ${IMPACT_MIN_SHOWN} parents have written to their school through this site so far, so your letter could be one of the very first a school receives.`;
var FREE_MAIL = /* @__PURE__ */ new Set(["gmail.com", "googlemail.com", "yahoo.com", "outlook.com", "hotmail.com", "live.com", "icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "mail.com"]);
function schoolKey(address) {
  const email2 = address.trim().toLowerCase();
  const domain = email2.slice(email2.lastIndexOf("@") + 1);
  return FREE_MAIL.has(domain) ? email2 : domain;
}

// src/server/env.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
var plain = (name) => {
  const value = process.env[name]?.trim();
  return value ? value : void 0;
};
var PREVIEW_SECRETS = /* @__PURE__ */ new Set([
  "HUBSPOT_ACCESS_TOKEN",
  "CONFIG_ENCRYPTION_KEY",
  "ADMIN_PASSWORD",
  "ADMIN_PASSWORD_HASH",
  "CALENDLY_ACCESS_TOKEN",
  "SCHOOL_PAGE_SECRET",
  "SMTP_URL",
  "SMTP_PASS",
  "DKIM_PRIVATE_KEY",
  "MAILGUN_WEBHOOK_SIGNING_KEY",
  "BUILD_HOOK_URL"
]);
var builtContext;
function deployContext() {
  const given = plain("CONTEXT");
  if (given) return given;
  if (builtContext === void 0) {
    try {
      const file = JSON.parse(readFileSync(join(process.cwd(), "dist", "api", "deploy-context.json"), "utf8"));
      builtContext = typeof file.context === "string" && /^[a-z-]{1,40}$/.test(file.context) ? file.context : "dev";
    } catch {
      builtContext = "dev";
    }
  }
  return builtContext;
}
var isPreviewContext = (context = deployContext()) => context === "deploy-preview" || context === "branch-deploy";
var read = (name) => PREVIEW_SECRETS.has(name) && isPreviewContext() ? plain(`PREVIEW_${name}`) : plain(name);
function positiveInt(name, fallback) {
  const value = read(name);
  if (value === void 0) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of at least 1, got "${value}".`);
  return number;
}
var serverEnv = {
  get hubspotAccessToken() {
    return read("HUBSPOT_ACCESS_TOKEN");
  },
  /** Points the HubSpot client at a local fake in tests; the real API otherwise. */
  get hubspotBasePath() {
    return read("HUBSPOT_BASE_PATH") ?? "https://api.hubapi.com";
  },
  /** HubSpot's Forms submission API lives on its own host. */
  get hubspotFormsBasePath() {
    return read("HUBSPOT_FORMS_BASE_PATH") ?? "https://api.hsforms.com";
  },
  /** First delay of the retry backoff for HubSpot calls, in milliseconds. */
  get hubspotRetryBaseMs() {
    return Number(read("HUBSPOT_RETRY_BASE_MS") ?? 400);
  },
  /**
   * How long POST /api/hubspot/search-contact waits for the booking's Calendly delivery to arrive
   * (the redirect to /thank-you can come before the webhook), in milliseconds.
   */
  get bookingLookupWaitMs() {
    return positiveInt("BOOKING_LOOKUP_WAIT_MS", 4e3);
  },
  get calendlyAccessToken() {
    return read("CALENDLY_ACCESS_TOKEN");
  },
  get calendlyBaseUrl() {
    return read("CALENDLY_BASE_URL") ?? "https://api.calendly.com";
  },
  get adminUsername() {
    return read("ADMIN_USERNAME") ?? "admin";
  },
  get adminPassword() {
    return read("ADMIN_PASSWORD");
  },
  get adminPasswordHash() {
    return read("ADMIN_PASSWORD_HASH");
  },
  get configEncryptionKey() {
    return read("CONFIG_ENCRYPTION_KEY");
  },
  /**
   * The secret school page keys (/schools/{key}) are made with. Unset: derived from
   * CONFIG_ENCRYPTION_KEY (src/server/school-pages.ts). Changing it moves every school page.
   */
  get schoolPageSecret() {
    return read("SCHOOL_PAGE_SECRET");
  },
  /** Base delay added to every failed admin sign-in (grows with repeated failures). */
  get adminLoginDelayMs() {
    return Number(read("ADMIN_LOGIN_DELAY_MS") ?? 400);
  },
  /** The site's public origins (Netlify's URL and deploy URL, or SITE_URL), for same-origin checks. */
  get siteOrigins() {
    return ["SITE_URL", "URL", "DEPLOY_PRIME_URL", "DEPLOY_URL"].map((name) => read(name)).filter((value) => Boolean(value)).flatMap((value) => {
      try {
        return [new URL(value).origin];
      } catch {
        return [];
      }
    });
  },
  get buildHookUrl() {
    return read("BUILD_HOOK_URL");
  },
  /**
   * Where the blog comes from at build: `hubspot`, `local` (content/blog), or unset for
   * HubSpot when HUBSPOT_ACCESS_TOKEN is set and the local posts otherwise.
   */
  get blogSource() {
    const wanted = read("BLOG_SOURCE")?.toLowerCase();
    if (wanted === "hubspot" || wanted === "local") return wanted;
    if (wanted && wanted !== "auto") throw new Error(`BLOG_SOURCE must be "hubspot", "local" or "auto", got "${wanted}".`);
    return read("HUBSPOT_ACCESS_TOKEN") ? "hubspot" : "local";
  },
  /**
   * Where form definitions come from at build: `hubspot` (the Marketing Forms v3 API), `local`
   * (content/forms), or unset for HubSpot when HUBSPOT_ACCESS_TOKEN is set and local otherwise.
   */
  get formsSource() {
    const wanted = read("FORMS_SOURCE")?.toLowerCase();
    if (wanted === "hubspot" || wanted === "local") return wanted;
    if (wanted && wanted !== "auto") throw new Error(`FORMS_SOURCE must be "hubspot", "local" or "auto", got "${wanted}".`);
    return read("HUBSPOT_ACCESS_TOKEN") ? "hubspot" : "local";
  },
  /** The form definitions the build wrote (dist/api/form-definitions.json); tests point elsewhere. */
  get formDefinitionsFile() {
    return read("FORM_DEFINITIONS_FILE");
  },
  /** The words of the site's emails (content/emails); tests point elsewhere. */
  get emailsDir() {
    return read("EMAILS_DIR");
  },
  /** The letters of the school email (content/letters); tests point elsewhere. */
  get lettersDir() {
    return read("LETTERS_DIR");
  },
  /** The built site (dist/), whose pages the forms function fills in for visitors without JavaScript. */
  get siteDir() {
    return read("SITE_DIR");
  },
  get ambassadorHost() {
    return (read("PUBLIC_AMBASSADOR_HOST") ?? "https://ambassadors.masteryparents.org").replace(/\/+$/, "");
  },
  get hubspotPortalId() {
    return read("PUBLIC_HUBSPOT_PORTAL_ID") ?? "48526151";
  },
  /** The embedded newsletter form that POST /api/subscribe submits to (same default as src/config/env.ts). */
  get hubspotNewsletterFormId() {
    return read("PUBLIC_HUBSPOT_FORM_NEWSLETTER") ?? "c4c2f6a4-3a1e-4d67-9a1c-5b8f1e2d7a01";
  },
  /** How long POST /api/forms/{formId} waits for HubSpot before it answers and leaves delivery to the retry run. */
  get formsDeliveryBudgetMs() {
    return positiveInt("FORMS_DELIVERY_BUDGET_MS", 2500);
  },
  /** How long the scheduled retry run gives HubSpot per submission. */
  get formsRetryBudgetMs() {
    return positiveInt("FORMS_RETRY_BUDGET_MS", 8e3);
  },
  /** First wait before the retry run sends a submission HubSpot did not take again (doubles each time). */
  get formsRetryBaseMs() {
    return positiveInt("FORMS_RETRY_BASE_MS", 5 * 6e4);
  },
  /** Submissions one address may make to the site's forms in 10 minutes. */
  get formsRateLimit() {
    return positiveInt("FORMS_RATE_LIMIT", 20);
  },
  /**
   * Calendly deliveries one address (an IPv6 client by its /64) may send in 10 minutes; Calendly
   * sends far fewer (`npm run load` lifts it: its 500 come from one address).
   */
  get calendlyRateLimit() {
    return positiveInt("CALENDLY_RATE_LIMIT", 120);
  },
  /**
   * A submission sent sooner than this after its form became ready (ms) is a bot's, refused quietly.
   * 0 turns the check off.
   */
  get formsMinFillMs() {
    const value = read("FORMS_MIN_FILL_MS");
    if (value === void 0) return 2e3;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new Error(`FORMS_MIN_FILL_MS must be a whole number of milliseconds, got "${value}".`);
    return number;
  },
  /** How long POST /api/send-email may spend reaching HubSpot or the mail server before it leaves the message queued. */
  get sendEmailBudgetMs() {
    return Number(read("SEND_EMAIL_BUDGET_MS") ?? 8e3);
  },
  /**
   * Whether "Send via our platform" waits for the parent to confirm from their own inbox
   * (`email`, the default) or sends at once (`off`).
   */
  get platformSendConfirmation() {
    const wanted = read("PLATFORM_SEND_CONFIRMATION")?.toLowerCase();
    if (wanted === void 0 || wanted === "email") return "email";
    if (wanted === "off") return "off";
    throw new Error(`PLATFORM_SEND_CONFIRMATION must be "email" or "off", got "${wanted}".`);
  },
  /** Platform sends a day to one school contact address, across all parents. */
  get schoolDailySendLimit() {
    return positiveInt("PLATFORM_SEND_SCHOOL_DAILY_LIMIT", 5);
  },
  /** Platform sends a day from one parent. */
  get parentDailySendLimit() {
    return positiveInt("PLATFORM_SEND_PARENT_DAILY_LIMIT", 3);
  },
  /** Days after a school email is sent before the parent is asked whether the school answered. */
  get followUpAfterDays() {
    const value = read("FOLLOWUP_AFTER_DAYS");
    if (value === void 0) return 10;
    const days = Number(value);
    if (!Number.isFinite(days) || days < 0) throw new Error(`FOLLOWUP_AFTER_DAYS must be a number of days of at least 0, got "${value}".`);
    return days;
  },
  /** Days after a school email is sent before the second follow-up, when the first got no answer. */
  get secondFollowUpAfterDays() {
    const value = read("SECOND_FOLLOWUP_AFTER_DAYS");
    if (value === void 0) return 21;
    const days = Number(value);
    if (!Number.isFinite(days) || days < 0) throw new Error(`SECOND_FOLLOWUP_AFTER_DAYS must be a number of days of at least 0, got "${value}".`);
    return days;
  },
  /** The site's own origin for links sent by email (SITE_URL, else Netlify's URL). */
  get siteOrigin() {
    return this.siteOrigins[0] ?? "http://localhost:8888";
  },
  /**
   * Which sender delivers every email the site sends: `hubspot` (transactional single-send), `smtp`,
   * or unset for whichever is configured (HubSpot first). See src/server/mail/senders.ts.
   * SCHOOL_EMAIL_SENDER is its older name.
   */
  get mailSender() {
    const wanted = (read("MAIL_SENDER") ?? read("SCHOOL_EMAIL_SENDER"))?.toLowerCase();
    if (wanted === void 0 || wanted === "auto") return void 0;
    if (wanted === "hubspot" || wanted === "smtp") return wanted;
    throw new Error(`MAIL_SENDER must be "hubspot", "smtp" or "auto", got "${wanted}".`);
  },
  /**
   * The address every email comes from: on the organisation's own authenticated domain (SPF, DKIM,
   * DMARC). SCHOOL_EMAIL_FROM_ADDRESS is its older name. Unset: nothing is sent.
   */
  get mailFromAddress() {
    const value = read("MAIL_FROM_ADDRESS") ?? read("SCHOOL_EMAIL_FROM_ADDRESS");
    if (value !== void 0 && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$|^[^\s@<>"]+@localhost$/.test(value)) throw new Error(`MAIL_FROM_ADDRESS must be an email address, got "${value}".`);
    return value;
  },
  /** DKIM signing of SMTP mail: all three set, or none (the provider may sign instead). */
  get dkim() {
    const privateKey = read("DKIM_PRIVATE_KEY")?.replace(/\\n/g, "\n");
    const keySelector = read("DKIM_SELECTOR");
    const domainName = read("DKIM_DOMAIN");
    if (!privateKey && !keySelector && !domainName) return void 0;
    if (!privateKey || !keySelector || !domainName) throw new Error("DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN must be set together.");
    return { domainName, keySelector, privateKey };
  },
  /** The time zone a school is in when the parent's browser did not say (IANA name). */
  get schoolTimeZone() {
    const zone = read("SCHOOL_TIME_ZONE") ?? "America/New_York";
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
    } catch {
      throw new Error(`SCHOOL_TIME_ZONE must be a time zone such as America/New_York, got "${zone}".`);
    }
    return zone;
  },
  /** Letters reach schools on weekdays between 8:00 and 16:00 in their time zone; `off` sends at once. */
  get schoolDeliveryHours() {
    const wanted = read("SCHOOL_DELIVERY_HOURS")?.toLowerCase();
    if (wanted === void 0 || wanted === "on") return "on";
    if (wanted === "off") return "off";
    throw new Error(`SCHOOL_DELIVERY_HOURS must be "on" or "off", got "${wanted}".`);
  },
  /** Each letter on its own (`each`), or one digest when several wait for the same window (`digest`). */
  get schoolDelivery() {
    const wanted = read("SCHOOL_DELIVERY")?.toLowerCase();
    if (wanted === void 0 || wanted === "each") return "each";
    if (wanted === "digest") return "digest";
    throw new Error(`SCHOOL_DELIVERY must be "each" or "digest", got "${wanted}".`);
  },
  /** Letters one school contact gets in one hour, at most. */
  get schoolHourlyLimit() {
    return positiveInt("SCHOOL_HOURLY_LIMIT", 3);
  },
  /** Emails one mailbox gets a day for one purpose, from one network that asked. */
  get mailDailyPerPurpose() {
    return positiveInt("MAIL_DAILY_PER_PURPOSE", 3);
  },
  /** Mailgun's webhook signing key: its signed delivery, bounce and complaint reports are taken. */
  get mailgunWebhookSigningKey() {
    return read("MAILGUN_WEBHOOK_SIGNING_KEY");
  },
  /** The published transactional email (HubSpot's email id) whose subject and body are custom properties. */
  get hubspotTransactionalEmailId() {
    const value = read("HUBSPOT_TRANSACTIONAL_EMAIL_ID");
    if (value === void 0) return void 0;
    if (!/^[1-9]\d{0,17}$/.test(value)) throw new Error(`HUBSPOT_TRANSACTIONAL_EMAIL_ID must be HubSpot's numeric email id, got "${value}".`);
    return Number(value);
  },
  /** The SMTP server school emails go through: SMTP_URL, or SMTP_HOST with its port, user, password. */
  get smtp() {
    const url = read("SMTP_URL");
    if (url) {
      if (!/^smtps?:\/\//.test(url)) throw new Error("SMTP_URL must start with smtp:// or smtps://.");
      return { url };
    }
    const host = read("SMTP_HOST");
    if (!host) return void 0;
    const secureValue = read("SMTP_SECURE")?.toLowerCase();
    const port = positiveInt("SMTP_PORT", secureValue === "true" ? 465 : 587);
    const secure = secureValue === void 0 ? port === 465 : ["1", "true", "yes", "on"].includes(secureValue);
    return { host, port, secure, user: read("SMTP_USER"), pass: read("SMTP_PASS") };
  },
  /** Names of the HubSpot contact properties the functions write. */
  contactProperties: {
    get sendChoice() {
      return read("HUBSPOT_PROP_SEND_CHOICE") ?? "choose_how_to_send_your_email";
    },
    get meetingLink() {
      return read("HUBSPOT_PROP_MEETING_LINK") ?? "meeting_link";
    },
    get assignedHost() {
      return read("HUBSPOT_PROP_ASSIGNED_HOST") ?? "calendly_assigned_host";
    },
    get meetingTime() {
      return read("HUBSPOT_PROP_MEETING_TIME") ?? "calendly_meeting_time";
    },
    get schoolName() {
      return read("HUBSPOT_PROP_SCHOOL_NAME") ?? "school_name";
    },
    get childGrade() {
      return read("HUBSPOT_PROP_CHILD_GRADE") ?? "child_grade";
    },
    get nominationSendTo() {
      return read("HUBSPOT_PROP_NOMINATION_SEND_TO") ?? "nomination_send_to";
    },
    get meetingStatus() {
      return read("HUBSPOT_PROP_MEETING_STATUS") ?? "calendly_meeting_status";
    },
    /** The parent's answer: one of src/lib/school-answers.ts answerKinds. */
    get schoolAnswer() {
      return read("HUBSPOT_PROP_SCHOOL_ANSWER") ?? "school_answer";
    }
  }
};

// src/server/identity.ts
var GMAIL_DOMAINS = /* @__PURE__ */ new Set(["gmail.com", "googlemail.com"]);
function canonicalAddress(email2) {
  const address = email2.normalize("NFKC").trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.+$/, "");
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll(".", "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
}
function mailboxKey(email2) {
  return createHash("sha256").update(canonicalAddress(email2)).digest("hex").slice(0, 32);
}
function parentKey(email2) {
  const secret = serverEnv.configEncryptionKey ?? "local";
  const key2 = Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), "mastery-parents impact v1", 32));
  return createHmac("sha256", key2).update(canonicalAddress(email2)).digest("base64url").slice(0, 22);
}
function sameDomain(parent2, school2) {
  return schoolKey(canonicalAddress(parent2)) === schoolKey(canonicalAddress(school2)) || canonicalAddress(parent2) === canonicalAddress(school2);
}
function networkKey(ip) {
  return createHash("sha256").update(`network|${clientAddressKey(ip)}`).digest("hex").slice(0, 32);
}
var IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
function ipv4(text3) {
  const parts = IPV4.exec(text3);
  if (!parts) return void 0;
  const octets = parts.slice(1).map(Number);
  return octets.every((n) => n <= 255) ? octets.join(".") : void 0;
}
function ipv6Groups(text3) {
  let address = text3;
  const tail = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail) {
    const v4 = ipv4(tail[1]);
    if (!v4) return void 0;
    const [a, b, c, d] = v4.split(".").map(Number);
    address = `${address.slice(0, tail.index + 1)}${(a << 8 | b).toString(16)}:${(c << 8 | d).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return void 0;
  const parse = (part) => part === "" ? [] : part.split(":");
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return void 0;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return void 0;
  return groups.map((group) => parseInt(group, 16));
}
function clientAddressKey(ip) {
  const text3 = ip.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const v4 = ipv4(text3);
  if (v4) return v4;
  const groups = ipv6Groups(text3);
  if (!groups) return text3;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 65535) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}

// src/lib/email/detect.ts
import { LinkifyIt } from "linkify-it";
import tlds from "tlds" with { type: "json" };
var INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]/u;
var INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
function withoutInvisible(text3) {
  return text3.replace(INVISIBLE_ALL, "");
}
var LOOKALIKE_DOTS = /[\u3002\uff61\ufe12\u2024\u2027]/g;
function plainForm(text3) {
  return withoutInvisible(text3.normalize("NFKC")).replace(LOOKALIKE_DOTS, ".");
}
function undisguised(text3) {
  return text3.replace(/\s*[[({<]\s*(?:\.|dot)\s*[\])}>]\s*/giu, ".").replace(/\s*[[({<]\s*(?:@|at)\s*[\])}>]\s*/giu, "@").replace(/(?<=[\p{L}\p{N}])\s+\.\s*(?=[\p{L}\p{N}])/gu, ".");
}
var linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(tlds);
var SCHEME = /(?<![\p{L}\p{N}])(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|vbscript|tel|sms):|www\.)/iu;
var EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/u;
var MARKUP = /<\s*[a-z!/?]|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/i;
function forbiddenContent(text3) {
  const plain2 = undisguised(plainForm(text3));
  const matches = linkify.match(plain2) ?? [];
  if (EMAIL.test(plain2) || matches.some((match) => match.schema === "mailto:")) return "email";
  if (SCHEME.test(plain2) || matches.length > 0) return "link";
  if (MARKUP.test(plain2)) return "markup";
  return void 0;
}

// src/lib/email/personal-fields.ts
var NOTE_MAX = 600;
var NOTE_FIELD = "_note";
var noteLabel = "Add a personal note";
var noteHelp = `A few words of your own, shown after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;
var OWN_WORDS_FIELD = "_own_words";
var ownWordsLabel = "What would this change for your child?";
var ownWordsHelp = `In your own words: it goes into your letter right after your introduction. Plain text, no links or email addresses, at most ${NOTE_MAX} characters.`;
var personalFieldLabels = { [OWN_WORDS_FIELD]: ownWordsLabel, [NOTE_FIELD]: noteLabel };
var personalFieldNames = Object.keys(personalFieldLabels);

// src/lib/email/note.ts
var noteMessages = {
  tooLong: `Please keep your note to ${NOTE_MAX} characters.`,
  link: "Please leave links out of your note; the email already has the video and the booking link.",
  email: "Please leave email addresses out of your note.",
  markup: "Please write your note as plain text, without HTML."
};
function normaliseNote(note) {
  return withoutInvisible(note.normalize("NFKC")).replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, "").split("\n").map(trimLineEnd).join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
function trimLineEnd(line) {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}
function noteProblem(note) {
  return personalTextProblem(note, noteMessages);
}
var ownWordsMessages = {
  tooLong: `Please keep your answer to ${NOTE_MAX} characters.`,
  link: "Please leave links out of your answer; the email already has the video and the booking link.",
  email: "Please leave email addresses out of your answer.",
  markup: "Please write your answer as plain text, without HTML."
};
function personalTextProblem(value, messages) {
  const text3 = normaliseNote(value);
  if (text3.length > NOTE_MAX) return messages.tooLong;
  const forbidden = forbiddenContent(text3);
  return forbidden ? messages[forbidden] : void 0;
}

// src/lib/dates.ts
function dayInWords(iso2, timeZone = "UTC") {
  return new Date(iso2).toLocaleDateString("en-GB", { year: "numeric", month: "long", day: "numeric", timeZone });
}

// src/lib/forms/values.ts
var EMAIL2 = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
function isEmail(value) {
  return value.length <= 254 && EMAIL2.test(value);
}

// src/config/env.ts
var env = typeof process !== "undefined" && process.env ? process.env : {};
function read2(name, fallback) {
  const value = env[name]?.trim();
  return value ? value : fallback;
}
function readFlag(name, fallback) {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  return ["1", "true", "yes", "on"].includes(value);
}
function readList(name) {
  return read2(name, "").split(",").map((item) => item.trim()).filter(Boolean);
}
var siteDefaults = { PUBLIC_EMAIL_VIDEO_URL: "/real-stories", PUBLIC_BOOKING_URL: "/partnership-form" };
var siteUrl = read2("SITE_URL", read2("URL", "https://masteryparents.org")).replace(/\/+$/, "");
var publicEnv = {
  siteUrl,
  /** A host name containing this marker is a staging site and is not indexed. */
  stagingMarker: read2("STAGING_HOST_MARKER", "staging"),
  /** The separate Parent Ambassador application (join and sign-in pages). */
  ambassadorHost: read2("PUBLIC_AMBASSADOR_HOST", "https://ambassadors.masteryparents.org").replace(/\/+$/, ""),
  hubspotRegion: read2("PUBLIC_HUBSPOT_REGION", "na1"),
  hubspotPortalId: read2("PUBLIC_HUBSPOT_PORTAL_ID", "48526151"),
  /** Home-page sections the specification keeps switched off. */
  showNominationSection: readFlag("PUBLIC_SHOW_NOMINATION_SECTION", false),
  showParentVideosSection: readFlag("PUBLIC_SHOW_PARENT_VIDEOS_SECTION", false),
  /** Overrides for the embedded form ids, by purpose. */
  formIds: {
    newsletter: read2("PUBLIC_HUBSPOT_FORM_NEWSLETTER", "c4c2f6a4-3a1e-4d67-9a1c-5b8f1e2d7a01"),
    emailGenerator: read2("PUBLIC_HUBSPOT_FORM_EMAIL", "7d3b9e12-8f4a-4c1b-b2e6-0a9f4c3d5e02"),
    resources: read2("PUBLIC_HUBSPOT_FORM_RESOURCES", "a1f5c8d3-2b7e-4e9a-8c4d-6f0b2a1e9c03"),
    partnership: read2("PUBLIC_HUBSPOT_FORM_PARTNERSHIP", "e8b2d4f6-1c3a-4b5d-9e7f-2a4c6e8b0d04"),
    webinarSignup: read2("PUBLIC_HUBSPOT_FORM_WEBINAR", "f3a5c7e9-4b6d-4f8a-a1c3-5e7b9d1f3a05"),
    contact: read2("PUBLIC_HUBSPOT_FORM_CONTACT", "b6d8f0a2-5c7e-4a9b-b3d5-7f9a1c3e5b06"),
    referSchool: read2("PUBLIC_HUBSPOT_FORM_REFER_SCHOOL", "d9f1b3c5-6e8a-4c0d-a4e6-8b0c2d4f6a07"),
    toolkit: read2("PUBLIC_HUBSPOT_FORM_TOOLKIT", "c2e4a6b8-7f9b-4d1e-b5f7-9c1d3e5a7b08")
  },
  /**
   * The content editor (/content-editor, Decap CMS). On the deployed site it signs staff in with
   * GitHub and opens a pull request per change against `repo`'s `branch`; `npm run edit` uses
   * the local file-system backend (decap-server on `localBackendPort`) instead.
   */
  contentEditor: {
    /** "owner/name" of the GitHub repository; the editor says it is not configured without one. */
    repo: read2("DECAP_REPO", ""),
    branch: read2("DECAP_BRANCH", "main"),
    /** The OAuth provider: Netlify's by default; an external one's origin otherwise. */
    authBaseUrl: read2("DECAP_BASE_URL", "https://api.netlify.com").replace(/\/+$/, ""),
    authEndpoint: read2("DECAP_AUTH_ENDPOINT", "auth"),
    /** The site name Netlify's OAuth provider knows the site by (deploy previews have other hosts). */
    siteDomain: read2("DECAP_SITE_DOMAIN", ""),
    localBackendPort: Number(read2("DECAP_SERVER_PORT", "8081"))
  },
  /**
   * Forms shown with HubSpot's embed instead of the native form, by purpose, comma-separated
   * (e.g. "partnership,contact"). Every other form is rendered by the site itself.
   */
  embedForms: readList("PUBLIC_EMBED_FORMS"),
  /**
   * Embedded forms that use HubSpot's current embed (the updated forms editor: `hs-form-frame` and
   * the `hs-form-event:*` window events), by purpose, comma-separated. A form rebuilt in today's
   * editor only works with this one. Every other embedded form uses the legacy v2 embed.
   */
  embedV4Forms: readList("PUBLIC_EMBED_V4_FORMS"),
  /**
   * Where the build reads the latest impact figures from (the live site's /api/impact), so the
   * prebuilt pages carry them. On Netlify: the site's own URL; elsewhere none (the page starts
   * with "fewer than 5" and the live figures replace it).
   */
  impactSourceUrl: read2("IMPACT_SOURCE_URL", env.NETLIFY === "true" ? `${siteUrl}/api/impact` : ""),
  /**
   * Links inside the generated school email (and the booking button). Unset, they are the site's
   * own pages (the stories with their videos, and the partnership form that books a call), so a
   * letter never carries a link to nowhere; a production build without them says so
   * (productionSettingWarnings).
   */
  emailVideoUrl: read2("PUBLIC_EMAIL_VIDEO_URL", `${siteUrl}${siteDefaults.PUBLIC_EMAIL_VIDEO_URL}`),
  bookingUrl: read2("PUBLIC_BOOKING_URL", `${siteUrl}${siteDefaults.PUBLIC_BOOKING_URL}`),
  /** The webinar sign-up shared from /webinar-share; by default the site's own sign-up section. */
  webinarRegistrationUrl: read2("PUBLIC_WEBINAR_REGISTRATION_URL", `${siteUrl}/events-webinars#join-the-conversation`)
};

// src/config/forms.ts
function v4EmbedScriptUrl(region, portalId) {
  if (!/^[a-z]{2,3}\d{1,2}$/.test(region)) throw new Error(`PUBLIC_HUBSPOT_REGION must be a HubSpot region such as "na1" or "eu1", got "${region}".`);
  if (!/^\d+$/.test(portalId)) throw new Error(`PUBLIC_HUBSPOT_PORTAL_ID must be a number, got "${portalId}".`);
  const host = region === "na1" ? "js.hsforms.net" : `js-${region}.hsforms.net`;
  return `https://${host}/forms/embed/${portalId}.js`;
}
var hubspot = {
  region: publicEnv.hubspotRegion,
  portalId: publicEnv.hubspotPortalId,
  /** The legacy v2 embed. Always https: the embed must never be loaded protocol-relative. */
  embedScriptUrl: "https://js.hsforms.net/forms/embed/v2.js",
  /** The v4 embed of this portal. */
  embedV4ScriptUrl: v4EmbedScriptUrl(publicEnv.hubspotRegion, publicEnv.hubspotPortalId)
};
var form = (purpose, formId, title, file) => ({
  formId,
  title,
  /** The committed definition used without HubSpot, under content/forms/. */
  file,
  render: publicEnv.embedForms.includes(purpose) ? "embed" : "native",
  /** The embed it uses when embedded (by configuration or because the site cannot draw it). */
  embed: publicEnv.embedV4Forms.includes(purpose) ? "v4" : "v2"
});
var forms = {
  newsletter: form("newsletter", publicEnv.formIds.newsletter, "Get insights and advocacy tips", "newsletter.yaml"),
  emailGenerator: form("emailGenerator", publicEnv.formIds.emailGenerator, "Generate your school email", "email-generator.yaml"),
  resources: form("resources", publicEnv.formIds.resources, "Get the advocacy resources", "resources.yaml"),
  partnership: form("partnership", publicEnv.formIds.partnership, "Partnership application", "partnership.yaml"),
  webinarSignup: form("webinarSignup", publicEnv.formIds.webinarSignup, "Webinar sign-up", "webinar-signup.yaml"),
  contact: form("contact", publicEnv.formIds.contact, "Ask a question", "contact.yaml"),
  referSchool: form("referSchool", publicEnv.formIds.referSchool, "Refer Your School", "refer-school.yaml"),
  toolkit: form("toolkit", publicEnv.formIds.toolkit, "Get Your Toolkit", "toolkit.yaml")
};
var formPurposes = Object.keys(forms);
for (const [name, list] of [
  ["PUBLIC_EMBED_FORMS", publicEnv.embedForms],
  ["PUBLIC_EMBED_V4_FORMS", publicEnv.embedV4Forms]
]) {
  const unknown = list.filter((purpose) => !Object.hasOwn(forms, purpose));
  if (unknown.length) throw new Error(`${name} names no form "${unknown.join('", "')}"; the forms are ${formPurposes.join(", ")}.`);
}
var emailFormPurposes = ["emailGenerator", "referSchool"];

// src/lib/email/grade.ts
var GRADE_PLACEHOLDER = "[Child's Grade]";
var cardinals = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
var ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"];
var highSchoolYears = { freshman: 9, sophomore: 10, junior: 11, senior: 12 };
function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}
function gradeNumber(word) {
  const numeral = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
  if (numeral) {
    const n = Number(numeral[1]);
    return n >= 1 && n <= 12 ? n : void 0;
  }
  const index = Math.max(cardinals.indexOf(word), ordinals.indexOf(word));
  return index >= 0 ? index + 1 : void 0;
}
var gradeKey = (typed) => typed.toLowerCase().replace(/[.,;:!]+$/, "").replace(/^(in|the)\s+/, "").trim();
function normaliseGrade(input) {
  const typed = (input ?? "").replace(/\s+/g, " ").trim();
  if (!typed) return GRADE_PLACEHOLDER;
  const key2 = gradeKey(typed);
  if (/^(k|kg|kinder|kindergarten|kindergartner|kindergartener)$/.test(key2)) return "kindergarten";
  if (/^(pre-?k|pre-?kindergarten|pre-?school|tk|transitional kindergarten)$/.test(key2)) return key2.startsWith("t") ? "transitional kindergarten" : "pre-K";
  const year = /^(freshman|sophomore|junior|senior)( year)?$/.exec(key2);
  if (year) return `${ordinal(highSchoolYears[year[1]])} grade`;
  const grade = /^(?:(?:grade|gr)\s*)?([a-z0-9]+)(?:\s*(?:grade|gr))?$/.exec(key2);
  const n = grade ? gradeNumber(grade[1]) : void 0;
  if (n !== void 0) return `${ordinal(n)} grade`;
  return typed;
}

// src/lib/email/template.ts
var placeholders = {
  schoolName: "[School Name]",
  greetingName: "[Name]",
  parentFullName: "[Your Name]",
  childFullName: "[Child's Name]",
  childGrade: GRADE_PLACEHOLDER,
  schoolContactName: "[School Contact Name]",
  schoolContactEmail: "[School Administrator Email]"
};
var VIDEO_START_SECONDS = 10;
var filled = (value, fallback) => {
  const trimmed = (value ?? "").trim();
  return trimmed ? trimmed : fallback;
};
function videoLinkAt(url, seconds = VIDEO_START_SECONDS) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const youtube = /(^|\.)(youtube\.com|youtu\.be)$/.test(parsed.hostname);
  if (youtube) {
    if (!parsed.searchParams.has("t") && !parsed.searchParams.has("start")) parsed.searchParams.set("t", `${seconds}s`);
  } else if (!parsed.hash) {
    parsed.hash = `t=${seconds}`;
  }
  return parsed.toString();
}
function emailSubject(schoolName) {
  return `How ${filled(schoolName, placeholders.schoolName)} can unlock mastery learning for every student`;
}
var LETTER_PLACEHOLDER = /\{([^{}\n]*)\}/g;
function fillLetterText(text3, values) {
  return text3.replace(/\r\n?/g, "\n").trim().replace(LETTER_PLACEHOLDER, (whole, name) => Object.hasOwn(values, name) ? values[name] : whole);
}
function generateEmail(data, links, letter, options = {}) {
  const ownWords = normaliseNote(options.ownWords ?? "");
  const note = normaliseNote(options.note ?? "");
  const school2 = filled(data.schoolName, placeholders.schoolName);
  const contactName = (data.schoolContactName ?? "").trim();
  const contactEmail = (data.schoolContactEmail ?? "").trim();
  const parent2 = filled(data.parentFullName, placeholders.parentFullName);
  const child = filled(data.childFullName, placeholders.childFullName);
  const grade = normaliseGrade(data.childGrade);
  const values = { parent: parent2, child, grade, school: school2, video: videoLinkAt(links.videoUrl), booking: links.bookingUrl };
  const toLine = `${contactName || placeholders.schoolContactName} <${contactEmail || placeholders.schoolContactEmail}>`;
  const body2 = [
    `Dear ${contactName || placeholders.greetingName},`,
    "",
    fillLetterText(letter.introduction, values),
    "",
    ...ownWords ? [ownWords, ""] : [],
    ...note ? [note, ""] : [],
    fillLetterText(letter.body, values),
    "",
    fillLetterText(letter.closing, values),
    "",
    "Warm regards,",
    parent2,
    `Parent of ${child}, ${grade}`
  ].join("\n");
  return { to: contactEmail, toLine, subject: emailSubject(data.schoolName), body: body2 };
}

// src/server/db.ts
import { getDatabase, MissingDatabaseConnectionError } from "@netlify/database";
var Fragment = class _Fragment {
  constructor(strings, parts) {
    this.strings = strings;
    this.parts = parts;
  }
  strings;
  parts;
  get text() {
    return this.build().text;
  }
  get values() {
    return this.build().values;
  }
  /** The text with numbered parameters, nested fragments inlined with their own values renumbered. */
  build(offset = 0) {
    let text3 = this.strings[0] ?? "";
    const values = [];
    this.parts.forEach((part, index) => {
      if (part instanceof _Fragment) {
        const inner = part.build(offset + values.length);
        text3 += inner.text;
        values.push(...inner.values);
      } else {
        values.push(part);
        text3 += `$${offset + values.length}`;
      }
      text3 += this.strings[index + 1] ?? "";
    });
    return { text: text3, values };
  }
};
function sql(strings, ...values) {
  return new Fragment(strings, values);
}
sql.join = (fragments, separator = ", ") => {
  if (fragments.length === 0) return sql``;
  const strings = ["", ...fragments.slice(1).map(() => separator), ""];
  return new Fragment(strings, fragments);
};
sql.empty = () => sql``;
var unavailableStates = /^(08|53|57P0[1-3]|58)/;
var unavailableErrors = /* @__PURE__ */ new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
var DatabaseError = class extends Error {
  constructor(message, code, constraint) {
    super(message);
    this.code = code;
    this.constraint = constraint;
  }
  code;
  constraint;
};
var isUniqueViolation = (error, constraint) => error instanceof DatabaseError && error.code === "23505" && (!constraint || error.constraint === constraint);
var isCheckViolation = (error, constraint) => error instanceof DatabaseError && error.code === "23514" && (!constraint || error.constraint === constraint);
function translate(error) {
  if (error instanceof StoreUnavailableError || error instanceof DatabaseError) return error;
  const { code, constraint, message } = error ?? {};
  const text3 = typeof message === "string" ? message : "database error";
  if (error instanceof MissingDatabaseConnectionError) return new StoreUnavailableError("The database is not configured.");
  if (typeof code === "string" && (unavailableStates.test(code) || unavailableErrors.has(code))) return new StoreUnavailableError(text3);
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return new DatabaseError(text3, code, typeof constraint === "string" ? constraint : void 0);
  return new StoreUnavailableError(text3);
}
var pools = /* @__PURE__ */ new Map();
function pool() {
  let connectionString;
  try {
    connectionString = process.env.NETLIFY_DB_URL;
    const key2 = `${process.env.NETLIFY_DB_DRIVER ?? ""}|${connectionString ?? ""}`;
    let found = pools.get(key2);
    if (!found) {
      found = getDatabase().pool;
      found.on?.("error", (error) => console.error("[db] idle connection lost:", error.message));
      pools.set(key2, found);
    }
    return found;
  } catch (error) {
    throw translate(error);
  }
}
async function query(statement) {
  const { text: text3, values } = statement instanceof Fragment ? statement.build() : statement;
  try {
    const result = await pool().query(text3, values);
    return result.rows;
  } catch (error) {
    throw translate(error);
  }
}
async function queryOne(statement) {
  return (await query(statement))[0];
}

// src/server/letters.ts
import { readdir, readFile } from "node:fs/promises";
import { join as join2 } from "node:path";
import yaml from "js-yaml";

// src/lib/email/letters.ts
import { z as z3 } from "zod";

// src/lib/stats.ts
import { z as z2 } from "zod";

// src/lib/counter.ts
function decimalsOf(value) {
  const text3 = String(value);
  const dot = text3.indexOf(".");
  return dot === -1 ? 0 : text3.length - dot - 1;
}
function formatCount(value, prefix = "", suffix = "", decimals = 0) {
  return `${prefix}${value.toFixed(decimals)}${suffix}`;
}

// src/lib/stats.ts
var statId = z2.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "how-it-works"');
var statSchema = z2.object({
  id: statId,
  group: z2.enum(["home-stats", "home-results", "why-results"]),
  target: z2.number().nonnegative().optional(),
  text: z2.string().max(12).optional(),
  prefix: z2.string().max(8).default(""),
  suffix: z2.string().max(6).default(""),
  /** One line under the number, e.g. "of 8th graders are proficient in math". */
  label: z2.string().min(3).max(120),
  /** Where the figure comes from, shown in small print. */
  source: z2.string().max(160).optional(),
  order: z2.number().int().positive()
}).refine((stat) => stat.target === void 0 !== (stat.text === void 0), {
  message: 'give exactly one of "target" (a number to count up to) or "text"',
  path: ["target"]
});
function statDisplay(stat) {
  return stat.target === void 0 ? `${stat.prefix}${stat.text}${stat.suffix}` : formatCount(stat.target, stat.prefix, stat.suffix, decimalsOf(stat.target));
}

// src/lib/email/letters.ts
var letterPlaceholders = {
  parent: "the parent's full name",
  child: "the child's full name",
  grade: 'the grade, as "5th grade" or "kindergarten"',
  school: "the school's name",
  video: "the link to the 30-second overview video",
  booking: "the link where the school books a call"
};
var LETTER_LIMITS = { introduction: 500, body: 1500, closing: 400 };
var requiredPlaceholders = {
  introduction: ["parent", "child", "grade", "school"],
  body: ["video", "booking"],
  closing: []
};
var names = Object.keys(letterPlaceholders);
var listed = (items) => items.map((name) => `{${name}}`).join(", ");
var STAT_PLACEHOLDER = /\{stat:([a-z0-9-]+)\}/g;
function letterText(part) {
  const required = requiredPlaceholders[part];
  const needs = required.map((name) => `(?=[\\s\\S]*\\{${name}\\})`).join("");
  const pattern = new RegExp(`^(?![\\s\\S]*\\d\\s*%)${needs}(?:[^{}]|\\{(?:${names.join("|")}|stat:[a-z0-9-]+)\\})*$`);
  const message = `${required.length ? `must contain ${listed(required)}; ` : ""}braces only around the placeholders ${listed(names)} or a statistic, {stat:<its id>}; a percentage only as {stat:<id>}`;
  return z3.string().min(20).max(LETTER_LIMITS[part]).regex(pattern, message);
}
var letterSchema = z3.object({
  /** The editors' name for it, e.g. "Two focused hours". Never sent. */
  title: z3.string().min(3).max(80),
  /** Its turn in the rotation, 1 first; the first is also the one the page writes itself (HubSpot's embed). */
  order: z3.number().int().positive(),
  /** The paragraph after "Dear …,": who writes and why. Must name {parent}, {child}, {grade} and {school}. */
  introduction: letterText("introduction"),
  /** The model, the results and the two links. Must carry {video} and {booking}. Blank lines separate paragraphs. */
  body: letterText("body"),
  /** The last paragraph before "Warm regards,". */
  closing: letterText("closing")
});
function withStatistics(letter, stats, where) {
  const byId = new Map(stats.map((stat) => [stat.id, statDisplay(stat)]));
  const fill = (text3) => text3.replace(STAT_PLACEHOLDER, (_whole, id) => {
    const figure2 = byId.get(id);
    if (figure2 === void 0) throw new Error(`${where}: {stat:${id}} names no statistic of content/stats.yaml`);
    return figure2;
  });
  return { ...letter, introduction: fill(letter.introduction), body: fill(letter.body), closing: fill(letter.closing) };
}

// src/server/letters.ts
var LETTERS_DIR = "content/letters";
var cache;
async function readStatistics(dir) {
  return statSchema.array().parse(yaml.load(await readFile(join2(dir, "..", "stats.yaml"), "utf8")));
}
async function read3(dir) {
  const files = (await readdir(dir)).filter((name) => name.endsWith(".yaml")).sort();
  let stats;
  const letters2 = await Promise.all(
    files.map(async (name) => {
      const parsed = letterSchema.safeParse(yaml.load(await readFile(join2(dir, name), "utf8")));
      if (!parsed.success) throw new Error(`${LETTERS_DIR}/${name}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
      const { order, introduction, body: body2, closing } = parsed.data;
      const letter = { id: name.replace(/\.yaml$/, ""), introduction, body: body2, closing };
      const quotes = [introduction, body2, closing].some((text3) => new RegExp(STAT_PLACEHOLDER.source).test(text3));
      return { order, letter: quotes ? withStatistics(letter, await (stats ??= readStatistics(dir)), `${LETTERS_DIR}/${name}`) : letter };
    })
  );
  if (letters2.length === 0) throw new Error(`${LETTERS_DIR} has no letters.`);
  return letters2.sort((a, b) => a.order - b.order || a.letter.id.localeCompare(b.letter.id)).map((entry) => entry.letter);
}
function letters() {
  const dir = serverEnv.lettersDir ?? join2(process.cwd(), LETTERS_DIR);
  if (cache?.dir !== dir) {
    const loaded = read3(dir);
    cache = { dir, letters: loaded };
    loaded.catch(() => {
      if (cache?.letters === loaded) cache = void 0;
    });
  }
  return cache.letters;
}
async function letterById(id) {
  const all = await letters();
  return all.find((letter) => letter.id === id) ?? all[0];
}

// src/server/tokens.ts
import { createHash as createHash2, createHmac as createHmac2, hkdfSync as hkdfSync2, randomBytes, timingSafeEqual } from "node:crypto";
function hashSecret(secret) {
  return createHash2("sha256").update(secret, "utf8").digest("base64url");
}
function sameSecret(secret, storedHash) {
  if (!storedHash) return false;
  const given = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
function signingKey() {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) {
    throw new HttpError(503, "signing_not_configured", "Links cannot be signed: CONFIG_ENCRYPTION_KEY is not configured on this site.");
  }
  return Buffer.from(hkdfSync2("sha256", Buffer.from(configured, "utf8"), Buffer.alloc(0), "mastery-parents link tokens v1", 32));
}
var mac = (payload) => createHmac2("sha256", signingKey()).update(payload, "utf8").digest("base64url");
function signToken(claims) {
  const payload = Buffer.from(JSON.stringify({ p: claims.purpose, i: claims.id, e: claims.exp }), "utf8").toString("base64url");
  return `${payload}.${mac(payload)}`;
}

// src/server/email-drafts.ts
var DRAFT_RETENTION_MS = 30 * 24 * 36e5;
function composeDraft(draft, note) {
  return generateEmail(draft.data, draft.links, draft.letter, { ownWords: draft.ownWords ?? "", note });
}
async function withLetter(draft) {
  return draft.letter ? draft : { ...draft, letter: await letterById(void 0) };
}
async function readDraft(id) {
  const row = await queryOne(sql`SELECT record, version FROM email_drafts WHERE id = ${id}`);
  return row ? { draft: await withLetter(row.record), etag: String(row.version) } : void 0;
}
async function updateDraft(draft, etag) {
  const row = await queryOne(sql`
    UPDATE email_drafts SET record = ${draft}, letter_id = ${draft.letter?.id ?? null}, message_id = ${draft.messageId ?? null}, self_sent_message_id = ${draft.selfSentMessageId ?? null}, version = version + 1
    WHERE id = ${draft.id} AND version = ${Number(etag)}
    RETURNING version`);
  return row !== void 0;
}

// src/server/hubspot.ts
import { Client } from "@hubspot/api-client";
function hubspotClient(accessToken = serverEnv.hubspotAccessToken) {
  if (!accessToken) {
    throw new HttpError(503, "hubspot_not_configured", "HubSpot is not configured on this site yet (no access token).");
  }
  return new Client({ accessToken, basePath: serverEnv.hubspotBasePath, numberOfApiCallRetries: 0 });
}
function statusOf(error) {
  const code = error?.code;
  return typeof code === "number" ? code : void 0;
}
function isRetryable(error) {
  const status = statusOf(error);
  return status === void 0 || status === 429 || status >= 500;
}
var sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function withRetry(operation, options = {}) {
  const attempts = options.attempts ?? 4;
  const baseMs = options.baseMs ?? serverEnv.hubspotRetryBaseMs;
  let lastError;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await operation();
    } catch (error) {
      lastError = error;
      if (!isRetryable(error) || attempt === attempts) break;
      await sleep(baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
    }
  }
  throw lastError;
}

// src/server/ambassadors.ts
import { z as z4 } from "zod";
var AMBASSADOR_ID = /^[A-Za-z0-9_-]{1,100}$/;
var newAmbassadorSchema = z4.object({
  id: z4.string().trim().regex(AMBASSADOR_ID, "id: letters, digits, - and _ only, at most 100"),
  name: z4.string().trim().min(1, "name is required").max(120).refine((value) => !/[\p{C}<>]/u.test(value), "name must be plain text"),
  email: z4.email("email must be an email address").max(254)
}).strict();
var figuresSql = sql`
  count(j.draft_id)::int AS parents,
  count(j.confirmed_at)::int AS confirmed,
  count(DISTINCT j.school) FILTER (WHERE j.delivered_at IS NOT NULL)::int AS schools_reached,
  count(j.answered_at)::int AS answers`;
var AMBASSADOR_LINK_TTL_MS = 365 * 24 * 36e5;

// src/server/school-pages.ts
import { createHmac as createHmac3, hkdfSync as hkdfSync3, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
import { z as z5 } from "zod";

// src/lib/school-pages.ts
var pageOutcomes = ["replied", "meeting"];

// src/server/school-pages.ts
var SCHOOL_KEY = /^[0-9a-f]{32}$/;
function derivedKey(info) {
  const secret = serverEnv.schoolPageSecret ?? serverEnv.configEncryptionKey;
  if (!secret) return void 0;
  return Buffer.from(hkdfSync3("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), info, 32));
}
var notConfigured = () => new HttpError(503, "school_pages_not_configured", "School pages are not configured on this site (SCHOOL_PAGE_SECRET or CONFIG_ENCRYPTION_KEY is missing).");
function schoolPageKeyIfConfigured(address) {
  const key2 = derivedKey("mastery-parents school pages v1");
  return key2 && createHmac3("sha256", key2).update(canonicalAddress(address), "utf8").digest("hex").slice(0, 32);
}
function schoolPagesConfigured() {
  return derivedKey("mastery-parents school pages v1") !== void 0;
}
function schoolPagePath(segment) {
  return `/schools/${segment}`;
}
function slugOf(name) {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "");
}
async function ensureSchoolPage(message, now = /* @__PURE__ */ new Date()) {
  const key2 = schoolPageKeyIfConfigured(message.to);
  if (!key2) return void 0;
  await queryOne(sql`
    INSERT INTO school_pages (key, school_name, contact_address, created_at, updated_at)
    VALUES (${key2}, NULL, ${message.to.trim().toLowerCase().slice(0, 254)}, ${now}, ${now})
    ON CONFLICT (key) DO NOTHING
    RETURNING 1`);
  return key2;
}
async function publishSchoolPage(message, by, now = /* @__PURE__ */ new Date()) {
  const key2 = schoolPageKeyIfConfigured(message.to);
  if (!key2) return void 0;
  const name = message.schoolName.trim().slice(0, 200) || message.to.trim().toLowerCase().split("@").pop();
  const address = message.to.trim().toLowerCase().slice(0, 254);
  await queryOne(sql`
    INSERT INTO school_pages AS p (key, school_name, contact_address, created_at, updated_at, published_at, name_set_by, slug)
    VALUES (${key2}, ${name}, ${address}, ${now}, ${now}, ${now}, ${by}, ${slugOf(name) || null})
    ON CONFLICT (key) DO UPDATE SET
      school_name = EXCLUDED.school_name, slug = EXCLUDED.slug, name_set_by = EXCLUDED.name_set_by,
      contact_address = EXCLUDED.contact_address, published_at = EXCLUDED.published_at, updated_at = EXCLUDED.updated_at
    WHERE p.published_at IS NULL
    RETURNING 1`);
  return key2;
}
async function readSchoolPage(key2) {
  if (!SCHOOL_KEY.test(key2)) return void 0;
  if (!schoolPagesConfigured()) throw notConfigured();
  const row = await queryOne(sql`
    SELECT p.school_name, p.slug, p.published_at, p.contact_address,
      (SELECT count(DISTINCT s.parent)::int FROM impact_sends s WHERE s.page = p.key) AS parents,
      o.kind AS outcome, o.answered_at AS outcome_at
    FROM school_pages p
    LEFT JOIN LATERAL (
      SELECT a.kind, a.answered_at FROM impact_answers a JOIN impact_sends s ON s.message_id = a.message_id
      WHERE s.page = p.key AND a.kind = ANY(${[...pageOutcomes]}::text[])
      ORDER BY a.answered_at DESC LIMIT 1
    ) o ON true
    WHERE p.key = ${key2}`);
  if (!row) return void 0;
  const published = row.published_at !== null;
  return {
    key: key2,
    schoolName: published ? row.school_name : null,
    slug: published ? row.slug : null,
    published,
    contactAddress: row.contact_address,
    parents: published ? Number(row.parents) : 0,
    ...published && row.outcome && row.outcome_at ? { outcome: { kind: row.outcome, at: row.outcome_at.toISOString() } } : {}
  };
}
function schoolPageHref(page) {
  return schoolPagePath(page.slug ? `${page.slug}-${page.key}` : page.key);
}
var attributionSchema = z5.discriminatedUnion("via", [
  z5.object({ via: z5.literal("direct") }),
  z5.object({ via: z5.literal("parent"), referrerMessageId: z5.string(), ambassadorId: z5.string().optional() }),
  z5.object({ via: z5.literal("ambassador"), ambassadorId: z5.string() })
]);

// src/server/impact.ts
async function recordSent(message) {
  const school2 = schoolKey(canonicalAddress(message.to));
  const parent2 = parentKey(message.parentEmail);
  const at = new Date(message.sentAt ?? Date.now());
  const page = schoolPageKeyIfConfigured(message.to) ?? null;
  await query(sql`
    WITH event AS (
      INSERT INTO impact_sends (message_id, school, parent, channel, sent_at, page)
      VALUES (${message.id}, ${school2}, ${parent2}, ${message.channel}, ${at}, ${page})
      ON CONFLICT (message_id) DO NOTHING
      RETURNING school, parent
    ), school_row AS (
      INSERT INTO impact_schools AS s (school, emails_sent) SELECT school, 1 FROM event
      ON CONFLICT (school) DO UPDATE SET emails_sent = s.emails_sent + 1
      RETURNING emails_sent
    ), parent_row AS (
      INSERT INTO impact_parents (parent) SELECT parent FROM event ON CONFLICT DO NOTHING RETURNING 1
    )
    INSERT INTO impact_totals AS t (id, schools_reached, schools_answered, schools_with_meeting, parents_wrote)
    SELECT 1, (SELECT count(*) FROM school_row WHERE emails_sent = 1), 0, 0, (SELECT count(*) FROM parent_row)
    ON CONFLICT (id) DO UPDATE SET
      schools_reached = t.schools_reached + EXCLUDED.schools_reached,
      parents_wrote = t.parents_wrote + EXCLUDED.parents_wrote`);
}
async function counts(messageId) {
  return Boolean(await queryOne(sql`SELECT 1 FROM impact_sends WHERE message_id = ${messageId}`));
}
var responded = [...schoolResponded];
async function recordAnswer(event) {
  const kind = answerKinds.includes(event.kind) ? event.kind : "no_answer";
  await query(sql`
    WITH previous AS (
      SELECT kind FROM impact_answers WHERE message_id = ${event.id} FOR UPDATE
    ), answer AS (
      INSERT INTO impact_answers (message_id, school, kind, answered_at, days_taken) VALUES (${event.id}, ${event.school}, ${kind}, ${new Date(event.at)}, ${event.daysTaken ?? null})
      ON CONFLICT (message_id) DO UPDATE SET kind = EXCLUDED.kind, answered_at = EXCLUDED.answered_at, days_taken = EXCLUDED.days_taken
      RETURNING 1
    ), delta AS (
      SELECT
        (${kind}::text = ANY(${responded}::text[]))::int - coalesce((SELECT (kind = ANY(${responded}::text[]))::int FROM previous), 0) AS responded,
        (${kind}::text = 'meeting')::int - coalesce((SELECT (kind = 'meeting')::int FROM previous), 0) AS meetings
      FROM answer
    ), school_row AS (
      INSERT INTO impact_schools AS s (school, responded, meetings) SELECT ${event.school}, greatest(responded, 0), greatest(meetings, 0) FROM delta
      ON CONFLICT (school) DO UPDATE SET responded = s.responded + (SELECT responded FROM delta), meetings = s.meetings + (SELECT meetings FROM delta)
      RETURNING responded, meetings
    )
    INSERT INTO impact_totals AS t (id, schools_reached, schools_answered, schools_with_meeting, parents_wrote)
    SELECT 1, 0, (r.responded > 0)::int - (r.responded - d.responded > 0)::int, (r.meetings > 0)::int - (r.meetings - d.meetings > 0)::int, 0
    FROM school_row r, delta d
    ON CONFLICT (id) DO UPDATE SET
      schools_answered = t.schools_answered + EXCLUDED.schools_answered,
      schools_with_meeting = t.schools_with_meeting + EXCLUDED.schools_with_meeting`);
}

// src/lib/analytics/events.ts
import { z as z6 } from "zod";
var beaconEvents = ["page_view", "form_start", "share"];
var serverEvents = ["form_sent", "draft", "send_request", "confirmed", "delivered", "answer"];
var eventNames = [...beaconEvents, ...serverEvents];
var text2 = (max) => z6.string().max(max);
var beaconSchema = z6.object({
  n: z6.enum(beaconEvents),
  p: text2(200).regex(/^\/[^\s]*$/, "must be a path on this site"),
  q: text2(600).optional(),
  r: text2(600).optional(),
  k: z6.string().regex(/^[A-Za-z_]{1,40}$/).optional()
}).strict();
var count = z6.number().int().nonnegative();
var insightsSchema = z6.object({
  from: z6.string(),
  to: z6.string(),
  funnel: z6.array(z6.object({ key: z6.string(), label: z6.string(), count, rate: z6.number().nullable() })),
  days: z6.array(z6.object({ day: z6.string(), visitors: count, drafts: count, confirmed: count, delivered: count, answers: count })),
  shares: z6.array(z6.object({ channel: z6.string(), count })),
  answers: z6.array(z6.object({ kind: z6.string(), count })),
  breakdowns: z6.array(
    z6.object({
      dimension: z6.string(),
      label: z6.string(),
      rows: z6.array(z6.object({ value: z6.string(), label: z6.string(), visitors: count, drafts: count, confirmed: count, delivered: count, answers: count }))
    })
  )
});
var DAY = /^\d{4}-\d{2}-\d{2}$/;
var daySchema = z6.string().regex(DAY, "must be a date as YYYY-MM-DD").refine((value) => !Number.isNaN((/* @__PURE__ */ new Date(`${value}T00:00:00Z`)).getTime()), "must be a real date");
var insightsQuerySchema = z6.object({
  from: daySchema.optional(),
  to: daySchema.optional(),
  format: z6.enum(["json", "csv"]).optional()
}).strict().refine((value) => !value.from || !value.to || value.from <= value.to, { message: "from must not be after to", path: ["from"] });

// src/server/experiments.ts
import yaml2 from "js-yaml";

// src/lib/analytics/experiments.ts
import { z as z7 } from "zod";
var experimentVariantSchema = z7.object({
  id: z7.string().regex(/^[a-z0-9-]{1,20}$/, 'a short id: lower-case letters, digits and -, e.g. "control"').describe('Short id, e.g. "control"; carried in share links as ?v={experiment}.{id}'),
  text: z7.string().trim().min(1).max(200).refine((value) => !/[<>]/.test(value), "plain text: no markup").describe('The words shown, at most 200 characters, e.g. "Add your voice: write to {school} in two minutes."')
});
var experimentPlaceSchema = z7.object({
  label: z7.string().min(1).max(120).describe('What the place is, for staff: "The call to action above a school page\u2019s form"'),
  pages: z7.array(z7.string().regex(/^\/[a-z0-9/_-]*$/, "a path prefix such as /schools/")).min(1).describe("The pages the place is on, as path prefixes: a visit there is a visit to the experiment"),
  variants: z7.array(experimentVariantSchema).min(2, "a place needs at least two variants to test").max(6).refine((variants) => new Set(variants.map((variant) => variant.id)).size === variants.length, "variant ids must differ")
}).strict();
var count2 = z7.number().int().nonnegative();
var variantResultSchema = z7.object({
  id: z7.string(),
  text: z7.string(),
  visitors: count2,
  conversions: count2,
  rate: z7.number(),
  /** The 95% credible interval of the rate (Beta posterior, uniform prior). */
  interval: z7.tuple([z7.number(), z7.number()]),
  /** The probability that this variant's rate beats the control's (null for the control). */
  probabilityToBeat: z7.number().nullable()
});
var experimentResultSchema = z7.object({
  id: z7.string(),
  place: z7.string(),
  placeLabel: z7.string(),
  name: z7.string(),
  state: z7.enum(["running", "ended"]),
  winner: z7.string().nullable(),
  startedAt: z7.string(),
  endedAt: z7.string().nullable(),
  variants: z7.array(variantResultSchema)
});
var newExperimentSchema = z7.object({
  place: z7.string().regex(/^[a-z0-9-]{1,40}$/, "place is not one of the site\u2019s places"),
  name: z7.string().trim().min(1, "name is required").max(120),
  variants: z7.array(z7.string().regex(/^[a-z0-9-]{1,20}$/)).max(6).optional()
}).strict();
var endExperimentSchema = z7.object({ winner: z7.string().regex(/^[a-z0-9-]{1,20}$/, "choose the winning variant") }).strict();

// src/server/analytics/visitor.ts
import { isbot } from "isbot";
var dayOf = (at) => at.toISOString().slice(0, 10);

// src/server/analytics/rollup.ts
var DIRECT = "(direct)";
var SETTLE_MS = 60 * 6e4;
var valueOf = {
  all: sql`''`,
  page: sql`e.page`,
  source: sql`coalesce(e.source, ${DIRECT})`,
  campaign: sql`e.campaign`,
  ambassador: sql`e.ambassador`,
  variant: sql`e.variant`,
  letter: sql`e.letter`,
  school: sql`e.school`,
  kind: sql`e.kind`
};

// src/server/analytics/record.ts
var kindOfPurpose = (purpose) => purpose.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).slice(0, 40);
var emailFormKinds = emailFormPurposes.map(kindOfPurpose);
async function tolerate(what, work) {
  try {
    await work();
  } catch (error) {
    console.error(`[insights] ${what} not counted:`, error instanceof Error ? error.message : "unknown error");
  }
}
async function recordStep(step, draftId, kind, now = /* @__PURE__ */ new Date()) {
  if (!draftId) return;
  const answerKind = kind && /^[a-z_]{1,40}$/.test(kind) ? kind : null;
  await tolerate(
    step,
    () => query(sql`
      WITH moved AS (
        UPDATE analytics_journeys j SET
          requested_at = CASE WHEN ${step} = 'send_request' THEN coalesce(j.requested_at, ${now}) ELSE j.requested_at END,
          confirmed_at = CASE WHEN ${step} = 'confirmed' THEN coalesce(j.confirmed_at, ${now}) ELSE j.confirmed_at END,
          delivered_at = CASE WHEN ${step} = 'delivered' THEN coalesce(j.delivered_at, ${now}) ELSE j.delivered_at END,
          answered_at = CASE WHEN ${step} = 'answer' THEN coalesce(j.answered_at, ${now}) ELSE j.answered_at END,
          answer_kind = CASE WHEN ${step} = 'answer' THEN coalesce(${answerKind}::text, j.answer_kind) ELSE j.answer_kind END
        FROM analytics_journeys old
        WHERE j.draft_id = ${draftId} AND old.draft_id = j.draft_id
        RETURNING j.*, CASE ${step}::text
          WHEN 'send_request' THEN old.requested_at IS NULL
          WHEN 'confirmed' THEN old.confirmed_at IS NULL
          WHEN 'delivered' THEN old.delivered_at IS NULL
          ELSE old.answered_at IS NULL END AS first
      )
      INSERT INTO analytics_events (at, day, name, page, source, campaign, ambassador, variant, letter, school, kind, journey)
      SELECT ${now}, ${dayOf(now)}::date, ${step}, page, source, campaign, ambassador, variant, letter, school, ${step === "answer" ? answerKind : null}::text, draft_id
      FROM moved WHERE first`)
  );
}
async function recordSendRequest(draftId, status, now = /* @__PURE__ */ new Date()) {
  await recordStep("send_request", draftId, void 0, now);
  if (status === "queued" || status === "sent") await recordStep("confirmed", draftId, void 0, now);
  if (status === "sent") await recordStep("delivered", draftId, void 0, now);
}
async function recordDelivery(message, now = /* @__PURE__ */ new Date()) {
  if (message.status !== "sent" || message.channel === "self") return;
  await recordStep("delivered", message.draftId, void 0, now);
}

// src/server/mail/compose.ts
import { readdir as readdir2, readFile as readFile2 } from "node:fs/promises";
import { join as join3 } from "node:path";
import yaml3 from "js-yaml";
import { createElement } from "react";

// src/config/site.ts
var site = {
  name: "Mastery Parents",
  legalName: "Mastery Parents Movement",
  tagline: "Parents bringing mastery-based, AI-assisted learning to their schools",
  url: publicEnv.siteUrl,
  logo: "/logo.svg",
  socialImage: "/social-card.png",
  email: "hello@masteryparents.org",
  stagingMarker: publicEnv.stagingMarker,
  ambassador: {
    host: publicEnv.ambassadorHost,
    registerUrl: `${publicEnv.ambassadorHost}/register`,
    loginUrl: `${publicEnv.ambassadorHost}/login`
  },
  /** Footer "Connect": two learning-programme sites and a school site. */
  connect: [
    { label: "2 Hour Learning", href: "https://2hourlearning.com" },
    { label: "Timeback", href: "https://timeback.com" },
    { label: "Alpha School", href: "https://alpha.school" }
  ],
  socials: [
    { network: "Instagram", href: "https://www.instagram.com/masteryparents" },
    { network: "Facebook", href: "https://www.facebook.com/masteryparents" },
    { network: "LinkedIn", href: "https://www.linkedin.com/company/masteryparents" },
    { network: "YouTube", href: "https://www.youtube.com/@masteryparents" }
  ]
};

// src/emails/Layout.tsx
import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";

// src/emails/theme.ts
var theme = {
  ink: "#13213c",
  inkSoft: "#3d4a63",
  muted: "#5b6678",
  brand: "#1c41a9",
  brandSoft: "#eef4ff",
  accent: "#c2560a",
  canvas: "#f6f7fb",
  line: "#dde2ec",
  font: '-apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
};

// src/emails/Layout.tsx
import { jsx, jsxs } from "react/jsx-runtime";
var body = { backgroundColor: theme.canvas, color: theme.ink, fontFamily: theme.font, margin: 0, padding: "24px 0" };
var card = { backgroundColor: "#ffffff", border: `1px solid ${theme.line}`, borderRadius: "12px", margin: "0 auto", maxWidth: "560px", padding: "28px 32px" };
var brandLine = { color: theme.brand, fontSize: "15px", fontWeight: 700, letterSpacing: "0.02em", margin: "0 0 20px" };
var footerText = { color: theme.muted, fontSize: "12px", lineHeight: "18px", margin: "4px 0" };
function Layout({ organisation, preview, reason, links = [], lang = "en", children }) {
  return /* @__PURE__ */ jsxs(Html, { lang, dir: "ltr", children: [
    /* @__PURE__ */ jsx(Head, { children: /* @__PURE__ */ jsx("meta", { name: "color-scheme", content: "light" }) }),
    /* @__PURE__ */ jsx(Preview, { children: preview }),
    /* @__PURE__ */ jsx(Body, { style: body, children: /* @__PURE__ */ jsxs(Container, { style: card, children: [
      /* @__PURE__ */ jsx(Text, { style: brandLine, children: organisation }),
      children,
      /* @__PURE__ */ jsx(Hr, { style: { borderColor: theme.line, margin: "28px 0 16px" } }),
      /* @__PURE__ */ jsxs(Section, { children: [
        /* @__PURE__ */ jsx(Text, { style: footerText, children: reason }),
        links.map((link) => /* @__PURE__ */ jsxs(Text, { style: footerText, children: [
          link.label,
          ": ",
          /* @__PURE__ */ jsx(Link, { href: link.url, style: { color: theme.brand }, children: link.url })
        ] }, link.url)),
        /* @__PURE__ */ jsx(Text, { style: footerText, children: organisation })
      ] })
    ] }) })
  ] });
}

// src/emails/parts.tsx
import { Button } from "@react-email/button";
import { Heading } from "@react-email/heading";
import { Link as Link2 } from "@react-email/link";
import { Text as Text2 } from "@react-email/text";
import { Fragment as Fragment2, jsx as jsx2, jsxs as jsxs2 } from "react/jsx-runtime";
function Title({ children }) {
  return /* @__PURE__ */ jsx2(Heading, { as: "h1", style: { color: theme.ink, fontSize: "22px", lineHeight: "30px", margin: "0 0 16px" }, children });
}
function Paragraphs({ items }) {
  return /* @__PURE__ */ jsx2(Fragment2, { children: items.map((text3, index) => /* @__PURE__ */ jsx2(Text2, { style: { color: theme.inkSoft, fontSize: "16px", lineHeight: "25px", margin: "0 0 14px", whiteSpace: "pre-line" }, children: text3 }, index)) });
}
function Action({ label, url }) {
  return /* @__PURE__ */ jsxs2(Fragment2, { children: [
    /* @__PURE__ */ jsx2(Button, { href: url, style: { backgroundColor: theme.accent, borderRadius: "999px", color: "#ffffff", display: "inline-block", fontSize: "16px", fontWeight: 600, margin: "8px 0 12px", padding: "12px 24px", textDecoration: "none" }, children: label }),
    /* @__PURE__ */ jsxs2(Text2, { style: { color: theme.muted, fontSize: "13px", lineHeight: "20px", margin: "0 0 8px", wordBreak: "break-all" }, children: [
      "Or open this link: ",
      /* @__PURE__ */ jsx2(Link2, { href: url, style: { color: theme.brand }, children: url })
    ] })
  ] });
}

// src/emails/ActionEmail.tsx
import { jsx as jsx3, jsxs as jsxs3 } from "react/jsx-runtime";
function ActionEmail({ organisation, words, actionUrl, reason, footerLinks }) {
  return /* @__PURE__ */ jsxs3(Layout, { organisation, preview: words.preview, reason, links: footerLinks, children: [
    /* @__PURE__ */ jsx3(Title, { children: words.heading }),
    /* @__PURE__ */ jsx3(Paragraphs, { items: words.paragraphs }),
    actionUrl && words.action ? /* @__PURE__ */ jsx3(Action, { label: words.action, url: actionUrl }) : null
  ] });
}

// src/emails/DigestEmail.tsx
import { Hr as Hr2 } from "@react-email/hr";
import { Link as Link3 } from "@react-email/link";
import { Section as Section2 } from "@react-email/section";
import { Text as Text3 } from "@react-email/text";
import { jsx as jsx4, jsxs as jsxs4 } from "react/jsx-runtime";
var letterText2 = { color: theme.ink, fontSize: "15px", lineHeight: "23px", margin: "0 0 12px", whiteSpace: "pre-line" };

// src/emails/LetterEmail.tsx
import { Body as Body2 } from "@react-email/body";
import { Container as Container2 } from "@react-email/container";
import { Head as Head2 } from "@react-email/head";
import { Html as Html2 } from "@react-email/html";
import { Text as Text4 } from "@react-email/text";
import { jsx as jsx5, jsxs as jsxs5 } from "react/jsx-runtime";
var paragraph = { color: theme.ink, fontFamily: theme.font, fontSize: "15px", lineHeight: "23px", margin: "0 0 14px", whiteSpace: "pre-line" };
function LetterEmail({ body: body2, footer }) {
  return /* @__PURE__ */ jsxs5(Html2, { lang: "en", dir: "ltr", children: [
    /* @__PURE__ */ jsx5(Head2, {}),
    /* @__PURE__ */ jsx5(Body2, { style: { backgroundColor: "#ffffff", margin: 0, padding: "16px" }, children: /* @__PURE__ */ jsxs5(Container2, { style: { maxWidth: "620px", margin: "0" }, children: [
      body2.split(/\n{2,}/).map((text3, index) => /* @__PURE__ */ jsx5(Text4, { style: paragraph, children: text3 }, index)),
      /* @__PURE__ */ jsx5(Text4, { style: { ...paragraph, color: theme.muted, fontSize: "12px", marginTop: "24px" }, children: footer })
    ] }) })
  ] });
}

// src/lib/email/mail-words.ts
import { z as z8 } from "zod";

// src/lib/email/mail-kinds.ts
var emailKinds = [
  "confirmation",
  "reminder",
  "refusal",
  "follow_up",
  "second_follow_up",
  "school_update",
  "data_link",
  "staff_invitation",
  "delivery_failure",
  "digest_notice",
  "ambassador_link",
  "school_letter",
  "school_digest"
];
var kindRules = {
  confirmation: { purpose: "confirm", essential: true, unsubscribe: false, toSchool: false, label: "Confirmation link" },
  reminder: { purpose: "confirm", essential: false, unsubscribe: false, toSchool: false, label: "Reminder to confirm" },
  refusal: { purpose: "confirm", essential: true, unsubscribe: false, toSchool: false, label: "Not sent: why" },
  follow_up: { purpose: "follow_up", essential: false, unsubscribe: true, toSchool: false, label: "Did your school answer?" },
  second_follow_up: { purpose: "follow_up", essential: false, unsubscribe: true, toSchool: false, label: "Did your school answer? (again)" },
  school_update: { purpose: "update", essential: false, unsubscribe: true, toSchool: false, label: "School update" },
  data_link: { purpose: "data", essential: true, unsubscribe: false, toSchool: false, label: "\u201CYour data\u201D link" },
  staff_invitation: { purpose: "invite", essential: true, unsubscribe: false, toSchool: false, label: "Staff invitation" },
  delivery_failure: { purpose: "notice", essential: true, unsubscribe: false, toSchool: false, label: "Your letter did not arrive" },
  digest_notice: { purpose: "notice", essential: false, unsubscribe: true, toSchool: false, label: "Your letter went in the digest" },
  ambassador_link: { purpose: "invite", essential: true, unsubscribe: false, toSchool: false, label: "Ambassador page link" },
  school_letter: { essential: false, unsubscribe: false, toSchool: true, label: "Letter to the school" },
  school_digest: { essential: false, unsubscribe: false, toSchool: true, label: "Digest to the school" }
};

// src/lib/email/mail-words.ts
var wordKinds = emailKinds.filter((kind) => kind !== "school_letter");
var parent = { parent: "the parent's name" };
var school = { school: "the school's name, as the parent wrote it" };
var contact = { contact: "the school contact's name (or address)" };
var wordPlaceholders = {
  confirmation: { placeholders: { ...parent, ...school, ...contact, expires: "when the link stops working" }, required: ["school", "expires"] },
  reminder: { placeholders: { ...parent, ...school, ...contact, expires: "when the link stops working" }, required: ["school", "expires"] },
  refusal: { placeholders: { ...parent, ...school, reason: "why the platform did not send it" }, required: ["reason"] },
  follow_up: { placeholders: { ...parent, ...school, sent: "the day the letter went" }, required: ["school"] },
  second_follow_up: { placeholders: { ...parent, ...school, sent: "the day the letter went" }, required: ["school"] },
  school_update: { placeholders: { ...parent, ...school, outcome: "what the school did, in a sentence" }, required: ["outcome"] },
  data_link: { placeholders: { expires: "when the link stops working" }, required: ["expires"] },
  staff_invitation: { placeholders: { role: '"an owner" or "staff"', inviter: "who invited them", expires: "when the link stops working" }, required: ["role", "expires"] },
  delivery_failure: { placeholders: { ...parent, ...school, ...contact, address: "the school address that refused it" }, required: ["address"] },
  digest_notice: { placeholders: { ...parent, ...school, ...contact, count: "how many letters went in the digest" }, required: ["school"] },
  ambassador_link: { placeholders: { name: "the ambassador's name" }, required: [] },
  school_digest: { placeholders: { ...school, count: "how many parents wrote this time", change: "the count since the first letter, in a sentence" }, required: ["count"] }
};
var WORD_LIMITS = { subject: 120, preview: 150, heading: 120, paragraph: 700, action: 50 };
var PLACEHOLDER = /\{([a-z_]+)\}/g;
var placeholdersIn = (text3) => [...text3.matchAll(PLACEHOLDER)].map((match) => match[1]);
function wordText(kind, min, max) {
  const names2 = kind ? Object.keys(wordPlaceholders[kind].placeholders) : [...new Set(wordKinds.flatMap((each) => Object.keys(wordPlaceholders[each].placeholders)))];
  const listed2 = names2.map((name) => `{${name}}`).join(", ");
  return z8.string().min(min).max(max).regex(new RegExp(`^(?:[^{}]|\\{(?:${names2.join("|")})\\})*$`), `braces only around the placeholders ${listed2}`);
}
function mailWordsShape(kind) {
  return z8.object({
    /** Which email these are the words of; the file is named after it. */
    kind: kind ? z8.literal(kind) : z8.enum(wordKinds),
    /** The subject line, e.g. "Please confirm your email to {school}". */
    subject: wordText(kind, 5, WORD_LIMITS.subject),
    /** The line inboxes show after the subject (not shown in the email itself). */
    preview: wordText(kind, 5, WORD_LIMITS.preview),
    /** The heading at the top of the email. */
    heading: wordText(kind, 3, WORD_LIMITS.heading),
    /** The paragraphs, in order. Plain text. */
    paragraphs: z8.array(wordText(kind, 1, WORD_LIMITS.paragraph)).min(1).max(8),
    /** The button's words, for the emails that have one (the link itself comes from the site). */
    action: wordText(kind, 2, WORD_LIMITS.action).optional()
  });
}
var mailWordsSchema = mailWordsShape().superRefine((words, context) => {
  const { placeholders: placeholders2, required } = wordPlaceholders[words.kind];
  const texts = [
    [["subject"], words.subject],
    [["preview"], words.preview],
    [["heading"], words.heading],
    ...words.paragraphs.map((text3, index) => [["paragraphs", String(index)], text3]),
    ...words.action ? [[["action"], words.action]] : []
  ];
  const used = /* @__PURE__ */ new Set();
  for (const [path, text3] of texts) {
    for (const name of placeholdersIn(text3)) {
      used.add(name);
      if (!(name in placeholders2)) context.addIssue({ code: "custom", path, message: `{${name}} is not a placeholder of this email; it has ${Object.keys(placeholders2).map((known) => `{${known}}`).join(", ") || "none"}` });
    }
    if (/[{}]/.test(text3.replace(PLACEHOLDER, ""))) context.addIssue({ code: "custom", path, message: "braces only around a placeholder, as {school}" });
    const forbidden = forbiddenContent(text3.replace(PLACEHOLDER, "x"));
    if (forbidden) context.addIssue({ code: "custom", path, message: `must not contain ${forbidden === "link" ? "a link" : forbidden === "email" ? "an email address" : "markup"}: the email adds its own links` });
  }
  for (const name of required) if (!used.has(name)) context.addIssue({ code: "custom", path: ["paragraphs"], message: `must use {${name}} (${placeholders2[name]})` });
});
function fillWords(words, values) {
  const fill = (text3) => text3.replace(PLACEHOLDER, (whole, name) => values[name] ?? whole);
  return { ...words, subject: fill(words.subject), preview: fill(words.preview), heading: fill(words.heading), paragraphs: words.paragraphs.map(fill), ...words.action ? { action: fill(words.action) } : {} };
}

// src/server/mail/compose.ts
var EMAILS_DIR = "content/emails";
var cache2;
async function readWords(dir) {
  const files = (await readdir2(dir)).filter((name) => name.endsWith(".yaml"));
  const words = /* @__PURE__ */ new Map();
  for (const name of files) {
    const parsed = mailWordsSchema.safeParse(yaml3.load(await readFile2(join3(dir, name), "utf8")));
    if (!parsed.success) throw new Error(`${EMAILS_DIR}/${name}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
    if (`${parsed.data.kind}.yaml` !== name) throw new Error(`${EMAILS_DIR}/${name}: kind "${parsed.data.kind}" belongs in ${parsed.data.kind}.yaml`);
    words.set(parsed.data.kind, parsed.data);
  }
  const missing = wordKinds.filter((kind) => !words.has(kind));
  if (missing.length) throw new Error(`${EMAILS_DIR} has no words for ${missing.join(", ")}`);
  return words;
}
function allWords() {
  const dir = serverEnv.emailsDir ?? join3(process.cwd(), EMAILS_DIR);
  if (cache2?.dir !== dir) {
    const loaded = readWords(dir);
    cache2 = { dir, words: loaded };
    loaded.catch(() => {
      if (cache2?.words === loaded) cache2 = void 0;
    });
  }
  return cache2.words;
}
function organisationSender(name = site.name) {
  return { name, address: serverEnv.mailFromAddress ?? site.email };
}
async function rendered(subject, element, text3) {
  const { render } = await import("@react-email/render");
  return { subject, html: await render(element), text: `${text3.trim()}
` };
}
var textFooter = (reason, links = []) => ["--", reason, ...links.map((link) => `${link.label}: ${link.url}`), site.name].join("\n");
async function composeEmail(kind, values, parts) {
  const words = fillWords((await allWords()).get(kind), values);
  const action = parts.actionUrl && words.action ? [`${words.action}:
${parts.actionUrl}`] : [];
  const text3 = [words.heading, ...words.paragraphs, ...action, textFooter(parts.reason, parts.footerLinks)].join("\n\n");
  return rendered(words.subject, createElement(ActionEmail, { organisation: site.name, words, actionUrl: parts.actionUrl, reason: parts.reason, footerLinks: parts.footerLinks }), text3);
}
async function composeLetter(letter) {
  const first = letter.parentName.trim().split(/\s+/)[0] || "the parent";
  const footer = `Sent for ${letter.parentName.trim() || "a parent"} by ${site.name}. Replies go to ${first}.`;
  return rendered(letter.subject, createElement(LetterEmail, { body: letter.body, footer }), `${letter.body.trim()}

${footer}`);
}

// src/server/ids.ts
function recordKey(date = /* @__PURE__ */ new Date()) {
  const inverted = (9999999999999 - date.getTime()).toString().padStart(13, "0");
  return `${inverted}-${crypto.randomUUID()}`;
}

// src/server/mail/queue.ts
var MAX_MAIL_ATTEMPTS = 8;
var LEASE_MS = 2 * 6e4;
var RETRY_BASE_MS = 6e4;
var RETRY_MAX_MS = 6 * 36e5;
var EMAIL_RETENTION_MS = 90 * 24 * 36e5;
var toEmail = (row) => ({
  id: row.id,
  kind: row.kind,
  recipient: row.recipient,
  recipientKey: row.recipient_key,
  state: row.state,
  essential: row.essential,
  notBefore: row.not_before.toISOString(),
  nextAttemptAt: row.next_attempt_at.toISOString(),
  attempts: row.attempts,
  ref: row.ref,
  digestId: row.digest_id,
  content: row.content,
  sender: row.sender,
  providerStatus: row.provider_status,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  sentAt: row.sent_at?.toISOString() ?? null
});
var columns = sql`id, kind, recipient, recipient_key, state, essential, not_before, next_attempt_at, attempts, ref, digest_id, content, sender, provider_status, last_error, created_at, updated_at, sent_at`;
var day = (now) => now.toISOString().slice(0, 10);
function newEmailId(now = /* @__PURE__ */ new Date()) {
  return recordKey(now);
}
async function enqueueEmail(input, now = /* @__PURE__ */ new Date()) {
  const id = input.id ?? newEmailId(now);
  const rules = kindRules[input.kind];
  const key2 = mailboxKey(input.to);
  const purpose = rules.purpose ?? null;
  const network = input.network ?? "system";
  const notBefore = input.notBefore && input.notBefore > now ? input.notBefore : now;
  try {
    const row = await queryOne(sql`
      WITH existing AS (
        SELECT 1 FROM emails WHERE id = ${id}
      ), suppressed AS (
        SELECT 1 FROM email_suppressions WHERE recipient_key = ${key2} AND (reason = 'bounced' OR NOT ${rules.essential}::boolean)
      ), budget AS (
        INSERT INTO email_budgets AS b (recipient_key, purpose, network, day, emails, cap)
        SELECT ${key2}, ${purpose}::text, ${network}, ${day(now)}, 1, ${serverEnv.mailDailyPerPurpose}
        WHERE ${purpose}::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM existing) AND NOT EXISTS (SELECT 1 FROM suppressed)
        ON CONFLICT (recipient_key, purpose, network, day) DO UPDATE SET emails = b.emails + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO emails (id, kind, recipient, recipient_key, essential, state, not_before, next_attempt_at, ref, content, created_at, updated_at)
      SELECT ${id}, ${input.kind}, ${input.to.trim()}, ${key2}, ${rules.essential}, CASE WHEN EXISTS (SELECT 1 FROM suppressed) THEN 'suppressed' ELSE 'scheduled' END,
             ${notBefore}, ${notBefore}, ${input.ref ?? null}, ${input.content}, ${now}, ${now}
      WHERE NOT EXISTS (SELECT 1 FROM existing) AND (${purpose}::text IS NULL OR EXISTS (SELECT 1 FROM budget) OR EXISTS (SELECT 1 FROM suppressed))
      RETURNING state`);
    return row ? { id, state: row.state } : { id, state: "exists" };
  } catch (error) {
    if (isCheckViolation(error, "email_budgets_within_cap")) return { id, state: "over_budget" };
    throw error;
  }
}
async function claimEmail(id, now = /* @__PURE__ */ new Date()) {
  const row = await queryOne(sql`
    UPDATE emails SET state = 'sending', attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}, updated_at = ${now}
    WHERE id = ${id} AND erased_at IS NULL
      AND ((state = 'scheduled' AND next_attempt_at <= ${now}) OR (state = 'sending' AND lease_until <= ${now}))
      AND NOT EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND (s.reason = 'bounced' OR NOT emails.essential))
    RETURNING ${columns}`);
  if (row) return toEmail(row);
  await query(sql`
    UPDATE emails SET state = 'suppressed', lease_until = NULL, updated_at = ${now}
    WHERE id = ${id} AND state IN ('scheduled', 'sending')
      AND EXISTS (SELECT 1 FROM email_suppressions s WHERE s.recipient_key = emails.recipient_key AND (s.reason = 'bounced' OR NOT emails.essential))`);
  return void 0;
}
var retryAt = (now, attempts) => new Date(now.getTime() + Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS));
var masked = (address) => {
  const at = address.lastIndexOf("@");
  return at <= 0 ? "\u2022\u2022\u2022" : `${address.slice(0, 1)}\u2022\u2022\u2022${address.slice(at)}`;
};
var maskedSql = sql`coalesce(left(recipient, 1) || '•••' || substr(recipient, strpos(recipient, '@')), '•••')`;
async function recordSendResult(email2, sender, result, now = /* @__PURE__ */ new Date()) {
  const status = result.providerStatus.slice(0, 100);
  const detail = result.detail.slice(0, 200);
  if (result.outcome === "sent" || result.outcome === "queued") {
    await query(sql`
      UPDATE emails SET state = 'sent', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = NULL, updated_at = ${now}
      WHERE id = ${email2.id} AND state = 'sending'`);
    return "sent";
  }
  if (result.outcome === "bounced") {
    await query(sql`
      WITH bounced AS (
        UPDATE emails SET state = 'bounced', sent_at = ${now}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail}, updated_at = ${now}
        WHERE id = ${email2.id} AND state = 'sending' RETURNING recipient_key
      )
      INSERT INTO email_suppressions (recipient_key, reason, masked, email_id, detail, created_at)
      SELECT recipient_key, 'bounced', ${masked(email2.recipient ?? "")}, ${email2.id}, ${detail}, ${now} FROM bounced
      ON CONFLICT (recipient_key) DO UPDATE SET reason = 'bounced', email_id = EXCLUDED.email_id, detail = EXCLUDED.detail`);
    return "bounced";
  }
  const again = result.outcome === "retry" && email2.attempts < MAX_MAIL_ATTEMPTS;
  const state = again ? "scheduled" : "failed";
  await query(sql`
    UPDATE emails SET state = ${state}, lease_until = NULL, sender = ${sender}, provider_status = ${status}, last_error = ${detail},
      next_attempt_at = ${again ? retryAt(now, email2.attempts) : now}, updated_at = ${now}
    WHERE id = ${email2.id} AND state = 'sending'`);
  return state;
}
function outgoing(email2) {
  const content2 = email2.content;
  return {
    id: email2.id,
    to: email2.recipient,
    from: content2.from,
    ...content2.replyTo ? { replyTo: content2.replyTo } : {},
    subject: content2.subject,
    text: content2.text,
    ...content2.html ? { html: content2.html } : {},
    ...content2.unsubscribeUrl ? { unsubscribeUrl: content2.unsubscribeUrl } : {},
    ...content2.lang ? { lang: content2.lang } : {}
  };
}
async function deliverEmail(id, sender, now = () => /* @__PURE__ */ new Date()) {
  const email2 = await claimEmail(id, now());
  if (!email2) return void 0;
  const result = await sender.send(outgoing(email2));
  const state = await recordSendResult(email2, sender.kind, result, now());
  return { email: email2, state, result };
}

// src/server/mail/window.ts
var OPENS_AT = 8;
var CLOSES_AT = 16;
var formatters = /* @__PURE__ */ new Map();
function formatter(zone) {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short" });
    formatters.set(zone, found);
  }
  return found;
}
var WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
function isTimeZone(zone) {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}
function localTime(at, zone) {
  const parts = Object.fromEntries(formatter(zone).formatToParts(at).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? "")
  };
}
function zonedInstant(local, zone) {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = localTime(new Date(guess), zone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    guess += asUtc - seenUtc;
  }
  return new Date(guess);
}
var isWeekday = (local) => local.weekday >= 1 && local.weekday <= 5;
function isOpen(at, zone) {
  const local = localTime(at, zone);
  return isWeekday(local) && local.hour >= OPENS_AT && local.hour < CLOSES_AT;
}
function nextOpening(at, zone) {
  if (isOpen(at, zone)) return at;
  let local = localTime(at, zone);
  let day3 = { year: local.year, month: local.month, day: local.day };
  if (!(isWeekday(local) && local.hour < OPENS_AT)) day3 = nextDay(day3);
  for (let i = 0; i < 7; i++) {
    const opening = zonedInstant({ ...day3, hour: OPENS_AT, minute: 0 }, zone);
    local = localTime(opening, zone);
    if (isWeekday(local)) return opening;
    day3 = nextDay(day3);
  }
  throw new Error(`no opening found in ${zone}`);
}
function nextDay(day3) {
  const next = new Date(Date.UTC(day3.year, day3.month - 1, day3.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}
function openHours(at, zone, count4) {
  const hours = [];
  let cursor = nextOpening(at, zone);
  while (hours.length < count4) {
    const local = localTime(cursor, zone);
    const start = zonedInstant({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: 0 }, zone);
    hours.push(start);
    const following = new Date(start.getTime() + 36e5);
    cursor = nextOpening(following, zone);
  }
  return hours;
}
function describeDelivery(at, zone, now = /* @__PURE__ */ new Date()) {
  const local = localTime(at, zone);
  const today = localTime(now, zone);
  const time = `${local.hour}:${String(local.minute).padStart(2, "0")}`;
  const sameDay = (a, b) => a.year === b.year && a.month === b.month && a.day === b.day;
  if (sameDay(local, today)) return `${time} today`;
  if (sameDay(local, nextDay(today))) return `${time} tomorrow`;
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "long" }).format(at);
  const daysAhead = (at.getTime() - now.getTime()) / (24 * 36e5);
  if (daysAhead < 6) return `${time} on ${name}`;
  const date = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "long", day: "numeric" }).format(at);
  return `${time} on ${name}, ${date}`;
}

// src/server/mail/schedule.ts
var HOURS_AHEAD = 240;
async function letterTime(school2, timeZone, now = /* @__PURE__ */ new Date()) {
  const zone = timeZone ?? serverEnv.schoolTimeZone;
  if (serverEnv.schoolDeliveryHours === "off") return { at: now, timeZone: zone };
  if (serverEnv.schoolDelivery === "digest") return { at: nextOpening(now, zone), timeZone: zone };
  const cap = serverEnv.schoolHourlyLimit;
  const spacing = 36e5 / cap;
  for (const hour of openHours(now, zone, HOURS_AHEAD)) {
    let taken;
    try {
      taken = await queryOne(sql`
        INSERT INTO school_delivery_hours AS h (school, hour, letters, cap) VALUES (${school2}, ${hour}, 1, ${cap})
        ON CONFLICT (school, hour) DO UPDATE SET letters = h.letters + 1, cap = EXCLUDED.cap
        RETURNING letters`);
    } catch (error) {
      if (isCheckViolation(error, "school_delivery_hours_within_cap")) continue;
      throw error;
    }
    const slot = hour.getTime() + (taken.letters - 1) * spacing + Math.floor(Math.random() * Math.min(spacing / 2, 5 * 6e4));
    return { at: new Date(Math.max(slot, now.getTime())), timeZone: zone };
  }
  return { at: nextOpening(new Date(now.getTime() + HOURS_AHEAD * 3 * 36e5), zone), timeZone: zone };
}
function whenLetterGoes(time, now = /* @__PURE__ */ new Date()) {
  const at = new Date(time.at);
  if (at.getTime() <= now.getTime() + 6e4) return "now";
  return describeDelivery(at, time.timeZone ?? serverEnv.schoolTimeZone, now);
}

// src/server/mail/senders.ts
import { encodeWord } from "nodemailer/lib/mime-funcs";
import { z as z9 } from "zod";
var mailbox = z9.object({ name: z9.string().max(200).optional(), address: z9.email().max(254) });
var outgoingEmailSchema = z9.object({
  /** The email's id: the Message-ID's local part and HubSpot's sendId. */
  id: z9.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  to: z9.email().max(254),
  from: mailbox,
  replyTo: mailbox.optional(),
  subject: z9.string().min(1).max(500),
  text: z9.string().min(1).max(2e5),
  html: z9.string().max(4e5).optional(),
  /** The https address of the one-click unsubscribe (RFC 8058), for every email that is not one-to-one. */
  unsubscribeUrl: z9.url({ protocol: /^https?$/ }).optional(),
  lang: z9.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/).optional()
});
function oneLine(text3) {
  return text3.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}
var displayName = (text3) => oneLine(text3.replace(/["\\<>]/g, " ")).slice(0, 120).trim();
function fromName(parentName, organisation = site.name) {
  const parent2 = displayName(parentName).slice(0, 100).trim();
  return parent2 ? `${parent2} via ${displayName(organisation)}` : displayName(organisation);
}
function fromHeader(box) {
  const name = displayName(box.name ?? "");
  if (!name) return box.address;
  const encoded = /^[\x20-\x7e]*$/.test(name) ? `"${name}"` : encodeWord(name, "Q", 52);
  return `${encoded} <${box.address}>`;
}
function checkedSender(kind, deliver) {
  return {
    kind,
    async send(input) {
      const parsed = outgoingEmailSchema.safeParse(input);
      if (parsed.success) return deliver(parsed.data);
      const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "email").join(", ");
      return { outcome: "rejected", providerStatus: "invalid_message", detail: `Not sent: ${fields} not valid` };
    }
  };
}
function withTimeout(operation, ms) {
  let timer;
  return Promise.race([
    operation,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { timedOut: true })), ms);
    })
  ]).finally(() => clearTimeout(timer));
}
var HUBSPOT_TRANSIENT = /* @__PURE__ */ new Set(["THROTTLED", "PORTAL_OVER_LIMIT"]);
var HUBSPOT_BOUNCED = /* @__PURE__ */ new Set(["INVALID_TO_ADDRESS", "BLOCKED_DOMAIN", "PREVIOUSLY_BOUNCED", "BLOCKED_ADDRESS"]);
function hubspotOutcome(answer) {
  const result = answer.sendResult;
  if (result === "SENT") return { outcome: "sent", providerStatus: result, detail: "Sent by HubSpot" };
  if (result === "QUEUED") return { outcome: "queued", providerStatus: result, detail: "Queued by HubSpot" };
  if (result === "IDEMPOTENT_IGNORE") return { outcome: "sent", providerStatus: result, detail: "Already sent under this sendId" };
  if (result && HUBSPOT_TRANSIENT.has(result)) return { outcome: "retry", providerStatus: result, detail: `HubSpot: ${result}` };
  if (result && HUBSPOT_BOUNCED.has(result)) return { outcome: "bounced", providerStatus: result, detail: `HubSpot refused the address: ${result}` };
  if (result) return { outcome: "rejected", providerStatus: result, detail: `HubSpot refused it: ${result}` };
  if (answer.status === "CANCELED") return { outcome: "rejected", providerStatus: "CANCELED", detail: "HubSpot canceled the send" };
  return { outcome: "queued", providerStatus: answer.status ?? "PENDING", detail: "Accepted by HubSpot" };
}
function hubspotFailure(error) {
  if (error?.timedOut) return { outcome: "retry", providerStatus: "timeout", detail: "HubSpot answered too slowly" };
  const status = statusOf(error);
  if (status === void 0) return { outcome: "retry", providerStatus: "unreachable", detail: "HubSpot could not be reached" };
  const final = status === 400 || status === 422;
  return { outcome: final ? "rejected" : "retry", providerStatus: `http_${status}`, detail: `HubSpot answered ${status}` };
}
function hubspotSender(config2) {
  return checkedSender("hubspot", async (email2) => {
    try {
      const client = hubspotClient(config2.accessToken);
      const answer = await withTimeout(
        withRetry(
          () => client.marketing.transactional.singleSendApi.sendEmail({
            emailId: config2.emailId,
            message: { to: email2.to, _from: fromHeader(email2.from), ...email2.replyTo ? { replyTo: [email2.replyTo.address] } : {}, sendId: email2.id },
            // Only on this email: not stored on any contact, so nothing can change them later.
            customProperties: { subject: oneLine(email2.subject), body: email2.text, body_html: email2.html ?? "", from_name: displayName(email2.from.name ?? "") }
          })
        ),
        config2.timeoutMs ?? serverEnv.sendEmailBudgetMs
      );
      return hubspotOutcome({ status: answer.status, sendResult: answer.sendResult });
    } catch (error) {
      return hubspotFailure(error);
    }
  });
}
var SMTP_BOUNCE_CODES = /* @__PURE__ */ new Set([550, 551, 553, 554]);
function smtpFailure(error) {
  const failure = error;
  if (failure?.timedOut) return { outcome: "retry", providerStatus: "timeout", detail: "The mail server answered too slowly" };
  if (failure?.code === "EAUTH") return { outcome: "retry", providerStatus: "EAUTH", detail: `The mail server refused the credentials${failure.responseCode ? ` (${failure.responseCode})` : ""}` };
  const reply = failure?.responseCode;
  if (typeof reply === "number") {
    if (reply >= 500) {
      const mailbox2 = SMTP_BOUNCE_CODES.has(reply) || /\b5\.1\.\d\b/.test(failure.response ?? "");
      return mailbox2 ? { outcome: "bounced", providerStatus: String(reply), detail: `The mail server refused the address (${reply})` } : { outcome: "rejected", providerStatus: String(reply), detail: `The mail server refused it (${reply})` };
    }
    return { outcome: "retry", providerStatus: String(reply), detail: `The mail server deferred it (${reply})` };
  }
  return { outcome: "retry", providerStatus: failure?.code ?? "unreachable", detail: "The mail server could not be reached" };
}
function nodemailerMessage(email2) {
  const domain = email2.from.address.split("@")[1] ?? "localhost";
  return {
    from: { name: displayName(email2.from.name ?? ""), address: email2.from.address },
    to: email2.to,
    ...email2.replyTo ? { replyTo: { name: displayName(email2.replyTo.name ?? ""), address: email2.replyTo.address } } : {},
    subject: oneLine(email2.subject),
    text: email2.text,
    ...email2.html ? { html: email2.html } : {},
    // The same email keeps the same id on every try, so the receiving side can tell a repeat.
    messageId: `<${email2.id}@${domain}>`,
    ...email2.unsubscribeUrl ? { list: { unsubscribe: email2.unsubscribeUrl }, headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {},
    disableFileAccess: true,
    disableUrlAccess: true
  };
}
function smtpSender(config2) {
  return checkedSender("smtp", async (email2) => {
    const timeoutMs = config2.timeoutMs ?? serverEnv.sendEmailBudgetMs;
    const connection = "url" in config2.smtp ? { url: config2.smtp.url } : { host: config2.smtp.host, port: config2.smtp.port, secure: config2.smtp.secure, ...config2.smtp.user ? { auth: { user: config2.smtp.user, pass: config2.smtp.pass ?? "" } } : {} };
    const { createTransport } = await import("nodemailer");
    const transport = createTransport({ ...connection, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, ...config2.dkim ? { dkim: config2.dkim } : {} });
    try {
      const info = await withTimeout(transport.sendMail(nodemailerMessage(email2)), timeoutMs);
      const reply = /^\d{3}/.exec(info.response ?? "")?.[0] ?? "accepted";
      if (info.rejected.length > 0) return { outcome: "bounced", providerStatus: reply, detail: "The mail server refused the recipient" };
      return { outcome: "sent", providerStatus: reply, detail: "Accepted by the mail server" };
    } catch (error) {
      return smtpFailure(error);
    } finally {
      transport.close();
    }
  });
}
function mailSender() {
  if (!serverEnv.mailFromAddress) return null;
  const wanted = serverEnv.mailSender;
  const accessToken = serverEnv.hubspotAccessToken;
  const emailId = serverEnv.hubspotTransactionalEmailId;
  const smtp = serverEnv.smtp;
  const hubspot2 = accessToken && emailId !== void 0 ? hubspotSender({ accessToken, emailId }) : null;
  const mail = smtp ? smtpSender({ smtp, dkim: serverEnv.dkim }) : null;
  if (wanted === "hubspot") return hubspot2;
  if (wanted === "smtp") return mail;
  return hubspot2 ?? mail;
}

// src/server/crypto.ts
import { createCipheriv, createDecipheriv, createHash as createHash3, randomBytes as randomBytes2 } from "node:crypto";
var VERSION = "v1";
function key() {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) {
    throw new HttpError(
      503,
      "encryption_not_configured",
      "Stored secrets cannot be encrypted: CONFIG_ENCRYPTION_KEY is not configured on this site."
    );
  }
  const decoded = Buffer.from(configured, "base64");
  return decoded.length === 32 ? decoded : createHash3("sha256").update(configured).digest();
}
function encryptSecret(plain2) {
  const iv = randomBytes2(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body2 = Buffer.concat([cipher.update(plain2, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), body2.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(":");
}

// src/server/links.ts
var DAY2 = 24 * 36e5;
var DATA_LINK_TTL_MS = 7 * DAY2;
var EMAILED_DATA_LINK_TTL_MS = 30 * DAY2;
var DELETE_STEP_TTL_MS = 30 * 6e4;
var STOP_LINK_TTL_MS = 365 * DAY2;
var FIX_ADDRESS_TTL_MS = 14 * DAY2;
var plainAddress = (email2) => email2.normalize("NFKC").trim().toLowerCase();
function dataToken(email2, options = {}) {
  const now = options.now ?? /* @__PURE__ */ new Date();
  return signToken({ purpose: options.purpose ?? "your-data", id: encryptSecret(plainAddress(email2)), exp: now.getTime() + (options.ttlMs ?? DATA_LINK_TTL_MS) });
}
function dataPath(email2, options = {}) {
  return `/your-data?token=${dataToken(email2, options)}`;
}
function dataLink(email2, options = {}) {
  return `${serverEnv.siteOrigin}${dataPath(email2, { ttlMs: EMAILED_DATA_LINK_TTL_MS, ...options })}`;
}
function confirmationLink(message) {
  if (!message.confirmation) return void 0;
  const token = signToken({ purpose: "confirm-send", id: message.id, exp: Date.parse(message.confirmation.expiresAt) });
  return `${serverEnv.siteOrigin}/confirm-send?token=${token}`;
}
function stopLink(email2, now = /* @__PURE__ */ new Date()) {
  const token = signToken({ purpose: "school-updates-stop", id: parentKey(email2), exp: now.getTime() + STOP_LINK_TTL_MS });
  return `${serverEnv.siteOrigin}/school-updates/stop?token=${token}`;
}
function fixAddressLink(messageId, now = /* @__PURE__ */ new Date()) {
  return `${serverEnv.siteOrigin}/letter-address?token=${signToken({ purpose: "fix-address", id: messageId, exp: now.getTime() + FIX_ADDRESS_TTL_MS })}`;
}
var sitePage = (path) => `${serverEnv.siteOrigin}${path}`;

// src/server/notify.ts
var until = (ms) => dayInWords(new Date(ms));
var content = (rendered2, extra = {}) => ({
  subject: rendered2.subject,
  text: rendered2.text,
  html: rendered2.html,
  from: organisationSender(),
  lang: "en",
  ...extra
});
var handOver = (enqueued) => enqueued.state === "over_budget" ? "limit" : enqueued.state === "suppressed" ? "suppressed" : "queued";
async function sendSoon(id) {
  const sender = mailSender();
  if (!sender) return;
  try {
    await deliverEmail(id, sender);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) console.error("[mail] immediate send of", id, "failed:", error instanceof Error ? error.message : "unknown error");
  }
}
async function write(kind, to, rendered2, options) {
  const enqueued = await enqueueEmail(
    {
      ...options.id ? { id: options.id } : {},
      kind,
      to,
      content: content(rendered2, options.unsubscribeUrl ? { unsubscribeUrl: options.unsubscribeUrl } : {}),
      ...options.ref ? { ref: options.ref } : {},
      ...options.network ? { network: options.network } : {}
    },
    options.now
  );
  if (options.soon && enqueued.state === "scheduled") await sendSoon(enqueued.id);
  return enqueued;
}
var yourDataLink = (email2, now) => ({ label: "Your data (see, download or delete it)", url: dataLink(email2, { now, ttlMs: EMAILED_DATA_LINK_TTL_MS }) });
async function emailConfirmation(message, kind = "confirmation", now = /* @__PURE__ */ new Date()) {
  const link = confirmationLink(message);
  const rendered2 = await composeEmail(
    kind,
    { parent: message.parentName, school: message.schoolName || "your school", contact: message.toName || message.to, expires: until(Date.parse(message.confirmation.expiresAt)) },
    {
      actionUrl: link,
      reason: `Someone asked ${site.name} to send a letter to a school in the name of this address. Nothing is sent unless you confirm.`,
      footerLinks: [yourDataLink(message.parentEmail, now)]
    }
  );
  return handOver(await write(kind, message.parentEmail, rendered2, { ref: message.id, network: message.confirmation?.network, now, soon: kind === "confirmation" }));
}
async function emailRefusal(message, reason, now = /* @__PURE__ */ new Date()) {
  const rendered2 = await composeEmail("refusal", { parent: message.parentName, school: message.schoolName || "your school", reason }, {
    actionUrl: confirmationLink(message),
    reason: `You asked ${site.name} to send a letter to a school in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now)]
  });
  return handOver(await write("refusal", message.parentEmail, rendered2, { ref: message.id, network: message.confirmation?.network, now, soon: true }));
}
async function emailDeliveryFailure(message, now = /* @__PURE__ */ new Date()) {
  const rendered2 = await composeEmail("delivery_failure", { parent: message.parentName, school: message.schoolName || "your school", contact: message.toName || message.to, address: message.to }, {
    actionUrl: fixAddressLink(message.id, now),
    reason: `You asked ${site.name} to send a letter to ${message.schoolName || "your school"} in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now)]
  });
  return handOver(await write("delivery_failure", message.parentEmail, rendered2, { ref: message.id, now }));
}
async function emailDigestNotice(message, count4, pageUrl, now = /* @__PURE__ */ new Date()) {
  const stop = stopLink(message.parentEmail, now);
  const rendered2 = await composeEmail("digest_notice", { parent: message.parentName, school: message.schoolName || "your school", contact: message.toName || message.to, count: String(count4) }, {
    actionUrl: pageUrl ?? sitePage("/lead-the-change"),
    reason: `You asked ${site.name} to send a letter to ${message.schoolName || "your school"} in your name.`,
    footerLinks: [yourDataLink(message.parentEmail, now), { label: "Stop emails about your letter", url: stop }]
  });
  return handOver(await write("digest_notice", message.parentEmail, rendered2, { ref: message.id, unsubscribeUrl: stop, now }));
}

// src/lib/schemas/admin.ts
import { z as z10 } from "zod";
var iso = z10.string().min(1);
var count3 = z10.number().int().nonnegative();
var deliveryStates = ["pending", "sending", "delivered", "failed", "held"];
var deliverySchema = z10.object({
  state: z10.enum(deliveryStates),
  attempts: count3,
  nextAttemptAt: iso,
  /** While `sending`: until when the claim holds. */
  leaseUntil: iso.optional(),
  /** An attempt ended without HubSpot's answer; it may have been recorded there. */
  uncertain: z10.boolean().optional(),
  /** A short code of the last failure (e.g. `hubspot_503`, `INVALID_EMAIL`); never a body or a token. */
  lastError: z10.string().optional(),
  /** Why a held submission was judged automated (e.g. `honeypot`, `too_fast`). */
  heldReason: z10.string().optional(),
  deliveredAt: iso.optional(),
  failedAt: iso.optional()
});
var submissionViewSchema = z10.object({
  id: z10.string(),
  purpose: z10.string(),
  createdAt: iso,
  pageUri: z10.string(),
  fields: z10.array(z10.object({ name: z10.string(), label: z10.string(), value: z10.string() })),
  consent: z10.object({
    toProcess: z10.boolean(),
    communications: z10.array(z10.object({ subscriptionTypeId: z10.number(), value: z10.boolean(), text: z10.string() }))
  }).optional(),
  delivery: deliverySchema,
  deleteAfter: iso.optional()
});
var submissionsPageSchema = z10.object({
  form: z10.string(),
  forms: z10.array(z10.object({ purpose: z10.string(), title: z10.string(), count: count3 })),
  submissions: z10.array(submissionViewSchema),
  total: count3,
  nextCursor: z10.string().optional()
});
var messageStatuses = ["awaiting_confirmation", "queued", "sent", "failed", "replaced", "bounced"];
var schoolAnswerSchema = z10.object({
  messageId: z10.string(),
  kind: z10.enum(answerKinds),
  comment: z10.string(),
  /** How many days the school's reply took, as the parent said it (replies only). */
  daysTaken: z10.number().int().min(0).optional(),
  answeredAt: iso,
  updatedAt: iso,
  /** Whether HubSpot has the answer on the contact. */
  contact: z10.enum(["pending", "delivered", "not_configured"])
});
var outboxViewSchema = z10.looseObject({
  id: z10.string(),
  channel: z10.enum(["platform", "self"]),
  status: z10.enum(messageStatuses),
  createdAt: iso,
  parentName: z10.string(),
  parentEmail: z10.string(),
  schoolName: z10.string(),
  to: z10.string(),
  toName: z10.string(),
  subject: z10.string(),
  body: z10.string(),
  sentAt: iso.optional(),
  attempts: count3,
  lastError: z10.string().optional(),
  confirmation: z10.object({ confirmedAt: iso.optional(), refusal: z10.string().optional() }).optional(),
  delivery: z10.object({ at: iso, timeZone: z10.string(), state: z10.string().optional(), detail: z10.string().optional() }).optional(),
  followUp: z10.object({ dueAt: iso }).optional(),
  review: z10.enum(["pending", "approved", "rejected"]).optional(),
  /** What became of each email about it (the mail layer's states; never a link). */
  emails: z10.array(z10.object({ id: z10.string(), kind: z10.string(), state: z10.string(), notBefore: iso, sentAt: iso.nullable(), lastError: z10.string().nullable() })).default([]),
  answer: schoolAnswerSchema.optional()
});
var outboxPageSchema = z10.object({ messages: z10.array(outboxViewSchema), mailConfigured: z10.boolean().default(true), nextCursor: z10.string().optional() });
var contactDeletionSchema = z10.object({
  id: z10.string(),
  masked: z10.string(),
  state: z10.enum(["pending", "done"]),
  attempts: count3,
  lastError: z10.string().optional(),
  createdAt: iso,
  nextAttemptAt: iso,
  doneAt: iso.optional()
});
var deletionsSchema = z10.object({ deletions: z10.array(contactDeletionSchema) });
var schoolImpactRowSchema = z10.object({
  school: z10.string(),
  emailsSent: count3,
  answers: z10.record(z10.enum(answerKinds), count3),
  /** Share of the emails whose parent says the school answered (any reply, or a meeting). */
  responseRate: z10.number().min(0).max(1),
  /** The median of the days the school's replies took, as parents said them (none said: null). */
  medianDaysToReply: z10.number().nullable(),
  latestComment: z10.string(),
  latestCommentAt: z10.string()
});
var impactRowsSchema = z10.object({ rows: z10.array(schoolImpactRowSchema) });
var campaignSchoolSchema = z10.object({ key: z10.string(), schoolName: z10.string(), parents: count3, updatedAt: iso });
var campaignSchoolsPageSchema = z10.object({ schools: z10.array(campaignSchoolSchema), nextCursor: z10.string().optional() });
var cameValues = ["direct", "parent", "ambassador"];
var updateStates = ["pending", "sent", "capped", "limit", "stopped", "gone", "failed"];
var campaignParentSchema = z10.object({
  messageId: z10.string(),
  /** The parent's address masked (s•••@example.org); empty once the message is purged or erased. */
  parent: z10.string(),
  channel: z10.enum(["platform", "self"]),
  sentAt: iso,
  came: z10.enum(cameValues),
  /** The parent whose share brought them (masked), and the ambassador's id, when there is one. */
  referrer: z10.string().optional(),
  ambassadorId: z10.string().optional(),
  letterId: z10.string().optional(),
  answer: z10.enum(answerKinds).optional(),
  updatesSent: count3
});
var campaignSchema = z10.object({
  school: z10.object({ key: z10.string(), schoolName: z10.string(), contactAddress: z10.string(), parents: count3, emails: count3 }),
  parents: z10.array(campaignParentSchema),
  nextCursor: z10.string().optional(),
  came: z10.record(z10.enum(cameValues), count3),
  letters: z10.array(z10.object({ letterId: z10.string(), emails: count3 })),
  answers: z10.array(z10.object({ day: z10.string(), kind: z10.enum(answerKinds), count: count3 })),
  updates: z10.partialRecord(z10.enum(updateStates), count3)
});
var reviewStates = ["pending", "approved", "rejected"];
var reviewItemSchema = z10.object({
  id: z10.string(),
  messageId: z10.string(),
  /** `self_report`: "I've sent it myself"; `replied`, `meeting`: an outcome reported on such a letter. */
  claim: z10.enum(["self_report", "replied", "meeting"]),
  reason: z10.enum(["self_report", "outcome_on_self_report", "own_domain"]),
  state: z10.enum(reviewStates),
  createdAt: iso,
  decidedAt: iso.optional(),
  decidedBy: z10.string().optional(),
  letter: z10.object({
    channel: z10.enum(["platform", "self"]),
    schoolName: z10.string(),
    contact: z10.string(),
    contactName: z10.string(),
    parentFirstName: z10.string(),
    parentDomain: z10.string(),
    sentAt: iso.nullable(),
    subject: z10.string()
  }),
  /** The school page the letter counts for; its name is null until it is published. */
  page: z10.object({ key: z10.string(), published: z10.boolean(), schoolName: z10.string().nullable() }).nullable(),
  answer: z10.object({ kind: z10.enum(answerKinds), comment: z10.string(), at: iso }).nullable()
});
var reviewPageSchema = z10.object({ items: z10.array(reviewItemSchema), nextCursor: z10.string().optional() });
var reviewDecisionSchema = z10.object({ item: reviewItemSchema });
var schoolPageRenamedSchema = z10.object({ key: z10.string(), schoolName: z10.string() });
var mailPreviewSchema = z10.object({ kind: z10.enum(emailKinds), label: z10.string(), to: z10.string(), subject: z10.string(), html: z10.string(), text: z10.string() });
var mailPreviewsSchema = z10.object({ previews: z10.array(mailPreviewSchema) });
var mailEmailSchema = z10.object({
  id: z10.string(),
  kind: z10.enum(emailKinds),
  /** Masked, or "(erased)" once the person took their data back. */
  to: z10.string(),
  state: z10.string(),
  stateLabel: z10.string(),
  notBefore: iso,
  attempts: count3,
  lastError: z10.string().nullable(),
  sentAt: iso.nullable(),
  updatedAt: iso
});
var mailEmailsPageSchema = z10.object({ emails: z10.array(mailEmailSchema), nextCursor: z10.string().optional() });
var suppressionSchema = z10.object({ masked: z10.string(), reason: z10.enum(["bounced", "complained"]), detail: z10.string().nullable(), createdAt: iso });
var suppressionsSchema = z10.object({ suppressions: z10.array(suppressionSchema) });
var webhookLogSchema = z10.object({
  id: z10.string(),
  createdAt: iso,
  updatedAt: iso,
  eventType: z10.string(),
  webhookId: z10.string().nullable(),
  /** received while being handled, then success or error. */
  status: z10.enum(["received", "success", "error"]),
  /** skipped for events that change nothing on the contact. */
  hubspotSyncStatus: z10.enum(["pending", "success", "error", "skipped"]),
  hubspotContactId: z10.string().optional(),
  error: z10.string().optional(),
  attempts: count3,
  /** Calendly's delivery as received (its schema is the receiver's: src/server/calendly-webhook.ts). */
  payload: z10.looseObject({ event: z10.string() })
});
var webhookLogsPageSchema = z10.object({ logs: z10.array(webhookLogSchema), nextCursor: z10.string().nullable() });
var publicWebhookSchema = z10.object({
  id: z10.string(),
  name: z10.string(),
  description: z10.string(),
  calendlyWebhookUrl: z10.string(),
  events: z10.array(z10.string()),
  scope: z10.enum(["organization", "user"]),
  organization: z10.string(),
  user: z10.string(),
  signingKey: z10.string(),
  isActive: z10.boolean(),
  createdAt: iso,
  updatedAt: iso,
  calendlySubscriptionUri: z10.string().nullable(),
  registered: z10.boolean()
});
var webhooksSchema = z10.object({ webhooks: z10.array(publicWebhookSchema), calendlyConfigured: z10.boolean() });
var publicHubSpotConfigSchema = z10.object({
  id: z10.string(),
  name: z10.string(),
  description: z10.string(),
  accessToken: z10.string(),
  refreshToken: z10.string(),
  isActive: z10.boolean(),
  createdAt: iso,
  updatedAt: iso
});
var hubSpotConfigAnswerSchema = z10.object({ config: publicHubSpotConfigSchema.nullable(), environmentTokenConfigured: z10.boolean() });
var staffEmailSchema = z10.string().trim().pipe(z10.email("Enter a valid email address").min(3, "Enter a valid email address").max(254, "Enter a valid email address"));

// src/server/outbox.ts
var CONFIRM_TTL_MS = 3 * 24 * 36e5;
var REMINDER_AFTER_MS = 24 * 36e5;
var MESSAGE_RETENTION_MS = 90 * 24 * 36e5;
var messageMoves = {
  awaiting_confirmation: ["queued", "failed", "replaced"],
  queued: ["sent", "failed", "bounced"],
  sent: ["bounced"],
  failed: ["queued"],
  replaced: [],
  bounced: []
};
function newFollowUp(sentAt) {
  return { dueAt: new Date(sentAt.getTime() + serverEnv.followUpAfterDays * 24 * 36e5).toISOString(), link: "pending", attempts: 0 };
}
var followUpWaiting = (message) => {
  const followUp = message.followUp;
  if (!followUp || message.status !== "sent") return false;
  if (message.channel === "self" && message.review === "rejected") return false;
  if (followUp.link === "delivered") return followUp.second?.link === "pending";
  return followUp.link === "pending";
};
function newMessageId(now = /* @__PURE__ */ new Date()) {
  return recordKey(now);
}
async function readMessage(id) {
  const row = await queryOne(sql`SELECT record, version FROM outbox_messages WHERE id = ${id} AND erased_at IS NULL`);
  return row ? { message: row.record, etag: String(row.version) } : void 0;
}
var columnsOf = (message) => ({
  status: message.status,
  updatedAt: message.updatedAt,
  sentAt: message.sentAt ?? null,
  nextAttemptAt: message.nextAttemptAt,
  followUpWaiting: followUpWaiting(message)
});
async function createMessage(message) {
  const c = columnsOf(message);
  await query(sql`
    INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, letter_id, record)
    VALUES (${message.id}, ${message.draftId}, ${message.channel}, ${c.status}, ${message.createdAt}, ${c.updatedAt}, ${c.sentAt}, ${c.nextAttemptAt}, false, ${c.followUpWaiting}, ${message.letterId ?? null}, ${message})
    ON CONFLICT (id) DO NOTHING`);
}
async function saveMessage(message, etag, from) {
  if (from && from !== message.status && !messageMoves[from].includes(message.status)) throw new Error(`outbox: a message cannot move from ${from} to ${message.status}`);
  const c = columnsOf(message);
  const row = await queryOne(sql`
    UPDATE outbox_messages SET status = ${c.status}, updated_at = ${c.updatedAt}, sent_at = ${c.sentAt}, next_attempt_at = ${c.nextAttemptAt},
      work_left = false, follow_up_waiting = ${c.followUpWaiting}, record = ${message}, version = version + 1
    WHERE id = ${message.id} AND erased_at IS NULL AND version = ${Number(etag)}::integer
    RETURNING version`);
  return row ? String(row.version) : void 0;
}
async function updateMessage(id, change) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await readMessage(id);
    if (!found) return void 0;
    const next = change(found.message);
    if (!next) return void 0;
    if (await saveMessage(next, found.etag, found.message.status) !== void 0) return next;
  }
  throw new Error(`outbox: ${id} kept changing; not saved`);
}
async function replaceWaitingRequests(parentEmail, school2, keep, now = /* @__PURE__ */ new Date()) {
  const rows = await query(sql`
    UPDATE outbox_messages
    SET status = 'replaced', updated_at = ${now}, version = version + 1,
        record = record || jsonb_build_object('status', 'replaced', 'updatedAt', ${now.toISOString()}::text, 'lastError', 'replaced', 'replacedBy', ${keep}::text)
    WHERE canonical_address(record->>'parentEmail') = ${canonicalAddress(parentEmail)} AND canonical_address(record->>'to') = ${canonicalAddress(school2)}
      AND status = 'awaiting_confirmation' AND id <> ${keep} AND erased_at IS NULL
    RETURNING id`);
  return rows.map((row) => row.id);
}
async function deleteMessage(id) {
  await query(sql`DELETE FROM outbox_messages WHERE id = ${id}`);
}

// src/server/review-items.ts
async function queueReview(messageId, claim, reason, now = /* @__PURE__ */ new Date()) {
  await query(sql`
    INSERT INTO review_items (id, message_id, claim, reason, state, created_at) VALUES (${recordKey(now)}, ${messageId}, ${claim}, ${reason}, 'pending', ${now})
    ON CONFLICT ON CONSTRAINT review_items_once DO NOTHING`);
}
async function approved(messageId, claim) {
  return Boolean(await queryOne(sql`SELECT 1 FROM review_items WHERE message_id = ${messageId} AND claim = ${claim} AND state = 'approved'`));
}

// src/server/school-updates.ts
var DAY3 = 24 * 36e5;
var UPDATE_INTERVAL_MS = 7 * DAY3;
var LEASE_MS2 = 2 * 6e4;
var RETRY_BASE_MS2 = 5 * 6e4;
var isOutcome = (kind) => kind === "replied" || kind === "meeting";
async function queueSchoolUpdates(message, kind, now = /* @__PURE__ */ new Date()) {
  if (!isOutcome(kind)) return 0;
  const school2 = canonicalAddress(message.to);
  const reporter = parentKey(message.parentEmail);
  const page = schoolPageKeyIfConfigured(message.to) ?? null;
  const rows = await query(sql`
    INSERT INTO school_updates (id, source_message_id, kind, parent, message_id, page, state, next_attempt_at, created_at)
    SELECT DISTINCT ON (s.parent) ${message.id}::text || ':' || ${kind}::text || ':' || s.parent, ${message.id}, ${kind}, s.parent, m.id, ${page}::text, 'pending', ${now}, ${now}
    FROM impact_sends s JOIN outbox_messages m ON m.id = s.message_id
    WHERE canonical_address(m.record->>'to') = ${school2} AND m.erased_at IS NULL AND m.status = 'sent'
      AND s.parent <> ${reporter} AND m.id <> ${message.id}
      AND NOT EXISTS (SELECT 1 FROM school_update_stops x WHERE x.parent = s.parent)
    ORDER BY s.parent, m.id DESC
    ON CONFLICT ON CONSTRAINT school_updates_once DO NOTHING
    RETURNING 1`);
  return rows.length;
}
async function updatesStopped(parent2) {
  return Boolean(await queryOne(sql`SELECT 1 FROM school_update_stops WHERE parent = ${parent2}`));
}

// src/server/school-answers.ts
async function readStoredAnswer(id) {
  const row = await queryOne(sql`SELECT record, version FROM school_answers WHERE message_id = ${id}`);
  return row ? { answer: row.record, version: row.version } : void 0;
}
async function countAnswer(message, kind, now = /* @__PURE__ */ new Date(), daysTaken) {
  if (!await counts(message.id)) return "held";
  const outcome = kind === "replied" || kind === "meeting";
  if (outcome && message.channel === "self" && !await approved(message.id, kind)) {
    await queueReview(message.id, kind, "outcome_on_self_report", now);
    return "review";
  }
  await recordAnswer({ id: message.id, school: schoolKey(canonicalAddress(message.to)), kind, at: now.toISOString(), ...daysTaken !== void 0 ? { daysTaken } : {} });
  await queueSchoolUpdates(message, kind, now).catch((error) => console.error("[school-answer] updates not queued for", message.id, error instanceof Error ? error.message : ""));
  return "counted";
}
async function countStoredAnswer(message, now = /* @__PURE__ */ new Date()) {
  const stored = await readStoredAnswer(message.id);
  return stored ? countAnswer(message, stored.answer.kind, now, stored.answer.daysTaken) : void 0;
}

// src/server/letter-delivery.ts
async function queueLetter(message, timeZone, now = /* @__PURE__ */ new Date()) {
  const time = await letterTime(mailboxKey(message.to), timeZone, now);
  const rendered2 = await composeLetter({ subject: message.subject, body: message.body, parentName: message.parentName });
  await enqueueEmail(
    {
      id: message.id,
      kind: "school_letter",
      to: message.to,
      notBefore: time.at,
      ref: message.id,
      content: {
        subject: rendered2.subject,
        text: rendered2.text,
        html: rendered2.html,
        from: { name: fromName(message.parentName), address: organisationSender().address },
        replyTo: { name: message.parentName, address: message.parentEmail },
        lang: "en"
      }
    },
    now
  );
  return { ...message, delivery: { at: time.at.toISOString(), timeZone: time.timeZone, state: "scheduled" } };
}
async function letterSent(id, at) {
  const message = await updateMessage(
    id,
    (current) => current.status === "queued" || current.status === "awaiting_confirmation" && current.channel === "platform" ? { ...current, status: "sent", sentAt: at.toISOString(), followUp: current.followUp ?? newFollowUp(at), delivery: { ...current.delivery, state: "sent" }, lastError: void 0, updatedAt: at.toISOString() } : void 0
  );
  if (!message) return void 0;
  await countLetter(message, at);
  return message;
}
async function countLetter(message, at) {
  if (sameDomain(message.parentEmail, message.to)) {
    await queueReview(message.id, "self_report", "own_domain", at);
    return;
  }
  await publishSchoolPage(message, "letter", at);
  await recordSent(message);
  await countStoredAnswer(message, at);
}
async function letterBounced(id, at, detail) {
  const message = await updateMessage(
    id,
    (current) => current.status === "queued" || current.status === "sent" || current.status === "awaiting_confirmation" ? { ...current, status: "bounced", delivery: { ...current.delivery ?? { at: at.toISOString(), timeZone: serverEnv.schoolTimeZone }, state: "bounced", detail }, lastError: "bounced", bounce: current.bounce ?? { at: at.toISOString(), told: "pending" }, updatedAt: at.toISOString() } : void 0
  );
  if (!message || message.bounce?.told !== "pending") return message;
  const told = await emailDeliveryFailure(message, at);
  return updateMessage(id, (current) => current.bounce ? { ...current, bounce: { ...current.bounce, told } } : void 0);
}
async function letterFailed(id, at, detail) {
  await updateMessage(
    id,
    (current) => current.status === "queued" || current.status === "awaiting_confirmation" ? { ...current, status: "failed", lastError: "delivery_failed", ...current.delivery ? { delivery: { ...current.delivery, state: "failed", detail } } : {}, updatedAt: at.toISOString() } : void 0
  );
}
async function afterDelivery(email2, state, at, detail = "") {
  const letters2 = email2.kind === "school_letter" && email2.ref ? [email2.ref] : email2.kind === "school_digest" ? await digestedLetters(email2.id) : [];
  for (const id of letters2) {
    if (state === "sent" || state === "delivered") {
      const message = await letterSent(id, at);
      if (message) await recordDelivery(message, at);
      if (message && email2.kind === "school_digest" && !await updatesStopped(parentKey(message.parentEmail))) await tellDigested(message, letters2.length, at);
    } else if (state === "bounced") await letterBounced(id, at, detail);
    else if (state === "failed") await letterFailed(id, at, detail);
  }
}
async function digestedLetters(digestId) {
  const rows = await query(sql`SELECT ref FROM emails WHERE digest_id = ${digestId} AND kind = 'school_letter' AND ref IS NOT NULL ORDER BY id`);
  return rows.map((row) => row.ref);
}
async function tellDigested(message, count4, at) {
  const key2 = schoolPageKeyIfConfigured(message.to);
  const page = key2 ? await readSchoolPage(key2).catch(() => void 0) : void 0;
  await emailDigestNotice(message, count4, page?.published ? `${serverEnv.siteOrigin}${schoolPageHref(page)}` : void 0, at);
}
async function deliverAndFollow(id, sender, now = () => /* @__PURE__ */ new Date()) {
  const delivery = await deliverEmail(id, sender, now);
  if (delivery) await afterDelivery(delivery.email, delivery.state, now(), delivery.result?.detail);
  return delivery;
}

// src/server/send-limits.ts
import { createHash as createHash4 } from "node:crypto";
var hash = (value) => createHash4("sha256").update(canonicalAddress(value)).digest("hex").slice(0, 32);
var day2 = (now) => now.toISOString().slice(0, 10);
var pairHash = (parent2, school2) => createHash4("sha256").update(`${canonicalAddress(parent2)}|${canonicalAddress(school2)}`).digest("hex").slice(0, 32);
var limitMessages = {
  already_sent: "Our platform has already sent an email from you to this school contact. You can still copy your email or send it from your own email app.",
  school_limit: "This school contact has already received the most emails our platform sends in one day. Please send yours from your own email app, or try again tomorrow.",
  parent_limit: "You have sent the most emails our platform sends for one parent in a day. Please send this one from your own email app, or try again tomorrow."
};
async function earlierLetter(parent2, school2, except) {
  const row = await queryOne(sql`
    SELECT o.record->>'sentAt' AS sent_at, o.record->'delivery'->>'at' AS goes_at, o.status
    FROM send_claims c LEFT JOIN outbox_messages o ON o.id = c.message_id
    WHERE c.pair_hash = ${pairHash(parent2, school2)} AND c.message_id <> ${except}`);
  if (!row) return void 0;
  if (row.sent_at) return { sentAt: row.sent_at };
  return row.goes_at ? { goesAt: row.goes_at } : {};
}
async function claimLimits(parent2, school2, owner, now = /* @__PURE__ */ new Date()) {
  try {
    await query(sql`
      WITH claim AS (
        INSERT INTO send_claims (message_id, pair_hash, school, parent, day)
        VALUES (${owner}, ${pairHash(parent2, school2)}, ${hash(school2)}, ${hash(parent2)}, ${day2(now)})
        ON CONFLICT (message_id) DO NOTHING
        RETURNING school, parent, day
      ), school_day AS (
        INSERT INTO school_daily_sends AS d (school, day, sends, cap) SELECT school, day, 1, ${serverEnv.schoolDailySendLimit} FROM claim
        ON CONFLICT (school, day) DO UPDATE SET sends = d.sends + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO parent_daily_sends AS d (parent, day, sends, cap) SELECT parent, day, 1, ${serverEnv.parentDailySendLimit} FROM claim
      ON CONFLICT (parent, day) DO UPDATE SET sends = d.sends + 1, cap = EXCLUDED.cap`);
    return void 0;
  } catch (error) {
    if (isUniqueViolation(error, "send_claims_one_per_pair")) return "already_sent";
    if (isCheckViolation(error, "school_daily_sends_within_cap")) return "school_limit";
    if (isCheckViolation(error, "parent_daily_sends_within_cap")) return "parent_limit";
    throw error;
  }
}
var REQUESTS_PER_NETWORK_DAY = 30;
var REQUESTS_PER_SCHOOL_NETWORK_DAY = 5;
async function takeRequestBound(network, school2, now = /* @__PURE__ */ new Date()) {
  const schoolScope = `school:${createHash4("sha256").update(`${canonicalAddress(school2)}|${network}`).digest("hex").slice(0, 32)}`;
  try {
    await query(sql`
      WITH by_network AS (
        INSERT INTO send_request_days AS d (scope, day, requests, cap) VALUES (${`network:${network}`}, ${day2(now)}, 1, ${REQUESTS_PER_NETWORK_DAY})
        ON CONFLICT (scope, day) DO UPDATE SET requests = d.requests + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO send_request_days AS d (scope, day, requests, cap) VALUES (${schoolScope}, ${day2(now)}, 1, ${REQUESTS_PER_SCHOOL_NETWORK_DAY})
      ON CONFLICT (scope, day) DO UPDATE SET requests = d.requests + 1, cap = EXCLUDED.cap`);
    return true;
  } catch (error) {
    if (isCheckViolation(error, "send_request_days_within_cap")) return false;
    throw error;
  }
}

// src/server/platform-send.ts
var timeZoneOf = (value) => value && isTimeZone(value.trim()) ? value.trim() : void 0;
function refusalText(message, refusal, now = /* @__PURE__ */ new Date()) {
  const school2 = message.schoolName || "this school";
  if (refusal !== "already_sent") return limitMessages[refusal];
  const earlier = message.confirmation?.earlierAt;
  if (earlier && Date.parse(earlier) > now.getTime()) {
    return `Your earlier letter to ${school2} is confirmed and goes at ${whenLetterGoes({ at: earlier }, now)} (the school's time). Our platform sends one letter from each parent to a school contact, so this one was not sent. You can copy it or send it from your own email app below.`;
  }
  const when = earlier ? ` on ${dayInWords(earlier)}` : "";
  return `You already wrote to ${school2}${when} through our platform, and it sends one letter from each parent to a school contact. You can copy this one or send it from your own email app below.`;
}
function messageFromDraft(draft, what, now) {
  return {
    id: newMessageId(now),
    draftId: draft.id,
    channel: what.channel,
    status: what.status,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    parentEmail: draft.data.parentEmail.trim().toLowerCase(),
    parentName: draft.data.parentFullName,
    schoolName: draft.data.schoolName,
    to: what.to,
    toName: draft.data.schoolContactName,
    ...draft.attribution ? { attribution: draft.attribution } : {},
    subject: what.email.subject,
    body: what.email.body,
    note: what.note,
    letterId: draft.letter.id,
    ownWords: draft.ownWords ?? "",
    attempts: 0,
    nextAttemptAt: now.toISOString()
  };
}
async function ownDraft(input) {
  const found = await readDraft(input.submissionId);
  if (!found) throw new HttpError(404, "unknown_submission", "We could not find a school email for this submission. Please fill in the form again.");
  if (!sameSecret(input.token, found.draft.tokenHash)) throw new HttpError(403, "invalid_token", "This send request is not valid for this email. Please fill in the form again.");
  return found;
}
var checkInbox = (id, expiresAt, email2) => ({ status: 202, body: { id, status: "awaiting_confirmation", confirmation: { expiresAt, email: email2 } } });
async function requestPlatformSend(input, requester, now = /* @__PURE__ */ new Date()) {
  const { draft, etag } = await ownDraft(input);
  if (draft.messageId) throw new HttpError(409, "already_requested", "You have already asked us to send this email. Check your inbox for the confirmation link.");
  const note = normaliseNote(input.note ?? draft.note);
  const problem = noteProblem(note);
  if (problem) throw new HttpError(400, "invalid_note", problem);
  const parent2 = draft.data.parentEmail.trim().toLowerCase();
  const school2 = draft.data.schoolContactEmail.trim().toLowerCase();
  if (!isEmail(parent2) || !isEmail(school2)) {
    throw new HttpError(400, "missing_address", "Our platform needs your email address and the school contact\u2019s email address to send this email.");
  }
  const email2 = composeDraft(draft, note);
  const confirm = serverEnv.platformSendConfirmation === "email";
  const expiresAt = new Date(now.getTime() + CONFIRM_TTL_MS).toISOString();
  const message = {
    ...messageFromDraft(draft, { channel: "platform", status: "awaiting_confirmation", to: school2, email: email2, note }, now),
    confirmation: { expiresAt, network: requester.network },
    ...requester.timeZone ? { delivery: { at: now.toISOString(), timeZone: requester.timeZone } } : {}
  };
  if (!await takeRequestBound(requester.network, school2, now)) return checkInbox(message.id, expiresAt, parent2);
  await createMessage(message);
  if (!await updateDraft({ ...draft, note, messageId: message.id }, etag)) {
    await deleteMessage(message.id);
    throw new HttpError(409, "already_requested", "You have already asked us to send this email. Check your inbox for the confirmation link.");
  }
  await replaceWaitingRequests(parent2, school2, message.id, now).catch((error) => {
    if (!(error instanceof StoreUnavailableError)) throw error;
  });
  if (!confirm) return sendNow(message, now);
  const handed = await emailConfirmation(message, "confirmation", now).catch((error) => {
    if (!(error instanceof StoreUnavailableError)) throw error;
    return void 0;
  });
  if (handed) await updateMessage(message.id, (current) => current.confirmation ? { ...current, confirmation: { ...current.confirmation, email: handed } } : void 0).catch(() => void 0);
  return checkInbox(message.id, expiresAt, parent2);
}
async function sendNow(message, now) {
  const refusal = await claimLimits(message.parentEmail, message.to, message.id, now);
  if (refusal) {
    const earlier = await earlierOf(message, refusal);
    const refused = await updateMessage(message.id, (current) => ({ ...current, confirmation: { ...current.confirmation, refusal, ...earlier }, updatedAt: now.toISOString() }));
    if (refused) await emailRefusal(refused, refusalText(refused, refusal, now), now);
    return mailSender() ? { status: 200, body: { id: message.id, status: "sent" } } : { status: 202, body: { id: message.id, status: "queued" } };
  }
  const settled = await sendConfirmed(message, message.delivery?.timeZone, now);
  return { status: settled.status === "sent" ? 200 : 202, body: { id: settled.id, status: settled.status === "sent" ? "sent" : "queued" } };
}
async function earlierOf(message, refusal) {
  if (refusal !== "already_sent") return {};
  const earlier = await earlierLetter(message.parentEmail, message.to, message.id).catch((error) => {
    if (error instanceof StoreUnavailableError) return void 0;
    throw error;
  });
  const at = earlier?.sentAt ?? earlier?.goesAt;
  return at ? { earlierAt: at } : {};
}
async function sendConfirmed(message, timeZone, now) {
  const scheduled = await queueLetter(message, timeZone, now);
  const queued = await updateMessage(
    message.id,
    (current) => current.status === "awaiting_confirmation" || current.status === "failed" ? { ...current, status: "queued", delivery: scheduled.delivery, confirmation: { ...current.confirmation, confirmedAt: current.confirmation?.confirmedAt ?? now.toISOString() }, nextAttemptAt: scheduled.delivery.at, updatedAt: now.toISOString() } : void 0
  );
  if (!queued) return (await readMessage(message.id))?.message ?? message;
  await ensureSchoolPage(queued, now).catch(() => void 0);
  const sender = mailSender();
  if (sender && Date.parse(queued.delivery.at) <= now.getTime()) {
    await deliverAndFollow(queued.id, sender).catch((error) => {
      if (!(error instanceof StoreUnavailableError)) console.error("[platform-send] immediate send of", queued.id, "failed:", error instanceof Error ? error.message : "");
    });
  }
  return (await readMessage(message.id))?.message ?? queued;
}

// netlify/functions/send-email.mts
var send_email_default = handle(async (req, context) => {
  const refused = allowMethods(req, ["POST"]);
  if (refused) return refused;
  const body2 = await readJson(req, z11.record(z11.string(), z11.unknown()));
  if (["subject", "body", "to", "idempotencyKey"].some((name) => name in body2)) {
    throw new HttpError(400, "text_not_accepted", "The platform only sends the email it composed from your form. Send your submission id and token instead.");
  }
  const parsed = sendEmailSchema.safeParse(body2);
  if (!parsed.success) throw new HttpError(400, "invalid_request", describeIssues(parsed.error));
  const input = parsed.data;
  const { timeZone, ...request } = input;
  const answer = await requestPlatformSend(request, { network: networkKey(clientIp(req, context)), timeZone: timeZoneOf(timeZone) });
  await recordSendRequest(input.submissionId, answer.body.status);
  return json(answer.body, answer.status);
});
var config = {
  path: "/api/send-email",
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ["ip", "domain"] }
};
export {
  config,
  send_email_default as default
};
