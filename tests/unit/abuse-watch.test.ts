/**
 * The abuse watch (issue 46, part 5): every entry point records one compact row (a network
 * prefix, an email domain, a school, a form; never a whole IP address or a parent's address); the
 * view shows the last hour and day and what runs past its usual rate; blocks refuse new requests
 * at each entry point with a plain message, and only the people they are aimed at; voiding a set
 * ends its letters, tells their parents and takes them out of the public figures; owners get one
 * alert per key per hour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import abuseAdmin from '../../netlify/functions/abuse-admin.mts';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import { watchRun } from '../../netlify/functions/abuse-watch.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import forms from '../../netlify/functions/forms.mts';
import nominations from '../../netlify/functions/nominations.mts';
import schoolNominations from '../../netlify/functions/school-nominations.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { abuseViewSchema } from '../../src/lib/shared/schemas/abuse-watch';
import { blockValue } from '../../src/server/abuse/blocks';
import { isTrending, trendRatio, watchRows } from '../../src/server/abuse/watch';
import { query, queryOne, sql } from '../../src/server/db';
import { networkPrefix } from '../../src/server/identity';
import { readMessage } from '../../src/server/letter/outbox';
import { confirmPlatformSend } from '../../src/server/letter/request';
import { confirmationLink } from '../../src/server/links';
import { decideReview } from '../../src/server/staff/review';
import { readSchoolPage } from '../../src/server/schools/pages';
import { confirmedSelfReport } from './helpers/delivered';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { useMail, type MailCatcher } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';

let database: TestDatabase;
let mail: MailCatcher;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let cookie: string;
let seq = 0;

type Handler = (req: Request, context: unknown) => Promise<Response>;

async function answer(handler: Handler, req: Request, ip: string) {
  const response = await handler(req, { ip });
  const text = await response.text();
  return { status: response.status, text, body: /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined };
}

/** The email form as the enhanced page posts it (JSON), or as a browser without script does. */
function formRequest(values: Record<string, string>, html = false) {
  const body = { ...values, _page: '/lead-the-change', _elapsed: '30000' };
  return new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
    method: 'POST',
    headers: html
      ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
      : { 'content-type': 'application/json', accept: 'application/json' },
    body: html ? new URLSearchParams(body).toString() : JSON.stringify(body),
  });
}

/** A draft made by the email form from `ip`: its id and token. */
async function draftFrom(ip: string, overrides: Record<string, string> = {}) {
  const made = await answer(forms as Handler, formRequest(emailFormValues(overrides)), ip);
  expect(made.status).toBe(201);
  return { submissionId: made.body.id as string, token: made.body.draft.token as string };
}

const admin = (path: string, init: { method?: string; body?: unknown } = {}) => callAdmin(abuseAdmin as Handler, path, { ...init, cookie });
const block = (kind: string, value: string, extra: Record<string, unknown> = {}) =>
  admin('/api/admin/abuse/blocks', { method: 'POST', body: { kind, value, reason: 'a burst of drafts', ...extra } });

