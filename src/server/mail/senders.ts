/**
 * The senders every email of the site goes through. One call carries the whole email — recipient,
 * subject, both parts, From, Reply-To, the unsubscribe address — and the email's id, which makes a
 * repeat a no-op (HubSpot's sendId; the SMTP Message-ID), so nothing written later can change what
 * or to whom an email sends.
 *
 * - `smtp`: any SMTP server (Postmark, Amazon SES, Mailgun, the organisation's relay; MailDev on
 *   this machine) through nodemailer, DKIM-signed when DKIM_PRIVATE_KEY, DKIM_SELECTOR and
 *   DKIM_DOMAIN are set.
 * - `hubspot`: HubSpot's transactional single-send, a published email whose subject and body are
 *   custom properties (docs/letters.md says how to make it).
 *
 * From is always an address on the organisation's own authenticated domain; a parent's name may be
 * its display name ("Ana Lopez via Mastery Parents"), never their address (their domain's DMARC
 * policy would have the school's server refuse it). Every header is written by nodemailer from
 * address objects, or encoded here (`fromHeader`), never put together from text a visitor typed.
 */
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import { z } from 'zod';
import { site } from '../../config/site';
import { serverEnv } from '../env';
import { hubspotClient, statusOf, withRetry } from '../hubspot';

const mailbox = z.object({ name: z.string().max(200).optional(), address: z.email().max(254) });

export const outgoingEmailSchema = z.object({
  /** The email's id: the Message-ID's local part and HubSpot's sendId. */
  id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  to: z.email().max(254),
  from: mailbox,
  replyTo: mailbox.optional(),
  subject: z.string().min(1).max(500),
  text: z.string().min(1).max(200_000),
  html: z.string().max(400_000).optional(),
  /** The https address of the one-click unsubscribe (RFC 8058), for every email that is not one-to-one. */
  unsubscribeUrl: z.url({ protocol: /^https?$/ }).optional(),
  lang: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/)
    .optional(),
});
export type OutgoingEmail = z.infer<typeof outgoingEmailSchema>;

export interface SendResult {
  /**
   * sent/queued: taken by the provider; bounced: the recipient's mailbox does not exist (the
   * address is blocked); soft_bounce: the mailbox refuses for now (full): tried again later;
   * rejected: refused for another reason (a policy, spam): never for this email, the address stays
   * open; retry: nothing was handed over, try again later; unknown: the message may have been handed
   * over before the connection ended (never resent blindly).
   */
  outcome: 'sent' | 'queued' | 'bounced' | 'soft_bounce' | 'rejected' | 'retry' | 'unknown';
  /** The provider's own word: HubSpot's sendResult or HTTP status, the SMTP reply code or error code. */
  providerStatus: string;
  /** A short line for the admin page; never a token or a response body. */
  detail: string;
}

export interface MailSender {
  readonly kind: 'hubspot' | 'smtp';
  send(email: OutgoingEmail): Promise<SendResult>;
}

