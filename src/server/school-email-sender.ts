/**
 * The senders of a confirmed school email. One call carries the whole message — recipient,
 * subject, body, From name, Reply-To — and the outbox id that makes a repeat a no-op, so nothing
 * written later (a contact property, another form) can change what or to whom it sends.
 *
 * - `hubspot`: HubSpot's transactional single-send (the transactional email add-on), a published
 *   email whose subject and body are custom properties; `sendId` is the outbox id, and HubSpot
 *   sends at most one email per sendId.
 * - `smtp`: any SMTP server (Postmark, SES, Mailgun, the organisation's own relay) through
 *   nodemailer; the outbox id is the Message-ID.
 *
 * From is "Parent Name via Organisation" on the organisation's own authenticated address, never
 * the parent's (their domain's DMARC policy would have the school's server refuse or bin it);
 * replies go to the parent through Reply-To.
 */
import { createTransport } from 'nodemailer';
import { z } from 'zod';
import { site } from '../config/site';
import { serverEnv } from './env';
import { hubspotClient, statusOf, withRetry } from './hubspot';

export const schoolEmailSchema = z.object({
  /** The outbox message id: HubSpot's sendId, the SMTP Message-ID's local part. */
  id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  /** The confirmed school contact's address. */
  to: z.email().max(254),
  /** The parent's address, where the school's answer goes. */
  replyTo: z.email().max(254),
  parentName: z.string().max(200),
  subject: z.string().min(1).max(500),
  body: z.string().min(1).max(20_000),
});
export type SchoolEmail = z.infer<typeof schoolEmailSchema>;

export interface SendResult {
  /** sent/queued: taken by the provider; rejected: never for this message; retry: try again later. */
  outcome: 'sent' | 'queued' | 'rejected' | 'retry';
  /** The provider's own word: HubSpot's sendResult or HTTP status, the SMTP reply code or error code. */
  providerStatus: string;
  /** A short line for the admin page; never a token or a response body. */
  detail: string;
}

export interface SchoolEmailSender {
  readonly kind: 'hubspot' | 'smtp';
  send(message: SchoolEmail): Promise<SendResult>;
}

