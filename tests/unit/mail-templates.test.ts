/**
 * Every email the site sends, as its words (content/emails) and templates (src/emails) make it and
 * as it leaves over SMTP: an HTML and a plain-text part, the organisation's look, `lang`, readable
 * without images (none, remote or not, and no tracking pixel), links written out in the text part,
 * one-click unsubscribe on what a parent did not just ask for, and a SpamAssassin score under 2
 * with Debian's `spamassassin` and its local rules (`-L`), all in one run.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mailWordsSchema, wordKinds } from '../../src/lib/shared/email/mail-words';
import { sampleEmails, type SampleEmail } from '../../src/server/mail/samples';
import { outgoing } from '../../src/server/mail/queue';
import { smtpSender } from '../../src/server/mail/senders';
import { emailKinds, kindRules } from '../../src/server/mail/states';
import { startSmtpFake, type ReceivedMessage, type SmtpFake } from '../fakes/smtp';
import { allowed } from './helpers/time';

let samples: SampleEmail[];
let sink: SmtpFake;
let received: Map<string, ReceivedMessage>;

beforeAll(async () => {
  process.env.SITE_URL = 'https://masteryparents.example';
  process.env.MAIL_FROM_ADDRESS = 'parents@masteryparents.example';
  samples = await sampleEmails(new Date('2026-11-27T10:00:00Z'));
  sink = await startSmtpFake();
  const sender = smtpSender({ smtp: { url: sink.smtpUrl }, timeoutMs: 5000 });
  received = new Map();
  for (const sample of samples) {
    const email = outgoing({ id: `sample-${sample.kind}`, recipient: sample.to, content: sample.content } as never);
    expect((await sender.send(email)).outcome).toBe('sent');
    received.set(sample.kind, sink.messages.at(-1)!);
  }
});
afterAll(async () => {
  await sink.close();
  delete process.env.SITE_URL;
  delete process.env.MAIL_FROM_ADDRESS;
});

describe('every kind of email', () => {
  test('has a sample, so the admin page can preview each one', () => {
    expect(samples.map((sample) => sample.kind).sort()).toEqual([...emailKinds].sort());
  });

  test.each(emailKinds.map((kind) => [kind]))('%s: two parts, lang, no image, no tracking, links written out in the text', (kind) => {
    const message = received.get(kind)!;
    expect(message.subject.length).toBeGreaterThan(5);
    expect(message.text.trim().length).toBeGreaterThan(40);
    expect(message.html).toMatch(/<html[^>]*lang="en"/);
    expect(message.html).not.toMatch(/<img\b|<script\b|url\(|<link\b[^>]*stylesheet/i);
    expect(message.raw).toMatch(/Content-Type: multipart\/alternative/i);
    // Every link of the HTML part is written out in the text part (the text part is for reading).
    const hrefs = [...message.html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&')).filter((href) => !href.startsWith('mailto:'));
    for (const href of new Set(hrefs)) expect(message.text).toContain(href);
  });

  test.each(emailKinds.map((kind) => [kind]))('%s: one-click unsubscribe exactly when it is not one-to-one', (kind) => {
    const keys = received.get(kind)!.headerLines.map((header) => header.key);
    if (kindRules[kind].unsubscribe) {
      expect(keys).toContain('list-unsubscribe');
      expect(received.get(kind)!.headerLines.find((header) => header.key === 'list-unsubscribe-post')!.line).toBe(
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      );
    } else {
      expect(keys).not.toContain('list-unsubscribe');
    }
  });

  test('the letter to a school is the parent’s, word for word, From the parent via the organisation, Reply-To the parent', () => {
    const letter = received.get('school_letter')!;
    expect(letter.from).toEqual([{ name: 'Ana Lopez via Mastery Parents', address: 'parents@masteryparents.example' }]);
    expect(letter.replyTo).toEqual([{ name: 'Ana Lopez', address: 'ana.lopez@example.org' }]);
    expect(letter.text).toMatch(/^Dear Dr\. Patel,/);
  });

  test('the abuse alert’s preview links to the admin page as the real alert does, with no token in it', () => {
    const alert = received.get('abuse_alert')!;
    expect(alert.text).toContain('https://masteryparents.example/webhook-config');
    expect(alert.text).not.toContain('token=');
  });

  test(
    'every email scores under 2 with SpamAssassin’s local rules',
    () => {
      const mbox = samples
        .map(
          (sample) =>
            `From sender@masteryparents.example Fri Nov 27 10:00:00 2026\n${received
              .get(sample.kind)!
              .raw.replace(/\r\n/g, '\n')
              .replace(/^From /gm, '>From ')}\n`,
        )
        .join('\n');
      const report = execFileSync('spamassassin', ['-L', '-t', '--mbox'], {
        input: mbox,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        timeout: allowed(120_000),
      });
      const scores = [...report.matchAll(/^X-Spam-Status: \w+, score=(-?[\d.]+)/gm)].map((match) => Number(match[1]));
      expect(scores).toHaveLength(samples.length);
      const byKind = Object.fromEntries(samples.map((sample, index) => [sample.kind, scores[index]]));
      for (const [kind, score] of Object.entries(byKind)) expect(score, `${kind} scored ${score}`).toBeLessThan(2);
    },
    allowed(180_000),
  );
});

describe('the words are content, held to the emails’ rules', () => {
  const base = {
    kind: 'confirmation',
    subject: 'Please confirm your email to {school}',
    preview: 'Nothing is sent until you confirm.',
    heading: 'Confirm your email',
    paragraphs: ['It works until {expires}.'],
    action: 'Confirm',
  };

  test('the committed words pass', () => {
    expect(wordKinds.length).toBe(emailKinds.length - 1);
  });

  test.each([
    ['a placeholder the email does not have', { paragraphs: ['It works until {expires}, {child}.'] }, /\{child\} is not a placeholder/],
    ['a required placeholder missing', { subject: 'Please confirm', paragraphs: ['It works until {expires}.'] }, /must use \{school\}/],
    ['a link in the words', { paragraphs: ['It works until {expires}. See masteryparents.org/help'] }, /must not contain a link/],
    ['an address in the words', { paragraphs: ['It works until {expires}. Write to help@masteryparents.org'] }, /must not contain an email address/],
    ['a stray brace', { paragraphs: ['It works until {expires} }'] }, /braces only around a placeholder/],
  ])('%s fails, naming the field', (_name, change, message) => {
    const parsed = mailWordsSchema.safeParse({ ...base, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')).toMatch(message);
  });
});
