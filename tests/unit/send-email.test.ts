/**
 * "Send via our platform": composed on the server from an accepted email-form submission, named by
 * its id and one-time token; confirmed by the parent from their own inbox; limited per school,
 * parent and pair; delivered whole, exactly once, by HubSpot's single-send (or SMTP) to the address
 * confirmed; kept 90 days.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import outboxAdmin from '../../netlify/functions/outbox.mts';
import outboxRetry from '../../netlify/functions/outbox-retry.mts';
import { purgeOutbox } from '../../netlify/functions/outbox-purge.mts';
import sendEmail, { config as sendEmailConfig } from '../../netlify/functions/send-email.mts';
import { createDraft, readDraft } from '../../src/server/email-drafts';
import { confirmationLink, readMessage, saveMessage, type OutboxMessage } from '../../src/server/outbox';
import { query, sql } from '../../src/server/db';
import { signToken } from '../../src/server/tokens';
import { noteMessages } from '../../src/lib/email/note';
import { dayInWords } from '../../src/lib/dates';
import { refusalText } from '../../src/server/platform-send';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, jsonRequest, malformedRequests } from './helpers/requests';
import { regionText, useSiteShell } from './helpers/site';

let fake: HubSpotFake;
let database: TestDatabase;
let sink: SmtpFake;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;

const values = (overrides: Record<string, string> = {}) => ({
  full_name: 'Ana Lopez',
  email: `ana${++seq}@example.org`,
  child_full_name: 'Leo Lopez',
  child_grade: '5th grade',
  school_name: 'Oakwood Academy',
  school_contact_name: 'Dr. Patel',
  school_contact_email: 'head@oakwood.edu',
  choose_how_to_send_your_email: 'Send via our platform',
  ...overrides,
});

/**
 * An accepted email-form submission's draft, as the forms function stores it; the submission has
 * made the parent a HubSpot contact (unless `contact: false`).
 */
async function draft(overrides: Record<string, string> = {}, options: { contact?: boolean } = {}) {
  const id = `sub-${Date.now()}-${++seq}`;
  const submitted = values(overrides);
  if (options.contact !== false && !fake.findContact(submitted.email)) fake.addContact(submitted.email);
  const made = await createDraft({ id, purpose: 'emailGenerator', values: submitted });
  return { id, token: made.token, values: made.draft.data, email: made.email };
}

const send = (body: unknown) => call(sendEmail, jsonRequest('/api/send-email', body));
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function confirm(token: string) {
  const response = await confirmSend(
    new Request(`http://localhost/confirm-send`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(token)}` }),
  );
  return { status: response.status, text: regionText(await response.text()) };
}
async function openLink(token: string) {
  const response = await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`));
  const html = await response.text();
  return { status: response.status, text: regionText(html), html };
}

/** The link HubSpot got for this parent (the contact property the confirmation workflow emails). */
function linkOnContact(email: string): string {
  return fake.findContact(email)!.properties.platform_send_confirmation_url!;
}
/** The school emails HubSpot's single-send sent (one per sendId). */
const sent = () => fake.transactionalSends;
const sendChoicePatches = () => fake.calls.filter((c) => c.method === 'PATCH' && (c.body as { properties: Record<string, string> }).properties.choose_how_to_send_your_email);
const patches = () => fake.calls.filter((c) => c.method === 'PATCH');

beforeAll(async () => {
  fake = await startHubSpotFake();
  database = await startTestDatabase();
  sink = await startSmtpFake();
  shell = useSiteShell();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
  process.env.SITE_URL = 'https://site.example';
  process.env.SCHOOL_EMAIL_FROM_ADDRESS = 'schools@masteryparents.example';
  process.env.HUBSPOT_TRANSACTIONAL_EMAIL_ID = '4242';
});
afterAll(async () => {
  await fake.close();
  await database.stop();
  await sink.close();
  shell.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN', 'SEND_EMAIL_BUDGET_MS', 'SITE_URL', 'PLATFORM_SEND_CONFIRMATION', 'PLATFORM_SEND_SCHOOL_DAILY_LIMIT', 'SCHOOL_EMAIL_FROM_ADDRESS', 'HUBSPOT_TRANSACTIONAL_EMAIL_ID', 'SCHOOL_EMAIL_SENDER', 'SMTP_URL'])
    delete process.env[name];
});
beforeEach(async () => {
  fake.reset();
  sink.reset();
  delete process.env.SCHOOL_EMAIL_SENDER;
  delete process.env.SMTP_URL;
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  delete process.env.SEND_EMAIL_BUDGET_MS;
  delete process.env.PLATFORM_SEND_CONFIRMATION;
  delete process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT;
  // Every test starts without sending limits used.
  await query(sql`DELETE FROM send_claims`);
  await query(sql`DELETE FROM school_daily_sends`);
  await query(sql`DELETE FROM parent_daily_sends`);
});

