/**
 * The outcome reaches everyone: a parent's "They replied" / "We have a meeting" about a letter the
 * platform delivered queues one update for every other parent whose letter to that school counts
 * (never the reporter), emailed once, at most one a week, with a stop link (and one-click
 * List-Unsubscribe) that works once signed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import schoolUpdatesRun from '../../netlify/functions/school-updates.mts';
import stopEndpoint from '../../netlify/functions/school-updates-stop.mts';
import yourData from '../../netlify/functions/your-data.mts';
import { parentKey } from '../../src/server/schools/impact';
import { runMail } from '../../src/server/letter/delivery';
import { answerLink, stopLink } from '../../src/server/links';
import { readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { runFollowUps } from '../../src/server/schools/answers';
import { runSchoolUpdates } from '../../src/server/schools/updates';
import { decideReview } from '../../src/server/staff/review';
import { createSchool } from '../../src/server/schools/records';
import { query, sql } from '../../src/server/db';
import type { Attribution } from '../../src/server/schools/pages';
import { verifiedSchool } from './helpers/schools';
import campaignAdmin from '../../netlify/functions/impact-schools-admin.mts';
import { signToken } from '../../src/server/tokens';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { useSiteShell } from './helpers/site';
import { deliveredLetter } from './helpers/delivered';
import { linkIn, MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';

let fake: HubSpotFake;
let mail: MailCatcher;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
let school = '';
const DAY = 24 * 3600_000;

/** A letter the platform delivered (unless `confirmed: false`: confirmed, still waiting to go). */
const wrote = (email: string, options: { to?: string; confirmed?: boolean; attribution?: Attribution } = {}) =>
  deliveredLetter(email, options.to ?? school, { attribution: options.attribution, delivered: options.confirmed !== false });

/**
 * The parent answers from their follow-up link; an outcome ("replied", "meeting") speaks for the
 * school, so staff approve it in the review queue before anyone hears it (`approve: false` leaves it waiting).
 */
