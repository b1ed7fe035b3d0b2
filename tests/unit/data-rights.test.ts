/**
 * Parents' data rights (/your-data): the signed link (forged, expired, another purpose: 4xx and
 * nothing changed), the export of exactly one person's records under every way of writing their
 * address, the deletion from every table and admin list (a sent message keeps only its anonymous
 * claim on the limits), the HubSpot GDPR deletion queued, retried after a failure and sent once,
 * and a link asked for by address, whose answer never tells whether the address is known.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import dataDeletionsAdmin from '../../netlify/functions/data-deletions-admin.mts';
import dataDeletionsRetry from '../../netlify/functions/data-deletions-retry.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import forms from '../../netlify/functions/forms.mts';
import formsAdmin from '../../netlify/functions/form-submissions-admin.mts';
import outboxAdmin from '../../netlify/functions/outbox.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourData from '../../netlify/functions/your-data.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { query, sql } from '../../src/server/db';
import { answerLink, dataToken, DELETE_STEP_TTL_MS } from '../../src/server/links';
import { createMessage, newMessageId, readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { runFollowUps } from '../../src/server/schools/answers';
import { runMail } from '../../src/server/letter/delivery';
import { claimLimits, pairSchoolOf } from '../../src/server/letter/send-limits';
import { schoolGroupKey } from '../../src/server/identity';
import { canonicalAddress } from '../../src/server/identity';
import { signToken } from '../../src/server/tokens';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { confirmedSelfReport } from './helpers/delivered';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { call, jsonRequest, netlifyContext } from './helpers/requests';
import { regionText, useSiteShell } from './helpers/site';
import { linkIn, useMail, type MailCatcher } from './helpers/mail';

let fake: HubSpotFake;
let mail: MailCatcher;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let ipSeq = 0;
const ORIGIN = 'http://localhost';

/** What a parent leaves: the email form (submission and draft), a self-sent email with its answer, a platform email sent. */
async function parentRecords(email: string, school = 'head@oakwood.edu') {
  const body = { ...emailFormValues({ email, school_contact_email: school, _page: '/lead-the-change' }), _elapsed: '30000' };
  const response = await forms(
    new Request(`${ORIGIN}/api/forms/${formConfig.emailGenerator.formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }),
    {
      ip: `198.51.100.${++ipSeq}`,
    } as never,
  );
  const answer = (await response.json()) as { id: string; draft: { id: string; token: string; dataUrl?: string } };
  // The form's answer never carries a "Your data" link: whoever typed the address proved nothing.
  expect(answer.draft.dataUrl).toBeUndefined();
  expect(response.status).toBeLessThan(300);
  const self = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: answer.draft.id, token: answer.draft.token }));
  // One email asks the parent to confirm it; confirmed from their inbox, it is recorded.
  expect(self.status).toBe(202);
  await confirmedSelfReport(self.body.id);
  await query(sql`INSERT INTO school_answers (message_id, kind, sync_pending, updated_at, record)
    VALUES (${self.body.id}, 'replied', false, now(), ${{ messageId: self.body.id, kind: 'replied', comment: `They called ${email}`, answeredAt: new Date().toISOString(), updatedAt: new Date().toISOString(), contact: 'delivered' }})`);
  const now = new Date();
  const platform: OutboxMessage = {
    id: newMessageId(now),
    draftId: answer.draft.id,
    channel: 'platform',
    status: 'sent',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    sentAt: now.toISOString(),
    parentEmail: email.toLowerCase(),
    parentName: 'Ana Lopez',
    schoolName: 'Oakwood Academy',
    to: `other-${school}`,
    toName: 'Dr. Patel',
    subject: 'How Oakwood Academy can unlock mastery learning',
    body: 'Dear Dr. Patel, I am Ana Lopez, mother of Leo.',
    note: '',
    attempts: 1,
    nextAttemptAt: now.toISOString(),
  };
  await createMessage(platform);
  expect(
    await claimLimits(platform.parentEmail, { day: schoolGroupKey({ to: platform.to }), pair: pairSchoolOf({ to: platform.to }) }, platform.id, now),
  ).toBeUndefined();
  return { submissionId: answer.id, draftId: answer.draft.id, draftToken: answer.draft.token, selfId: self.body.id as string, platformId: platform.id };
}

async function get(path: string) {
  const response = await yourData(new Request(`${ORIGIN}${path}`));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, region: /json/.test(response.headers.get('content-type') ?? '') ? '' : regionText(text) };
}

async function post(fields: Record<string, string>, init: { origin?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (init.origin !== undefined) headers.origin = init.origin;
  const context = netlifyContext(init.ip ?? '203.0.113.50');
  const response = await yourData(new Request(`${ORIGIN}/your-data`, { method: 'POST', headers, body: new URLSearchParams(fields) }), context as never);
  const text = await response.text();
  // The link is looked up and sent after the answer.
  await context.settled();
  return { status: response.status, text, region: regionText(text) };
}

const tokenOf = (html: string, action: string) =>
  new RegExp(`name="action" value="${action}"><input type="hidden" name="token" value="([^"]+)"`).exec(html)?.[1];
const exportOf = async (email: string) => JSON.parse((await get(`/your-data?token=${dataToken(email)}&format=json`)).text);
/** Every row naming nobody in particular is fine; these are the tables a person's records live in. */
const snapshot = () => database.snapshot(['form_rate_windows', 'email_budgets', 'send_request_days', 'login_attempts', 'admin_sessions']);

beforeAll(async () => {
  setAdminEnv();
  shell = useSiteShell();
  database = await startTestDatabase();
  fake = await startHubSpotFake();
  definitions = await useFormDefinitions();
  mail = await useMail();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '1';
  process.env.FORMS_DELIVERY_BUDGET_MS = '1500';
  process.env.FORMS_MIN_FILL_MS = '0';
  process.env.SITE_URL = 'https://site.example';
});

afterAll(async () => {
  await fake.close();
  await mail.close();
  await database.stop();
  shell.remove();
  definitions.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'SITE_URL', 'FORMS_MIN_FILL_MS', 'FORMS_DELIVERY_BUDGET_MS'])
    delete process.env[name];
});

