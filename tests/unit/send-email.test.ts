import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import mailDeliver from '../../netlify/functions/mail-deliver.mts';
import letterAddress from '../../netlify/functions/letter-address.mts';
import mailAdmin from '../../netlify/functions/mail-admin.mts';
import outboxAdmin from '../../netlify/functions/outbox.mts';
import { purgeOutbox } from '../../netlify/functions/outbox-purge.mts';
import sendEmail, { config as sendEmailConfig } from '../../netlify/functions/send-email.mts';
import { dayInWords } from '../../src/server/dates';
import { noteMessages } from '../../src/lib/shared/email/note';
import { query, sql } from '../../src/server/db';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { confirmationLink } from '../../src/server/links';
import { readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { emailKinds } from '../../src/server/mail/states';
import { refusalTextIn } from '../../src/server/letter/request';
import { REQUESTS_PER_NETWORK_DAY } from '../../src/server/letter/send-limits';
import { signToken } from '../../src/server/tokens';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { linkIn, MAIL_FROM, tokenOf, useMail, type MailCatcher } from './helpers/mail';
import { MAILGUN_KEY, mailgunReport, permanentFailure, postMailgunReport } from './helpers/mailgun';
import { jsonRequest, malformedRequests } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';
import { allowed } from './helpers/time';

let fake: HubSpotFake;
let database: TestDatabase;
let mail: MailCatcher;
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

/** An accepted email-form submission's draft, as the forms function stores it. */
async function draft(overrides: Record<string, string> = {}) {
  const id = `sub-${Date.now()}-${++seq}`;
  const made = await createDraft({ id, purpose: 'emailGenerator', values: values(overrides) });
  return { id, token: made.token, values: made.draft.data, email: made.email };
}

/** A request from one network (a test gives each its own unless it says). */
async function send(body: unknown, ip = `198.51.100.${(++seq % 200) + 1}`) {
  const response = await sendEmail(jsonRequest('/api/send-email', body), { ip });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function confirm(token: string, tz = '') {
  const response = await confirmSend(
    new Request(`http://localhost/confirm-send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}&tz=${encodeURIComponent(tz)}`,
    }),
  );
  const html = await response.text();
  return { status: response.status, text: regionText(html), html };
}
async function openLink(token: string) {
  const response = await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`));
  const html = await response.text();
  return { status: response.status, text: regionText(html), html };
}

/** The confirmation link in the last confirmation email this parent got. */
const emailedLink = (parent: string) => tokenOf(linkIn(mail.last(parent, /confirm/i), '/confirm-send'));
/** The letters the school contact got. */
const letters = (school = 'head@oakwood.edu') => mail.to(school);

beforeAll(async () => {
  fake = await startHubSpotFake();
  database = await startTestDatabase();
  mail = await useMail();
  shell = useSiteShell();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.SITE_URL = 'https://site.example';
});
afterAll(async () => {
  await fake.close();
  await database.stop();
  await mail.close();
  shell.remove();
  for (const name of [
    'HUBSPOT_BASE_PATH',
    'HUBSPOT_ACCESS_TOKEN',
    'SITE_URL',
    'PLATFORM_SEND_CONFIRMATION',
    'PLATFORM_SEND_SCHOOL_DAILY_LIMIT',
    'HUBSPOT_TRANSACTIONAL_EMAIL_ID',
  ])
    delete process.env[name];
});
beforeEach(async () => {
  fake.reset();
  mail.reset();
  process.env.MAIL_SENDER = 'smtp';
  process.env.SMTP_URL = mail.sink.smtpUrl;
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  delete process.env.PLATFORM_SEND_CONFIRMATION;
  delete process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT;
  delete process.env.PLATFORM_SEND_NETWORK_DAILY_REQUESTS;
  // Every test starts without limits or allowances used.
  await database.db.exec(
    'DELETE FROM send_claims; DELETE FROM school_daily_sends; DELETE FROM parent_daily_sends; DELETE FROM email_budgets; DELETE FROM recipient_days; DELETE FROM send_request_days; DELETE FROM email_suppressions;',
  );
  // Oakwood Academy is a school staff verified: its letters rest on its record.
  await verifiedSchool('head@oakwood.edu', 'Oakwood Academy', { timeZone: 'America/New_York' });
});

describe('the request names a submission, never text', () => {
  test('is routed at /api/send-email and rate-limited per IP', () => {
    expect(sendEmailConfig.path).toBe('/api/send-email');
    expect(sendEmailConfig.rateLimit).toMatchObject({ aggregateBy: expect.arrayContaining(['ip']) });
  });

  test.each(malformedRequests('/api/send-email'))('%s is refused with a 4xx', async (_name, req, status) => {
    expect((await sendEmail(req, {})).status).toBe(status);
  });

  test.each([
    [
      'the old free-text shape',
      { idempotencyKey: 'key-123456789', parentEmail: 'ana@example.org', to: 'head@oakwood.edu', subject: 'Hi', body: 'Buy now' },
      'text_not_accepted',
    ],
    ['a token with text beside it', { submissionId: 'sub-12345678', token: 'a'.repeat(43), subject: 'Forged' }, 'text_not_accepted'],
    ['no token', { submissionId: 'sub-12345678' }, 'invalid_request'],
    ['a malformed token', { submissionId: 'sub-12345678', token: 'short' }, 'invalid_request'],
    ['a time zone that is not text', { submissionId: 'sub-12345678', token: 'a'.repeat(43), timeZone: 5 }, 'invalid_request'],
  ])('%s: 400 %s, nothing stored, nothing emailed', async (_name, body, code) => {
    const { status, body: answer } = await send(body);
    expect(status).toBe(400);
    expect(answer.error.code).toBe(code);
    expect(await query(sql`SELECT id FROM outbox_messages`)).toHaveLength(0);
    expect(mail.sink.messages).toEqual([]);
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
    expect((await readMessage(body.id))!.message).toMatchObject({
      subject: email.subject,
      body: email.body,
      to: 'head@oakwood.edu',
      toName: 'Dr. Patel',
      status: 'awaiting_confirmation',
    });
  });
});

describe('the parent confirms from their inbox first', () => {
  test('the request emails the parent a link valid three days, and sends the school nothing', async () => {
    const { id, token, values: data } = await draft();
    const { status, body } = await send({ submissionId: id, token });
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'awaiting_confirmation', confirmation: { email: data.parentEmail } });
    expect(Date.parse(body.confirmation.expiresAt) - Date.now()).toBeGreaterThan(71.9 * 3600_000);
    const email = mail.last(data.parentEmail)!;
    expect(email).toMatchObject({ subject: 'Please confirm your email to Oakwood Academy', from: [{ name: 'Mastery Parents', address: MAIL_FROM }] });
    // The school is on record with its leader: whom the letter goes to, named once.
    expect(email.text).toContain('You asked Mastery Parents to send your letter to Dr. Patel at Oakwood Academy in your name.');
    expect(email.html).toContain('Or open this link:');
    expect(linkIn(email, '/confirm-send')).toMatch(/^https:\/\/site\.example\/confirm-send\?token=/);
    expect(letters()).toEqual([]);
    // No HubSpot workflow is needed: no contact property carries the link.
    expect(fake.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  test('opening the link shows the letter in the page and a button, and sends nothing (a mail scanner may open it)', async () => {
    const { id, token, values: data } = await draft();
    await send({ submissionId: id, token });
    const page = await openLink(emailedLink(data.parentEmail));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm your email to Oakwood Academy');
    expect(page.text).toContain('How Oakwood Academy can unlock mastery learning for every student');
    expect(page.html).toMatch(/<form method="post" action="\/confirm-send"/);
    expect(page.html).toContain('data-time-zone');
    expect(letters()).toEqual([]);
  });

  test('confirming sends the letter whole exactly once; confirming again says it is done', async () => {
    const { id, token, values: data, email } = await draft();
    await send({ submissionId: id, token });
    const link = emailedLink(data.parentEmail);
    const [first, second] = await Promise.all([confirm(link), confirm(link)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.text + second.text).toContain('Your email has been sent');
    expect(letters()).toHaveLength(1);
    const messageId = (await readDraft(id))!.draft.messageId!;
    expect(letters()[0]).toMatchObject({
      envelope: { rcptTo: ['head@oakwood.edu'] },
      replyTo: [{ name: 'Ana Lopez', address: data.parentEmail }],
      from: [{ name: 'Ana Lopez via Mastery Parents', address: MAIL_FROM }],
      subject: email.subject,
      messageId: `<${messageId}@masteryparents.example>`,
    });
    expect(letters()[0]!.text).toContain(email.body.trim());
    expect((await confirm(link)).text).toContain('Your email has been sent');
    expect(letters()).toHaveLength(1);
  });

  test('the token is single-use: a second request for the same draft is refused, also when both come at once', async () => {
    const { id, token } = await draft();
    const answers = await Promise.all([send({ submissionId: id, token }), send({ submissionId: id, token })]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('already_requested');
    expect(await send({ submissionId: id, token })).toMatchObject({ status: 409, body: { error: { code: 'already_requested' } } });
  });

  test('an expired link sends nothing, offers the letter to copy and the mail links, and ends the request', async () => {
    const { id, token } = await draft();
    const { body } = await send({ submissionId: id, token });
    const expired = signToken({ purpose: 'confirm-send', id: body.id, exp: Date.now() - 1000 });
    const page = await confirm(expired);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    expect(page.html).toMatch(/<textarea id="email-text" readonly/);
    expect(page.html).toMatch(/href="mailto:head@oakwood\.edu\?subject=/);
    expect(page.html).toContain('https://mail.google.com/mail/?view=cm');
    expect(letters()).toEqual([]);
    expect((await readMessage(body.id))!.message).toMatchObject({ status: 'expired', lastError: 'not_confirmed_in_time' });
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
    expect(letters()).toEqual([]);
  });

  test('with PLATFORM_SEND_CONFIRMATION=off the letter goes at once', async () => {
    process.env.PLATFORM_SEND_CONFIRMATION = 'off';
    const { id, token } = await draft();
    expect(await send({ submissionId: id, token })).toMatchObject({ status: 200, body: { status: 'sent' } });
    expect(letters()).toHaveLength(1);
  });

  test('a request nobody confirmed gets one reminder a day later, with the same link; never a second', async () => {
    const { id, token, values: data } = await draft();
    const { body } = await send({ submissionId: id, token });
    await query(sql`UPDATE outbox_messages SET created_at = created_at - interval '25 hours' WHERE id = ${body.id}`);
    await mailDeliver();
    await mailDeliver();
    const reminders = mail.to(data.parentEmail).filter((email) => /still waiting/.test(email.subject));
    expect(reminders).toHaveLength(1);
    expect(linkIn(reminders[0], '/confirm-send')).toBe(linkIn(mail.last(data.parentEmail, /^Please confirm/), '/confirm-send'));
  });
});

describe('a personal note', () => {
  test('stands in the letter sent, in its fixed place', async () => {
    const { id, token, values: data } = await draft();
    const note = 'Leo finishes his maths in ten minutes and then waits.';
    await send({ submissionId: id, token, note });
    await confirm(emailedLink(data.parentEmail));
    const lines = letters()[0]!.text.split('\n');
    const intro = lines.findIndex((line) => line.startsWith('Dear ')) + 2;
    expect(lines[intro]).toContain('Ana Lopez');
    expect(lines[intro + 2]).toBe(note);
  });

  test.each([
    ['a link', 'See https://cheap.example.com now', noteMessages.link],
    ['an address', 'Reply to ana@example.org', noteMessages.email],
    ['601 characters', 'x'.repeat(601), noteMessages.tooLong],
  ])('with %s is refused with a clear message; nothing stored, the draft still sendable', async (_name, note, message) => {
    const { id, token } = await draft();
    expect(await send({ submissionId: id, token, note })).toMatchObject({ status: 400, body: { error: { code: 'invalid_note', message } } });
    expect(mail.sink.messages).toEqual([]);
    expect((await send({ submissionId: id, token })).status).toBe(202);
  });
});

describe('the limits are taken when the parent confirms', () => {
  async function requestAndConfirm(overrides: Record<string, string>) {
    const made = await draft(overrides);
    const answer = await send({ submissionId: made.id, token: made.token });
    if (answer.status !== 202) return { answer };
    const message = (await readMessage(answer.body.id))!.message;
    return { answer, page: await confirm(tokenOf(confirmationLink(message)!)), message };
  }

  // The answer to a request never says what this parent did before or how full a day is.
  const sameAnswer = (answer: Awaited<ReturnType<typeof send>>) => {
    expect(answer.status).toBe(202);
    expect(Object.keys(answer.body).sort()).toEqual(['confirmation', 'id', 'status']);
    expect(answer.body.status).toBe('awaiting_confirmation');
  };

  test('one letter per parent and school contact: "already wrote" with the day, only once a letter went', async () => {
    const first = await requestAndConfirm({ email: 'pair@example.org' });
    expect(first.page?.text).toContain('Your email has been sent');
    const second = await requestAndConfirm({ email: 'pair@example.org' });
    sameAnswer(second.answer);
    expect(second.page?.status).toBe(409);
    expect(second.page?.text).toContain(`You already wrote to Oakwood Academy on ${dayInWords((await readMessage(first.message!.id))!.message.sentAt!)}`);
    expect(second.page?.html).toMatch(/<textarea id="email-text" readonly/);
    expect(letters()).toHaveLength(1);
  });

  test('at most 5 a day to one school contact; the sixth parent is told on the page their link opens', async () => {
    for (let n = 1; n <= 5; n++) expect((await requestAndConfirm({ school_contact_email: 'busy@school.edu' })).page?.status).toBe(200);
    const sixth = await requestAndConfirm({ school_contact_email: 'busy@school.edu' });
    sameAnswer(sixth.answer);
    expect(sixth.page?.text).toContain('already received the most emails');
    expect((await readMessage(sixth.message!.id))!.message).toMatchObject({ status: 'failed', lastError: 'school_limit' });
    expect(letters('busy@school.edu')).toHaveLength(5);
  });

  test('at most 3 a day from one parent, counted at confirmation: requests still waiting spend nothing', async () => {
    const waiting = [];
    for (let n = 1; n <= 4; n++) {
      const made = await draft({ email: 'keen@example.org', school_contact_email: `head${n}@school.edu` });
      waiting.push(await send({ submissionId: made.id, token: made.token }));
    }
    const messages = await Promise.all(waiting.map(async (answer) => (await readMessage(answer.body.id))!.message));
    const pages = [];
    for (const message of messages) pages.push(await confirm(tokenOf(confirmationLink(message)!)));
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200, 409]);
    expect(pages[3]!.text).toContain('the most emails our platform sends for one parent');
  });

  test("a stranger's throwaway requests cannot spend a school's day or a parent's: the real parent's confirmation still sends", async () => {
    // Eight unconfirmed requests to one school from throwaway addresses on one network: each asks
    // its own (throwaway) inbox, and the school gets nothing, for nobody confirmed.
    const strangerNetwork = '198.51.100.250';
    const answers = [];
    for (let n = 0; n < 8; n++) {
      const throwaway = await draft({ email: `throwaway${n}-${++seq}@mailinator.example`, school_contact_email: 'head@victim-school.edu' });
      answers.push((await send({ submissionId: throwaway.id, token: throwaway.token }, strangerNetwork)).status);
    }
    expect(new Set(answers)).toEqual(new Set([202]));
    expect(mail.to('head@victim-school.edu')).toEqual([]);
    expect(await query(sql`SELECT 1 FROM send_claims`)).toEqual([]);
    // Three requests under spellings of the parent's address: the parent's own sends are untouched.
    for (const spelling of ['Victim.Parent+x@example.org', 'victim.parent+y@example.org', 'VICTIM.PARENT@example.org']) {
      const spoof = await draft({ email: spelling, school_contact_email: `other${++seq}@school.edu` });
      await send({ submissionId: spoof.id, token: spoof.token }, strangerNetwork);
    }
    // The real parent, from their own network, confirms and the letter goes.
    const real = await draft({ email: 'victim.parent@example.org', school_contact_email: 'head@victim-school.edu' });
    expect((await send({ submissionId: real.id, token: real.token }, '192.0.2.77')).status).toBe(202);
    const page = await confirm(emailedLink('victim.parent@example.org'));
    expect(page.status).toBe(200);
    expect(mail.to('head@victim-school.edu')).toHaveLength(1);
    expect(mail.to('head@victim-school.edu')[0]!.replyTo[0]!.address).toBe('victim.parent@example.org');
  });

  test('a network past its bound of waiting requests is told so plainly; a confirmed request gives its place back (a parents’ evening)', async () => {
    // Sixty by default (a parents' evening of forty fits without a single confirmation); eight here,
    // so that the test sends nine, not sixty-one.
    expect(REQUESTS_PER_NETWORK_DAY).toBe(60);
    process.env.PLATFORM_SEND_NETWORK_DAILY_REQUESTS = '8';
    const network = '198.51.100.251';
    const statuses: number[] = [];
    let refusal: { error?: { code: string; message: string } } | undefined;
    for (let n = 0; n <= 8; n++) {
      const made = await draft({ school_contact_email: `bound${n}@school.edu` });
      const answer = await send({ submissionId: made.id, token: made.token }, network);
      statuses.push(answer.status);
      if (answer.status === 429) refusal = answer.body;
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(8);
    expect(statuses.at(-1)).toBe(429);
    // Said plainly, never "check your inbox", and nothing about any address.
    expect(refusal?.error?.code).toBe('network_busy');
    expect(refusal?.error?.message).toContain('internet connection');
    expect(refusal?.error?.message).not.toMatch(/@/);
    // One parent on that network confirms: the network may ask once more.
    const waiting = await query<{ id: string }>(sql`SELECT id FROM outbox_messages WHERE status = 'awaiting_confirmation' ORDER BY id LIMIT 1`);
    await confirm(tokenOf(confirmationLink((await readMessage(waiting[0]!.id))!.message)!));
    const after = await draft({ school_contact_email: 'bound-after@school.edu' });
    expect((await send({ submissionId: after.id, token: after.token }, network)).status).toBe(202);
  });

  test('the same address asked for from ten networks gets at most its daily ceiling of emails; the rest wait in one email the next morning', async () => {
    const victim = `ceiling${++seq}@example.org`;
    for (let n = 0; n < 10; n++) {
      const made = await draft({ email: victim, school_contact_email: `ceiling-school${n}-${seq}@school.edu` });
      expect((await send({ submissionId: made.id, token: made.token }, `203.0.${113 + n}.7`)).status).toBe(202);
    }
    expect(mail.to(victim)).toHaveLength(6);
    // One email gathers the other four requests, each with its own link, written for tomorrow: not four.
    const gathered = await query<{ n: number; state: string; not_before: Date }>(sql`
      SELECT count(*)::int AS n, min(state) AS state, min(not_before) AS not_before FROM emails WHERE kind = 'confirmation' AND coalesce_key IS NOT NULL`);
    expect(gathered[0]).toMatchObject({ n: 1, state: 'scheduled' });
    expect(gathered[0]!.not_before.getTime()).toBeGreaterThan(Date.now());
    const [content] = await query<{ text: string }>(sql`SELECT content->>'text' AS text FROM emails WHERE coalesce_key IS NOT NULL`);
    expect(content!.text.match(/confirm-send\?token=/g)).toHaveLength(4 + 1);
    // It speaks of the four letters, not of the newest one's contact "at 4 schools".
    expect(content!.text).toContain('send your letter to the school contacts at 4 schools in your name');
    expect(content!.text).not.toContain('Dr. Patel at 4 schools');
  });

  test('a stranger’s request for the same parent and school replaces nothing: the parent’s own link still sends their own words', async () => {
    const parent = `own-words${++seq}@example.org`;
    const mine = await draft({ email: parent, school_contact_email: 'replace@school.edu' });
    const mineAnswer = await send({ submissionId: mine.id, token: mine.token }, '192.0.2.31');
    const myLink = tokenOf(confirmationLink((await readMessage(mineAnswer.body.id))!.message)!);
    // A stranger, on another network, asks in the parent's name for the same school, with other words.
    const strangerDraft = `sub-stranger-${++seq}`;
    const theirs = await createDraft({
      id: strangerDraft,
      purpose: 'emailGenerator',
      values: values({ email: parent, school_contact_email: 'replace@school.edu', child_full_name: 'Somebody Else' }),
    });
    const theirAnswer = await send({ submissionId: strangerDraft, token: theirs.token }, '198.51.100.31');
    expect(theirAnswer.status).toBe(202);
    expect((await readMessage(mineAnswer.body.id))!.message.status).toBe('awaiting_confirmation');
    // The parent's own link sends the parent's own letter; the stranger's request is then replaced.
    const page = await confirm(myLink);
    expect(page.text).toContain('Your email has been sent');
    expect(mail.to('replace@school.edu')).toHaveLength(1);
    expect(mail.to('replace@school.edu')[0]!.text).not.toContain('Somebody Else');
    expect((await readMessage(theirAnswer.body.id))!.message.status).toBe('awaiting_confirmation');
  });

  // The emulator runs one session, so this proves the count and the answers, not the race: the race
  // itself runs on a real Postgres in races-postgres.test.ts ("the caps at confirmation").
  test(
    'exact under 15 parents confirming at once for one school: 5 sent, 10 told the limit',
    async () => {
      const requested: OutboxMessage[] = [];
      for (let n = 0; n < 15; n++) {
        const made = await draft({ school_contact_email: 'rush@school.edu' });
        const answer = await send({ submissionId: made.id, token: made.token });
        expect(answer.status).toBe(202);
        requested.push((await readMessage(answer.body.id))!.message);
      }
      const pages = await Promise.all(requested.map((message) => confirm(tokenOf(confirmationLink(message)!))));
      expect(pages.filter((page) => page.text.includes('Your email has been sent'))).toHaveLength(5);
      expect(pages.filter((page) => page.text.includes('already received the most emails'))).toHaveLength(10);
      expect(letters('rush@school.edu')).toHaveLength(5);
      expect(await query(sql`SELECT sends FROM school_daily_sends`)).toEqual([{ sends: 5 }]);
      expect(await query(sql`SELECT message_id FROM send_claims`)).toHaveLength(5);
    },
    allowed(120_000),
  );
});

describe('the "already wrote" notice says only what happened', () => {
  test.each([
    ['late in the UTC day', '2026-11-24T23:30:00.000Z', 'You already wrote to Oakwood Academy on 24 November 2026'],
    ['early in the year', '2027-01-02T00:05:00.000Z', 'You already wrote to Oakwood Academy on 2 January 2027'],
  ])('%s', async (_name, earlierAt, words) => {
    const message = { schoolName: 'Oakwood Academy', confirmation: { expiresAt: earlierAt, refusal: 'already_sent' as const, earlierAt } };
    expect(await refusalTextIn(message, 'already_sent', 'en', new Date('2027-02-01T00:00:00Z'))).toContain(words);
  });

  test('an earlier letter still waiting for the school’s hours is "confirmed and goes", not "already wrote"', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const message = { schoolName: 'Oakwood Academy', confirmation: { expiresAt: now.toISOString(), earlierAt: '2026-11-27T13:00:00Z' } };
    const text = await refusalTextIn(message, 'already_sent', 'en', now);
    expect(text).toMatch(/^Your earlier letter to Oakwood Academy is confirmed and goes at 8:00 today/);
    expect(text).not.toContain('already wrote');
  });

  test('the daily caps keep their words', async () => {
    expect(await refusalTextIn({ schoolName: 'Elm School' }, 'already_sent')).toMatch(/^You already wrote to Elm School through our platform/);
    expect(await refusalTextIn({ schoolName: 'Elm School' }, 'school_limit')).toContain('already received the most emails');
  });
});

describe('with PLATFORM_SEND_CONFIRMATION=off a refusal tells nobody what this parent did', () => {
  beforeEach(() => {
    process.env.PLATFORM_SEND_CONFIRMATION = 'off';
  });
  const shape = (answer: Awaited<ReturnType<typeof send>>) => ({ status: answer.status, keys: Object.keys(answer.body).sort(), sent: answer.body.status });

  test('writing to the same school again: answered like the first, nothing more to the school, the parent told in their inbox with the day', async () => {
    const one = await draft({ email: 'again-off@example.org', school_contact_email: 'head@again.edu' });
    const first = await send({ submissionId: one.id, token: one.token });
    expect(first).toMatchObject({ status: 200, body: { status: 'sent' } });
    const two = await draft({ email: 'again-off@example.org', school_contact_email: 'HEAD+x@again.edu' });
    const second = await send({ submissionId: two.id, token: two.token });
    expect(shape(second)).toEqual(shape(first));
    expect(letters('head@again.edu')).toHaveLength(1);
    const sentAt = (await readMessage(first.body.id))!.message.sentAt!;
    const notice = mail.last('again-off@example.org', /did not send/)!;
    expect(notice.text).toContain(`You already wrote to Oakwood Academy on ${dayInWords(sentAt)}`);
    const page = await openLink(tokenOf(linkIn(notice, '/confirm-send')));
    expect(page.status).toBe(409);
    expect(page.text).toContain('You already wrote to');
    expect((await confirm(tokenOf(linkIn(notice, '/confirm-send')))).text).toContain('You already wrote to');
    expect(letters('head@again.edu')).toHaveLength(1);
  });

  test("the school's daily cap is answered like an accepted send too", async () => {
    process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT = '1';
    const first = await draft({ school_contact_email: 'full@off.edu' });
    const accepted = await send({ submissionId: first.id, token: first.token });
    const late = await draft({ school_contact_email: 'full@off.edu' });
    const refused = await send({ submissionId: late.id, token: late.token });
    expect(shape(refused)).toEqual(shape(accepted));
    expect(letters('full@off.edu')).toHaveLength(1);
    expect(mail.last(late.values.parentEmail, /did not send/)!.text).toContain('already received the most emails');
  });
});

describe('limits count people, not strings', () => {
  test.each([
    [
      'a +tag and capitals on the school address',
      { email: 'one@example.org', school_contact_email: 'head@variant.edu' },
      { email: 'one@example.org', school_contact_email: 'HEAD+1@Variant.edu' },
    ],
    [
      "Gmail's dots, a +tag and googlemail on the parent",
      { email: 'sam@gmail.com', school_contact_email: 'head@dots.edu' },
      { email: 's.a.m+x@googlemail.com', school_contact_email: 'head@dots.edu' },
    ],
  ])('%s: one pair, sent once', async (_name, first, second) => {
    const one = await draft(first);
    const a = await send({ submissionId: one.id, token: one.token });
    expect((await confirm(tokenOf(confirmationLink((await readMessage(a.body.id))!.message)!))).text).toContain('Your email has been sent');
    const two = await draft(second);
    const b = await send({ submissionId: two.id, token: two.token });
    expect(b.status).toBe(202);
    expect((await confirm(tokenOf(confirmationLink((await readMessage(b.body.id))!.message)!))).text).toContain('You already wrote to Oakwood Academy on');
  });
});

describe('each letter sent whole, to the address confirmed', () => {
  test('a later form cannot redirect a confirmed letter', async () => {
    const made = await draft({ email: 'bound@example.org' });
    await send({ submissionId: made.id, token: made.token });
    const link = emailedLink(made.values.parentEmail);
    // Someone who knows the parent's address fills the form again naming another school contact.
    const other = await draft({ email: 'bound@example.org', school_contact_email: 'boss@evil.example', school_contact_name: 'Boss' });
    expect((await confirm(link)).text).toContain('Your email has been sent');
    expect(mail.sink.messages.filter((message) => message.envelope.rcptTo.includes('boss@evil.example'))).toEqual([]);
    expect(letters()[0]!.text).toContain(made.email.body.trim());
    expect(other.email.body).not.toBe(made.email.body);
  });

  test('a school mailbox that does not exist (550 5.1.1) bounces: the letter is marked, the parent told once with a way to correct it', async () => {
    const refused = await draft({ school_contact_email: 'gone@school.edu' });
    await send({ submissionId: refused.id, token: refused.token });
    mail.sink.failNext('550 5.1.1 The email account that you tried to reach does not exist');
    const page = await confirm(emailedLink(refused.values.parentEmail));
    expect(page.status).toBe(409);
    expect(page.text).toContain('Your letter did not arrive');
    expect(page.html).toMatch(/<textarea id="email-text" readonly/);
    const id = (await readDraft(refused.id))!.draft.messageId!;
    expect((await readMessage(id))!.message).toMatchObject({ status: 'bounced', lastError: 'bounced' });
    await mailDeliver();
    const notice = mail.last(refused.values.parentEmail, /did not arrive/)!;
    expect(notice.text).toContain('gone@school.edu');
    expect(linkIn(notice, '/letter-address')).toMatch(/token=/);
    await mailDeliver();
    expect(mail.to(refused.values.parentEmail).filter((email) => /did not arrive/.test(email.subject))).toHaveLength(1);
    // The address is blocked: the next parent is told before they confirm, with their own mail app offered.
    const next = await draft({ school_contact_email: 'Gone@School.edu' });
    const blocked = await send({ submissionId: next.id, token: next.token });
    expect(blocked).toMatchObject({ status: 409, body: { error: { code: 'address_blocked' } } });
    expect(blocked.body.error.message).toContain('mailbox does not exist');
    // A +tag is another address (a stranger's bounce of gone+x@ never blocks gone@, nor the reverse): it is tried.
    const tagged = await draft({ school_contact_email: 'Gone+x@School.edu' });
    await send({ submissionId: tagged.id, token: tagged.token });
    await confirm(emailedLink(tagged.values.parentEmail));
    expect(mail.sink.messages.filter((message) => message.envelope.rcptTo.includes('gone+x@school.edu'))).toHaveLength(1);
  });

  test.each([
    ['a spam refusal (550 5.7.1)', '550 5.7.1 Message rejected as spam by Content Filtering', 'refused'],
    ['relaying denied (554 5.7.1)', '554 5.7.1 Relay access denied', 'refused'],
    ['a policy refusal without an enhanced code (553)', '553 Requested action not taken: mailbox name not allowed', 'refused'],
  ])('%s fails that one letter, tells its parent, and blocks nobody', async (_name, reply, lastError) => {
    const school = `policy${++seq}@school.edu`;
    const one = await draft({ school_contact_email: school });
    await send({ submissionId: one.id, token: one.token });
    mail.sink.failNext(reply);
    const page = await confirm(emailedLink(one.values.parentEmail));
    expect(page.text).toContain('Your letter was not sent');
    const id = (await readDraft(one.id))!.draft.messageId!;
    expect((await readMessage(id))!.message).toMatchObject({ status: 'failed', lastError });
    await mailDeliver();
    expect(mail.last(one.values.parentEmail, /was not sent/)!.text).toContain('refused your letter');
    expect(await query(sql`SELECT 1 FROM email_suppressions`)).toEqual([]);
    // Another parent's letter to the same address goes.
    const two = await draft({ school_contact_email: school });
    expect((await send({ submissionId: two.id, token: two.token })).status).toBe(202);
    await confirm(emailedLink(two.values.parentEmail));
    expect(mail.to(school)).toHaveLength(1);
  });

  test('a full mailbox (552 5.2.2) is tried again later, never blocked', async () => {
    const full = await draft({ school_contact_email: 'full-box@school.edu' });
    await send({ submissionId: full.id, token: full.token });
    mail.sink.failNext('552 5.2.2 The email account that you tried to reach is over quota');
    expect((await confirm(emailedLink(full.values.parentEmail))).text).toContain('Your email is confirmed');
    const id = (await readDraft(full.id))!.draft.messageId!;
    expect((await readMessage(id))!.message.status).toBe('queued');
    const [email] = await query<{ state: string; next_attempt_at: Date }>(sql`SELECT state, next_attempt_at FROM emails WHERE id = ${id}`);
    expect(email!.state).toBe('scheduled');
    expect(email!.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);
    expect(await query(sql`SELECT 1 FROM email_suppressions`)).toEqual([]);
  });

  test('a deferral (451) waits in the mail layer and the scheduled run sends it once', async () => {
    const deferred = await draft({ school_contact_email: 'slow@school.edu' });
    await send({ submissionId: deferred.id, token: deferred.token });
    mail.sink.failNext(451);
    expect((await confirm(emailedLink(deferred.values.parentEmail))).text).toContain('Your email is confirmed');
    const id = (await readDraft(deferred.id))!.draft.messageId!;
    expect((await readMessage(id))!.message.status).toBe('queued');
    await query(sql`UPDATE emails SET next_attempt_at = now() - interval '1 minute' WHERE id = ${id}`);
    await mailDeliver();
    await mailDeliver();
    expect((await readMessage(id))!.message.status).toBe('sent');
    expect(letters('slow@school.edu')).toHaveLength(1);
  });
});

describe('HubSpot single-send as the sender', () => {
  beforeEach(() => {
    process.env.MAIL_SENDER = 'hubspot';
    process.env.HUBSPOT_TRANSACTIONAL_EMAIL_ID = '4242';
  });

  test('every email goes whole with its id as the sendId; the letter From the parent via the organisation, Reply-To the parent', async () => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    const confirmation = fake.transactionalSends.find((entry) => entry.message.to === made.values.parentEmail)!;
    expect(confirmation.customProperties.subject).toBe('Please confirm your email to Oakwood Academy');
    const link = String(confirmation.customProperties.body).match(/https:\/\/site\.example\/confirm-send\?token=\S+/)![0];
    await confirm(tokenOf(link));
    const letter = fake.transactionalSends.find((entry) => entry.message.to === 'head@oakwood.edu')!;
    const id = (await readDraft(made.id))!.draft.messageId!;
    expect(letter).toMatchObject({
      emailId: 4242,
      message: { sendId: id, replyTo: [made.values.parentEmail], from: `"Ana Lopez via Mastery Parents" <${MAIL_FROM}>` },
    });
    expect(String(letter.customProperties.body)).toContain(made.email.body.trim());
  });

  test('a HubSpot that fails leaves the letter waiting; the run sends it exactly once', async () => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    const link = String(fake.transactionalSends[0]!.customProperties.body).match(/https:\/\/site\.example\/confirm-send\?token=\S+/)![0];
    fake.failNext(503, 503, 503, 503);
    expect((await confirm(tokenOf(link))).text).toContain('Your email is confirmed');
    const id = (await readDraft(made.id))!.draft.messageId!;
    await query(sql`UPDATE emails SET next_attempt_at = now() - interval '1 minute' WHERE id = ${id}`);
    await mailDeliver();
    await mailDeliver();
    expect((await readMessage(id))!.message.status).toBe('sent');
    expect(fake.transactionalSends.filter((entry) => entry.message.to === 'head@oakwood.edu' && entry.sendResult === 'SENT')).toHaveLength(1);
  });

  test("HubSpot's INVALID_TO_ADDRESS is a bounce: the address is suppressed, the parent told", async () => {
    fake.sendResults.set('@nowhere.edu', 'INVALID_TO_ADDRESS');
    const made = await draft({ school_contact_email: 'head@nowhere.edu' });
    await send({ submissionId: made.id, token: made.token });
    const link = String(fake.transactionalSends[0]!.customProperties.body).match(/https:\/\/site\.example\/confirm-send\?token=\S+/)![0];
    await confirm(tokenOf(link));
    const id = (await readDraft(made.id))!.draft.messageId!;
    expect((await readMessage(id))!.message.status).toBe('bounced');
    expect(await query(sql`SELECT reason FROM email_suppressions`)).toEqual([{ reason: 'bounced' }]);
  });
});

describe('the Outbox tab shows states, never a parent’s link', () => {
  test('staff see each letter and what became of its emails; no confirmation or follow-up link', async () => {
    const made = await draft();
    await send({ submissionId: made.id, token: made.token });
    const cookie = await signIn();
    const list = await callAdmin(outboxAdmin, '/api/admin/outbox', { cookie });
    expect(list.status).toBe(200);
    const listed = list.body.messages.find((m: { draftId: string }) => m.draftId === made.id);
    expect(listed).toMatchObject({ status: 'awaiting_confirmation', emails: [{ kind: 'confirmation', state: 'sent' }] });
    expect(list.text).not.toMatch(/confirm-send\?token=|school-answer\?token=|your-data\?token=/);
    expect(list.body.mailConfigured).toBe(true);
    // With a sender configured, not even an owner may see the link: it went to the parent's inbox.
    expect((await callAdmin(outboxAdmin, `/api/admin/outbox/${listed.id}/confirmation-link`, { cookie })).status).toBe(409);
  });

  test('without a sender an owner may see a waiting request’s link, and it is audited', async () => {
    delete process.env.MAIL_FROM_ADDRESS;
    const made = await draft();
    const answer = await send({ submissionId: made.id, token: made.token });
    const cookie = await signIn();
    const shown = await callAdmin(outboxAdmin, `/api/admin/outbox/${answer.body.id}/confirmation-link`, { cookie });
    expect(shown.status).toBe(200);
    expect(shown.body.link).toMatch(/\/confirm-send\?token=/);
    expect(await query(sql`SELECT action, target FROM audit_log WHERE action = 'outbox.confirmation_link_viewed'`)).toEqual([
      { action: 'outbox.confirmation_link_viewed', target: answer.body.id },
    ]);
    // Confirming from it queues the letter; it waits for a sender.
    expect((await confirm(tokenOf(shown.body.link))).text).toContain('Your email is confirmed');
    expect((await readMessage(answer.body.id))!.message.status).toBe('queued');
  });

  test('the outbox tab needs a signed-in admin', async () => {
    expect((await callAdmin(outboxAdmin, '/api/admin/outbox')).status).toBe(401);
  });
});

describe('kept 90 days', () => {
  test('a sent letter is deleted 90 days after sending, with its pair; unconfirmed ones expire; old drafts go', async () => {
    const made = await draft({ email: 'old@example.org' });
    const answer = await send({ submissionId: made.id, token: made.token });
    await confirm(emailedLink(made.values.parentEmail));
    const waiting = await draft();
    const waitingAnswer = await send({ submissionId: waiting.id, token: waiting.token });
    const day = 24 * 3600_000;
    await purgeOutbox(new Date(Date.now() + 91 * day));
    await purgeOutbox(new Date(Date.now() + 182 * day));
    expect(await readMessage(answer.body.id)).toBeUndefined();
    expect(await readMessage(waitingAnswer.body.id)).toBeUndefined();
    expect(await readDraft(made.id)).toBeUndefined();
    expect(await query(sql`SELECT id FROM emails WHERE ref = ${answer.body.id}`)).toEqual([]);
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

describe("a provider's reports (Mailgun's signed webhook)", () => {
  const KEY = MAILGUN_KEY;
  const report = mailgunReport;
  const post = postMailgunReport;
  /** A letter the platform sent, and the Message-ID it went with. */
  async function sentLetter(school: string) {
    const made = await draft({ school_contact_email: school });
    await send({ submissionId: made.id, token: made.token });
    await confirm(emailedLink(made.values.parentEmail));
    const id = (await readDraft(made.id))!.draft.messageId!;
    const letter = mail.to(school).at(-1)!;
    return { id, parent: made.values.parentEmail, messageId: letter.messageId.replace(/^<|>$/g, '') };
  }

  beforeEach(() => {
    process.env.MAILGUN_WEBHOOK_SIGNING_KEY = KEY;
  });

  const permanent = permanentFailure;

  test('a mailbox that does not exist (reason "bounce", 5.1.1) bounces the letter, blocks the address and tells the parent; a replay is taken once', async () => {
    const { id, parent, messageId } = await sentLetter('later-gone@school.edu');
    expect((await readMessage(id))!.message.status).toBe('sent');
    const bounce = report(messageId, permanent('bounce', 550, '5.1.1 The email account that you tried to reach does not exist'));
    expect((await post(bounce)).status).toBe(200);
    expect((await readMessage(id))!.message.status).toBe('bounced');
    expect(await query(sql`SELECT reason FROM email_suppressions WHERE detail LIKE '%does not exist%'`)).toEqual([{ reason: 'bounced' }]);
    await mailDeliver();
    expect(mail.last(parent, /did not arrive/)?.text).toContain('later-gone@school.edu');
    // Mailgun's retry of a report already taken is answered as taken (200), and changes nothing.
    const replayed = await post(bounce);
    expect(replayed).toMatchObject({ status: 200, body: { replayed: true } });
    await mailDeliver();
    expect(mail.to(parent).filter((email) => /did not arrive/.test(email.subject))).toHaveLength(1);
  });

  test.each([
    ['"old": Mailgun gave up retrying', permanent('old', 421, '4.4.2 Connection timed out')],
    ['a spam refusal (5.7.1)', permanent('generic', 550, '5.7.1 Message rejected as spam')],
    ['an ESP block', permanent('espblock', 554, '5.7.1 Relay access denied')],
  ])('a permanent failure that is not a missing mailbox (%s) fails that letter, tells its parent, and blocks nobody', async (_name, event) => {
    const school = `policy-report-${++seq}@school.edu`;
    const { id, parent, messageId } = await sentLetter(school);
    expect((await post(report(messageId, event))).status).toBe(200);
    expect((await readMessage(id))!.message).toMatchObject({ status: 'failed' });
    expect(await query(sql`SELECT 1 FROM email_suppressions`)).toEqual([]);
    await mailDeliver();
    expect(mail.last(parent, /was not sent/)).toBeDefined();
  });

  test('a report that comes before its email is recorded waits, and is applied when it is', async () => {
    const made = await draft({ school_contact_email: 'early-report@school.edu' });
    await send({ submissionId: made.id, token: made.token });
    const id = (await readDraft(made.id))!.draft.messageId!;
    // The provider reports on the letter's Message-ID before this site wrote down that it sent it.
    const messageId = `${id}@${MAIL_FROM.split('@')[1]}`;
    const early = await post(report(messageId, permanent('bounce', 550, '5.1.1 No such user')));
    expect(early).toMatchObject({ status: 200, body: { waiting: true } });
    expect(await query(sql`SELECT event FROM mail_reports_waiting WHERE email_id = ${id}`)).toEqual([{ event: 'bounced' }]);
    await confirm(emailedLink(made.values.parentEmail));
    expect((await readMessage(id))!.message.status).toBe('bounced');
    expect(await query(sql`SELECT 1 FROM mail_reports_waiting`)).toEqual([]);
  });

  test('a report on an email still being sent (or whose outcome is unknown) is applied, never lost', async () => {
    const { id, messageId } = await sentLetter(`sending-${++seq}@school.edu`);
    await query(sql`UPDATE emails SET state = 'unknown' WHERE id = ${id}`);
    await query(sql`UPDATE outbox_messages SET status = 'queued', record = record || '{"status":"queued"}'::jsonb WHERE id = ${id}`);
    expect((await post(report(messageId, { event: 'delivered' }))).status).toBe(200);
    expect((await readMessage(id))!.message.status).toBe('delivered');
  });

  test('reports about school updates (their u-… ids) and digests are matched too', async () => {
    const { messageId } = await sentLetter(`update-${++seq}@school.edu`);
    const domain = messageId.split('@')[1];
    await query(sql`
      INSERT INTO emails (id, kind, recipient, recipient_key, mailbox_key, essential, state, not_before, next_attempt_at, content, created_at, updated_at, sent_at)
      VALUES ('u-0123456789abcdef0123456789abcdef01234567', 'school_update', 'parent-u@example.org', repeat('a', 32), repeat('a', 32), false, 'sent', now(), now(), '{"subject":"x","text":"y","from":{"address":"a@b.c"}}'::jsonb, now(), now(), now())`);
    expect((await post(report(`u-0123456789abcdef0123456789abcdef01234567@${domain}`, { event: 'complained' }))).body).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(await query(sql`SELECT state FROM emails WHERE id = 'u-0123456789abcdef0123456789abcdef01234567'`)).toEqual([{ state: 'complained' }]);
  });

  test('the parent corrects the address from the email that told them: the same letter goes once to the new address', async () => {
    const { id, parent, messageId } = await sentLetter('old-head@school.edu');
    await post(report(messageId, permanent('bounce', 550, '5.1.1 No such user')));
    await mailDeliver();
    const link = linkIn(mail.last(parent, /did not arrive/), '/letter-address');
    const open = async (init?: RequestInit) => {
      const response = await letterAddress(new Request(init ? 'https://site.example/letter-address' : link, init));
      const html = await response.text();
      return { status: response.status, text: regionText(html), html };
    };
    const correct = (address: string, token = tokenOf(link)) =>
      open({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, address, tz: 'Europe/London' }).toString(),
      });
    const shown = await open();
    expect(shown.status).toBe(200);
    expect(shown.html).toMatch(/<input id="address" name="address" type="email"/);
    // The bounced address again, a malformed one, a forged link: refused, nothing sent.
    expect((await correct('Old-Head@school.edu')).status).toBe(400);
    expect((await correct('not an address')).text).toContain('Enter the school’s email address');
    expect((await correct('new-head@school.edu', `${tokenOf(link)}x`)).status).toBe(404);
    expect(mail.to('new-head@school.edu')).toHaveLength(0);
    const sent = await correct('new-head@school.edu');
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('on its way again');
    await mailDeliver();
    const letters = mail.to('new-head@school.edu');
    expect(letters).toHaveLength(1);
    expect(letters[0]!.replyTo[0]!.address).toBe(parent);
    expect((await readMessage(id))!.message.bounce?.correctedBy).toBeTruthy();
    // Once per letter: again (or at the same time) sends nothing more.
    const again = await correct('other-head@school.edu');
    expect(again.status).toBe(409);
    await mailDeliver();
    expect(mail.to('other-head@school.edu')).toHaveLength(0);
    expect(mail.to('new-head@school.edu')).toHaveLength(1);
  });

  test.each([
    ['signed with another key', { key: 'key-someone-else' }, 401, 'invalid_signature'],
    ["from 10 hours ago (past Mailgun's 8 hours of retries)", { at: Date.now() - 10 * 3600_000 }, 400, 'stale_report'],
    ['from 10 hours ahead (a wrong clock)', { at: Date.now() + 10 * 3600_000 }, 400, 'stale_report'],
  ])('a report %s changes nothing', async (_name, options, status, code) => {
    const { id, messageId } = await sentLetter(`head-${++seq}@school.edu`);
    const answer = await post(report(messageId, { event: 'failed', severity: 'permanent' }, options));
    expect(answer.status).toBe(status);
    expect(answer.body.error!.code).toBe(code);
    expect((await readMessage(id))!.message.status).toBe('sent');
  });

  test('a temporary failure changes nothing; a message this site never sent is a 406 (Mailgun stops retrying); a malformed report a 400', async () => {
    const { id, messageId } = await sentLetter(`head-${++seq}@school.edu`);
    expect((await post(report(messageId, { event: 'failed', severity: 'temporary', reason: 'generic' }))).body).toMatchObject({ ok: true });
    expect((await readMessage(id))!.message.status).toBe('sent');
    const foreign = await post(report('0123456789@mail.someone-else.example', { event: 'failed', severity: 'permanent' }));
    expect(foreign.status).toBe(406);
    for (const body of [{}, { signature: { timestamp: 'x', token: 'y', signature: 'z' } }, report(messageId, { event: 'failed\u0000' })]) {
      expect((await post(body)).status).toBeGreaterThanOrEqual(400);
      expect((await post(body)).status).toBeLessThan(500);
    }
  });

  test("staff see every email's preview, the mail layer's emails without their content, and the bounced addresses, masked", async () => {
    const { parent } = await sentLetter('gone-for-admin@school.edu');
    const messageId = mail.to('gone-for-admin@school.edu').at(-1)!.messageId.replace(/^<|>$/g, '');
    await post(report(messageId, permanent('bounce', 550, '5.1.1 No such user')));
    const admin = mailAdmin as (req: Request, context: unknown) => Promise<Response>;
    expect((await callAdmin(admin, '/api/admin/mail/previews')).status).toBe(401);
    const cookie = await signIn();
    const previews = await callAdmin(admin, '/api/admin/mail/previews', { cookie });
    expect(previews.status).toBe(200);
    expect(new Set(previews.body.previews.map((preview: { kind: string }) => preview.kind))).toEqual(new Set(emailKinds));
    for (const preview of previews.body.previews) expect(preview.html).toMatch(/<html[^>]* lang="en"/);
    const emails = await callAdmin(admin, '/api/admin/mail/emails?limit=200', { cookie });
    expect(emails.status).toBe(200);
    const listed = JSON.stringify(emails.body);
    expect(listed).not.toContain(parent);
    expect(listed).not.toMatch(/token=|confirm-send/);
    expect(emails.body.emails.some((email: { kind: string; state: string }) => email.kind === 'school_letter' && email.state === 'bounced')).toBe(true);
    const suppressions = await callAdmin(admin, '/api/admin/mail/suppressions', { cookie });
    expect(JSON.stringify(suppressions.body)).not.toContain('gone-for-admin@school.edu');
    expect(suppressions.body.suppressions.map((row: { masked: string }) => row.masked)).toContain('g•••@school.edu');
    expect((await callAdmin(admin, '/api/admin/mail/emails?limit=0', { cookie })).status).toBe(400);
    expect((await callAdmin(admin, "/api/admin/mail/emails?cursor=x'--", { cookie })).status).toBe(400);
  });

  test('without a signing key nothing is taken (503, says what to set)', async () => {
    delete process.env.MAILGUN_WEBHOOK_SIGNING_KEY;
    const answer = await post(report('x@y', { event: 'delivered' }));
    expect(answer.status).toBe(503);
    expect(answer.body.error!.message).toContain('MAILGUN_WEBHOOK_SIGNING_KEY');
  });
});