async function report(message: OutboxMessage, kind: string, options: { approve?: boolean } = {}) {
  const token = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  const body = new URLSearchParams({ token, seen: '', comment: '', answer: kind });
  const response = await schoolAnswer(
    new Request('http://localhost/school-answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
  );
  expect(response.status).toBe(200);
  if (options.approve === false) return;
  const items = await query<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${message.id} AND claim = ${kind} AND state = 'pending'`);
  for (const item of items) await decideReview(item.id, 'approved', 'staff@example.org');
}

const queued = async () => query<{ parent: string; state: string; kind: string }>(sql`SELECT parent, state, kind FROM school_updates ORDER BY created_at, id`);
/** The school updates this parent got. */
const updates = (email: string) => mail.to(email).filter((message) => /^News from/.test(message.subject));
/** Runs the updates at `at` and sends what is due then. */
const runUpdates = async (at = new Date()) => {
  const counts = await runSchoolUpdates(at);
  await runMail(() => at);
  return counts;
};

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
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'SITE_URL']) delete process.env[name];
});
beforeEach(async () => {
  fake.reset();
  mail.reset();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  await query(sql`DELETE FROM email_budgets`);
  school = `head${++seq}@oakwood${seq}.edu`;
  await query(sql`DELETE FROM school_updates`);
  await query(sql`DELETE FROM school_update_weeks`);
});

describe('an outcome reported', () => {
  test('queues an update for the other parents whose letters count only: never the reporter, never a letter not delivered, never another school', async () => {
    const n = seq;
    // One verified school with two addresses on its record: its letters count on one page.
    const office = school.replace('head', 'office');
    await createSchool(
      {
        name: 'Oakwood Academy',
        leaders: [
          { name: '', role: '', address: school },
          { name: '', role: '', address: office },
        ],
        emailDomains: [],
        timeZone: 'UTC',
        hours: { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '16:00' },
        holidays: [],
      },
      'tests',
      { kind: 'note', detail: 'two addresses' },
    );
    const reporter = await wrote(`ana${n}@example.org`);
    const other = await wrote(`ben${n}@example.org`, { to: office.toUpperCase() });
    await wrote(`ana${n}+kids@example.org`); // the reporter again, under another way of writing the address
    await wrote(`cat${seq}@example.org`, { confirmed: false });
    await wrote(`dan${seq}@example.org`, { to: `head@elsewhere${seq}.edu` });
    // Reported, not yet approved: nobody hears it.
    await report(reporter, 'meeting', { approve: false });
    expect(await queued()).toEqual([]);
    await report(reporter, 'meeting');
    expect(await queued()).toEqual([{ parent: parentKey(other.parentEmail), state: 'pending', kind: 'meeting' }]);
    // "No reply yet" (and every answer but a reply or a meeting) tells nobody.
    await report(other, 'no_answer');
    expect(await queued()).toHaveLength(1);
  });

  test('the update reaches the other parent exactly once, by email, with the school, the words, a stop link and their own "Your data"', async () => {
    const reporter = await wrote(`ana${seq}@example.org`);
    const other = await wrote(`ben${seq}@example.org`);
    await report(reporter, 'replied');
    await report(reporter, 'replied');
    const run = await schoolUpdatesRun();
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ sent: 1 });
    await runUpdates(new Date(Date.now() + 60_000));
    expect(updates(other.parentEmail)).toHaveLength(1);
    expect(updates(reporter.parentEmail)).toHaveLength(0);
    const email = updates(other.parentEmail)[0]!;
    expect(email.subject).toBe('News from Oakwood Academy');
    expect(email.text).toContain('Oakwood Academy replied');
    expect(linkIn(email, '/school-updates/stop')).toMatch(/^https:\/\/site\.example\/school-updates\/stop\?token=/);
    expect(email.headerLines.find((header) => header.key === 'list-unsubscribe-post')!.line).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // "Your data" travels with the update: the parent's own records, no one else's.
    const data = new URL(linkIn(email, '/your-data'));
    expect(data.origin + data.pathname).toBe('https://site.example/your-data');
    const page = await (await yourData(new Request(`http://localhost${data.pathname}${data.search}`))).text();
    expect(page).toContain(other.parentEmail);
    expect(page).not.toContain(reporter.parentEmail);
    expect((await queued())[0]).toMatchObject({ state: 'sent' });
  });

  test('without a mail sender the update waits in the mail layer, and goes once there is one', async () => {
    const reporter = await wrote(`ana${seq}@example.org`);
    const other = await wrote(`ben${seq}@example.org`);
    await report(reporter, 'meeting');
    delete process.env.MAIL_FROM_ADDRESS;
    expect(await runUpdates()).toMatchObject({ sent: 1 });
    expect(updates(other.parentEmail)).toHaveLength(0);
    process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
    await runMail();
    expect(updates(other.parentEmail)).toHaveLength(1);
  });

  test('at most one update a week to one parent', async () => {
    const first = await wrote(`ana${seq}@example.org`);
    const second = await wrote(`eve${seq}@example.org`);
    const other = await wrote(`ben${seq}@example.org`);
    await report(first, 'replied');
    const now = Date.now() + 1000;
    await runUpdates(new Date(now));
    await report(second, 'meeting');
    await runUpdates(new Date(now + 6 * DAY));
    expect(updates(other.parentEmail)).toHaveLength(1);
    const mine = (await queued()).filter((row) => row.parent === parentKey(other.parentEmail));
    expect(mine.map((row) => row.state)).toEqual(['sent', 'capped']);
    // A week on, the next outcome reaches them again.
    const third = await wrote(`fay${seq}@example.org`);
    await report(third, 'replied');
    await runUpdates(new Date(now + 8 * DAY));
    expect(updates(other.parentEmail)).toHaveLength(2);
  });
});

