/**
 * "Did your school answer?": the follow-up email with its link ten days after a school letter, the
 * answer page (signed token, expiry, replay, races), the answer on the contact, and the impact
 * figures counted by distinct school, from proven letters only.
 */
import { serverEnv } from '../../src/server/env';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import impactAdmin from '../../netlify/functions/impact-admin.mts';
import impact, { CACHE_CONTROL } from '../../netlify/functions/impact.mts';
import reviewAdmin from '../../netlify/functions/review-admin.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import schoolFollowUp from '../../netlify/functions/school-followup.mts';
import mailDeliver from '../../netlify/functions/mail-deliver.mts';
import { createDraft } from '../../src/server/letter/drafts';
import { computeImpact, recordAnswer, recordSent } from '../../src/server/schools/impact';
import { runMail } from '../../src/server/letter/delivery';
import { answerLink } from '../../src/server/links';
import { readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { decideReview } from '../../src/server/staff/review';
import { readAnswer, runFollowUps } from '../../src/server/schools/answers';
import { query, sql } from '../../src/server/db';
import { signToken } from '../../src/server/tokens';
import { answerLabels } from '../../src/lib/shared/answer-kinds';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { confirmedSelfReport } from './helpers/delivered';
import { verifiedSchool } from './helpers/schools';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, jsonRequest } from './helpers/requests';
import { regionText, useSiteShell } from './helpers/site';
import { linkIn, MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';

let fake: HubSpotFake;
let mail: MailCatcher;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
const DAY = 24 * 3600_000;

/** A school email the parent says they sent themselves, as the dialog records it, confirmed from their inbox. */
async function sentEmail(overrides: Record<string, string> = {}, options: { verified?: boolean } = {}): Promise<OutboxMessage> {
  const id = `sub-${Date.now()}-${++seq}`;
  const values = {
    full_name: 'Ana Lopez',
    email: `parent${seq}@example.org`,
    child_full_name: 'Leo Lopez',
    child_grade: '5th grade',
    school_name: 'Oakwood Academy',
    school_contact_name: 'Dr. Patel',
    school_contact_email: `head${seq}@oakwood.edu`,
    choose_how_to_send_your_email: 'I will send it myself',
    ...overrides,
  };
  if (!fake.findContact(values.email)) fake.addContact(values.email);
  // The school is one staff verified (unless a test says otherwise): its letters can count.
  if (options.verified !== false) await verifiedSchool(values.school_contact_email, values.school_name);
  const { token } = await createDraft({ id, purpose: 'emailGenerator', values });
  const answer = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token }));
  // One email asks the parent to confirm it; confirmed from their inbox, it is recorded.
  expect(answer.status).toBe(202);
  return confirmedSelfReport(answer.body.id);
}

const linkToken = (message: OutboxMessage) => new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
/** Staff approve a self-reported letter in the review queue: it counts from then on. */
async function approve(message: OutboxMessage, claim = 'self_report') {
  const [item] = await query<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${message.id} AND claim = ${claim} AND state = 'pending'`);
  await decideReview(item!.id, 'approved', 'staff@example.org');
}
async function open(token: string) {
  const response = await schoolAnswer(new Request(`http://localhost/school-answer?token=${encodeURIComponent(token)}`));
  const html = await response.text();
  return { status: response.status, text: regionText(html), html };
}
/** As a browser does: opens the page, then sends the form with the version of the answer it showed. */
async function answer(token: string, kind: string | undefined, comment = '', days = '') {
  const seen = /name="seen" value="([^"]*)"/.exec((await open(token)).html)?.[1] ?? '';
  const body = new URLSearchParams({ token, seen, comment, days, ...(kind === undefined ? {} : { answer: kind }) });
  const response = await schoolAnswer(
    new Request('http://localhost/school-answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
  );
  const html = await response.text();
  return { status: response.status, text: regionText(html), html };
}

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
  await mail.close();
  await database.stop();
  shell.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'SITE_URL', 'FOLLOWUP_AFTER_DAYS']) delete process.env[name];
});
beforeEach(async () => {
  fake.reset();
  mail.reset();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  await query(sql`DELETE FROM email_budgets`);
  delete process.env.FOLLOWUP_AFTER_DAYS;
  for (const table of [sql`impact_sends`, sql`impact_answers`, sql`impact_schools`, sql`impact_parents`, sql`impact_totals`])
    await query(sql`DELETE FROM ${table}`);
});