const nomination = (email: string) => ({ schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana Lopez', email, childGrade: '5th', sendTo: 'Principal' });
const nominate = (email: string, ip: string) => answer(nominations as Handler, jsonRequest('/api/nominations', nomination(email)), ip);

beforeAll(async () => {
  setAdminEnv();
  shell = useSiteShell();
  database = await startTestDatabase();
  mail = await useMail();
  definitions = await useFormDefinitions();
  process.env.SITE_URL = 'https://site.example';
  cookie = await signIn();
});
afterAll(async () => {
  definitions.remove();
  shell.remove();
  await mail.close();
  await database.stop();
  delete process.env.SITE_URL;
});
beforeEach(async () => {
  mail.reset();
  await database.db.exec(
    'DELETE FROM abuse_requests; DELETE FROM abuse_blocks; DELETE FROM send_request_days; DELETE FROM email_budgets; DELETE FROM recipient_days; DELETE FROM form_rate_windows;',
  );
});

describe('a network is kept as its prefix, never the whole address', () => {
  test.each([
    ['203.0.113.77', '203.0.113.0/24'],
    ['::ffff:203.0.113.77', '203.0.113.0/24'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['[2001:DB8:1:2::9]', '2001:db8:1:2::/64'],
    ['not an address', 'unknown'],
  ])('%s is %s', (ip, prefix) => {
    expect(networkPrefix(ip)).toBe(prefix);
  });
});

describe('recording', () => {
  test('each entry point leaves one compact row: prefix, domain, school, form; no whole address', async () => {
    await verifiedSchool('head@oakwood.edu');
    const ip = '203.0.113.9';
    const draft = await draftFrom(ip, { email: 'Ana.Lopez+school@Example.ORG' });
    const sent = await answer(sendEmail as Handler, jsonRequest('/api/send-email', draft), ip);
    expect(sent.status).toBe(202);
    const other = await draftFrom(ip);
    const self = await answer(emailSentMyself as Handler, jsonRequest('/api/email-sent-myself', other), ip);
    expect(self.status).toBe(202);
    expect((await nominate('nominator@example.net', ip)).status).toBe(201);
    const rows = await query<Record<string, unknown>>(sql`SELECT kind, network, email_domain, school, form, subject FROM abuse_requests ORDER BY id`);
    expect(rows).toEqual([
      { kind: 'draft', network: '203.0.113.0/24', email_domain: 'example.org', school: 'oakwood.edu', form: 'emailGenerator', subject: null },
      { kind: 'send', network: '203.0.113.0/24', email_domain: 'example.org', school: 'oakwood.edu', form: null, subject: sent.body.id },
      { kind: 'draft', network: '203.0.113.0/24', email_domain: 'example.org', school: 'oakwood.edu', form: 'emailGenerator', subject: null },
      { kind: 'self_report', network: '203.0.113.0/24', email_domain: 'example.org', school: 'oakwood.edu', form: null, subject: self.body.id },
      { kind: 'nomination', network: '203.0.113.0/24', email_domain: 'example.net', school: 'oakwood academy', form: 'nomination', subject: null },
    ]);
    const kept = JSON.stringify(rows);
    expect(kept).not.toContain('203.0.113.9');
    expect(kept).not.toMatch(/ana|nominator|@/i);
  });

  test('a request the form refuses (a field missing) is not recorded', async () => {
    const refused = await answer(forms as Handler, formRequest(emailFormValues({ full_name: '' })), '203.0.113.10');
    expect(refused.status).toBe(400);
    expect(await queryOne(sql`SELECT 1 FROM abuse_requests`)).toBeUndefined();
  });
});

describe('trending: the last hour against the same key’s usual hourly rate over the week before', () => {
  test.each([
    [30, 0, true],
    [30, 7 * 24 * 10, false], // ten an hour is its usual: 30 is three times that
    [60, 7 * 24 * 2, true], // two an hour usually: 60 is thirty times that
    [5, 0, false], // too few to call a burst
  ])('%i in the hour after %i in the week: trending %s', (hour, before, expected) => {
    expect(isTrending(hour, trendRatio(hour, before))).toBe(expected);
  });

  test('the view lists keys by network, domain, school and form, with the ratio and what trends', async () => {
    const now = new Date();
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
    // A burst: 25 drafts from one network in the last hour, none before.
    for (let i = 0; i < 25; i++)
      await query(
        sql`INSERT INTO abuse_requests (kind, network, email_domain, school, form, created_at) VALUES ('draft', '198.51.100.0/24', 'burst.test', 'oakwood.edu', 'emailGenerator', ${at(i)})`,
      );
    // A busy but usual network: 25 this hour, and 25 an hour through the week before.
    const rows = [];
    for (let i = 0; i < 25; i++) rows.push(at(i));
    for (let h = 2; h < 7 * 24; h += 1) for (let i = 0; i < 25; i++) rows.push(at(h * 60 + i));
    await query(sql`INSERT INTO abuse_requests (kind, network, created_at) SELECT 'form', '192.0.2.0/24', unnest(${rows}::timestamptz[])`);
    const networks = await watchRows('network', now);
    const burst = networks.find((row) => row.key === '198.51.100.0/24')!;
    const usual = networks.find((row) => row.key === '192.0.2.0/24')!;
    expect(burst).toMatchObject({ hour: 25, day: 25, usualPerHour: 0, trending: true });
    expect(burst.ratio).toBeGreaterThan(1000);
    expect(usual).toMatchObject({ hour: 25, trending: false });
    expect(usual.ratio).toBeLessThan(2);

    const view = await admin('/api/admin/abuse');
    expect(view.status).toBe(200);
    expect(abuseViewSchema.safeParse(view.body).error).toBeUndefined();
    expect(view.body.trending.map((row: { dimension: string; key: string }) => `${row.dimension} ${row.key}`)).toEqual(
      expect.arrayContaining(['network 198.51.100.0/24', 'email_domain burst.test', 'school oakwood.edu', 'form emailGenerator']),
    );
    expect(view.body.trending).not.toContainEqual(expect.objectContaining({ key: '192.0.2.0/24' }));
    expect(view.body.totals.hour).toBe(50);
  });

  test('the view is for staff only', async () => {
    const stranger = await answer(abuseAdmin as Handler, new Request('https://localhost:8888/api/admin/abuse'), '203.0.113.1');
    expect(stranger.status).toBe(401);
  });
});

describe('blocks refuse new requests at every entry point, with a plain message', () => {
  const ip = '198.51.100.23';
  const neighbour = '198.51.101.23';

  test('a blocked network: the form (JSON and without script), send, self-report, both nominations', async () => {
    const draft = await draftFrom(ip);
    const other = await draftFrom(ip);
    expect((await block('network', '198.51.100.200')).status).toBe(201);
    const refused = [
      await answer(forms as Handler, formRequest(emailFormValues()), ip),
      await answer(sendEmail as Handler, jsonRequest('/api/send-email', draft), ip),
      await answer(emailSentMyself as Handler, jsonRequest('/api/email-sent-myself', other), ip),
      await nominate('someone@example.org', ip),
      await answer(
        schoolNominations as Handler,
        jsonRequest('/api/school-nominations', { schoolName: 'Oak', city: 'Austin', yourName: 'Ana Lopez', email: 'a@example.org' }),
        ip,
      ),
    ];
    for (const one of refused) {
      expect(one.status).toBe(403);
      expect(one.body.error).toEqual({ code: 'blocked', message: expect.stringContaining('this internet connection') });
    }
    // Without script: a page that says so (never a silent drop), for the form and the letter's page.
    const page = await answer(forms as Handler, formRequest(emailFormValues(), true), ip);
    expect(page.status).toBe(403);
    expect(regionText(page.text)).toContain('paused requests from this internet connection');
    const noScript = await answer(
      yourEmail as Handler,
      new Request('http://localhost/your-email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: new URLSearchParams({ id: draft.submissionId, t: draft.token, action: 'platform' }).toString(),
      }),
      ip,
    );
    expect(noScript.status).toBe(403);
    expect(regionText(noScript.text)).toContain('paused requests from this internet connection');
    // Nothing was kept, and the neighbouring network is not touched.
    expect(
      (await queryOne<{ n: number }>(sql`SELECT count(*)::int AS n FROM outbox_messages WHERE id = ANY(${refused.map((one) => one.body?.id ?? '')}::text[])`))
        ?.n,
    ).toBe(0);
    expect((await answer(sendEmail as Handler, jsonRequest('/api/send-email', draft), neighbour)).status).toBe(202);
  });

  test('a lifted block refuses no more, and an expired one none at all', async () => {
    const added = await block('network', ip);
    expect((await nominate('someone@example.org', ip)).status).toBe(403);
    expect((await admin('/api/admin/abuse/blocks/remove', { method: 'POST', body: { id: added.body.block.id } })).status).toBe(200);
    expect((await nominate('someone@example.org', ip)).status).toBe(201);
    await block('network', ip, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await query(sql`UPDATE abuse_blocks SET expires_at = now() - interval '1 second'`);
    expect((await nominate('someone@example.org', ip)).status).toBe(201);
  });

  test.each([
    ['address', 'sam.parent@gmail.com', 'SamParent+news@googlemail.com', true],
    ['address', 'sam.parent@gmail.com', 'S.A.M.P.A.R.E.N.T@Gmail.com', true],
    ['address', 'head+x@school.org', 'HEAD@school.org', true],
    ['address', 'sam.parent@gmail.com', 'sam.parent2@gmail.com', false],
    ['address', 'sam.parent@gmail.com', 'other.parent@gmail.com', false], // one address never blocks its domain
    ['domain', 'example.org', 'x@EXAMPLE.org', true],
    ['domain', '@example.org.', 'x@mail.example.org', true],
    ['domain', 'example.org', 'x@notexample.org', false],
    ['domain', 'example.org', 'x@example.org.evil.test', false],
    ['domain', 'example.org', 'x@example.com', false],
    ['domain', 'gmail.com', 'someone@googlemail.com', true],
  ])('a block of %s %s refuses %s: %s', async (kind, value, email, refused) => {
    expect((await block(kind, value)).status).toBe(201);
    const outcome = await nominate(email, '192.0.2.44');
    expect(outcome.status).toBe(refused ? 403 : 201);
  });

  test.each([
    ['network', 'not an address'],
    ['domain', 'no spaces.org'],
    ['domain', 'localhost'],
    ['address', 'no-at-sign'],
  ])('a block of %s "%s" is refused with the field named', async (kind, value) => {
    const refused = await block(kind, value);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^value:/);
  });

  test('adding and lifting a block is on the audit log', async () => {
    const added = await block('domain', 'burst.test');
    await admin('/api/admin/abuse/blocks/remove', { method: 'POST', body: { id: added.body.block.id } });
    const log = await query<{ action: string; target: string }>(sql`SELECT action, target FROM audit_log WHERE action LIKE 'abuse.%block%' ORDER BY id`);
    expect(log.slice(-2)).toEqual([
      { action: 'abuse.blocked', target: 'domain burst.test: a burst of drafts' },
      { action: 'abuse.unblocked', target: 'domain burst.test' },
    ]);
  });

  test.each([
    ['values', { kind: 'network', value: '192.0.2.1' }],
    ['an unknown kind', { kind: 'school', value: 'x', reason: 'because' }],
    ['a past expiry', { kind: 'network', value: '192.0.2.1', reason: 'because', expiresAt: '2020-01-01T00:00:00Z' }],
  ])('a malformed block (%s) is a 400', async (_name, body) => {
    expect((await admin('/api/admin/abuse/blocks', { method: 'POST', body })).status).toBe(400);
  });
});

describe('voiding a set', () => {
  test('its letters not sent yet and its self-reports end, their parents are told, the figures recount', async () => {
    const school = await verifiedSchool('head@oakwood.edu');
    const ip = '198.51.100.77';
    const from = new Date(Date.now() - 60_000).toISOString();
    // A burst's leftovers: a platform letter confirmed and waiting in the mail layer, a request
    // never confirmed, and a self-report confirmed and approved (so it counts).
    const mailFrom = process.env.MAIL_FROM_ADDRESS;
    delete process.env.MAIL_FROM_ADDRESS; // no sender: the confirmed letter waits in the mail layer
    const requested = await answer(sendEmail as Handler, jsonRequest('/api/send-email', await draftFrom(ip, { email: 'waiting@burst.test' })), ip);
    const link = confirmationLink((await readMessage(requested.body.id))!.message)!;
    expect((await confirmPlatformSend(new URL(link).searchParams.get('token')!)).kind).toBe('done');
    process.env.MAIL_FROM_ADDRESS = mailFrom;
    const unconfirmed = await answer(sendEmail as Handler, jsonRequest('/api/send-email', await draftFrom(ip, { email: 'later@burst.test' })), ip);
    const self = await answer(emailSentMyself as Handler, jsonRequest('/api/email-sent-myself', await draftFrom(ip, { email: 'self@burst.test' })), ip);
    await confirmedSelfReport(self.body.id);
    const item = await queryOne<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${self.body.id}`);
    await decideReview(item!.id, 'approved', 'staff');
    // Someone else's letter from another network, in the same window, stays.
    const bystander = await answer(sendEmail as Handler, jsonRequest('/api/send-email', await draftFrom('192.0.2.5')), '192.0.2.5');

    expect((await readMessage(requested.body.id))?.message.status).toBe('queued');
    const totals = () =>
      queryOne<{ parents_wrote: number; schools_reached: number }>(sql`SELECT parents_wrote, schools_reached FROM impact_totals WHERE id = 1`);
    const before = (await totals())!;
    expect((await readSchoolPage(school.pageKey))?.parents).toBe(1);

    const window = { dimension: 'network', key: '198.51.100.0/24', from, to: new Date(Date.now() + 1000).toISOString() };
    const preview = await admin(`/api/admin/abuse/void?${new URLSearchParams(window)}`);
    expect(preview.body).toEqual({ letters: 2, selfReports: 1, events: 0 });
    mail.reset();
    const voided = await admin('/api/admin/abuse/void', { method: 'POST', body: { ...window, reason: 'a burst from one network' } });
    expect(voided.status).toBe(200);
    expect(voided.body).toEqual({ letters: 2, selfReports: 1, uncounted: 1, events: 0 });

    for (const id of [requested.body.id, unconfirmed.body.id, self.body.id]) expect((await readMessage(id))?.message.status).toBe('voided');
    expect((await readMessage(bystander.body.id))?.message.status).toBe('awaiting_confirmation');
    // The confirmed parent is told (a dead end); the one who never confirmed is not emailed.
    const notices = await query<{ id: string; recipient: string; text: string }>(
      sql`SELECT id, recipient, content->>'text' AS text FROM emails WHERE kind = 'letter_not_sent' AND ref = ANY(${[requested.body.id, unconfirmed.body.id, self.body.id]}::text[])`,
    );
    expect(notices.map((notice) => [notice.id, notice.recipient])).toEqual([[`${requested.body.id}.ended`, 'waiting@burst.test']]);
    expect(notices[0]!.text.replace(/\s+/g, ' ')).toContain('burst of automated requests');
    // Its letter to the school never goes.
    const email = await queryOne<{ state: string }>(sql`SELECT state FROM emails WHERE id = ${requested.body.id}`);
    expect(email?.state).toBe('withdrawn');
    // The figures, as a visitor reads them.
    expect((await readSchoolPage(school.pageKey))?.parents).toBe(0);
    expect(await totals()).toEqual({ parents_wrote: before.parents_wrote - 1, schools_reached: before.schools_reached - 1 });
    // Audited, and a second void finds nothing left.
    expect(await queryOne(sql`SELECT 1 FROM audit_log WHERE action = 'abuse.voided' AND target LIKE 'network 198.51.100.0/24%'`)).toBeDefined();
    expect((await admin('/api/admin/abuse/void', { method: 'POST', body: { ...window, reason: 'again' } })).body).toEqual({
      letters: 0,
      selfReports: 0,
      uncounted: 0,
      events: 0,
    });
  });

  test("a network's counted visits go too while they can be told apart; another network's stay, and the figures read without them", async () => {
    const { recordBeacon } = await import('../../src/server/analytics/record');
    const { insights } = await import('../../src/server/analytics/insights');
    const browser = (agent: string) =>
      new Request('http://localhost/api/event', {
        method: 'POST',
        headers: { 'user-agent': agent, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'accept-language': 'en' },
      });
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
    for (let i = 0; i < 12; i++) await recordBeacon(browser(`${agent} n${i}`), { ip: `198.51.100.${100 + i}` }, { n: 'page_view', p: '/' });
    await recordBeacon(browser(agent), { ip: '192.0.2.5' }, { n: 'page_view', p: '/' });
    expect((await insights({})).funnel[0]!.count).toBe(13);
    const window = {
      dimension: 'network',
      key: '198.51.100.0/24',
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 1000).toISOString(),
    };
    expect((await admin(`/api/admin/abuse/void?${new URLSearchParams(window)}`)).body).toEqual({ letters: 0, selfReports: 0, events: 12 });
    expect((await admin('/api/admin/abuse/void', { method: 'POST', body: { ...window, reason: 'a flood of views' } })).body).toEqual({
      letters: 0,
      selfReports: 0,
      uncounted: 0,
      events: 12,
    });
    expect((await insights({})).funnel[0]!.count).toBe(1);
  });

  test('a confirmed letter a run is sending already stays: it is on its way to the school', async () => {
    await verifiedSchool('head@oakwood.edu');
    const ip = '198.51.100.88';
    const window = { dimension: 'network', key: '198.51.100.0/24', from: new Date(Date.now() - 60_000).toISOString() };
    const mailFrom = process.env.MAIL_FROM_ADDRESS;
    delete process.env.MAIL_FROM_ADDRESS;
    const requested = await answer(sendEmail as Handler, jsonRequest('/api/send-email', await draftFrom(ip, { email: 'going@burst.test' })), ip);
    const link = confirmationLink((await readMessage(requested.body.id))!.message)!;
    expect((await confirmPlatformSend(new URL(link).searchParams.get('token')!)).kind).toBe('done');
    process.env.MAIL_FROM_ADDRESS = mailFrom;
    await query(sql`UPDATE emails SET state = 'sending', lease_until = now() + interval '1 minute' WHERE id = ${requested.body.id}`);
    const voided = await admin('/api/admin/abuse/void', {
      method: 'POST',
      body: { ...window, to: new Date(Date.now() + 1000).toISOString(), reason: 'a burst' },
    });
    expect(voided.body).toEqual({ letters: 0, selfReports: 0, uncounted: 0, events: 0 });
    expect((await readMessage(requested.body.id))?.message.status).toBe('queued');
  });

  test('a self-report voided before its parent confirmed: the link says so, and confirming records nothing', async () => {
    const ip = '198.51.100.91';
    const self = await answer(emailSentMyself as Handler, jsonRequest('/api/email-sent-myself', await draftFrom(ip, { email: 'pending@burst.test' })), ip);
    const window = {
      dimension: 'email_domain',
      key: 'burst.test',
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 1000).toISOString(),
    };
    expect((await admin('/api/admin/abuse/void', { method: 'POST', body: { ...window, reason: 'a burst' } })).body).toEqual({
      letters: 0,
      selfReports: 1,
      uncounted: 0,
      events: 0,
    });
    const token = new URL(confirmationLink((await readMessage(self.body.id))!.message)!).searchParams.get('token')!;
    const opened = await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`));
    expect(opened.status).toBe(409);
    expect(regionText(await opened.text())).toContain('did not record your report');
    const posted = await confirmSend(
      new Request('http://localhost/confirm-send', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(token)}&tz=`,
      }),
    );
    expect(posted.status).toBe(409);
    expect((await readMessage(self.body.id))?.message.status).toBe('voided');
    expect(await queryOne(sql`SELECT 1 FROM review_items WHERE message_id = ${self.body.id}`)).toBeUndefined();
  });

  test.each([
    ['a window the wrong way round', { dimension: 'network', key: 'x', from: '2026-11-29T10:00:00Z', to: '2026-11-29T09:00:00Z', reason: 'why' }],
    ['a window longer than the watch keeps', { dimension: 'network', key: 'x', from: '2026-11-01T10:00:00Z', to: '2026-11-29T09:00:00Z', reason: 'why' }],
    ['no reason', { dimension: 'network', key: 'x', from: '2026-11-29T08:00:00Z', to: '2026-11-29T09:00:00Z' }],
    ['a form (not a sender)', { dimension: 'form', key: 'x', from: '2026-11-29T08:00:00Z', to: '2026-11-29T09:00:00Z', reason: 'why' }],
  ])('%s is a 400', async (_name, body) => {
    expect((await admin('/api/admin/abuse/void', { method: 'POST', body })).status).toBe(400);
  });
});

describe('owners are alerted once per key per hour', () => {
  test('a burst past the threshold emails each owner once, however often the run goes', async () => {
    await query(sql`INSERT INTO staff (id, email, email_canonical, role, created_at, invited_by) VALUES
      (gen_random_uuid(), 'owner@site.example', 'owner@site.example', 'owner', now(), 'test'),
      (gen_random_uuid(), 'helper@site.example', 'helper@site.example', 'staff', now(), 'test')
      ON CONFLICT DO NOTHING`);
    for (let i = 0; i < 30; i++) await nominate(`n${++seq}@burst.test`, '198.51.100.99');
    const first = await watchRun();
    expect(first.trending).toBeGreaterThanOrEqual(2); // the network and the domain
    const again = await watchRun();
    expect(again.alerts).toBe(0);
    const alerts = mail.to('owner@site.example').filter((message) => /abuse watch/i.test(message.subject));
    expect(alerts.map((message) => message.subject).sort()).toEqual([
      expect.stringMatching(/^Abuse watch: The email domain burst\.test is running at \d+ times its usual rate$/),
      expect.stringMatching(/^Abuse watch: The network 198\.51\.100\.0\/24 is running at \d+ times its usual rate$/),
      expect.stringMatching(/^Abuse watch: The school oakwood academy is running at \d+ times its usual rate$/),
    ]);
    expect(mail.to('helper@site.example')).toEqual([]);
    await query(sql`DELETE FROM staff`);
  });

  test('below the threshold, nobody is emailed', async () => {
    for (let i = 0; i < 5; i++) await nominate(`q${++seq}@quiet.test`, '198.51.100.98');
    expect(await watchRun()).toMatchObject({ trending: 0, alerts: 0 });
  });

  test('rows older than eight days are purged', async () => {
    await query(
      sql`INSERT INTO abuse_requests (kind, network, created_at) VALUES ('form', '192.0.2.0/24', now() - interval '9 days'), ('form', '192.0.2.0/24', now() - interval '7 days')`,
    );
    expect((await watchRun()).purged).toBe(1);
  });
});

describe('what staff may type', () => {
  test.each([
    ['network', '203.0.113.0/24', '203.0.113.0/24'],
    ['network', '2001:db8:1:2::/64', '2001:db8:1:2::/64'],
    ['domain', 'GoogleMail.com', 'gmail.com'],
    ['address', 'Sam.Parent+x@GoogleMail.com', 'samparent@gmail.com'],
  ])('%s %s is kept as %s', (kind, value, kept) => {
    expect(blockValue(kind as 'network', value)).toBe(kept);
  });
});