describe('the stop link', () => {
  const stop = (token: string, method = 'GET') =>
    stopEndpoint(
      method === 'GET'
        ? new Request(`http://localhost/school-updates/stop?token=${encodeURIComponent(token)}`)
        : new Request('http://localhost/school-updates/stop', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token }),
          }),
    );
  const stops = async () => query(sql`SELECT parent FROM school_update_stops`);

  test('GET asks, POST stops every further update for the address', async () => {
    const reporter = await wrote(`ana${seq}@example.org`);
    const other = await wrote(`ben${seq}@example.org`);
    const token = new URL(stopLink(other.parentEmail)).searchParams.get('token')!;
    const before = (await stops()).length;
    const page = await stop(token);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Stop these emails');
    expect(html).toMatch(/<form method="post" action="\/school-updates\/stop"/);
    expect(await stops()).toHaveLength(before);
    expect((await stop(token, 'POST')).status).toBe(200);
    expect((await stop(token, 'POST')).status).toBe(200);
    expect(await stops()).toHaveLength(before + 1);
    await report(reporter, 'meeting');
    expect((await queued()).filter((row) => row.parent === parentKey(other.parentEmail))).toEqual([]);
  });

  test('a pending update is withdrawn when its parent stops', async () => {
    const reporter = await wrote(`ana${seq}@example.org`);
    const other = await wrote(`ben${seq}@example.org`);
    await report(reporter, 'meeting');
    const token = new URL(stopLink(other.parentEmail)).searchParams.get('token')!;
    expect((await stop(token, 'POST')).status).toBe(200);
    await runUpdates();
    expect(updates(other.parentEmail)).toHaveLength(0);
    expect((await queued()).find((row) => row.parent === parentKey(other.parentEmail))).toMatchObject({ state: 'stopped' });
  });

  test.each([
    ['forged', () => `${signToken({ purpose: 'school-updates-stop', id: parentKey('x@example.org'), exp: Date.now() + DAY }).slice(0, -3)}abc`, 404],
    ['for another purpose', () => signToken({ purpose: 'school-answer', id: parentKey('x@example.org'), exp: Date.now() + DAY }), 404],
    ['expired', () => signToken({ purpose: 'school-updates-stop', id: parentKey('x@example.org'), exp: Date.now() - 1000 }), 410],
    ['garbage', () => 'not-a-token', 404],
  ])('a %s link is a 4xx and changes nothing', async (_name, token, status) => {
    const before = await database.snapshot();
    expect((await stop(token(), 'GET')).status).toBe(status);
    expect((await stop(token(), 'POST')).status).toBe(status);
    expect(await database.snapshot()).toEqual(before);
  });
});

describe('the second follow-up', () => {
  const followUps = (email: string) => mail.to(email).filter((message) => /answer|news from/i.test(message.subject) && !/^News from/.test(message.subject));
  const at = async (when: number) => {
    await runFollowUps(new Date(when));
    await runMail(() => new Date(when));
  };

  test('goes out at 21 days when the first got no answer, once, with a link of its own', async () => {
    const message = await wrote(`gus${seq}@example.org`);
    const sent = Date.parse(message.sentAt!);
    await at(sent + 10 * DAY + 1000);
    expect(followUps(message.parentEmail)).toHaveLength(1);
    const first = linkIn(followUps(message.parentEmail)[0], '/school-answer');
    expect((await readMessage(message.id))!.message.followUp?.second).toMatchObject({ link: 'pending', dueAt: new Date(sent + 21 * DAY).toISOString() });
    await at(sent + 20 * DAY);
    expect(followUps(message.parentEmail)).toHaveLength(1);
    await at(sent + 21 * DAY + 1000);
    expect(followUps(message.parentEmail)).toHaveLength(2);
    const second = linkIn(followUps(message.parentEmail)[1], '/school-answer');
    expect(second).not.toBe(first);
    const page = await schoolAnswer(new Request(`http://localhost/school-answer?token=${new URL(second).searchParams.get('token')}`));
    expect(page.status).toBe(200);
    await at(sent + 22 * DAY);
    await at(sent + 40 * DAY);
    expect(followUps(message.parentEmail)).toHaveLength(2);
    expect((await readMessage(message.id))!.message.followUp?.second).toMatchObject({ link: 'delivered' });
    expect((await query(sql`SELECT follow_up_waiting FROM outbox_messages WHERE id = ${message.id}`))[0]).toMatchObject({ follow_up_waiting: false });
  });

  test('does not go out when the first was answered', async () => {
    const message = await wrote(`hal${seq}@example.org`);
    const sent = Date.parse(message.sentAt!);
    await at(sent + 10 * DAY + 1000);
    await report((await readMessage(message.id))!.message, 'no_answer');
    await at(sent + 21 * DAY + 1000);
    await at(sent + 30 * DAY);
    expect(followUps(message.parentEmail)).toHaveLength(1);
    expect((await readMessage(message.id))!.message.followUp?.second).toMatchObject({ link: 'answered' });
  });

  test('a parent who stopped emails about their letter gets no follow-up', async () => {
    const message = await wrote(`ida${seq}@example.org`);
    await stopEndpoint(
      new Request('http://localhost/school-updates/stop', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: new URL(stopLink(message.parentEmail)).searchParams.get('token')! }),
      }),
    );
    await at(Date.parse(message.sentAt!) + 10 * DAY + 1000);
    expect(followUps(message.parentEmail)).toHaveLength(0);
    expect((await readMessage(message.id))!.message.followUp).toMatchObject({ link: 'stopped' });
  });
});