describe('the follow-up', () => {
  test('a self-sent email is recorded once per draft, and its follow-up is due ten days later', async () => {
    const message = await sentEmail();
    expect(message).toMatchObject({ channel: 'self', status: 'sent', followUp: { link: 'pending' } });
    expect(Date.parse(message.followUp!.dueAt) - Date.parse(message.sentAt!)).toBe(10 * DAY);
  });

  test('nothing is sent before it is due; then the parent gets the email with the link, from the site, with a one-click stop', async () => {
    const message = await sentEmail();
    await runFollowUps(new Date(Date.now() + 9 * DAY));
    await runMail();
    expect(mail.to(message.parentEmail).filter((email) => /answer your letter/.test(email.subject))).toEqual([]);
    const due = new Date(Date.now() + 10 * DAY + 1000);
    await runFollowUps(due);
    await runMail(() => due);
    const email = mail.last(message.parentEmail)!;
    expect(email.subject).toBe('Did Oakwood Academy answer your letter?');
    expect(linkIn(email, '/school-answer')).toMatch(/^https:\/\/site\.example\/school-answer\?token=/);
    expect(email.headerLines.find((header) => header.key === 'list-unsubscribe')!.line).toMatch(/school-updates\/stop\?token=/);
    expect((await readMessage(message.id))!.message.followUp).toMatchObject({ link: 'delivered' });
    // No contact property carries it for a workflow.
    expect(fake.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  test.each([
    ['3', 3 * DAY],
    ['0', 0],
    ['0.5', DAY / 2],
  ])('FOLLOWUP_AFTER_DAYS=%s changes the wait', async (days, wait) => {
    process.env.FOLLOWUP_AFTER_DAYS = days;
    const message = await sentEmail();
    expect(Date.parse(message.followUp!.dueAt) - Date.parse(message.sentAt!)).toBe(wait);
  });

  test('a negative or unreadable FOLLOWUP_AFTER_DAYS is refused with its name', async () => {
    for (const value of ['-1', 'ten']) {
      process.env.FOLLOWUP_AFTER_DAYS = value;
      expect(() => serverEnv.followUpAfterDays).toThrow(/FOLLOWUP_AFTER_DAYS/);
    }
  });

  test('without a mail sender the follow-up waits in the mail layer, and goes once one is configured', async () => {
    delete process.env.MAIL_FROM_ADDRESS;
    process.env.FOLLOWUP_AFTER_DAYS = '0';
    const message = await sentEmail();
    await runFollowUps();
    await runMail();
    const followUps = () => mail.to(message.parentEmail).filter((email) => /answer your letter/.test(email.subject));
    expect(followUps()).toEqual([]);
    expect(await query(sql`SELECT state FROM emails WHERE ref = ${message.id} AND kind = 'follow_up'`)).toEqual([{ state: 'scheduled' }]);
    process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
    // The hourly run writes follow-ups; only the every-minute mail run sends (never three runs at minute 0).
    expect((await schoolFollowUp()).status).toBe(200);
    expect(followUps()).toEqual([]);
    expect((await mailDeliver()).status).toBe(200);
    expect(followUps()).toHaveLength(1);
  });

  test('the same email said to be sent twice is one record', async () => {
    const id = `sub-twice-${++seq}`;
    fake.addContact(`twice${seq}@example.org`);
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: { email: `twice${seq}@example.org`, school_contact_email: 'head@twice.edu', school_name: 'Twice' },
    });
    const [a, b] = await Promise.all([
      call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token })),
      call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token })),
    ]);
    expect(a.body.id).toBe(b.body.id);
    expect([a.status, b.status].sort()).toEqual([200, 202]);
    // One email asks the parent to confirm it; until then nothing is recorded, nothing is queued for staff.
    expect(mail.to(`twice${seq}@example.org`).filter((email) => /Did you send/.test(email.subject))).toHaveLength(1);
    expect(await query(sql`SELECT 1 FROM review_items WHERE message_id = ${a.body.id}`)).toEqual([]);
    await confirmedSelfReport(a.body.id);
    expect((await computeImpact()).parentsWrote.display).toBe('fewer than 5');
    // Said, not proven: counted only once staff approve it in the review queue.
    expect(await query(sql`SELECT message_id FROM impact_sends`)).toHaveLength(0);
    expect(await query(sql`SELECT claim, state FROM review_items WHERE message_id = ${a.body.id}`)).toEqual([{ claim: 'self_report', state: 'pending' }]);
  });

  test.each([
    ['another browser’s token', (id: string) => ({ submissionId: id, token: 'x'.repeat(43) }), 403],
    ['an unknown submission', () => ({ submissionId: 'sub-nothing-here', token: 'x'.repeat(43) }), 404],
    ['free text', (id: string) => ({ submissionId: id, token: 'x'.repeat(43), body: 'hi' }), 400],
  ])('%s is refused, nothing recorded', async (_name, body, status) => {
    const id = `sub-refused-${++seq}`;
    await createDraft({ id, purpose: 'emailGenerator', values: { email: 'r@example.org', school_contact_email: 'head@refused.edu' } });
    expect((await call(emailSentMyself, jsonRequest('/api/email-sent-myself', body(id)))).status).toBe(status);
    expect(await query(sql`SELECT message_id FROM impact_sends`)).toHaveLength(0);
  });
});

