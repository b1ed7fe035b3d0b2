/**
 * The mail layer's senders: each request carries the whole email (recipient, subject, both parts,
 * From, Reply-To, the unsubscribe address) and the email's id, which makes a repeat a no-op. SMTP is
 * read from the wire of a real SMTP server on loopback, its DKIM signature checked with a real
 * verifier (mailauth); HubSpot's single-send from its fake, which speaks the documented contract (at
 * most one email per sendId) and can fail like HubSpot.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import { authenticate } from 'mailauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { fromHeader, fromName, hubspotSender, mailSender, smtpSender, type OutgoingEmail } from '../../src/server/mail/senders';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp';

const FROM = 'schools@masteryparents.example';
const BODY = 'Dear Dr. Patel,\n\nMy name is Ana Lopez, and my child Leo is in 5th grade at Oakwood Academy.\n\nWarm regards,\nAna Lopez';

/** A letter as the outbox gives it to a sender; `parentName` makes its From and Reply-To. */
type Letter = Omit<OutgoingEmail, 'from' | 'replyTo'> & { parentName: string; replyTo: string };
const letter = (overrides: Partial<Letter> = {}): Letter => ({
  id: `9998-${crypto.randomUUID()}`,
  to: 'head@oakwood.edu',
  replyTo: 'ana@example.org',
  parentName: 'Ana Lopez',
  subject: 'How Oakwood Academy can unlock mastery learning for every student',
  text: BODY,
  ...overrides,
});
const email = (overrides: Partial<Letter> = {}): OutgoingEmail => {
  const { parentName, replyTo, ...rest } = letter(overrides);
  return { ...rest, from: { name: fromName(parentName, 'Mastery Parents'), address: FROM }, replyTo: { name: parentName, address: replyTo } };
};

/** Attacks through the fields that reach a header. */
const injections: Array<[string, Partial<Letter>]> = [
  ['a Bcc line in the subject', { subject: 'Hello\r\nBcc: boss@evil.example' }],
  ['a bare LF header in the subject', { subject: 'Hello\nX-Injected: yes' }],
  ['a Bcc line in the parent’s name', { parentName: 'Ana\r\nBcc: boss@evil.example' }],
  ['quotes and an address in the parent’s name', { parentName: 'Ana" <boss@evil.example>, "x' }],
  ['a line separator in the subject', { subject: 'Hello\u2028Bcc: boss@evil.example' }],
  ['an encoded-word in the parent’s name', { parentName: '=?utf-8?b?YmlsbGluZ0BtYXN0ZXJ5cGFyZW50cy5vcmc=?=' }],
];

