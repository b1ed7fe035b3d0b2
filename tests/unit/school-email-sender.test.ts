/**
 * The school email senders: each request carries the whole message (recipient, subject, body,
 * From name, Reply-To) and the outbox id that makes a repeat a no-op. SMTP is read from the wire of
 * a real SMTP server on loopback; HubSpot's single-send from its fake, which speaks the documented
 * contract (at most one email per sendId) and can fail like HubSpot.
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { hubspotSender, schoolEmailSender, smtpSender, type SchoolEmail } from '../../src/server/school-email-sender';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp';

const FROM = 'schools@masteryparents.example';
const BODY = 'Dear Dr. Patel,\n\nMy name is Ana Lopez, and my child Leo is in 5th grade at Oakwood Academy.\n\nWarm regards,\nAna Lopez';

const email = (overrides: Partial<SchoolEmail> = {}): SchoolEmail => ({
  id: `9998-${crypto.randomUUID()}`,
  to: 'head@oakwood.edu',
  replyTo: 'ana@example.org',
  parentName: 'Ana Lopez',
  subject: 'How Oakwood Academy can unlock mastery learning for every student',
  body: BODY,
  ...overrides,
});

/** Attacks through the fields that reach a header. */
const injections: Array<[string, Partial<SchoolEmail>]> = [
  ['a Bcc line in the subject', { subject: 'Hello\r\nBcc: boss@evil.example' }],
  ['a bare LF header in the subject', { subject: 'Hello\nX-Injected: yes' }],
  ['a Bcc line in the parent’s name', { parentName: 'Ana\r\nBcc: boss@evil.example' }],
  ['quotes and an address in the parent’s name', { parentName: 'Ana" <boss@evil.example>, "x' }],
  ['a line separator in the subject', { subject: 'Hello\u2028Bcc: boss@evil.example' }],
];

describe('SMTP, read from the wire of a real SMTP server', () => {
  let sink: SmtpFake;
  const sender = (overrides: { smtp?: { url: string } | { host: string; port: number; secure: boolean; user?: string; pass?: string }; timeoutMs?: number } = {}) =>
    smtpSender({ smtp: overrides.smtp ?? { url: sink.smtpUrl }, fromAddress: FROM, organisation: 'Mastery Parents', timeoutMs: overrides.timeoutMs ?? 3000 });

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
    expect(received!.headerLines.map((header) => header.key)).not.toContain('list-unsubscribe');
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

  test.each([
    ['550 (mailbox unavailable) is final', [550], { outcome: 'rejected', providerStatus: '550' }],
    ['553 (mailbox name not allowed) is final', [553], { outcome: 'rejected', providerStatus: '553' }],
    ['451 (try later) is retried', [451], { outcome: 'retry', providerStatus: '451' }],
    ['452 (storage) is retried', [452], { outcome: 'retry', providerStatus: '452' }],
  ])('%s', async (_name, codes, expected) => {
    sink.failNext(...codes);
    expect(await sender().send(email())).toMatchObject(expected);
    expect(sink.messages).toEqual([]);
  });

  test('a mail server that answers too slowly is retried', async () => {
    sink.delayMs = 1500;
    expect(await sender({ timeoutMs: 300 }).send(email())).toMatchObject({ outcome: 'retry', providerStatus: 'timeout' });
  });

  test('a mail server that is not there is retried', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sender({ smtp: { url: `smtp://127.0.0.1:${port}` } }).send(email())).toMatchObject({ outcome: 'retry', providerStatus: expect.stringMatching(/^E(CONNECTION|SOCKET)$/) });
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
  const sender = (timeoutMs = 3000) => hubspotSender({ accessToken: fake.token, emailId: 4242, fromAddress: FROM, organisation: 'Mastery Parents', timeoutMs });
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

  test('one request carries the whole message: to, sendId, Reply-To, From name, the composed subject and body', async () => {
    const message = email();
    expect(await sender().send(message)).toEqual({ outcome: 'sent', providerStatus: 'SENT', detail: 'Sent by HubSpot' });
    expect(sendCalls()).toHaveLength(1);
    const [call] = sendCalls();
    expect(call!.authorization).toBe(`Bearer ${fake.token}`);
    expect(call!.body).toMatchObject({
      emailId: 4242,
      message: { to: 'head@oakwood.edu', sendId: message.id, replyTo: ['ana@example.org'], from: `"Ana Lopez via Mastery Parents" <${FROM}>` },
      customProperties: { subject: message.subject, body: BODY, from_name: 'Ana Lopez via Mastery Parents' },
    });
    expect((call!.body as { customProperties: { body_html: string } }).customProperties.body_html).toContain('<p>Dear Dr. Patel,</p>');
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
    expect(body.message.from).toMatch(new RegExp(`^"[^"\\r\\n<>]+" <${FROM}>$`));
    expect(body.message.to).toBe('head@oakwood.edu');
  });

  test.each([
    ['INVALID_TO_ADDRESS is final', 'head@oakwood.edu', 'INVALID_TO_ADDRESS', 'rejected'],
    ['BLOCKED_DOMAIN is final', '@oakwood.edu', 'BLOCKED_DOMAIN', 'rejected'],
    ['PREVIOUSLY_BOUNCED is final', 'head@oakwood.edu', 'PREVIOUSLY_BOUNCED', 'rejected'],
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
    const result = await hubspotSender({ accessToken: 'pat-na1-wrong-token', emailId: 4242, fromAddress: FROM, timeoutMs: 3000 }).send(email());
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
    expect(await response.json()).toMatchObject({ category: 'VALIDATION_ERROR', context: { 'message.to': expect.any(Array), 'message.replyTo': expect.any(Array) } });
  });
});