describe('the answer page', () => {
  test("shows WriteToThem's five answers beside the meeting, the days a reply took and a comment box, without JavaScript", async () => {
    const message = await sentEmail();
    const page = await open(linkToken(message));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Did Oakwood Academy answer?');
    for (const label of Object.values(answerLabels)) expect(page.text).toContain(label);
    expect(page.html).toMatch(/<form method="post" action="\/school-answer"/);
    expect(page.html).toContain('name="comment"');
    expect(page.html).toMatch(/<input id="days" name="days" type="text" inputmode="numeric"/);
    expect(page.html.match(/name="answer"/g)).toHaveLength(6);
  });

  test('how many days the reply took is kept with a reply, left out otherwise, and the figures use it', async () => {
    const first = await sentEmail({ school_contact_email: 'head@days.edu' });
    await approve(first);
    expect((await answer(linkToken(first), 'replied_not_answered', '', '6')).status).toBe(200);
    expect(await readAnswer(first.id)).toMatchObject({ kind: 'replied_not_answered', daysTaken: 6 });
    const second = await sentEmail({ school_contact_email: 'head@days.edu' });
    await approve(second);
    await answer(linkToken(second), 'acknowledged', '', '2');
    const none = await sentEmail({ school_contact_email: 'head@days.edu' });
    await approve(none);
    await answer(linkToken(none), 'no_answer', '', '9');
    expect((await readAnswer(none.id))!.daysTaken).toBeUndefined();
    const cookie = await signIn();
    const row = (await callAdmin(impactAdmin, '/api/admin/impact', { cookie })).body.rows.find((item: { school: string }) => item.school === 'days.edu');
    expect(row).toMatchObject({ answers: { replied_not_answered: 1, acknowledged: 1, no_answer: 1 }, medianDaysToReply: 4 });
    expect(row.responseRate).toBeCloseTo(2 / 3);
  });

  test.each(['1.5', '-1', '1e3', '99999999999', 'abc'])('a "seen" version of %s names no version: never a 5xx', async (seen) => {
    const message = await sentEmail();
    const token = linkToken(message);
    await answer(token, 'no_answer');
    const response = await schoolAnswer(
      new Request('http://localhost/school-answer', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, seen, answer: 'meeting', comment: '' }),
      }),
    );
    expect([200, 409]).toContain(response.status);
  });

  test.each([
    ['a negative number', '-1'],
    ['a fraction', '1.5'],
    ['words', 'a week'],
    ['over a year', '400'],
  ])('days given as %s: the form again, the answer kept as chosen, nothing stored', async (_name, days) => {
    const message = await sentEmail();
    const page = await answer(linkToken(message), 'replied', 'kept', days);
    expect(page.status).toBe(400);
    expect(page.text).toContain('number of days from 0 to 365');
    expect(page.html).toMatch(/value="replied"[^>]*checked/);
    expect(await readAnswer(message.id)).toBeUndefined();
  });

  test.each([
    ['replied', 'Book a call with our team'],
    ['meeting', 'Book a call with our team'],
    ['no_answer', 'Following up: How Oakwood Academy can unlock mastery learning for every student'],
    ['replied_not_answered', 'Following up: How Oakwood Academy can unlock mastery learning for every student'],
    ['acknowledged', 'Following up: How Oakwood Academy can unlock mastery learning for every student'],
    ['no_reply_expected', 'Nominate your school'],
  ])('answering "%s" stores it, writes it to the contact and shows the next step', async (kind, next) => {
    const message = await sentEmail();
    const page = await answer(linkToken(message), kind, 'Dr. Patel called me back.');
    expect(page.status).toBe(200);
    expect(page.text).toContain(next);
    expect(await readAnswer(message.id)).toMatchObject({ kind, comment: 'Dr. Patel called me back.', contact: 'delivered' });
    expect(fake.findContact(message.parentEmail)!.properties.school_answer).toBe(kind);
  });

  test('the follow-up email for "No answer yet" is copy-ready and opens in the mail app', async () => {
    const message = await sentEmail();
    const page = await answer(linkToken(message), 'no_answer');
    expect(page.html).toMatch(/<textarea id="follow-up-text" readonly/);
    expect(page.html).toContain('href="mailto:head');
  });

  test('replaying the answer changes nothing; changing it within the window updates it', async () => {
    const message = await sentEmail();
    const token = linkToken(message);
    await answer(token, 'no_answer');
    const first = await readAnswer(message.id);
    await answer(token, 'no_answer');
    expect(await readAnswer(message.id)).toEqual(first);
    await answer(token, 'meeting', 'Meeting on Friday');
    expect(await readAnswer(message.id)).toMatchObject({ kind: 'meeting', comment: 'Meeting on Friday', answeredAt: first!.answeredAt });
    expect((await open(token)).text).toContain('Your answer so far: We have a meeting');
  });

  test('two different answers racing: one is stored, the other told so, nothing mixed', async () => {
    const message = await sentEmail();
    const token = linkToken(message);
    const pages = await Promise.all([answer(token, 'replied', 'A'), answer(token, 'no_reply_expected', 'B')]);
    expect(pages.map((page) => page.status).sort()).toEqual([200, 409]);
    const stored = await readAnswer(message.id);
    expect(['replied', 'no_reply_expected']).toContain(stored!.kind);
    expect(pages.find((page) => page.status === 200)!.text).toContain(stored!.kind === 'replied' ? 'Great news: they replied!' : 'Thank you for telling us');
    expect(stored!.comment).toBe(stored!.kind === 'replied' ? 'A' : 'B');
    expect(pages.find((page) => page.status === 409)!.text).toContain('Your answer changed meanwhile');
  });

  test.each([
    ['an unknown answer', 'maybe', '', 'Please choose the answer that fits best.'],
    ['no answer', undefined, '', 'Please choose the answer that fits best.'],
    ['the old "They said no"', 'said_no', '', 'Please choose the answer that fits best.'],
    ['a comment over 500 characters', 'replied', 'x'.repeat(501), 'Please keep your comment to 500 characters.'],
  ])('%s: a clear page with the problem next to the field, the stored answer intact', async (_name, kind, comment, message) => {
    const sent = await sentEmail();
    const token = linkToken(sent);
    await answer(token, 'meeting', 'kept');
    const page = await answer(token, kind, comment);
    expect(page.status).toBe(400);
    expect(page.text).toContain(message);
    expect(page.html).toContain('aria-invalid="true"');
    expect(await readAnswer(sent.id)).toMatchObject({ kind: 'meeting', comment: 'kept' });
  });

  test('an expired link keeps the answer and says so', async () => {
    const message = await sentEmail();
    await answer(linkToken(message), 'replied');
    const expired = signToken({ purpose: 'school-answer', id: message.id, exp: Date.now() - 1 });
    const page = await answer(expired, 'no_reply_expected');
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    expect(page.text).toContain('They replied');
    expect((await readAnswer(message.id))!.kind).toBe('replied');
  });

  test.each([
    ['a forged token', () => `eyJwIjoic2Nob29sLWFuc3dlciJ9.${'A'.repeat(43)}`],
    ['a confirmation token', () => signToken({ purpose: 'confirm-send', id: 'x', exp: Date.now() + DAY })],
    ['nothing', () => ''],
  ])('%s: "This link is not valid"', async (_name, token) => {
    expect((await open(token())).status).toBe(404);
    expect((await answer(token(), 'replied')).status).toBe(404);
  });

  test('HubSpot down: the answer is kept and written to the contact by the next run', async () => {
    const message = await sentEmail();
    // Every try of the request's own attempt (search with its quick retries) fails.
    fake.failNext(503, 503, 503, 503);
    await answer(linkToken(message), 'replied');
    expect(await readAnswer(message.id)).toMatchObject({ kind: 'replied', contact: 'pending' });
    await schoolFollowUp();
    expect(await readAnswer(message.id)).toMatchObject({ contact: 'delivered' });
    expect(fake.findContact(message.parentEmail)!.properties.school_answer).toBe('replied');
  });
});