describe('SMTP, read from the wire of a real SMTP server', () => {
  let sink: SmtpFake;
  const sender = (
    overrides: { smtp?: { url: string } | { host: string; port: number; secure: boolean; user?: string; pass?: string }; timeoutMs?: number } = {},
  ) => smtpSender({ smtp: overrides.smtp ?? { url: sink.smtpUrl }, timeoutMs: overrides.timeoutMs ?? 3000 });

  beforeAll(async () => {
    sink = await startSmtpFake();
  });
  afterAll(() => sink.close());
  beforeEach(() => sink.reset());

  test('To the school, Reply-To the parent, From "Parent via organisation" on its own address, the subject on one line, the body as composed', async () => {
    const message = email();
    expect(await sender().send(message)).toMatchObject({ outcome: 'sent', providerStatus: '250' });
    expect(sink.messages).toHaveLength(1);
    const [received] = sink.messages;
    expect(received!.envelope).toEqual({ mailFrom: FROM, rcptTo: ['head@oakwood.edu'] });
    expect(received!.to).toEqual([{ name: '', address: 'head@oakwood.edu' }]);
    expect(received!.replyTo).toEqual([{ name: 'Ana Lopez', address: 'ana@example.org' }]);
    expect(received!.from).toEqual([{ name: 'Ana Lopez via Mastery Parents', address: FROM }]);
    expect(received!.subject).toBe(message.subject);
    expect(received!.headerLines.filter((header) => header.key === 'subject')).toHaveLength(1);
    expect(received!.text.trim()).toBe(BODY);
    expect(received!.messageId).toBe(`<${message.id}@masteryparents.example>`);
    // A letter is one-to-one: no unsubscribe header.
    expect(received!.headerLines.map((header) => header.key)).not.toContain('list-unsubscribe');
  });

  test('an email that is not one-to-one carries an https one-click unsubscribe (RFC 8058)', async () => {
    await sender().send({ ...email(), unsubscribeUrl: 'https://site.example/school-updates/stop?token=abc' });
    const headers = Object.fromEntries(sink.messages[0]!.headerLines.map((header) => [header.key, header.line]));
    expect(headers['list-unsubscribe']).toBe('List-Unsubscribe: <https://site.example/school-updates/stop?token=abc>');
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  test('a name in another script is RFC 2047-encoded in the header, and reads back as written', async () => {
    await sender().send(email({ parentName: 'Zoë Nguyễn' }));
    const received = sink.messages[0]!;
    expect(received.from).toEqual([{ name: 'Zoë Nguyễn via Mastery Parents', address: FROM }]);
    expect(received.headerLines.find((header) => header.key === 'from')!.line).toMatch(/^From: =\?UTF-8\?/i);
    expect(fromHeader({ name: 'Zoë Nguyễn via Mastery Parents', address: FROM })).toMatch(/^=\?UTF-8\?Q\?.+\?= <schools@masteryparents\.example>$/i);
  });

  test('a repeat of the same message carries the same Message-ID', async () => {
    const message = email();
    await sender().send(message);
    await sender().send(message);
    expect(sink.messages.map((received) => received.messageId)).toEqual([`<${message.id}@masteryparents.example>`, `<${message.id}@masteryparents.example>`]);
  });

  test.each(injections)('%s adds no header and no recipient', async (_name, overrides) => {
    expect((await sender().send(email(overrides))).outcome).toBe('sent');
    const [received] = sink.messages;
    expect(received!.envelope.rcptTo).toEqual(['head@oakwood.edu']);
    expect(received!.bcc).toEqual([]);
    expect(received!.from.map((from) => from.address)).toEqual([FROM]);
    expect(received!.replyTo.map((reply) => reply.address)).toEqual(['ana@example.org']);
    expect(received!.headerLines.map((header) => header.key)).not.toEqual(expect.arrayContaining(['bcc']));
    expect(received!.headerLines.map((header) => header.key)).not.toContain('x-injected');
    expect(received!.subject).not.toMatch(/[\r\n\u2028]/);
    expect(received!.from[0]!.name).not.toMatch(/[\r\n"<>]/);
  });

  test.each<[string, Array<number | string>, Record<string, string>]>([
    // Only a mailbox that does not exist blocks its address (RFC 3463 X.1.x, or words that say so).
    [
      '550 5.1.1 (no such user) is a bounce',
      ['550 5.1.1 The email account that you tried to reach does not exist'],
      { outcome: 'bounced', providerStatus: '5.1.1' },
    ],
    ['550 5.1.10 (null MX) is a bounce', ['550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found'], { outcome: 'bounced', providerStatus: '5.1.10' }],
    [
      '550 "User unknown" without an enhanced code is a bounce',
      ['550 <head@school.edu>: Recipient address rejected: User unknown'],
      { outcome: 'bounced', providerStatus: '550' },
    ],
    // A policy, a spam filter, relaying denied: that one email fails, the address stays open.
    ['550 5.7.1 (spam) fails that email only', ['550 5.7.1 Message rejected as spam by Content Filtering'], { outcome: 'rejected', providerStatus: '5.7.1' }],
    [
      '554 5.7.1 (relaying denied) fails that email only',
      ['554 5.7.1 <head@school.edu>: Relay access denied'],
      { outcome: 'rejected', providerStatus: '5.7.1' },
    ],
    ['550 (mailbox unavailable, RFC 5321’s bare words) fails that email only', [550], { outcome: 'rejected', providerStatus: '550' }],
    ['553 (mailbox name not allowed) fails that email only', [553], { outcome: 'rejected', providerStatus: '553' }],
    ['554 (transaction failed) fails that email only', [554], { outcome: 'rejected', providerStatus: '554' }],
    // A full mailbox refuses for now: tried again later, never blocked.
    [
      '552 5.2.2 (mailbox full) is tried again later',
      ['552 5.2.2 The email account that you tried to reach is over quota'],
      { outcome: 'soft_bounce', providerStatus: '5.2.2' },
    ],
    ['552 (storage exceeded) fails that email only', [552], { outcome: 'rejected', providerStatus: '552' }],
    ['451 (try later) is retried', [451], { outcome: 'retry', providerStatus: '451' }],
    ['452 (storage) is retried', [452], { outcome: 'retry', providerStatus: '452' }],
  ])('%s', async (_name, codes, expected) => {
    sink.failNext(...codes);
    expect(await sender().send(email())).toMatchObject(expected);
    expect(sink.messages).toEqual([]);
  });

  test('a mail server that took the message and answers too slowly: the outcome is unknown, never resent blindly', async () => {
    sink.delayMs = 1500;
    expect(await sender({ timeoutMs: 300 }).send(email())).toMatchObject({ outcome: 'unknown', providerStatus: 'timeout' });
    // It had the whole message: a resend would be a second letter.
    await new Promise((resolve) => setTimeout(resolve, 1400));
    expect(sink.messages).toHaveLength(1);
  });

  test('a mail server that is not there is retried', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sender({ smtp: { url: `smtp://127.0.0.1:${port}` } }).send(email())).toMatchObject({
      outcome: 'retry',
      providerStatus: expect.stringMatching(/^E(CONNECTION|SOCKET)$/),
    });
  });

  test('a message that is not whole is refused before anything goes out', async () => {
    expect(await sender().send(email({ to: 'head@oakwood.edu, boss@evil.example' }))).toMatchObject({ outcome: 'rejected', providerStatus: 'invalid_message' });
    expect(await sender().send(email({ id: 'id>\r\nBcc: x' }))).toMatchObject({ outcome: 'rejected', providerStatus: 'invalid_message' });
    expect(sink.messages).toEqual([]);
  });

  describe('with credentials', () => {
    let authed: SmtpFake;
    beforeAll(async () => {
      authed = await startSmtpFake({ auth: { user: 'postmark-token', pass: 'secret' } });
    });
    afterAll(() => authed.close());
    beforeEach(() => authed.reset());

    test.each([
      ['the right ones send', 'secret', 'sent', '250'],
      ['wrong ones wait for the configuration to be fixed', 'wrong', 'retry', 'EAUTH'],
    ])('%s', async (_name, pass, outcome, providerStatus) => {
      const result = await sender({ smtp: { host: '127.0.0.1', port: authed.port, secure: false, user: 'postmark-token', pass } }).send(email());
      expect(result).toMatchObject({ outcome, providerStatus });
      expect(JSON.stringify(result)).not.toContain(pass);
      expect(authed.messages.map((received) => received.user)).toEqual(outcome === 'sent' ? ['postmark-token'] : []);
    });
  });
});

describe('HubSpot transactional single-send, against the fake', () => {
  let fake: HubSpotFake;
  const sender = (timeoutMs = 3000) => hubspotSender({ accessToken: fake.token, emailId: 4242, timeoutMs });
  const sendCalls = () => fake.calls.filter((call) => call.path === '/marketing/v3/transactional/single-email/send');

  beforeAll(async () => {
    fake = await startHubSpotFake();
    process.env.HUBSPOT_BASE_PATH = fake.url;
    process.env.HUBSPOT_RETRY_BASE_MS = '5';
  });
  afterAll(async () => {
    await fake.close();
    delete process.env.HUBSPOT_BASE_PATH;
    delete process.env.HUBSPOT_RETRY_BASE_MS;
  });
  beforeEach(() => fake.reset());

  test('one request carries the whole email: to, sendId, Reply-To, From, the subject and both parts', async () => {
    const message = { ...email(), html: '<p>Dear Dr. Patel,</p>' };
    expect(await sender().send(message)).toEqual({ outcome: 'sent', providerStatus: 'SENT', detail: 'Sent by HubSpot' });
    expect(sendCalls()).toHaveLength(1);
    const [call] = sendCalls();
    expect(call!.authorization).toBe(`Bearer ${fake.token}`);
    expect(call!.body).toMatchObject({
      emailId: 4242,
      message: { to: 'head@oakwood.edu', sendId: message.id, replyTo: ['ana@example.org'], from: `"Ana Lopez via Mastery Parents" <${FROM}>` },
      customProperties: { subject: message.subject, body: BODY, body_html: '<p>Dear Dr. Patel,</p>', from_name: 'Ana Lopez via Mastery Parents' },
    });
    expect(fake.transactionalSends).toHaveLength(1);
  });

  test('a repeat of the same id is a no-op at HubSpot (sendId), and counts as sent', async () => {
    const message = email();
    await sender().send(message);
    expect(await sender().send(message)).toMatchObject({ outcome: 'sent', providerStatus: 'IDEMPOTENT_IGNORE' });
    expect(sendCalls()).toHaveLength(2);
    expect(fake.transactionalSends).toHaveLength(1);
  });

  test.each(injections)('%s stays on one line in the request', async (_name, overrides) => {
    await sender().send(email(overrides));
    const body = sendCalls()[0]!.body as { message: { from: string; to: string }; customProperties: { subject: string } };
    expect(body.customProperties.subject).not.toMatch(/[\r\n\u2028]/);
    expect(body.message.from).toMatch(new RegExp(`^("[^"\\r\\n<>]+"|=\\?UTF-8\\?Q\\?[^\\s]+\\?=) <${FROM}>$`, 'i'));
    expect(body.message.to).toBe('head@oakwood.edu');
  });

  test.each([
    ['INVALID_TO_ADDRESS is a bounce', 'head@oakwood.edu', 'INVALID_TO_ADDRESS', 'bounced'],
    ['BLOCKED_DOMAIN (HubSpot’s policy) fails that email only', '@oakwood.edu', 'BLOCKED_DOMAIN', 'rejected'],
    ['PREVIOUSLY_BOUNCED is a bounce', 'head@oakwood.edu', 'PREVIOUSLY_BOUNCED', 'bounced'],
    ['PORTAL_SUSPENDED is final', 'head@oakwood.edu', 'PORTAL_SUSPENDED', 'rejected'],
    ['THROTTLED is retried', 'head@oakwood.edu', 'THROTTLED', 'retry'],
    ['QUEUED is taken', 'head@oakwood.edu', 'QUEUED', 'queued'],
  ])('sendResult %s', async (_name, key, sendResult, outcome) => {
    fake.sendResults.set(key, sendResult);
    expect(await sender().send(email())).toMatchObject({ outcome, providerStatus: sendResult });
  });

  test('a refused first send makes a repeat of its sendId fail too, without sending', async () => {
    fake.sendResults.set('head@oakwood.edu', 'INVALID_TO_ADDRESS');
    const message = email();
    await sender().send(message);
    expect(await sender().send(message)).toMatchObject({ outcome: 'rejected', providerStatus: 'IDEMPOTENT_FAIL' });
  });

  test('an answer still processing (status PENDING, no sendResult yet) is taken as queued', async () => {
    fake.transactionalPending = true;
    expect(await sender().send(email())).toMatchObject({ outcome: 'queued', providerStatus: 'PENDING' });
  });

  test.each([
    ['one 429', [429]],
    ['a 500 and a 502', [500, 502]],
  ])('after %s it tries again at once and sends once', async (_name, statuses) => {
    fake.failNext(...statuses);
    expect(await sender().send(email())).toMatchObject({ outcome: 'sent', providerStatus: 'SENT' });
    expect(sendCalls()).toHaveLength(statuses.length + 1);
    expect(fake.transactionalSends).toHaveLength(1);
  });

  test.each([
    ['429s that do not stop', () => fake.failNext(429, 429, 429, 429), 'retry', 'http_429'],
    ['500s that do not stop', () => fake.failNext(500, 500, 500, 500), 'retry', 'http_500'],
    ['an outage (503)', () => (fake.down = true), 'retry', 'http_503'],
    ['a 400 (the request is not valid)', () => fake.failNext(400), 'rejected', 'http_400'],
  ])('%s', async (_name, arrange, outcome, providerStatus) => {
    arrange();
    expect(await sender().send(email())).toMatchObject({ outcome, providerStatus });
    expect(fake.transactionalSends).toEqual([]);
  });

  test('a wrong token waits for the configuration to be fixed, and is never in the result', async () => {
    const result = await hubspotSender({ accessToken: 'pat-na1-wrong-token', emailId: 4242, timeoutMs: 3000 }).send(email());
    expect(result).toMatchObject({ outcome: 'retry', providerStatus: 'http_401' });
    expect(JSON.stringify(result)).not.toContain('pat-na1');
  });

  test('a HubSpot that answers too slowly is retried', async () => {
    fake.delayMs = 1500;
    expect(await sender(300).send(email())).toMatchObject({ outcome: 'retry', providerStatus: 'timeout' });
  });

  test('the fake refuses a request without a valid recipient, as HubSpot does', async () => {
    const response = await fetch(`${fake.url}/marketing/v3/transactional/single-email/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ emailId: 4242, message: { to: 'not an address', replyTo: 'ana@example.org' } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { 'message.to': expect.any(Array), 'message.replyTo': expect.any(Array) },
    });
  });
});

describe('mailSender() chooses from the configuration', () => {
  const names = [
    'MAIL_SENDER',
    'MAIL_FROM_ADDRESS',
    'SCHOOL_EMAIL_SENDER',
    'SCHOOL_EMAIL_FROM_ADDRESS',
    'DKIM_PRIVATE_KEY',
    'DKIM_SELECTOR',
    'DKIM_DOMAIN',
    'HUBSPOT_ACCESS_TOKEN',
    'HUBSPOT_TRANSACTIONAL_EMAIL_ID',
    'SMTP_URL',
    'SMTP_HOST',
    'SMTP_PORT',
    'SMTP_USER',
    'SMTP_PASS',
    'SMTP_SECURE',
  ];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const hubspot = { HUBSPOT_ACCESS_TOKEN: 'token', HUBSPOT_TRANSACTIONAL_EMAIL_ID: '4242' };
  const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
  const from = { MAIL_FROM_ADDRESS: FROM };

  test.each([
    ['nothing configured', {}, null],
    ['a From address alone', from, null],
    ['HubSpot without a From address', hubspot, null],
    ['a HubSpot token without a transactional email', { ...from, HUBSPOT_ACCESS_TOKEN: 'token' }, null],
    ['HubSpot single-send', { ...from, ...hubspot }, 'hubspot'],
    ['an SMTP URL', { ...from, ...smtp }, 'smtp'],
    ['an SMTP host', { ...from, SMTP_HOST: 'smtp.postmarkapp.com', SMTP_USER: 'u', SMTP_PASS: 'p' }, 'smtp'],
    ['both, HubSpot first', { ...from, ...hubspot, ...smtp }, 'hubspot'],
    ['both, SMTP chosen', { ...from, ...hubspot, ...smtp, MAIL_SENDER: 'smtp' }, 'smtp'],
    ['both, SMTP chosen by the older names', { SCHOOL_EMAIL_FROM_ADDRESS: FROM, ...hubspot, ...smtp, SCHOOL_EMAIL_SENDER: 'smtp' }, 'smtp'],
    ['HubSpot chosen but not configured', { ...from, ...smtp, MAIL_SENDER: 'hubspot' }, null],
  ])('%s', (_name, env: Record<string, string>, kind) => {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    expect(mailSender()?.kind ?? null).toBe(kind);
  });

  test.each([
    ['an unknown sender', { ...from, MAIL_SENDER: 'carrier-pigeon' }, /MAIL_SENDER/],
    ['a From that is not an address', { MAIL_FROM_ADDRESS: 'Mastery Parents' }, /MAIL_FROM_ADDRESS/],
    ['an email id that is not HubSpot’s', { ...from, ...hubspot, HUBSPOT_TRANSACTIONAL_EMAIL_ID: 'welcome' }, /HUBSPOT_TRANSACTIONAL_EMAIL_ID/],
    ['an SMTP URL of another scheme', { ...from, SMTP_URL: 'http://mail.example' }, /SMTP_URL/],
    ['a DKIM key without its selector and domain', { ...from, ...smtp, DKIM_PRIVATE_KEY: 'key' }, /DKIM_/],
  ])('%s is a configuration error naming the variable', (_name, env: Record<string, string>, message) => {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    expect(() => mailSender()).toThrow(message);
  });
});

describe('DKIM: signed when configured, verified by a real verifier', () => {
  let sink: SmtpFake;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dkim = { domainName: 'masteryparents.example', keySelector: 'mp2026', privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() };
  // The selector's DNS record, as the domain would publish it (mailauth asks this resolver, not the network).
  const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const resolver = async (name: string, type: string) => {
    if (type === 'TXT' && name === 'mp2026._domainkey.masteryparents.example') return [[record]];
    throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
  };

  beforeAll(async () => {
    sink = await startSmtpFake();
  });
  afterAll(() => sink.close());
  beforeEach(() => sink.reset());

  test('a signed email passes DKIM for the organisation’s domain, headers and body', async () => {
    await smtpSender({ smtp: { url: sink.smtpUrl }, dkim, timeoutMs: 3000 }).send({
      ...email(),
      html: '<p>Dear Dr. Patel,</p>',
      unsubscribeUrl: 'https://site.example/stop?token=x',
    });
    const result = await authenticate(sink.messages[0]!.raw, { resolver, trustReceived: false, sender: FROM });
    expect(result.dkim.results).toHaveLength(1);
    expect(result.dkim.results[0]).toMatchObject({ status: { result: 'pass' }, signingDomain: 'masteryparents.example', selector: 'mp2026' });
  });

  test('the signature covers List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 §4): changing the one-click header fails it', async () => {
    await smtpSender({ smtp: { url: sink.smtpUrl }, dkim, timeoutMs: 3000 }).send({ ...email(), unsubscribeUrl: 'https://site.example/stop?token=x' });
    const raw = sink.messages[0]!.raw;
    const signature = /^DKIM-Signature:[\s\S]*?(?=\r?\n\S)/im.exec(raw)![0].replace(/\s+/g, '');
    const signed = /;h=([^;]+)/.exec(signature)![1]!.toLowerCase().split(':');
    expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));
    const tampered = raw.replace('List-Unsubscribe-Post: List-Unsubscribe=One-Click', 'List-Unsubscribe-Post: List-Unsubscribe=Two-Click');
    expect(tampered).not.toBe(raw);
    const result = await authenticate(tampered, { resolver, trustReceived: false, sender: FROM });
    expect(result.dkim.results[0]!.status.result).not.toBe('pass');
  });

  test('a changed body fails the same check (the verifier is not a rubber stamp)', async () => {
    await smtpSender({ smtp: { url: sink.smtpUrl }, dkim, timeoutMs: 3000 }).send(email());
    const tampered = sink.messages[0]!.raw.replace('Warm regards', 'Wire $5,000');
    const result = await authenticate(tampered, { resolver, trustReceived: false, sender: FROM });
    // mailauth reports a body that no longer matches its signed hash as not passing ("neutral", body hash did not verify).
    expect(result.dkim.results[0]!.status.result).not.toBe('pass');
    expect(result.dkim.results[0]!.status.comment).toMatch(/body hash/i);
  });

  test('without DKIM settings nothing is signed', async () => {
    await smtpSender({ smtp: { url: sink.smtpUrl }, timeoutMs: 3000 }).send(email());
    expect(sink.messages[0]!.headerLines.map((header) => header.key)).not.toContain('dkim-signature');
  });
});