describe('the request names a submission, never text', () => {
  test('is routed at /api/send-email and rate-limited per IP', () => {
    expect(sendEmailConfig.path).toBe('/api/send-email');
    expect(sendEmailConfig.rateLimit).toMatchObject({ aggregateBy: expect.arrayContaining(['ip']) });
  });

  test.each(malformedRequests('/api/send-email'))('%s is refused with a 4xx', async (_name, req, status) => {
    expect((await call(sendEmail, req)).status).toBe(status);
  });

  test.each([
    ['the old free-text shape', { idempotencyKey: 'key-123456789', parentEmail: 'ana@example.org', to: 'head@oakwood.edu', subject: 'Hi', body: 'Buy now' }, 'text_not_accepted'],
    ['a token with text beside it', { submissionId: 'sub-12345678', token: 'a'.repeat(43), subject: 'Forged' }, 'text_not_accepted'],
    ['no token', { submissionId: 'sub-12345678' }, 'invalid_request'],
    ['a malformed token', { submissionId: 'sub-12345678', token: 'short' }, 'invalid_request'],
  ])('%s: 400 %s, nothing queued, nothing set on a contact', async (_name, body, code) => {
    const { status, body: answer } = await send(body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe(code);
    expect(patches()).toEqual([]);
    expect(await query(sql`SELECT id FROM outbox_messages`)).toHaveLength(0);
  });

  test('an unknown submission or another browser’s token is refused, and the draft stays sendable', async () => {
    const { id, token } = await draft();
    expect(await send({ submissionId: 'sub-unknown-1', token })).toMatchObject({ status: 404, body: { error: { code: 'unknown_submission' } } });
    expect(await send({ submissionId: id, token: 'b'.repeat(43) })).toMatchObject({ status: 403, body: { error: { code: 'invalid_token' } } });
    expect((await readDraft(id))?.draft.messageId).toBeUndefined();
    expect((await send({ submissionId: id, token })).status).toBe(202);
  });

  test('what is stored to send is exactly the email composed from the submission', async () => {
    const { id, token, email } = await draft();
    const { body } = await send({ submissionId: id, token });
    const message = (await readMessage(body.id))!.message;
    expect(message).toMatchObject({ subject: email.subject, body: email.body, to: 'head@oakwood.edu', toName: 'Dr. Patel', status: 'awaiting_confirmation' });
  });
});

describe('the parent confirms first', () => {
  test('the request stores the message, hands HubSpot a 24-hour link for the parent, and sends nothing', async () => {
    const { id, token, values: data } = await draft();
    const { status, body } = await send({ submissionId: id, token });
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'awaiting_confirmation', confirmation: { email: data.parentEmail } });
    expect(Date.parse(body.confirmation.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    // The form submission made the contact in HubSpot; here it already exists.
    expect(sent()).toEqual([]);
    const link = linkOnContact(data.parentEmail);
    expect(link).toMatch(/^https:\/\/site\.example\/confirm-send\?token=/);
    expect(fake.findContact(data.parentEmail)!.properties.platform_send_school_name).toBe('Oakwood Academy');
  });

  test('opening the link shows the email and a button, and sends nothing (a mail scanner may open it)', async () => {
    const { id, token, values: data } = await draft();
    await send({ submissionId: id, token });
    const page = await openLink(tokenOf(linkOnContact(data.parentEmail)));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm your email to Oakwood Academy');
    expect(page.text).toContain('How Oakwood Academy can unlock mastery learning for every student');
    expect(page.html).toMatch(/<form method="post" action="\/confirm-send"/);
    expect(sent()).toEqual([]);
  });

  test('confirming sends exactly once; confirming again says it is done', async () => {
    const { id, token, values: data, email } = await draft();
    await send({ submissionId: id, token });
    const link = tokenOf(linkOnContact(data.parentEmail));
    const [first, second] = await Promise.all([confirm(link), confirm(link)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.text + second.text).toContain('Your email has been sent');
    expect(sent()).toHaveLength(1);
    const messageId = (await readDraft(id))!.draft.messageId!;
    expect(sent()[0]).toMatchObject({
      emailId: 4242,
      message: { to: 'head@oakwood.edu', sendId: messageId, replyTo: [data.parentEmail], from: '"Ana Lopez via Mastery Parents" <schools@masteryparents.example>' },
      customProperties: { subject: email.subject, body: email.body },
    });
    expect((await readMessage(messageId))!.message.delivery).toMatchObject({ sender: 'hubspot', outcome: 'sent', providerStatus: 'SENT' });
    // The contact-property workflow is no longer the trigger: nothing sets the send choice.
    expect(sendChoicePatches()).toEqual([]);
    const again = await confirm(link);
    expect(again.text).toContain('Your email has been sent');
    expect(sent()).toHaveLength(1);
  });

  test('the token is single-use: a second request for the same draft is refused, also when both come at once', async () => {
    const { id, token } = await draft();
    const answers = await Promise.all([send({ submissionId: id, token }), send({ submissionId: id, token })]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('already_requested');
    expect((await query(sql`SELECT id FROM outbox_messages`)).length).toBeGreaterThanOrEqual(1);
    const third = await send({ submissionId: id, token });
    expect(third).toMatchObject({ status: 409, body: { error: { code: 'already_requested' } } });
  });

  test('an expired link sends nothing and says what to do; the message is marked not confirmed in time', async () => {
    const { id, token } = await draft();
    const { body } = await send({ submissionId: id, token });
    const message = (await readMessage(body.id))!.message;
    const expired = signToken({ purpose: 'confirm-send', id: message.id, exp: Date.now() - 1000 });
    const page = await confirm(expired);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    expect(page.text).toContain('Fill in the form again');
    expect(sent()).toEqual([]);
    expect((await readMessage(body.id))!.message).toMatchObject({ status: 'failed', lastError: 'not_confirmed_in_time' });
  });

  test.each([
    ['a forged token', () => signToken({ purpose: 'confirm-send', id: 'x', exp: Date.now() + 1e6 }).replace(/.{4}$/, 'AAAA')],
    ['a token for something else', () => signToken({ purpose: 'school-answer', id: 'x', exp: Date.now() + 1e6 })],
    ['a token for no message', () => signToken({ purpose: 'confirm-send', id: 'no-such-message', exp: Date.now() + 1e6 })],
    ['no token', () => ''],
  ])('%s gets "This link is not valid"', async (_name, make) => {
    const page = await confirm(make());
    expect(page.status).toBe(404);
    expect(page.text).toContain('This link is not valid');
    expect(sent()).toEqual([]);
  });

  test('with PLATFORM_SEND_CONFIRMATION=off the email is sent at once', async () => {
    process.env.PLATFORM_SEND_CONFIRMATION = 'off';
    const { id, token } = await draft();
    expect(await send({ submissionId: id, token })).toMatchObject({ status: 200, body: { status: 'sent' } });
    expect(sent()).toHaveLength(1);
  });
});

describe('a personal note', () => {
  test('stands in the email sent, in its fixed place', async () => {
    const { id, token, values: data } = await draft();
    const note = 'Leo finishes his maths in ten minutes and then waits.';
    await send({ submissionId: id, token, note });
    await confirm(tokenOf(linkOnContact(data.parentEmail)));
    const body = String(sent()[0]!.customProperties.body);
    const lines = body.split('\n');
    // Whichever letter the school's turn gave: "Dear …,", a blank line, the introduction, a blank line.
    const intro = lines.findIndex((line) => line.startsWith('Dear ')) + 2;
    expect(lines[intro]).toContain('Ana Lopez');
    expect(lines[intro + 2]).toBe(note);
  });

  test.each([
    ['a link', 'See https://cheap.example.com now', noteMessages.link],
    ['an address', 'Reply to ana@example.org', noteMessages.email],
    ['601 characters', 'x'.repeat(601), noteMessages.tooLong],
  ])('with %s is refused with a clear message; nothing queued, the draft still sendable', async (_name, note, message) => {
    const { id, token } = await draft();
    expect(await send({ submissionId: id, token, note })).toMatchObject({ status: 400, body: { error: { code: 'invalid_note', message } } });
    expect(patches()).toEqual([]);
    expect((await send({ submissionId: id, token })).status).toBe(202);
  });
});

describe('limits', () => {
  async function requestAndConfirm(overrides: Record<string, string>) {
    const made = await draft(overrides);
    const answer = await send({ submissionId: made.id, token: made.token });
    if (answer.status !== 202) return { answer };
    const message = (await readMessage(answer.body.id))!.message;
    return { answer, page: await confirm(tokenOf(confirmationLink(message)!)), message };
  }

  // The answer to a request never says what this parent did before or how full a day is: the
  // parent learns it behind the link in their own inbox.
  const sameAnswer = (answer: Awaited<ReturnType<typeof send>>) => {
    expect(answer.status).toBe(202);
    expect(Object.keys(answer.body).sort()).toEqual(['confirmation', 'id', 'status']);
    expect(answer.body.status).toBe('awaiting_confirmation');
  };

  test('one platform send per parent and school contact; the second request is answered like the first', async () => {
    const first = await requestAndConfirm({ email: 'pair@example.org' });
    expect(first.page?.text).toContain('Your email has been sent');
    const second = await requestAndConfirm({ email: 'pair@example.org' });
    sameAnswer(second.answer);
    // The school as the parent wrote it, and the day of the earlier email (en-GB, UTC).
    expect(second.page?.text).toContain(`You already wrote to Oakwood Academy on ${dayInWords((await readMessage(first.message!.id))!.message.sentAt!)}`);
    expect(second.page?.text).toContain('copy your email');
    expect(sent()).toHaveLength(1);
  });

  test('at most 5 a day to one school contact across parents; the sixth is told behind their link', async () => {
    for (let n = 1; n <= 5; n++) expect((await requestAndConfirm({ school_contact_email: 'busy@school.edu' })).page?.status).toBe(200);
    const sixth = await requestAndConfirm({ school_contact_email: 'busy@school.edu' });
    sameAnswer(sixth.answer);
    expect(sixth.page?.text).toContain('already received the most emails');
    expect((await readMessage(sixth.message!.id))!.message).toMatchObject({ status: 'failed', lastError: 'school_limit' });
    expect(sent()).toHaveLength(5);
  });

  test('at most 3 a day from one parent; requests waiting for their confirmation count', async () => {
    const waiting = [];
    for (let n = 1; n <= 3; n++) {
      const made = await draft({ email: 'keen@example.org', school_contact_email: `head${n}@school.edu` });
      waiting.push(await send({ submissionId: made.id, token: made.token }));
    }
    const fourth = await requestAndConfirm({ email: 'keen@example.org', school_contact_email: 'head4@school.edu' });
    sameAnswer(fourth.answer);
    expect(fourth.page?.text).toContain('the most emails our platform sends for one parent');
    expect(sent()).toHaveLength(0);
  });

  test('exact under 50 parents confirming at once for one school: 5 sent, 45 told the limit', async () => {
    const requested: OutboxMessage[] = [];
    for (let n = 0; n < 50; n++) {
      const made = await draft({ school_contact_email: 'rush@school.edu' });
      const answer = await send({ submissionId: made.id, token: made.token });
      expect(answer.status).toBe(202);
      requested.push((await readMessage(answer.body.id))!.message);
    }
    const pages = await Promise.all(requested.map((message) => confirm(tokenOf(confirmationLink(message)!))));
    expect(pages.filter((page) => page.text.includes('Your email has been sent'))).toHaveLength(5);
    expect(pages.filter((page) => page.text.includes('already received the most emails'))).toHaveLength(45);
    expect(sent()).toHaveLength(5);
    expect(await query(sql`SELECT sends FROM school_daily_sends`)).toEqual([{ sends: 5 }]);
    expect(await query(sql`SELECT message_id FROM send_claims`)).toHaveLength(5);
    // A hundred requests one after another on a busy two-core machine; speed is the bench's business.
  }, 90_000);
});

describe('the "already wrote" notice names the school and the day', () => {
  test.each([
    ['late in the UTC day', '2026-11-24T23:30:00.000Z', 'You already wrote to Oakwood Academy on 24 November 2026'],
    ['early in the year', '2027-01-02T00:05:00.000Z', 'You already wrote to Oakwood Academy on 2 January 2027'],
  ])('%s', (_name, earlierAt, words) => {
    const message = { schoolName: 'Oakwood Academy', confirmation: { expiresAt: earlierAt, link: 'delivered' as const, linkAttempts: 1, refusal: 'already_sent' as const, earlierAt } };
    expect(refusalText(message, 'already_sent')).toContain(words);
  });

  test('without a known day it still names the school; the daily caps keep their words', () => {
    expect(refusalText({ schoolName: 'Elm School' }, 'already_sent')).toMatch(/^You already wrote to Elm School through our platform/);
    expect(refusalText({ schoolName: 'Elm School' }, 'school_limit')).toContain('already received the most emails');
  });
});

describe('with PLATFORM_SEND_CONFIRMATION=off a refusal tells nobody what this parent did', () => {
  beforeEach(() => {
    process.env.PLATFORM_SEND_CONFIRMATION = 'off';
  });
  const noticeFor = async (email: string) => openLink(tokenOf(linkOnContact(email)));
  const shape = (answer: Awaited<ReturnType<typeof send>>) => ({ status: answer.status, keys: Object.keys(answer.body).sort(), sent: answer.body.status });

  test('writing to the same school again: answered like the first, nothing more to the school, the parent told in their inbox with the day', async () => {
    const one = await draft({ email: 'again-off@example.org', school_contact_email: 'head@again.edu' });
    const first = await send({ submissionId: one.id, token: one.token });
    expect(first).toMatchObject({ status: 200, body: { status: 'sent' } });
    const two = await draft({ email: 'again-off@example.org', school_contact_email: 'HEAD+x@again.edu' });
    const second = await send({ submissionId: two.id, token: two.token });
    expect(shape(second)).toEqual(shape(first));
    expect(second.body.id).not.toBe(first.body.id);
    expect(sent()).toHaveLength(1);
    const sentAt = (await readMessage(first.body.id))!.message.sentAt!;
    const notice = await noticeFor('again-off@example.org');
    expect(notice.status).toBe(409);
    expect(notice.text).toContain(`You already wrote to Oakwood Academy on ${dayInWords(sentAt)}`);
    // Confirming the notice sends nothing either.
    expect((await confirm(tokenOf(linkOnContact('again-off@example.org')))).text).toContain('You already wrote to');
    expect(sent()).toHaveLength(1);
  });

  test("the parent's daily cap: the fourth is answered like the first three, and sent nowhere", async () => {
    const answers = [];
    for (let n = 1; n <= 4; n++) {
      const made = await draft({ email: 'cap-off@example.org', school_contact_email: `head${n}@cap-off.edu` });
      answers.push(await send({ submissionId: made.id, token: made.token }));
    }
    expect(new Set(answers.map((answer) => JSON.stringify(shape(answer))))).toEqual(new Set([JSON.stringify(shape(answers[0]!))]));
    expect(sent()).toHaveLength(3);
    expect((await noticeFor('cap-off@example.org')).text).toContain('the most emails our platform sends for one parent');
  });

  test("the school's daily cap is answered like an accepted send too (which refusal came first would tell)", async () => {
    process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT = '1';
    const first = await draft({ school_contact_email: 'full@off.edu' });
    const accepted = await send({ submissionId: first.id, token: first.token });
    const late = await draft({ school_contact_email: 'full@off.edu' });
    const refused = await send({ submissionId: late.id, token: late.token });
    expect(shape(refused)).toEqual(shape(accepted));
    expect(sent()).toHaveLength(1);
    expect((await noticeFor(late.values.parentEmail)).text).toContain('already received the most emails');
  });

  test('without a sender an accepted send and a refusal are both 202 queued', async () => {
    delete process.env.SCHOOL_EMAIL_FROM_ADDRESS;
    try {
      const one = await draft({ email: 'nosender-off@example.org', school_contact_email: 'head@nosender.edu' });
      const first = await send({ submissionId: one.id, token: one.token });
      const two = await draft({ email: 'nosender-off@example.org', school_contact_email: 'head@nosender.edu' });
      const second = await send({ submissionId: two.id, token: two.token });
      expect(first).toMatchObject({ status: 202, body: { status: 'queued' } });
      expect(shape(second)).toEqual(shape(first));
    } finally {
      process.env.SCHOOL_EMAIL_FROM_ADDRESS = 'schools@masteryparents.example';
      // Its queued message is no work for the retry runs of later tests.
      await query(sql`DELETE FROM outbox_messages WHERE record->>'parentEmail' = 'nosender-off@example.org'`);
    }
  });

  test('the notices are under the 3-a-day allowance of the parent’s address', async () => {
    const answers = [];
    await send(await draft({ email: 'flood-off@example.org', school_contact_email: 'head@flood.edu' }).then((made) => ({ submissionId: made.id, token: made.token })));
    for (let n = 1; n <= 5; n++) {
      const made = await draft({ email: 'flood-off@example.org', school_contact_email: 'head@flood.edu' });
      answers.push(await send({ submissionId: made.id, token: made.token }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const links = fake.calls.filter((c) => c.method === 'PATCH' && (c.body as { properties: Record<string, string> }).properties.platform_send_confirmation_url);
    expect(links).toHaveLength(3);
    expect(sent()).toHaveLength(1);
  });
});

describe('limits count people, not strings', () => {
  test.each([
    ['a +tag and capitals on the school address', { email: 'one@example.org', school_contact_email: 'head@variant.edu' }, { email: 'one@example.org', school_contact_email: 'HEAD+1@Variant.edu' }],
    ["Gmail's dots, a +tag and googlemail on the parent", { email: 'sam@gmail.com', school_contact_email: 'head@dots.edu' }, { email: 's.a.m+x@googlemail.com', school_contact_email: 'head@dots.edu' }],
  ])('%s: one pair, sent once', async (_name, first, second) => {
    const one = await draft(first);
    const a = await send({ submissionId: one.id, token: one.token });
    expect((await confirm(tokenOf(confirmationLink((await readMessage(a.body.id))!.message)!))).text).toContain('Your email has been sent');
    const two = await draft(second);
    const b = await send({ submissionId: two.id, token: two.token });
    expect(b.status).toBe(202);
    expect((await confirm(tokenOf(confirmationLink((await readMessage(b.body.id))!.message)!))).text).toContain('You already wrote to Oakwood Academy on');
    expect(sent()).toHaveLength(1);
  });
});

describe('every email the site causes is under a limit', () => {
  test('at most 3 confirmation emails a day to one address, however many requests name it', async () => {
    const answers = [];
    for (let n = 1; n <= 5; n++) {
      const made = await draft({ email: 'victim@example.org', school_contact_email: `head${n}@bomb.edu` });
      answers.push(await send({ submissionId: made.id, token: made.token }));
    }
    // Every request is answered alike; only three links were handed to HubSpot for an email.
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202]);
    const links = fake.calls.filter((c) => c.method === 'PATCH' && (c.body as { properties: Record<string, string> }).properties.platform_send_confirmation_url);
    expect(links).toHaveLength(3);
    const held = await Promise.all(answers.slice(3).map(async (answer) => (await readMessage(answer.body.id))!.message));
    expect(held.map((message) => [message.confirmation?.link, message.lastError])).toEqual([
      ['limit', 'recipient_limit'],
      ['limit', 'recipient_limit'],
    ]);
  });
});

describe('each message sent whole, to the address confirmed', () => {
  test('a later form or a changed contact cannot redirect a confirmed message', async () => {
    const made = await draft({ email: 'bound@example.org' });
    await send({ submissionId: made.id, token: made.token });
    const link = tokenOf(linkOnContact(made.values.parentEmail));
    // Someone who knows the parent's address fills the form again naming another school contact,
    // and the contact's properties now name that address.
    const other = await draft({ email: 'bound@example.org', school_contact_email: 'boss@evil.example', school_contact_name: 'Boss' });
    Object.assign(fake.findContact(made.values.parentEmail)!.properties, { school_contact_email: 'boss@evil.example', generated_email_body: 'Wire $5,000' });
    expect((await confirm(link)).text).toContain('Your email has been sent');
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.message.to).toBe('head@oakwood.edu');
    expect(sent()[0]!.customProperties.body).toBe(made.email.body);
    expect(other.email.body).not.toBe(made.email.body);
  });

  test('over SMTP the school gets it from the wire: To, Reply-To, From, one-line Subject and the composed body', async () => {
    process.env.SCHOOL_EMAIL_SENDER = 'smtp';
    process.env.SMTP_URL = sink.smtpUrl;
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    expect((await confirm(tokenOf(linkOnContact(made.values.parentEmail)))).text).toContain('Your email has been sent');
    expect(sent()).toEqual([]);
    expect(sink.messages).toHaveLength(1);
    const [received] = sink.messages;
    const id = (await readDraft(made.id))!.draft.messageId!;
    expect(received).toMatchObject({
      envelope: { rcptTo: ['head@oakwood.edu'] },
      to: [{ address: 'head@oakwood.edu' }],
      replyTo: [{ name: 'Ana Lopez', address: made.values.parentEmail }],
      from: [{ name: 'Ana Lopez via Mastery Parents', address: 'schools@masteryparents.example' }],
      subject: made.email.subject,
      messageId: `<${id}@masteryparents.example>`,
    });
    expect(received!.text.trim()).toBe(made.email.body.trim());
    expect((await readMessage(id))!.message).toMatchObject({ status: 'sent', delivery: { sender: 'smtp', outcome: 'sent', providerStatus: '250' } });
  });

  test('a school address the mail server refuses (550) fails the message; a deferral (451) waits for the retry run', async () => {
    process.env.SCHOOL_EMAIL_SENDER = 'smtp';
    process.env.SMTP_URL = sink.smtpUrl;
    const refused = await draft();
    await send({ submissionId: refused.id, token: refused.token });
    sink.failNext(550);
    expect((await confirm(tokenOf(linkOnContact(refused.values.parentEmail)))).status).toBe(409);
    expect((await readMessage((await readDraft(refused.id))!.draft.messageId!))!.message).toMatchObject({ status: 'failed', lastError: 'smtp_550' });

    const deferred = await draft();
    await send({ submissionId: deferred.id, token: deferred.token });
    sink.failNext(451);
    expect((await confirm(tokenOf(linkOnContact(deferred.values.parentEmail)))).text).toContain('Your email is confirmed');
    expect((await readMessage((await readDraft(deferred.id))!.draft.messageId!))!.message).toMatchObject({ status: 'queued', lastError: 'smtp_451' });
  });
});

describe('HubSpot slow, failing or not there', () => {
  async function confirmed() {
    const made = await draft();
    const answer = await send({ submissionId: made.id, token: made.token });
    const message = (await readMessage(answer.body.id))!.message;
    return { made, message, page: await confirm(tokenOf(confirmationLink(message)!)) };
  }

  test.each([
    ['a 429', [429]],
    ['a 500', [500]],
  ])('retries after %s and sends once', async (_name, statuses) => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    const link = tokenOf(linkOnContact(made.values.parentEmail));
    fake.failNext(...statuses);
    expect((await confirm(link)).text).toContain('Your email has been sent');
    expect(sent()).toHaveLength(1);
  });

  test('a HubSpot that keeps failing leaves it queued; the retry run delivers it exactly once', async () => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    const link = tokenOf(linkOnContact(made.values.parentEmail));
    // Every try of the request's own attempt (with its quick retries) fails.
    fake.failNext(503, 503, 503, 503);
    const page = await confirm(link);
    expect(page.text).toContain('Your email is confirmed');
    const id = (await readDraft(made.id))!.draft.messageId!;
    expect((await readMessage(id))!.message).toMatchObject({ status: 'queued', attempts: 1, lastError: 'hubspot_503' });
    const { message, etag } = (await readMessage(id))!;
    await saveMessage({ ...message, nextAttemptAt: new Date(Date.now() - 1000).toISOString() }, etag);
    await outboxRetry();
    await outboxRetry();
    expect((await readMessage(id))!.message.status).toBe('sent');
    expect(sent()).toHaveLength(1);
  });

  test('a permanent refusal fails the message; the admin can retry it', async () => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    fake.failNext(400);
    const page = await confirm(tokenOf(linkOnContact(made.values.parentEmail)));
    expect(page.status).toBe(409);
    expect(page.text).toContain('copy the email below');
    const id = (await readDraft(made.id))!.draft.messageId!;
    expect((await readMessage(id))!.message).toMatchObject({ status: 'failed', lastError: 'hubspot_400' });
    const cookie = await signIn();
    const retried = await callAdmin(outboxAdmin, `/api/admin/outbox/${id}/retry`, { method: 'POST', cookie });
    expect(retried.status).toBe(200);
    expect(retried.body.message.status).toBe('sent');
    expect(sent()).toHaveLength(1);
  });

  test('without HubSpot the whole path still walks: the admin sees the link, confirming queues it, HubSpot later delivers it', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const made = await draft();
    expect(await send({ submissionId: made.id, token: made.token })).toMatchObject({ status: 202, body: { status: 'awaiting_confirmation' } });
    const cookie = await signIn();
    const list = await callAdmin(outboxAdmin, '/api/admin/outbox', { cookie });
    const listed = list.body.messages.find((m: { draftId: string }) => m.draftId === made.id);
    expect(listed).toMatchObject({ status: 'awaiting_confirmation', confirmation: { link: 'not_configured' }, subject: made.email.subject });
    expect(listed.confirmationLink).toMatch(/\/confirm-send\?token=/);
    const page = await confirm(tokenOf(listed.confirmationLink));
    expect(page.text).toContain('Your email is confirmed');
    expect((await readMessage(listed.id))!.message).toMatchObject({ status: 'queued', lastError: 'sender_not_configured' });

    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    fake.addContact(made.values.parentEmail);
    await outboxRetry();
    expect((await readMessage(listed.id))!.message.status).toBe('sent');
    expect(sent()).toHaveLength(1);
  });

  test('the outbox tab needs a signed-in admin', async () => {
    expect((await callAdmin(outboxAdmin, '/api/admin/outbox')).status).toBe(401);
  });

  test('a confirmed message that was delivered cannot be retried', async () => {
    const { message } = await confirmed();
    const cookie = await signIn();
    expect((await callAdmin(outboxAdmin, `/api/admin/outbox/${message.id}/retry`, { method: 'POST', cookie })).status).toBe(409);
  });
});

