/**
 * The emails the site sent in the e2e run, read from MailDev (which `npm start` runs when no sender
 * is configured) and parsed from their raw source as a mail client would: the e2e tests read every
 * confirmation, letter, follow-up, update and data link from the wire, never from a CRM record.
 * Each test writes to its own addresses, so nothing needs clearing between tests that run at once.
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { baseURL, mailDevUrl } from '../../playwright.config';
import { expect } from '@playwright/test';

export interface Mailbox {
  name: string;
  address: string;
}

export interface ReceivedEmail {
  /** MailDev's id. */
  id: string;
  subject: string;
  from: Mailbox[];
  to: Mailbox[];
  replyTo: Mailbox[];
  /** The envelope's recipients (RCPT TO), lower case. */
  rcptTo: string[];
  text: string;
  html: string;
  messageId: string;
  /** Every header as it came, lower-cased names, in order. */
  headerLines: ReadonlyArray<{ key: string; line: string }>;
  header(name: string): string | undefined;
}

interface MailDevEmail {
  id: string;
  time: string;
  subject: string;
  envelope: { to: Array<{ address: string }> };
}

const mailboxes = (value: AddressObject | AddressObject[] | undefined): Mailbox[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((object) => object.value.map((box) => ({ name: box.name ?? '', address: box.address ?? '' })));

/** Every email MailDev holds for one address (by the envelope's recipient), oldest first, parsed from its source. */
export async function emailsTo(address: string): Promise<ReceivedEmail[]> {
  const wanted = address.toLowerCase();
  const response = await fetch(`${mailDevUrl}/api/email?${new URLSearchParams({ 'envelope.to.address': wanted, sort: 'asc' })}`);
  if (!response.ok) throw new Error(`MailDev answered ${response.status} at ${mailDevUrl}/api/email`);
  const listed = (await response.json()) as MailDevEmail[];
  return Promise.all(
    listed.map(async (email) => {
      const source = await fetch(`${mailDevUrl}/api/email/${email.id}/source`);
      const parsed = await simpleParser(Buffer.from(await source.arrayBuffer()));
      return {
        id: email.id,
        subject: parsed.subject ?? '',
        from: mailboxes(parsed.from),
        to: mailboxes(parsed.to),
        replyTo: mailboxes(parsed.replyTo),
        rcptTo: email.envelope.to.map((box) => box.address.toLowerCase()),
        text: parsed.text ?? '',
        html: typeof parsed.html === 'string' ? parsed.html : '',
        messageId: parsed.messageId ?? '',
        headerLines: parsed.headerLines,
        header: (name: string) => parsed.headerLines.find((line) => line.key === name.toLowerCase())?.line.replace(/^[^:]*:\s*/, ''),
      };
    }),
  );
}

const matches = (subject: string, wanted: string | RegExp | undefined) =>
  wanted === undefined || (typeof wanted === 'string' ? subject === wanted : wanted.test(subject));

/**
 * Waits for the email to an address (with this subject, when given) and returns the newest such.
 * `runs` starts the mail run on each poll, for emails that the scheduled run sends.
 */
export async function waitForEmail(address: string, options: { subject?: string | RegExp; runs?: boolean; timeout?: number } = {}): Promise<ReceivedEmail> {
  let found: ReceivedEmail | undefined;
  await expect
    .poll(
      async () => {
        if (options.runs) await runMail();
        found = (await emailsTo(address)).filter((email) => matches(email.subject, options.subject)).at(-1);
        return found?.subject;
      },
      {
        timeout: options.timeout ?? 20_000,
        intervals: [250, 500, 1000],
        message: `an email to ${address}${options.subject ? ` with the subject ${options.subject}` : ''} in MailDev`,
      },
    )
    .toBeDefined();
  return found!;
}

/** Every link in an email's text part (the text part writes every link out). */
export const linksIn = (email: ReceivedEmail): string[] => [...email.text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((match) => match[0]);

/** The site's link in an email that goes to `path` (e.g. "/confirm-send"), as a path with its query, to open on the test's own origin. */
export function linkTo(email: ReceivedEmail, path: string): string {
  const link = linksIn(email)
    .map((href) => new URL(href))
    .find((url) => url.pathname === path);
  if (!link)
    throw new Error(
      `No link to ${path} in the email "${email.subject}" to ${email.to.map((box) => box.address).join(', ')}: ${linksIn(email).join(' ') || 'no links'}`,
    );
  return link.pathname + link.search;
}

/** The scheduled functions that write emails for the mail layer, which the every-minute `mail-deliver` run sends. */
const writesMail = new Set(['school-followup', 'school-updates']);

/**
 * Runs a scheduled function now, as Netlify's scheduler would (under `netlify serve`, a POST to its
 * path). After one that writes emails, the mail run that follows it within a minute runs too.
 */
export async function runScheduled(name: string): Promise<void> {
  // A run that does not answer in a minute fails here, naming itself, not at the test's timeout.
  const response = await fetch(new URL(`/.netlify/functions/${name}`, baseURL), { method: 'POST', signal: AbortSignal.timeout(60_000) });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`The scheduled function ${name} failed (${response.status}); see the site's log`);
  if (writesMail.has(name)) await runScheduled('mail-deliver');
}

/** The mail run (`mail-deliver`, every minute when deployed) now: letters, reminders and every other due email go. */
export const runMail = () => runScheduled('mail-deliver');

/** The subjects of the "Did your school answer?" emails, the first and the second, in English and in Spanish. */
const followUpSubject = /^(Did .+ answer your letter\?|Any news from .+\?|¿Le respondió .+\?|¿Alguna noticia de .+\?)$/;

/**
 * Runs the hourly follow-up now (due at once in the e2e run: FOLLOWUP_AFTER_DAYS=0), which writes
 * the "Did your school answer?" email and sends it, and returns its link to /school-answer from the
 * parent's inbox: the newest, or the first one that is not `other`.
 */
export async function followUpLink(parent: string, options: { other?: string; timeout?: number } = {}): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        await runScheduled('school-followup');
        const asked = (await emailsTo(parent)).filter((email) => followUpSubject.test(email.subject));
        link =
          asked
            .map((email) => linkTo(email, '/school-answer'))
            .filter((href) => href !== options.other)
            .at(-1) ?? '';
        return link;
      },
      { timeout: options.timeout ?? 30_000, intervals: [1000], message: `a follow-up email to ${parent} in MailDev` },
    )
    .toMatch(/^\/school-answer\?token=/);
  return link;
}