beforeEach(async () => {
  await database.truncate();
  fake.reset();
  mail.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
});

describe('the link', () => {
  const hour = 3600_000;
  const email = 'ana.lopez@gmail.com';
  test.each<{ name: string; token: () => string; action: 'get' | 'review' | 'delete'; status: number }>([
    { name: 'a forged token', token: () => `${dataToken(email).split('.')[0]}.${'A'.repeat(43)}`, action: 'get', status: 404 },
    {
      name: 'a token for another address, signed with another key',
      token: () => `${Buffer.from(JSON.stringify({ p: 'your-data', i: 'x', e: Date.now() + hour })).toString('base64url')}.${'B'.repeat(43)}`,
      action: 'get',
      status: 404,
    },
    { name: 'an expired token', token: () => dataToken(email, { now: new Date(Date.now() - 8 * 24 * hour) }), action: 'get', status: 410 },
    { name: 'a confirmation token', token: () => signToken({ purpose: 'confirm-send', id: 'x', exp: Date.now() + hour }), action: 'get', status: 404 },
    { name: 'a follow-up token', token: () => signToken({ purpose: 'school-answer', id: 'x', exp: Date.now() + hour }), action: 'get', status: 404 },
    {
      name: 'the deletion step’s token, to view',
      token: () => dataToken(email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS }),
      action: 'get',
      status: 404,
    },
    { name: 'a view token, to delete', token: () => dataToken(email), action: 'delete', status: 404 },
    {
      name: 'an expired deletion step',
      token: () => dataToken(email, { purpose: 'your-data-delete', now: new Date(Date.now() - hour), ttlMs: DELETE_STEP_TTL_MS }),
      action: 'delete',
      status: 410,
    },
    {
      name: 'a confirmation token, to delete',
      token: () => signToken({ purpose: 'confirm-send', id: 'x', exp: Date.now() + hour }),
      action: 'delete',
      status: 404,
    },
    { name: 'a forged token, to review', token: () => `${dataToken(email).split('.')[0]}.${'C'.repeat(43)}`, action: 'review', status: 404 },
  ])('$name ($action): answers $status and changes nothing', async ({ token, action, status }) => {
    await parentRecords(email);
    const before = await snapshot();
    const answer = action === 'get' ? await get(`/your-data?token=${encodeURIComponent(token())}`) : await post({ action, token: token() });
    expect(answer.status).toBe(status);
    expect(answer.text).not.toContain(email);
    expect(await snapshot()).toEqual(before);
    expect(fake.gdprDeletions).toEqual([]);
  });

  test('a POST from another site is refused, and deletes nothing', async () => {
    await parentRecords(email);
    const before = await snapshot();
    const token = dataToken(email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS });
    expect((await post({ action: 'delete', token }, { origin: 'https://evil.example' })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  test('the pages opened from the parent’s inbox and the emails to it carry their link; the form’s answer and /your-email do not', async () => {
    const records = await parentRecords(email);
    const opens = async (href: string | undefined) => {
      expect(href).toMatch(/\/your-data\?token=[\w.-]+$/);
      const url = new URL(href!.replaceAll('&amp;', '&'), ORIGIN);
      const page = await get(url.pathname + url.search);
      expect(page.status).toBe(200);
      expect(page.region).toContain(email);
    };
    const linkOn = (html: string) => /href="([^"]*\/your-data\?token=[^"]+)"[^>]*>Your data</.exec(html)?.[1];
    // Reached by typing an address: a link to ask for one, never a signed one.
    const typed = await (await yourEmail(new Request(`${ORIGIN}/your-email?id=${records.draftId}&t=${records.draftToken}`))).text();
    expect(linkOn(typed)).toBeUndefined();
    expect(typed).toMatch(/href="\/your-data"/);
    // Opened from a link in the parent's inbox: their own.
    const confirmToken = signToken({ purpose: 'confirm-send', id: records.platformId, exp: Date.now() + 3600_000 });
    await opens(linkOn(await (await confirmSend(new Request(`${ORIGIN}/confirm-send?token=${confirmToken}`))).text()));
    const self = (await readMessage(records.selfId))!.message;
    await opens(
      linkOn(
        await (
          await schoolAnswer(new Request(`${ORIGIN}/school-answer?token=${new URL(answerLink(self.id, self.followUp!.dueAt)).searchParams.get('token')}`))
        ).text(),
      ),
    );
    // The follow-up email to the parent carries it in its footer.
    const later = new Date(Date.now() + 11 * 24 * 3600_000);
    await runFollowUps(later);
    await runMail(() => later);
    const followUp = mail.last(email, /answer/)!;
    expect(followUp).toBeDefined();
    await opens(linkIn(followUp, '/your-data'));
  });
});

describe('one person, one canonical address, in the database as in the server', () => {
  test.each([
    'Ana.Lopez+school@Gmail.com',
    'analopez@googlemail.com.',
    '  ＡＮＡ＠example.org ',
    'head+1@School.ORG',
    '+tag@example.org',
    'no-at-sign',
    'a@b@example.org',
    'trailing@',
    'ﬁle@example.org',
  ])('%s', async (address) => {
    const [row] = await query<{ canonical: string }>(sql`SELECT canonical_address(${address}) AS canonical`);
    expect(row!.canonical).toBe(canonicalAddress(address));
  });
});

describe('the export', () => {
  test('lists exactly one person’s records, under every way of writing the address, and no one else’s', async () => {
    const mine = [await parentRecords('Ana.Lopez+school@gmail.com'), await parentRecords('analopez@googlemail.com', 'head@elm.edu')];
    const others = [await parentRecords('ana.lopez2@gmail.com'), await parentRecords('analopez@gmail.co'), await parentRecords('ana.lopez@example.org')];
    const exported = await exportOf('ANALOPEZ@gmail.com');
    const ids = (list: Array<{ id?: string; messageId?: string }>) => list.map((entry) => entry.id ?? entry.messageId).sort();
    expect(ids(exported.formSubmissions)).toEqual(mine.map((r) => r.submissionId).sort());
    expect(ids(exported.emailDrafts)).toEqual(mine.map((r) => r.draftId).sort());
    expect(ids(exported.schoolEmails)).toEqual(mine.flatMap((r) => [r.selfId, r.platformId]).sort());
    expect(ids(exported.schoolAnswers)).toEqual(mine.map((r) => r.selfId).sort());
    const text = JSON.stringify(exported);
    for (const other of ['ana.lopez2@gmail.com', 'analopez@gmail.co', 'ana.lopez@example.org']) expect(text).not.toContain(`"${other}"`);
    for (const record of others) expect(text).not.toContain(record.submissionId);
    expect(text).not.toContain('tokenHash');
    const page = await get(`/your-data?token=${dataToken('analopez@gmail.com')}&format=json`);
    expect(page.headers.get('content-disposition')).toMatch(/attachment/);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  test('the page lists the records and offers the download and the deletion', async () => {
    await parentRecords('sam@example.org');
    const page = await get(`/your-data?token=${dataToken('sam@example.org')}`);
    expect(page.status).toBe(200);
    expect(page.region).toMatch(/Forms you sent \(1\)/);
    expect(page.region).toMatch(/Your school emails \(2\)/);
    expect(page.text).toContain('format=json');
    expect(page.text).toContain('Delete my data');
  });

  // Issue 32: the page listed "awaiting_confirmation", "queued" and "See 'Your data' in our README".
  test('every state is a sentence: no stored state, code or file the parent would not understand', async () => {
    await parentRecords('sentences@example.org');
    const page = await get(`/your-data?token=${dataToken('sentences@example.org')}`);
    expect(page.region).toMatch(/Waiting for you to confirm|Confirmed, and waiting to be sent|Sent by our platform|You sent it yourself/);
    expect(page.region).not.toMatch(/awaiting_confirmation|\bqueued\b|\bfailed\b|README|\.ts\b|\.yaml\b/);
  });
});

describe('the deletion', () => {
  async function deleteAll(email: string) {
    const review = await post({ action: 'review', token: dataToken(email) }, { origin: ORIGIN });
    expect(review.status).toBe(200);
    expect(review.region).toContain('Delete your data?');
    const token = tokenOf(review.text, 'delete');
    expect(token).toBeDefined();
    return post({ action: 'delete', token: token! }, { origin: ORIGIN });
  }

  test('the deletion is one row of the audit log, by "parent", naming the HubSpot deletion and not the address', async () => {
    const email = 'audited-parent@example.org';
    await parentRecords(email);
    const before = await query<{ id: string }>(sql`SELECT coalesce(max(id), 0)::text AS id FROM audit_log`);
    expect((await deleteAll(email)).status).toBe(200);
    const rows = await query<{ actor: string; action: string; target: string | null; address_hash: string | null }>(
      sql`SELECT actor, action, target, address_hash FROM audit_log WHERE id > ${before[0]!.id}`,
    );
    expect(rows).toEqual([
      { actor: 'parent', action: 'data_deletion.requested', target: expect.stringMatching(/^\S+$/), address_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(JSON.stringify(rows)).not.toContain('audited-parent');
  });

  test('removes the person’s records from every table and admin list, and keeps the other parent’s', async () => {
    const email = 'Ana.Lopez+x@gmail.com';
    const mine = await parentRecords(email);
    const other = await parentRecords('ana.lopez@example.org');
    const done = await deleteAll('analopez@gmail.com');
    expect(done.status).toBe(200);
    expect(done.region).toContain('Your data has been deleted');

    const rows = (await snapshot()).join('\n');
    expect(rows.toLowerCase()).not.toMatch(/ana\.?lopez(\+x)?@gmail\.com/);
    for (const id of [mine.submissionId, mine.draftId, mine.selfId]) expect(rows).not.toContain(`"id":"${id}"`);
    // The platform email that went out keeps its row without names, and its claim on the limits.
    const kept = await query<{ record: Record<string, unknown>; erased_at: Date | null }>(
      sql`SELECT record, erased_at FROM outbox_messages WHERE id = ${mine.platformId}`,
    );
    expect(kept[0]?.erased_at).toBeInstanceOf(Date);
    expect(Object.keys(kept[0]!.record).sort()).toEqual(['channel', 'createdAt', 'draftId', 'erasedAt', 'id', 'sentAt', 'status', 'updatedAt']);
    expect(await query(sql`SELECT 1 FROM send_claims WHERE message_id = ${mine.platformId}`)).toHaveLength(1);
    expect(await query(sql`SELECT 1 FROM school_answers WHERE message_id = ${mine.selfId}`)).toHaveLength(0);
    // The other parent's records are all there.
    expect((await exportOf('ana.lopez@example.org')).schoolEmails).toHaveLength(2);

    const cookie = await signIn();
    const outbox = await callAdmin(outboxAdmin, '/api/admin/outbox?limit=100', { cookie });
    expect(outbox.text).not.toContain(mine.platformId);
    expect(outbox.text).not.toContain(mine.selfId);
    expect(outbox.text).toContain(other.platformId);
    const submissions = await callAdmin(formsAdmin, '/api/admin/form-submissions?form=emailGenerator&limit=100', { cookie });
    expect(submissions.text).not.toContain(mine.submissionId);
    expect(submissions.text).toContain(other.submissionId);
    // Their links no longer open anything.
    expect((await yourEmail(new Request(`${ORIGIN}/your-email?id=${mine.draftId}&t=${'a'.repeat(43)}`))).status).toBe(404);
    expect((await exportOf(email)).schoolEmails).toEqual([]);
  });

  test('the journeys of their drafts (how they found us) are shown, downloaded and deleted with the rest, and no one else’s', async () => {
    const email = 'ana.lopez@gmail.com';
    const mine = await parentRecords(email);
    const other = await parentRecords('ana.lopez@example.org');
    for (const [draft, source] of [
      [mine.draftId, 'newsletter / email'],
      [other.draftId, 'other-source'],
    ])
      await query(sql`
        INSERT INTO analytics_journeys (draft_id, created_at, page, source, campaign) VALUES (${draft}, now(), '/lead-the-change', ${source}, 'autumn')
        ON CONFLICT (draft_id) DO UPDATE SET source = EXCLUDED.source`);
    const page = await get(`/your-data?token=${dataToken(email)}`);
    expect(page.region).toContain('How you found us');
    expect(page.region).toContain('newsletter / email');
    expect(page.region).not.toContain('other-source');
    expect((await exportOf(email)).journeys).toEqual([expect.objectContaining({ draftId: mine.draftId, source: 'newsletter / email' })]);
    expect((await deleteAll(email)).status).toBe(200);
    expect(await query(sql`SELECT draft_id FROM analytics_journeys ORDER BY draft_id`)).toEqual([{ draft_id: other.draftId }]);
  });

  test('a request still waiting for its confirmation is withdrawn (it took no limits) and its link opens nothing; the review step names it', async () => {
    const email = 'kai@example.org';
    const records = await parentRecords(email);
    const body = { ...emailFormValues({ email, school_contact_email: 'office@birch.edu', _page: '/lead-the-change' }), _elapsed: '30000' };
    const formAnswer = await forms(
      new Request(`${ORIGIN}/api/forms/${formConfig.emailGenerator.formId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
      { ip: '198.51.100.250' } as never,
    );
    const { draft } = (await formAnswer.json()) as { draft: { id: string; token: string } };
    const requested = await call(sendEmail, jsonRequest('/api/send-email', { submissionId: draft.id, token: draft.token }));
    expect(requested.status).toBe(202);
    const sends = () => query<{ sends: number }>(sql`SELECT sends FROM parent_daily_sends`);
    // Limits are taken at confirmation: the waiting request holds none.
    expect((await sends()).map((row) => row.sends)).toEqual([1]);
    const review = await post({ action: 'review', token: dataToken(email) }, { origin: ORIGIN });
    expect(review.region).toContain('This letter has not gone yet and will not be sent');
    expect(review.region).toContain('To Dr. Patel at Oakwood Academy: waiting for you to confirm it from your inbox');
    expect((await deleteAll(email)).status).toBe(200);
    expect(await query(sql`SELECT 1 FROM outbox_messages WHERE id = ${requested.body.id}`)).toHaveLength(0);
    expect(await query(sql`SELECT 1 FROM send_claims WHERE message_id = ${requested.body.id}`)).toHaveLength(0);
    // The sent one still counts today.
    expect((await sends()).map((row) => row.sends)).toEqual([1]);
    const link = signToken({ purpose: 'confirm-send', id: requested.body.id, exp: Date.now() + 3600_000 });
    expect((await confirmSend(new Request(`${ORIGIN}/confirm-send?token=${link}`))).status).toBe(404);
    expect(records.platformId).toBeDefined();
  });

  test('HubSpot is asked to delete the contact: queued, retried after a failure, sent exactly once', async () => {
    const email = 'sam@example.org';
    await parentRecords(email);
    fake.addContact(email);
    fake.failNext(500);
    expect((await deleteAll(email)).status).toBe(200);
    const gdprCalls = () => fake.calls.filter((c) => c.path === '/crm/v3/objects/contacts/gdpr-delete');
    expect(gdprCalls()).toHaveLength(1);
    expect(fake.findContact(email)).toBeDefined();
    const cookie = await signIn();
    let listed = await callAdmin(dataDeletionsAdmin, '/api/admin/data-deletions', { cookie });
    expect(listed.body.deletions).toEqual([expect.objectContaining({ masked: 's•••@example.org', state: 'pending', attempts: 1, lastError: 'hubspot_500' })]);
    expect(listed.text).not.toContain(email);

    // Not due yet: the scheduled run waits; then it asks again, once.
    await dataDeletionsRetry();
    expect(gdprCalls()).toHaveLength(1);
    await query(sql`UPDATE hubspot_contact_deletions SET next_attempt_at = now() - interval '1 minute'`);
    await dataDeletionsRetry();
    await dataDeletionsRetry();
    expect(gdprCalls()).toHaveLength(2);
    expect(fake.gdprDeletions).toEqual([{ objectId: email, idProperty: 'email', status: 204 }]);
    expect(gdprCalls()[1]!.body).toEqual({ idProperty: 'email', objectId: email });
    expect(fake.findContact(email)).toBeUndefined();
    listed = await callAdmin(dataDeletionsAdmin, '/api/admin/data-deletions', { cookie });
    expect(listed.body.deletions).toEqual([expect.objectContaining({ state: 'done', attempts: 2 })]);
    expect(await query(sql`SELECT 1 FROM hubspot_contact_deletions WHERE email IS NOT NULL`)).toHaveLength(0);
  });

  test('a contact HubSpot does not have (404) settles the deletion', async () => {
    const email = 'gone@example.org';
    await parentRecords(email);
    expect((await deleteAll(email)).status).toBe(200);
    expect(fake.gdprDeletions).toEqual([{ objectId: email, idProperty: 'email', status: 404 }]);
    const cookie = await signIn();
    expect((await callAdmin(dataDeletionsAdmin, '/api/admin/data-deletions', { cookie })).body.deletions).toEqual([
      expect.objectContaining({ state: 'done', lastError: 'no_contact' }),
    ]);
  });

  test('with nothing kept on the site, HubSpot is asked to delete nobody: never a contact named only by the request', async () => {
    const email = 'nobody@example.org';
    fake.addContact(email);
    const done = await deleteAll(email);
    expect(done.status).toBe(200);
    expect(fake.calls.filter((c) => c.path === '/crm/v3/objects/contacts/gdpr-delete')).toEqual([]);
    expect(fake.findContact(email)).toBeDefined();
    expect(await query(sql`SELECT 1 FROM hubspot_contact_deletions`)).toEqual([]);
  });

  test('without HubSpot the deletion waits, shown as such', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    await parentRecords('lee@example.org');
    expect((await deleteAll('lee@example.org')).status).toBe(200);
    expect(fake.gdprDeletions).toEqual([]);
    const cookie = await signIn();
    expect((await callAdmin(dataDeletionsAdmin, '/api/admin/data-deletions', { cookie })).body.deletions).toEqual([
      expect.objectContaining({ state: 'pending', lastError: 'hubspot_not_configured' }),
    ]);
  });

  test('the admin list needs a session', async () => {
    expect((await callAdmin(dataDeletionsAdmin, '/api/admin/data-deletions')).status).toBe(401);
  });
});

describe('a link asked for by address', () => {
  test('is emailed to that address only, when the site keeps something; the answer never tells whether it does', async () => {
    await parentRecords('kim@example.org');
    const answerKnown = await post({ action: 'request', email: 'Kim+x@Example.org' }, { ip: '203.0.113.81' });
    const answerUnknown = await post({ action: 'request', email: 'stranger@example.org' }, { ip: '203.0.113.82' });
    expect(answerKnown.status).toBe(202);
    expect(answerUnknown.status).toBe(202);
    expect(answerKnown.region).toBe(answerUnknown.region);
    expect(answerKnown.text).not.toContain('/your-data?token=');
    const link = linkIn(mail.last('Kim+x@Example.org', /Your data/), '/your-data');
    expect(link).toMatch(/^https:\/\/site\.example\/your-data\?token=/);
    expect((await get(new URL(link).pathname + new URL(link).search)).status).toBe(200);
    expect(mail.to('stranger@example.org')).toEqual([]);
    // No contact property is set for a workflow: the site sends it.
    expect(fake.calls.filter((c) => c.method === 'PATCH')).toEqual([]);
  });

  test.each([
    ['not an address', 'hello', 400],
    ['an empty address', '', 400],
  ])('%s is asked again (%s)', async (_name, email, status) => {
    expect((await post({ action: 'request', email })).status).toBe(status);
  });

  test('is rate limited per network', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post({ action: 'request', email: `p${i}@example.org` }, { ip: '203.0.113.90' })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