/** A header value on one line: control characters (CR, LF, tab, NUL, line separators) become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** A display name as it may stand in a header: one line, without the characters that end or escape it. */
export const displayName = (text: string) =>
  oneLine(text.replace(/["\\<>]/g, ' '))
    .slice(0, 120)
    .trim();

/** "Ana Lopez via Mastery Parents": the parent's name as a display name only, on the organisation's address. */
export function fromName(parentName: string, organisation: string = site.name): string {
  const parent = displayName(parentName).slice(0, 100).trim();
  return parent ? `${parent} via ${displayName(organisation)}` : displayName(organisation);
}

/**
 * A From or Reply-To header written here (HubSpot takes it as text): the display name quoted, and
 * RFC 2047-encoded when it is not plain ASCII, so that no name can open another header or address.
 */
export function fromHeader(box: { name?: string; address: string }): string {
  const name = displayName(box.name ?? '');
  if (!name) return box.address;
  // eslint-disable-next-line no-control-regex
  const encoded = /^[\x20-\x7e]*$/.test(name) ? `"${name}"` : encodeWord(name, 'Q', 52);
  return `${encoded} <${box.address}>`;
}

/** A sender that checks the email whole before `deliver` sees it: one that is not goes nowhere. */
function checkedSender(kind: MailSender['kind'], deliver: (email: OutgoingEmail) => Promise<SendResult>): MailSender {
  return {
    kind,
    async send(input) {
      const parsed = outgoingEmailSchema.safeParse(input);
      if (parsed.success) return deliver(parsed.data);
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || 'email').join(', ');
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

/** HubSpot's sendResult values that a later try may change. */
const HUBSPOT_TRANSIENT = new Set(['THROTTLED', 'PORTAL_OVER_LIMIT']);
/**
 * HubSpot's sendResult values that say the recipient's mailbox does not exist: the address is
 * blocked. Its other refusals (BLOCKED_DOMAIN, BLOCKED_ADDRESS, PREVIOUS_SPAM, …) are a policy: that
 * email fails, the address stays open.
 */
const HUBSPOT_BOUNCED = new Set(['INVALID_TO_ADDRESS', 'PREVIOUSLY_BOUNCED']);

/** What a single-send answer means for the email. */
export function hubspotOutcome(answer: { status?: string; sendResult?: string }): SendResult {
  const result = answer.sendResult;
  if (result === 'SENT') return { outcome: 'sent', providerStatus: result, detail: 'Sent by HubSpot' };
  if (result === 'QUEUED') return { outcome: 'queued', providerStatus: result, detail: 'Queued by HubSpot' };
  // A request with this sendId was sent before: this repeat changed nothing.
  if (result === 'IDEMPOTENT_IGNORE') return { outcome: 'sent', providerStatus: result, detail: 'Already sent under this sendId' };
  if (result && HUBSPOT_TRANSIENT.has(result)) return { outcome: 'retry', providerStatus: result, detail: `HubSpot: ${result}` };
  if (result && HUBSPOT_BOUNCED.has(result)) return { outcome: 'bounced', providerStatus: result, detail: `HubSpot refused the address: ${result}` };
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

export function hubspotSender(config: { accessToken: string; emailId: number; timeoutMs?: number }): MailSender {
  return checkedSender('hubspot', async (email) => {
    try {
      const client = hubspotClient(config.accessToken);
      // Quick retries on 429, 5xx and lost connections are safe: HubSpot sends one email per sendId.
      const answer = await withTimeout(
        withRetry(() =>
          client.marketing.transactional.singleSendApi.sendEmail({
            emailId: config.emailId,
            message: { to: email.to, _from: fromHeader(email.from), ...(email.replyTo ? { replyTo: [email.replyTo.address] } : {}), sendId: email.id },
            // Only on this email: not stored on any contact, so nothing can change them later.
            customProperties: { subject: oneLine(email.subject), body: email.text, body_html: email.html ?? '', from_name: displayName(email.from.name ?? '') },
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

/** The enhanced status code of a reply (RFC 3463), e.g. "5.1.1", if it carries one. */
export function enhancedStatus(text: string | undefined): string | undefined {
  return /\b([245])\.(\d{1,3})\.(\d{1,3})\b/
    .exec(text ?? '')
    ?.slice(1, 4)
    .join('.');
}

/** Words of a reply without an enhanced code that say the mailbox does not exist. */
const NO_SUCH_MAILBOX =
  /\b(no such (user|mailbox|recipient|address)|(user|mailbox|recipient|address)( name)? (unknown|not found|does not exist|doesn'?t exist|is unavailable|not available)|unknown (user|recipient|mailbox)|invalid (recipient|mailbox))\b/i;

/**
 * What a reply refusing a message means for the recipient's address (RFC 5321, RFC 3463):
 * X.1.x (the mailbox or domain does not exist) is a bounce that blocks the address; X.2.2 (a full
 * mailbox) and X.2.1 (disabled for now) are tried again later; anything else permanent (X.7.x
 * policy and spam refusals, "relaying denied", a message too large) fails this one message only.
 */
export function smtpRefusal(reply: number, response = ''): SendResult {
  const status = enhancedStatus(response);
  if (reply < 500) return { outcome: 'retry', providerStatus: String(reply), detail: `The mail server deferred it (${status ?? reply})` };
  const code = status ?? String(reply);
  if (status?.startsWith('5.1.') || (!status && (reply === 550 || reply === 551 || reply === 553) && NO_SUCH_MAILBOX.test(response))) {
    return { outcome: 'bounced', providerStatus: code, detail: `The mailbox does not exist (${code})` };
  }
  if (status === '5.2.2' || status === '5.2.1' || (!status && /mailbox (is )?full|over quota|quota exceeded/i.test(response))) {
    return { outcome: 'soft_bounce', providerStatus: code, detail: `The mailbox refuses mail for now (${code})` };
  }
  return { outcome: 'rejected', providerStatus: code, detail: `The mail server refused this message (${code})` };
}

/** The SMTP steps before the message itself: an error there means nothing was handed over. */
const BEFORE_DATA = new Set([
  'CONN',
  'EHLO',
  'HELO',
  'LHLO',
  'STARTTLS',
  'AUTH PLAIN',
  'AUTH LOGIN',
  'AUTH XOAUTH2',
  'AUTH CRAM-MD5',
  'MAIL FROM',
  'RCPT TO',
  'API',
]);

/**
 * What a failed SMTP send means: a refusal by its code; wrong credentials wait for the
 * configuration; a connection that failed before the message was handed over is tried again; one
 * that ended while or after it was (a timeout in DATA, a dropped connection after it) is unknown.
 */
export function smtpFailure(error: unknown): SendResult {
  const failure = error as { code?: string; responseCode?: number; timedOut?: boolean; response?: string; command?: string };
  // Our own time limit: the message may have been handed over before it struck.
  if (failure?.timedOut)
    return { outcome: 'unknown', providerStatus: 'timeout', detail: 'The mail server answered too slowly; we did not hear whether it took the message' };
  // Wrong credentials are the site's configuration, not the email: it waits for them to be fixed.
  if (failure?.code === 'EAUTH')
    return {
      outcome: 'retry',
      providerStatus: 'EAUTH',
      detail: `The mail server refused the credentials${failure.responseCode ? ` (${failure.responseCode})` : ''}`,
    };
  if (typeof failure?.responseCode === 'number') return smtpRefusal(failure.responseCode, failure.response ?? '');
  const before =
    !failure?.command ||
    BEFORE_DATA.has(failure.command.toUpperCase()) ||
    ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EDNS', 'ECONNECTION', 'ETLS'].includes(failure?.code ?? '');
  if (before) return { outcome: 'retry', providerStatus: failure?.code ?? 'unreachable', detail: 'The mail server could not be reached' };
  return { outcome: 'unknown', providerStatus: failure?.code ?? 'connection_lost', detail: 'The connection ended while the message was being handed over' };
}

type SmtpConfig = NonNullable<typeof serverEnv.smtp>;
export type DkimConfig = { domainName: string; keySelector: string; privateKey: string };

/**
 * The headers DKIM signs: nodemailer's own list, and the one-click unsubscribe pair, which RFC 8058
 * section 4 requires the signature to cover (a receiver ignores an unsigned List-Unsubscribe-Post).
 */
export const DKIM_SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive';

export const dkimOptions = (dkim: DkimConfig) => ({ ...dkim, headerFieldNames: DKIM_SIGNED_HEADERS });

/** The nodemailer message of an email: address objects, the Message-ID on the From address's domain. */
export function nodemailerMessage(email: OutgoingEmail) {
  const domain = email.from.address.split('@')[1] ?? 'localhost';
  return {
    from: { name: displayName(email.from.name ?? ''), address: email.from.address },
    to: email.to,
    ...(email.replyTo ? { replyTo: { name: displayName(email.replyTo.name ?? ''), address: email.replyTo.address } } : {}),
    subject: oneLine(email.subject),
    text: email.text,
    ...(email.html ? { html: email.html } : {}),
    // The same email keeps the same id on every try, so the receiving side can tell a repeat.
    messageId: `<${email.id}@${domain}>`,
    ...(email.unsubscribeUrl ? { list: { unsubscribe: email.unsubscribeUrl }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function smtpSender(config: { smtp: SmtpConfig; dkim?: DkimConfig; timeoutMs?: number }): MailSender {
  return checkedSender('smtp', async (email) => {
    const timeoutMs = config.timeoutMs ?? serverEnv.sendEmailBudgetMs;
    const connection =
      'url' in config.smtp
        ? { url: config.smtp.url }
        : {
            host: config.smtp.host,
            port: config.smtp.port,
            secure: config.smtp.secure,
            ...(config.smtp.user ? { auth: { user: config.smtp.user, pass: config.smtp.pass ?? '' } } : {}),
          };
    // Loaded by the SMTP sender only: the functions that never send pay nothing for it.
    const { createTransport } = await import('nodemailer');
    const transport = createTransport({
      ...connection,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      ...(config.dkim ? { dkim: dkimOptions(config.dkim) } : {}),
    });
    try {
      const info = await withTimeout(transport.sendMail(nodemailerMessage(email)), timeoutMs);
      const reply = /^\d{3}/.exec(info.response ?? '')?.[0] ?? 'accepted';
      if (info.rejected.length > 0) {
        // The one recipient was refused at RCPT TO: its reply says whether the mailbox exists.
        const refused = (info as { rejectedErrors?: Array<{ responseCode?: number; response?: string }> }).rejectedErrors?.[0];
        return smtpRefusal(refused?.responseCode ?? 550, refused?.response ?? '');
      }
      return { outcome: 'sent', providerStatus: reply, detail: 'Accepted by the mail server' };
    } catch (error) {
      return smtpFailure(error);
    } finally {
      transport.close();
    }
  });
}

/**
 * The configured sender (MAIL_SENDER, else HubSpot when its email id is set, else SMTP), or null
 * when none is (or no MAIL_FROM_ADDRESS): emails then wait, and the admin page says so.
 */
export function mailSender(): MailSender | null {
  if (!serverEnv.mailFromAddress) return null;
  const wanted = serverEnv.mailSender;
  const accessToken = serverEnv.hubspotAccessToken;
  const emailId = serverEnv.hubspotTransactionalEmailId;
  const smtp = serverEnv.smtp;
  const hubspot = accessToken && emailId !== undefined ? hubspotSender({ accessToken, emailId }) : null;
  const mail = smtp ? smtpSender({ smtp, dkim: serverEnv.dkim }) : null;
  if (wanted === 'hubspot') return hubspot;
  if (wanted === 'smtp') return mail;
  return hubspot ?? mail;
}
