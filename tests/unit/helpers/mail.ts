/**
 * The site's mail in function tests: a real SMTP server on loopback (tests/fakes/smtp.ts) as the
 * configured sender, so each test reads the emails a person would get — To, From, Reply-To,
 * Subject, both parts, headers — and follows the links in them as that person would.
 */
import { startSmtpFake, type ReceivedMessage, type SmtpFake } from '../../fakes/smtp';

export const MAIL_FROM = 'parents@masteryparents.example';

export interface MailCatcher {
  sink: SmtpFake;
  /** Every email that arrived for this address (as typed or any spelling that reaches it), oldest first. */
  to(address: string): ReceivedMessage[];
  /** The last email to this address whose subject matches. */
  last(address: string, subject?: RegExp): ReceivedMessage | undefined;
  reset(): void;
  close(): Promise<void>;
}

/** Starts the SMTP sink and points the mail layer at it (SMTP, letters at once unless a test says otherwise). */
export async function useMail(): Promise<MailCatcher> {
  const sink = await startSmtpFake();
  process.env.SMTP_URL = sink.smtpUrl;
  process.env.MAIL_SENDER = 'smtp';
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.SCHOOL_DELIVERY_HOURS = 'off';
  const to = (address: string) => sink.messages.filter((message) => message.envelope.rcptTo.some((rcpt) => rcpt.toLowerCase() === address.toLowerCase()));
  return {
    sink,
    to,
    last(address, subject) {
      return to(address)
        .filter((message) => !subject || subject.test(message.subject))
        .at(-1);
    },
    reset() {
      sink.reset();
    },
    async close() {
      await sink.close();
      for (const name of ['SMTP_URL', 'MAIL_SENDER', 'MAIL_FROM_ADDRESS', 'SCHOOL_DELIVERY_HOURS']) delete process.env[name];
    },
  };
}

/** The first link in an email's text part whose path starts with `path` ("/confirm-send"). */
export function linkIn(message: ReceivedMessage | undefined, path: string): string {
  if (!message) throw new Error(`no email to find ${path} in`);
  const match = message.text.match(new RegExp(`https?://[^\\s]+${path.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s]*`));
  if (!match) throw new Error(`no ${path} link in "${message.subject}"`);
  return match[0];
}

/** The token of a link. */
export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