describe('impact counts only what was proven', () => {
  test('six scripted "I have sent it myself" requests, answered from their own follow-up links, move no figure until staff approve one', async () => {
    const before = await computeImpact();
    const messages = [];
    for (let n = 0; n < 6; n++) messages.push(await sentEmail({ school_contact_email: `head@padded${n}.edu`, email: `script${n}@example.org` }));
    for (const message of messages) await answer(linkToken(message), 'meeting', 'We meet on Friday');
    expect(await computeImpact()).toMatchObject({ schoolsReached: before.schoolsReached, parentsWrote: before.parentsWrote, meetings: before.meetings });
    expect(await query(sql`SELECT message_id FROM impact_sends`)).toHaveLength(0);
    // Staff approve the first letter: it counts, with its answer held until its outcome is approved too.
    await approve(messages[0]!);
    expect(await query(sql`SELECT message_id, channel FROM impact_sends`)).toEqual([{ message_id: messages[0]!.id, channel: 'self' }]);
    expect(await query(sql`SELECT 1 FROM impact_answers`)).toHaveLength(0);
    expect(await query(sql`SELECT claim, reason FROM review_items WHERE message_id = ${messages[0]!.id} AND state = 'pending'`)).toEqual([
      { claim: 'meeting', reason: 'outcome_on_self_report' },
    ]);
    await approve(messages[0]!, 'meeting');
    expect(await query(sql`SELECT kind FROM impact_answers WHERE message_id = ${messages[0]!.id}`)).toEqual([{ kind: 'meeting' }]);
  });

  test('the review queue: staff read it (audited), decide once (a second decision is a 409), and rejecting counts nothing', async () => {
    const message = await sentEmail({ school_contact_email: 'head@queue.edu' });
    const cookie = await signIn();
    expect((await callAdmin(reviewAdmin, '/api/admin/review')).status).toBe(401);
    const listed = await callAdmin(reviewAdmin, '/api/admin/review', { cookie });
    const item = listed.body.items.find((entry: { messageId: string }) => entry.messageId === message.id);
    expect(item).toMatchObject({
      claim: 'self_report',
      reason: 'self_report',
      letter: { schoolName: 'Oakwood Academy', contact: 'h•••@queue.edu', parentFirstName: 'Ana' },
    });
    expect(listed.text).not.toContain(message.parentEmail);
    expect(await query(sql`SELECT 1 FROM audit_log WHERE action = 'review.viewed'`)).toHaveLength(1);
    const [first, second] = await Promise.all([
      callAdmin(reviewAdmin, `/api/admin/review/${item.id}`, { method: 'POST', cookie, body: { decision: 'rejected' } }),
      callAdmin(reviewAdmin, `/api/admin/review/${item.id}`, { method: 'POST', cookie, body: { decision: 'approved' } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await query(sql`SELECT action FROM audit_log WHERE action IN ('review.approved', 'review.rejected')`)).toHaveLength(1);
    const decided = (await query<{ state: string }>(sql`SELECT state FROM review_items WHERE id = ${item.id}`))[0]!.state;
    expect(await query(sql`SELECT 1 FROM impact_sends WHERE message_id = ${message.id}`)).toHaveLength(decided === 'approved' ? 1 : 0);
    expect((await callAdmin(reviewAdmin, `/api/admin/review/${item.id}`, { method: 'POST', cookie, body: { decision: 'maybe' } })).status).toBe(400);
  });
});

describe('impact', () => {
  async function seed() {
    // Six schools (one of them at a free mail provider, counted by address), some written to by
    // several parents; answers for four of them, a meeting at one.
    const schools = ['a.edu', 'b.edu', 'c.edu', 'd.edu', 'e.edu'];
    let n = 0;
    for (const domain of schools) {
      for (let parent = 0; parent < 2; parent++) {
        await recordSent(
          { id: `m-${domain}-${parent}`, to: `head@${domain}`, parentEmail: `p${parent}-${domain}@example.org`, channel: 'platform' },
          'a'.repeat(32),
        );
        n++;
      }
    }
    await recordSent({ id: 'm-free', to: 'principal.jones@gmail.com', parentEmail: 'p9@example.org', channel: 'self' }, 'b'.repeat(32));
    // The same message counted twice is still one.
    await recordSent({ id: 'm-a.edu-0', to: 'head@a.edu', parentEmail: 'p0-a.edu@example.org', channel: 'platform' }, 'a'.repeat(32));
    const at = new Date().toISOString();
    for (const [id, school, kind] of [
      ['m-a.edu-0', 'a.edu', 'replied'],
      ['m-b.edu-0', 'b.edu', 'meeting'],
      ['m-c.edu-0', 'c.edu', 'acknowledged'],
      ['m-d.edu-0', 'd.edu', 'no_answer'],
      ['m-e.edu-0', 'e.edu', 'replied'],
      ['m-e.edu-1', 'e.edu', 'replied'],
    ] as const)
      await recordAnswer({ id, school, kind, at });
    return n;
  }

  test('counts distinct schools and parents; figures below 5 read "fewer than 5"', async () => {
    await seed();
    const figures = await computeImpact();
    expect(figures.schoolsReached).toEqual({ value: 6, display: '6' });
    expect(figures.parentsWrote).toEqual({ value: 11, display: '11' });
    expect(figures.schoolsAnswered).toEqual({ display: 'fewer than 5' });
    expect(figures.meetings).toEqual({ display: 'fewer than 5' });
  });

  test('concurrent answers to one message count once', async () => {
    await seed();
    await Promise.all(
      ['meeting', 'meeting', 'replied'].map((kind) =>
        recordAnswer({ id: 'm-d.edu-1', school: 'd.edu', kind: kind as 'meeting', at: new Date().toISOString() }),
      ),
    );
    expect(await query(sql`SELECT kind FROM impact_answers WHERE message_id = 'm-d.edu-1'`)).toHaveLength(1);
    expect((await computeImpact()).schoolsAnswered).toEqual({ value: 5, display: '5' });
  });

  test('GET /api/impact: the figures, cached 5 minutes, never a name', async () => {
    await seed();
    const response = await impact(new Request('http://localhost/api/impact'), {});
    expect(response.headers.get('cache-control')).toBe(CACHE_CONTROL);
    // One CDN entry whatever query string is added: a random one cannot make the function run.
    expect(response.headers.get('netlify-vary')).toBe('query=__none');
    expect(response.headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, max-age=300/);
    const body = await response.json();
    expect(body).toMatchObject({ schoolsReached: { display: '6' }, meetings: { display: 'fewer than 5' } });
    expect(JSON.stringify(body)).not.toMatch(/@|\.edu|gmail/);
  });

  test('the admin table per school, by period, and as a CSV download', async () => {
    await seed();
    const cookie = await signIn();
    expect((await callAdmin(impactAdmin, '/api/admin/impact')).status).toBe(401);
    const { body } = await callAdmin(impactAdmin, '/api/admin/impact', { cookie });
    const e = body.rows.find((row: { school: string }) => row.school === 'e.edu');
    expect(e).toMatchObject({
      emailsSent: 2,
      answers: { replied: 2, replied_not_answered: 0, acknowledged: 0, meeting: 0, no_reply_expected: 0, no_answer: 0 },
      responseRate: 1,
    });
    // A school at a free mail provider counts by its address, in its canonical form (Gmail ignores dots).
    expect(body.rows.find((row: { school: string }) => row.school === 'principaljones@gmail.com')).toMatchObject({ emailsSent: 1 });
    const future = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    expect((await callAdmin(impactAdmin, `/api/admin/impact?from=${future}`, { cookie })).body.rows).toEqual([]);
    expect((await callAdmin(impactAdmin, '/api/admin/impact?from=yesterday', { cookie })).status).toBe(400);

    const csv = await impactAdmin(
      new Request('https://localhost:8888/api/admin/impact?format=csv', { headers: { cookie, origin: 'https://localhost:8888' } }),
      {},
    );
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="impact-start-to-now\.csv"/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'school,emails_sent,replied,replied_not_answered,acknowledged,meeting,no_reply_expected,no_answer,response_rate,median_days_to_reply,latest_comment,latest_comment_at',
    );
    expect(lines).toContain('"e.edu","2","2","0","0","0","0","0","1.00","","",""');
  });

  test('a comment that looks like a formula is defused in the CSV', async () => {
    const message = await sentEmail({ school_contact_email: 'head@formula.edu' });
    await approve(message);
    await answer(linkToken(message), 'no_reply_expected', '=HYPERLINK("http://evil")');
    const cookie = await signIn();
    const csv = await impactAdmin(
      new Request('https://localhost:8888/api/admin/impact?format=csv', { headers: { cookie, origin: 'https://localhost:8888' } }),
      {},
    );
    expect(await csv.text()).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });
});