describe('schoolEmailSender() chooses from the configuration', () => {
  const names = ['SCHOOL_EMAIL_SENDER', 'SCHOOL_EMAIL_FROM_ADDRESS', 'HUBSPOT_ACCESS_TOKEN', 'HUBSPOT_TRANSACTIONAL_EMAIL_ID', 'SMTP_URL', 'SMTP_HOST', 'SMTP_PORT', 'SMTP_USER', 'SMTP_PASS', 'SMTP_SECURE'];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  const hubspot = { HUBSPOT_ACCESS_TOKEN: 'token', HUBSPOT_TRANSACTIONAL_EMAIL_ID: '4242' };
  const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
  const from = { SCHOOL_EMAIL_FROM_ADDRESS: FROM };

  test.each([
    ['nothing configured', {}, null],
    ['a From address alone', from, null],
    ['HubSpot without a From address', hubspot, null],
    ['a HubSpot token without a transactional email', { ...from, HUBSPOT_ACCESS_TOKEN: 'token' }, null],
    ['HubSpot single-send', { ...from, ...hubspot }, 'hubspot'],
    ['an SMTP URL', { ...from, ...smtp }, 'smtp'],
    ['an SMTP host', { ...from, SMTP_HOST: 'smtp.postmarkapp.com', SMTP_USER: 'u', SMTP_PASS: 'p' }, 'smtp'],
    ['both, HubSpot first', { ...from, ...hubspot, ...smtp }, 'hubspot'],
    ['both, SMTP chosen', { ...from, ...hubspot, ...smtp, SCHOOL_EMAIL_SENDER: 'smtp' }, 'smtp'],
    ['HubSpot chosen but not configured', { ...from, ...smtp, SCHOOL_EMAIL_SENDER: 'hubspot' }, null],
  ])('%s', (_name, env: Record<string, string>, kind) => {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    expect(schoolEmailSender()?.kind ?? null).toBe(kind);
  });

  test.each([
    ['an unknown sender', { ...from, SCHOOL_EMAIL_SENDER: 'carrier-pigeon' }, /SCHOOL_EMAIL_SENDER/],
    ['a From that is not an address', { SCHOOL_EMAIL_FROM_ADDRESS: 'Mastery Parents' }, /SCHOOL_EMAIL_FROM_ADDRESS/],
    ['an email id that is not HubSpot’s', { ...from, ...hubspot, HUBSPOT_TRANSACTIONAL_EMAIL_ID: 'welcome' }, /HUBSPOT_TRANSACTIONAL_EMAIL_ID/],
    ['an SMTP URL of another scheme', { ...from, SMTP_URL: 'http://mail.example' }, /SMTP_URL/],
  ])('%s is a configuration error naming the variable', (_name, env: Record<string, string>, message) => {
    for (const name of names) delete process.env[name];
    Object.assign(process.env, env);
    expect(() => schoolEmailSender()).toThrow(message);
  });
});