describe('kept 90 days', () => {
  test('a sent message is deleted 90 days after sending, with its pair; unconfirmed ones expire; old drafts go', async () => {
    const made = await draft({ email: 'old@example.org' });
    const answer = await send({ submissionId: made.id, token: made.token });
    const message = (await readMessage(answer.body.id))!.message;
    await confirm(tokenOf(confirmationLink(message)!));
    const waiting = await draft();
    const waitingAnswer = await send({ submissionId: waiting.id, token: waiting.token });

    const day = 24 * 3600_000;
    const counts = await purgeOutbox(new Date(Date.now() + 91 * day));
    expect(counts.messages).toBeGreaterThanOrEqual(0);
    // The unconfirmed one was first marked, then (a later run) deleted with the rest.
    await purgeOutbox(new Date(Date.now() + 182 * day));
    expect(await readMessage(message.id)).toBeUndefined();
    expect(await readMessage(waitingAnswer.body.id)).toBeUndefined();
    expect(await readDraft(made.id)).toBeUndefined();

    // The pair is free again: the same parent may write to the same school.
    const again = await draft({ email: 'old@example.org' });
    expect((await send({ submissionId: again.id, token: again.token })).status).toBe(202);
  });

  test('nothing recent is purged', async () => {
    const made = await draft();
    const answer = await send({ submissionId: made.id, token: made.token });
    await purgeOutbox(new Date(Date.now() + 3600_000));
    expect((await readMessage(answer.body.id))!.message.status).toBe('awaiting_confirmation');
    expect(await readDraft(made.id)).toBeDefined();
  });
});