/** A header value on one line: control characters (CR, LF, tab, NUL, line separators) become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
}

/** "Ana Lopez via Mastery Parents": one line, without the characters that end or escape a display name. */
export function fromName(parentName: string, organisation: string = site.name): string {
  const clean = (text: string) => oneLine(text.replace(/["\\<>]/g, ' '));
  const parent = clean(parentName).slice(0, 100).trim();
  return parent ? `${parent} via ${clean(organisation)}` : clean(organisation);
}

/** A sender that checks the message whole before `deliver` sees it: one that is not goes nowhere. */
function checkedSender(kind: SchoolEmailSender['kind'], deliver: (message: SchoolEmail) => Promise<SendResult>): SchoolEmailSender {
  return {
    kind,
    async send(input) {
      const parsed = schoolEmailSchema.safeParse(input);
      if (parsed.success) return deliver(parsed.data);
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || 'message').join(', ');
      return { outcome: 'rejected', providerStatus: 'invalid_message', detail: `Not sent: ${fields} not valid` };
    },
  };
}

function withTimeout<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    operation,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { timedOut: true })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** HubSpot's sendResult values that a later try may change; every other failure is final for the message. */
const HUBSPOT_TRANSIENT = new Set(['THROTTLED', 'PORTAL_OVER_LIMIT']);

/** What a single-send answer means for the message. */
export function hubspotOutcome(answer: { status?: string; sendResult?: string }): SendResult {
  const result = answer.sendResult;
  if (result === 'SENT') return { outcome: 'sent', providerStatus: result, detail: 'Sent by HubSpot' };
  if (result === 'QUEUED') return { outcome: 'queued', providerStatus: result, detail: 'Queued by HubSpot' };
  // A request with this sendId was sent before: this repeat changed nothing.
  if (result === 'IDEMPOTENT_IGNORE') return { outcome: 'sent', providerStatus: result, detail: 'Already sent under this sendId' };
  if (result && HUBSPOT_TRANSIENT.has(result)) return { outcome: 'retry', providerStatus: result, detail: `HubSpot: ${result}` };
  if (result) return { outcome: 'rejected', providerStatus: result, detail: `HubSpot refused it: ${result}` };
  if (answer.status === 'CANCELED') return { outcome: 'rejected', providerStatus: 'CANCELED', detail: 'HubSpot canceled the send' };
  // Accepted, being processed (the send is asynchronous).
  return { outcome: 'queued', providerStatus: answer.status ?? 'PENDING', detail: 'Accepted by HubSpot' };
}

/** A failed single-send call: an invalid request is final, the rest (429, 5xx, token, network) may pass. */
export function hubspotFailure(error: unknown): SendResult {
  if ((error as { timedOut?: boolean })?.timedOut) return { outcome: 'retry', providerStatus: 'timeout', detail: 'HubSpot answered too slowly' };
  const status = statusOf(error);
  if (status === undefined) return { outcome: 'retry', providerStatus: 'unreachable', detail: 'HubSpot could not be reached' };
  const final = status === 400 || status === 422;
  return { outcome: final ? 'rejected' : 'retry', providerStatus: `http_${status}`, detail: `HubSpot answered ${status}` };
}

/** The escaped HTML of a plain-text body, paragraph by paragraph, for the email template. */
export function bodyHtml(body: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return body
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escape(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

export function hubspotSender(config: { accessToken: string; emailId: number; fromAddress: string; organisation?: string; timeoutMs?: number }): SchoolEmailSender {
  return checkedSender('hubspot', async (message) => {
    const name = fromName(message.parentName, config.organisation);
    try {
      const client = hubspotClient(config.accessToken);
      // Quick retries on 429, 5xx and lost connections are safe: HubSpot sends one email per sendId.
      const answer = await withTimeout(
        withRetry(() =>
          client.marketing.transactional.singleSendApi.sendEmail({
            emailId: config.emailId,
            message: { to: message.to, _from: `"${name}" <${config.fromAddress}>`, replyTo: [message.replyTo], sendId: message.id },
            // Only on this email: not stored on any contact, so nothing can change them later.
            customProperties: { subject: oneLine(message.subject), body: message.body, body_html: bodyHtml(message.body), from_name: name },
          }),
        ),
        config.timeoutMs ?? serverEnv.sendEmailBudgetMs,
      );
      return hubspotOutcome({ status: answer.status, sendResult: answer.sendResult });
    } catch (error) {
      return hubspotFailure(error);
    }
  });
}

/** What a failed SMTP send means: a 5xx reply is final for the message, a 4xx or a lost connection passes. */
export function smtpFailure(error: unknown): SendResult {
  const failure = error as { code?: string; responseCode?: number; timedOut?: boolean };
  if (failure?.timedOut) return { outcome: 'retry', providerStatus: 'timeout', detail: 'The mail server answered too slowly' };
  // Wrong credentials are the site's configuration, not the message: it waits for them to be fixed.
  if (failure?.code === 'EAUTH') return { outcome: 'retry', providerStatus: 'EAUTH', detail: `The mail server refused the credentials${failure.responseCode ? ` (${failure.responseCode})` : ''}` };
  const reply = failure?.responseCode;
  if (typeof reply === 'number') {
    return reply >= 500
      ? { outcome: 'rejected', providerStatus: String(reply), detail: `The mail server refused it (${reply})` }
      : { outcome: 'retry', providerStatus: String(reply), detail: `The mail server deferred it (${reply})` };
  }
  return { outcome: 'retry', providerStatus: failure?.code ?? 'unreachable', detail: 'The mail server could not be reached' };
}

type SmtpConfig = NonNullable<typeof serverEnv.smtp>;

export function smtpSender(config: { smtp: SmtpConfig; fromAddress: string; organisation?: string; timeoutMs?: number }): SchoolEmailSender {
  const domain = config.fromAddress.split('@')[1] ?? 'localhost';
  return checkedSender('smtp', async (message) => {
    const timeoutMs = config.timeoutMs ?? serverEnv.sendEmailBudgetMs;
    const connection =
      'url' in config.smtp
        ? { url: config.smtp.url }
        : { host: config.smtp.host, port: config.smtp.port, secure: config.smtp.secure, ...(config.smtp.user ? { auth: { user: config.smtp.user, pass: config.smtp.pass ?? '' } } : {}) };
    const transport = createTransport({ ...connection, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
    try {
      // Address objects, never strings put together: nodemailer quotes and encodes each part.
      const info = await withTimeout(
        transport.sendMail({
          from: { name: fromName(message.parentName, config.organisation), address: config.fromAddress },
          to: message.to,
          replyTo: { name: oneLine(message.parentName.replace(/["\\<>]/g, ' ')), address: message.replyTo },
          subject: oneLine(message.subject),
          text: message.body,
          // The same message keeps the same id on every try, so the receiving side can tell a repeat.
          messageId: `<${message.id}@${domain}>`,
          disableFileAccess: true,
          disableUrlAccess: true,
        }),
        timeoutMs,
      );
      const reply = /^\d{3}/.exec(info.response ?? '')?.[0] ?? 'accepted';
      if (info.rejected.length > 0) return { outcome: 'rejected', providerStatus: reply, detail: 'The mail server refused the recipient' };
      return { outcome: 'sent', providerStatus: reply, detail: 'Accepted by the mail server' };
    } catch (error) {
      return smtpFailure(error);
    } finally {
      transport.close();
    }
  });
}

/**
 * The configured sender (SCHOOL_EMAIL_SENDER, else HubSpot when its email id is set, else SMTP),
 * or null when none is: confirmed messages then wait in the Outbox.
 */
export function schoolEmailSender(): SchoolEmailSender | null {
  const fromAddress = serverEnv.schoolEmailFromAddress;
  if (!fromAddress) return null;
  if (!z.email().safeParse(fromAddress).success) throw new Error(`SCHOOL_EMAIL_FROM_ADDRESS must be an email address, got "${fromAddress}".`);
  const wanted = serverEnv.schoolEmailSender;
  const accessToken = serverEnv.hubspotAccessToken;
  const emailId = serverEnv.hubspotTransactionalEmailId;
  const smtp = serverEnv.smtp;
  const hubspot = accessToken && emailId !== undefined ? hubspotSender({ accessToken, emailId, fromAddress }) : null;
  const mail = smtp ? smtpSender({ smtp, fromAddress }) : null;
  if (wanted === 'hubspot') return hubspot;
  if (wanted === 'smtp') return mail;
  return hubspot ?? mail;
}