describe('the school campaign (admin)', () => {
  test('opens a school: parents masked with how they came, letters, answers, updates; CSV; pages by keyset', async () => {
    const n = seq;
    const first = await wrote(`ivy${n}@example.org`);
    const second = await wrote(`jon${n}@example.org`, { attribution: { via: 'parent', referrerMessageId: first.id } });
    await wrote(`kim${n}@example.org`, { attribution: { via: 'ambassador', ambassadorId: 'amb-7' } });
    await wrote(`lee${n}@example.org`, { confirmed: false });
    await report(first, 'meeting');
    await runUpdates();
    const key = (await verifiedSchool(school)).pageKey;
    const cookie = await signIn();

    const list = await callAdmin(campaignAdmin, '/api/admin/impact/schools', { cookie });
    expect(list.status).toBe(200);
    expect(list.body.schools).toContainEqual(expect.objectContaining({ key, schoolName: 'Oakwood Academy', parents: 3 }));

    const opened = await callAdmin(campaignAdmin, `/api/admin/impact/schools?key=${key}`, { cookie });
    expect(opened.status).toBe(200);
    const body = opened.body;
    expect(body.school).toMatchObject({ key, schoolName: 'Oakwood Academy', parents: 3, emails: 3 });
    expect(body.came).toEqual({ direct: 1, parent: 1, ambassador: 1 });
    const byParent = Object.fromEntries(body.parents.map((row: { parent: string }) => [row.parent, row]));
    expect(Object.keys(byParent).sort()).toEqual([`i•••@example.org`, `j•••@example.org`, `k•••@example.org`]);
    expect(byParent['i•••@example.org']).toMatchObject({ came: 'direct', answer: 'meeting', updatesSent: 0 });
    expect(byParent['j•••@example.org']).toMatchObject({ came: 'parent', referrer: 'i•••@example.org', updatesSent: 1 });
    expect(byParent['k•••@example.org']).toMatchObject({ came: 'ambassador', ambassadorId: 'amb-7', updatesSent: 1 });
    expect(JSON.stringify(body)).not.toContain(`ivy${n}`);
    expect(body.letters.reduce((sum: number, row: { emails: number }) => sum + row.emails, 0)).toBe(3);
    expect(body.answers).toEqual([{ day: new Date().toISOString().slice(0, 10), kind: 'meeting', count: 1 }]);
    expect(body.updates).toEqual({ sent: 2 });

    const pageOne = await callAdmin(campaignAdmin, `/api/admin/impact/schools?key=${key}&limit=2`, { cookie });
    expect(pageOne.body.parents).toHaveLength(2);
    const pageTwo = await callAdmin(campaignAdmin, `/api/admin/impact/schools?key=${key}&limit=2&cursor=${pageOne.body.nextCursor}`, { cookie });
    expect(pageTwo.body.parents).toHaveLength(1);
    expect(pageTwo.body.nextCursor).toBeUndefined();
    expect(new Set([...pageOne.body.parents, ...pageTwo.body.parents].map((row: { messageId: string }) => row.messageId)).size).toBe(3);

    const csv = await campaignAdmin(new Request(`https://localhost:8888/api/admin/impact/schools?key=${key}&format=csv`, { headers: { cookie } }), {});
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('parent,channel,sent_at,came,referrer,ambassador_id,letter_id,answer,updates_sent');
    expect(text).toContain('"j•••@example.org"');
    expect(text).not.toContain(`jon${n}`);
    void second;
  });

  test('refuses without a session, and refuses bad input with a 4xx', async () => {
    const key = (await verifiedSchool(school)).pageKey;
    for (const path of ['/api/admin/impact/schools', `/api/admin/impact/schools?key=${key}`, `/api/admin/impact/schools?key=${key}&format=csv`]) {
      const answer = await callAdmin(campaignAdmin, path);
      expect(answer.status).toBe(401);
      expect(JSON.stringify(answer.body)).not.toContain('Oakwood');
    }
    const cookie = await signIn();
    for (const path of [
      '/api/admin/impact/schools?key=nope',
      '/api/admin/impact/schools?cursor=zzz',
      `/api/admin/impact/schools?key=${key}&limit=0`,
      '/api/admin/impact/schools?other=1',
      '/api/admin/impact/schools?format=csv',
    ]) {
      const answer = await callAdmin(campaignAdmin, path, { cookie });
      expect(answer.status, path).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    expect((await callAdmin(campaignAdmin, `/api/admin/impact/schools?key=${'0'.repeat(32)}`, { cookie })).status).toBe(404);
  });
});
