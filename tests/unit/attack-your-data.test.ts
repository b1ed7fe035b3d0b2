/**
 * "Your data" (/your-data), tried as an abuser would: forged, cut-short, other-purpose and
 * other-site tokens, line breaks, NULs, broken escapes and 10 KB values, a wrong clock, one
 * person's token against another's records, a replayed deletion and four at once, look-alike
 * spellings of an address in the request-by-address form, wrong methods, malformed bodies and
 * floods; and the proof the link rests on (issue 28, part 1): a stranger who types a parent's
 * address gets no link to their data, cannot spend the parent's emails, and a deletion never asks
 * HubSpot to delete a contact named only by the request. A bad request gets a clear 4xx page and
 * changes nothing (never a 500, never a token or a stack in the body); the form answers every
 * spelling of an address alike, known or not, and counts the person, not the string.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import forms from '../../netlify/functions/forms.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import yourData from '../../netlify/functions/your-data.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { query, sql } from '../../src/server/db';
import { DATA_LINK_TTL_MS, dataToken, DELETE_STEP_TTL_MS } from '../../src/server/links';
import { createDraft } from '../../src/server/letter/drafts';
import { signToken } from '../../src/server/tokens';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { setAdminEnv } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { useMail, type MailCatcher } from './helpers/mail';
import { call, jsonRequest, netlifyContext } from './helpers/requests';
import { confirmedSelfReport } from './helpers/delivered';
import { regionText, useSiteShell } from './helpers/site';

let fake: HubSpotFake;
let mail: MailCatcher;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
let ipSeq = 0;
const ORIGIN = 'http://localhost';
const MINUTE = 60_000;

/** A parent's draft and self-sent school email, naming their school. */
async function parent(email: string, schoolName: string) {
  const id = `sub-${Date.now()}-${++seq}`;
  const { token } = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: emailFormValues({ email, school_name: schoolName, school_contact_email: `head@${schoolName.toLowerCase().replace(/\W/g, '')}.edu` }),
  });
  const reported = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token }));
  expect(reported.status).toBe(202);
  await confirmedSelfReport(reported.body.id);
}

async function get(path: string) {
  const response = await yourData(new Request(`${ORIGIN}${path}`));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, region: /json/.test(response.headers.get('content-type') ?? '') ? '' : regionText(text) };
}

async function post(body: BodyInit, init: { type?: string; origin?: string; ip?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': init.type ?? 'application/x-www-form-urlencoded' };
  if (init.origin !== undefined) headers.origin = init.origin;
  const context = netlifyContext(init.ip ?? `203.0.113.${++ipSeq % 250}`);
  const response = await yourData(new Request(`${ORIGIN}/your-data`, { method: 'POST', headers, body }), context as never);
  // The link is looked up and sent after the answer.
  await context.settled();
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, region: regionText(text) };
}
const postForm = (fields: Record<string, string>, init: { ip?: string } = {}) => post(new URLSearchParams(fields), init);
const deleteToken = (email: string, now?: Date) => dataToken(email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS, now });
const rowsOf = async () => ({
  drafts: await query(sql`SELECT id FROM email_drafts ORDER BY id`),
  messages: await query(sql`SELECT id FROM outbox_messages ORDER BY id`),
});

/** Nothing of the request comes back, nor of the server's insides. */
function tellsNothing(text: string, sent: string) {
  if (sent.length >= 12) expect(text).not.toContain(sent.slice(0, 40));
  expect(text).not.toMatch(/\bat .+\.(?:ts|mts|js):\d+|Error:|stack/i);
}

beforeAll(async () => {
  setAdminEnv();
  shell = useSiteShell();
  database = await startTestDatabase();
  fake = await startHubSpotFake();
  mail = await useMail();
  definitions = await useFormDefinitions();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '1';
  process.env.FORMS_MIN_FILL_MS = '0';
  process.env.SITE_URL = 'https://site.example';
});
afterAll(async () => {
  await fake.close();
  await mail.close();
  definitions.remove();
  for (const name of ['HUBSPOT_FORMS_BASE_PATH', 'FORMS_MIN_FILL_MS']) delete process.env[name];
  await database.stop();
  shell.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'HUBSPOT_RETRY_BASE_MS', 'SITE_URL']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  fake.reset();
  mail.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
});

describe('tokens that are not a genuine link show nothing and change nothing', () => {
  const email = 'ana.lopez@example.org';
  const anotherSite = () => {
    const key = process.env.CONFIG_ENCRYPTION_KEY;
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 5).toString('base64');
    const token = dataToken(email);
    process.env.CONFIG_ENCRYPTION_KEY = key;
    return token;
  };
  test.each<[string, () => string]>([
    ['a forged signature', () => `${dataToken(email).split('.')[0]}.${'A'.repeat(43)}`],
    ['another site’s link', anotherSite],
    ['the link cut short', () => dataToken(email).slice(0, -4)],
    ['a line break inside', () => dataToken(email).replace('.', '\r\n.')],
    ['a NUL inside', () => dataToken(email).replace('.', '.\u0000')],
    ['a stop link’s token', () => signToken({ purpose: 'school-updates-stop', id: 'x', exp: Date.now() + MINUTE })],
    ['a 10 KB token', () => 'A'.repeat(10_240)],
  ])('%s: 404 to view, to review and to delete', async (_name, make) => {
    await parent(email, 'Oakwood Academy');
    const token = make();
    const before = await rowsOf();
    const viewed = await get(`/your-data?token=${encodeURIComponent(token)}`);
    expect(viewed.status).toBe(404);
    expect(viewed.region).toContain('This link is not valid');
    expect(viewed.text).not.toContain('Oakwood Academy');
    tellsNothing(viewed.text, token);
    expect((await get(`/your-data?token=${encodeURIComponent(token)}&format=json`)).status).toBe(404);
    for (const action of ['review', 'delete']) {
      const posted = await postForm({ action, token: token.slice(0, 7000) });
      expect(posted.status).toBe(404);
      tellsNothing(posted.text, token);
    }
    expect(await rowsOf()).toEqual(before);
  });

  test.each([
    ['a broken escape', '?token=%E0%A4'],
    ['a NUL', '?token=%00'],
    ['a header smuggled in a line break', '?token=%0D%0ASet-Cookie:%20x=1'],
    ['a 10 KB query of broken escapes', `?token=${'%E0'.repeat(3500)}`],
    ['a 10 KB format', `?token=x&format=${'j'.repeat(10_240)}`],
  ])('%s in the address: 404, never a 500', async (_name, search) => {
    const page = await get(`/your-data${search}`);
    expect(page.status).toBe(404);
    expect(page.headers.get('set-cookie')).toBeNull();
    tellsNothing(page.text, 'Set-Cookie');
  });
});

describe('a wrong clock', () => {
  test('a link made by a clock 10 minutes ahead still opens (only the expiry is checked)', async () => {
    await parent('ana@example.org', 'Oakwood Academy');
    const page = await get(`/your-data?token=${dataToken('ana@example.org', { now: new Date(Date.now() + 10 * MINUTE) })}`);
    expect(page.status).toBe(200);
    expect(page.region).toContain('Oakwood Academy');
  });

  test('expired by one second: 410 to view, and a deletion step expired by one second deletes nothing', async () => {
    await parent('ana@example.org', 'Oakwood Academy');
    const before = await rowsOf();
    const viewed = await get(`/your-data?token=${dataToken('ana@example.org', { now: new Date(Date.now() - DATA_LINK_TTL_MS - 1000) })}`);
    expect(viewed.status).toBe(410);
    expect(viewed.text).not.toContain('Oakwood Academy');
    const deleted = await postForm({ action: 'delete', token: deleteToken('ana@example.org', new Date(Date.now() - DELETE_STEP_TTL_MS - 1000)) });
    expect(deleted.status).toBe(410);
    expect(await rowsOf()).toEqual(before);
  });
});

describe('one person’s token against another’s records', () => {
  test('reads only its own person’s rows', async () => {
    await parent('ana@example.org', 'Oakwood Academy');
    await parent('ben@example.org', 'Birchwood School');
    const page = await get(`/your-data?token=${dataToken('ana@example.org')}`);
    expect(page.region).toContain('Oakwood Academy');
    expect(page.text).not.toContain('Birchwood');
    expect(page.text).not.toContain('ben@example.org');
    const json = await get(`/your-data?token=${dataToken('ana@example.org')}&format=json`);
    expect(json.text).not.toContain('Birchwood');
  });

  test('deletes only its own person’s rows', async () => {
    await parent('ana@example.org', 'Oakwood Academy');
    await parent('ben@example.org', 'Birchwood School');
    const exportOf = async (email: string) => {
      const { exportedAt: _when, ...records } = JSON.parse((await get(`/your-data?token=${dataToken(email)}&format=json`)).text);
      return records;
    };
    const ben = await exportOf('ben@example.org');
    expect(JSON.stringify(ben)).toContain('Birchwood School');
    expect((await postForm({ action: 'delete', token: deleteToken('ana@example.org') })).status).toBe(200);
    expect(await exportOf('ben@example.org')).toEqual(ben);
    expect((await get(`/your-data?token=${dataToken('ana@example.org')}`)).region).toContain('keeps nothing about ana@example.org');
  });
});

describe('a replayed deletion', () => {
  test('the same button again: a clear 200, and nothing else changes (no second HubSpot deletion, no second audit entry)', async () => {
    fake.addContact('ana@example.org');
    await parent('ana@example.org', 'Oakwood Academy');
    const token = deleteToken('ana@example.org');
    const first = await postForm({ action: 'delete', token });
    expect(first.status).toBe(200);
    expect(first.region).toContain('Your data has been deleted');
    const after = { snapshot: await database.snapshot(), gdpr: fake.gdprDeletions.length };
    for (let n = 0; n < 3; n++) {
      const again = await postForm({ action: 'delete', token });
      expect(again.status).toBe(200);
      expect(again.region).toContain('already done');
    }
    expect({ snapshot: await database.snapshot(), gdpr: fake.gdprDeletions.length }).toEqual(after);
  });
});

describe('the request by address: every spelling of one person is that person', () => {
  const variants = (local: string, dotted: string) => [
    `${dotted}@gmail.com`,
    `${dotted.toUpperCase()}@GMAIL.COM`,
    `${local}+kids@gmail.com`,
    `${dotted}@googlemail.com`,
    ` ${dotted}@gmail.com `,
    `${[...dotted].map((c) => (c === '.' ? '．' : String.fromCharCode(c.charCodeAt(0) + 0xfee0))).join('')}＠ｇｍａｉｌ．ｃｏｍ`,
    `${dotted}@gmail。com`,
  ];

  test('the answer is the same for every spelling, known or not', async () => {
    const known = fake.addContact('sam.lopez@gmail.com');
    known.searchableAt = 0;
    const answers = new Set<string>();
    for (const email of [...variants('samlopez', 'sam.lopez'), ...variants('nobodyhere', 'nobody.here')]) {
      const answer = await postForm({ action: 'request', email });
      expect(answer.status, email).toBe(202);
      answers.add(answer.region);
    }
    expect(answers.size).toBe(1);
  });

  test('the answer waits on nothing that depends on the address (known or not): the lookup and the email go on after it, so both take the same time', async () => {
    await parent('sam.lopez@gmail.com', 'Oakwood Academy');
    // The mail server takes two seconds to answer: an answer that waited on the email would too.
    mail.sink.delayMs = 2_000;
    const contexts: Array<ReturnType<typeof netlifyContext>> = [];
    try {
      for (const email of ['sam.lopez@gmail.com', 'nobody.here@gmail.com']) {
        const context = netlifyContext(`203.0.113.${++ipSeq % 250}`);
        contexts.push(context);
        let done = false;
        const response = await yourData(
          new Request(`${ORIGIN}/your-data`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ action: 'request', email }),
          }),
          context as never,
        );
        expect(response.status).toBe(202);
        // Answered: the lookup and the email were handed to waitUntil, one piece of work per request.
        expect(context.pending).toHaveLength(1);
        void context.pending[0]!.then(() => (done = true));
        if (email.startsWith('sam')) expect(done).toBe(false);
      }
    } finally {
      await Promise.all(contexts.map((context) => context.settled()));
      mail.sink.delayMs = 0;
    }
    // Afterwards the known address has its link; the unknown one nothing.
    expect(mail.sink.messages.filter((message) => /Your data/.test(message.subject)).map((message) => message.envelope.rcptTo)).toEqual([
      ['sam.lopez@gmail.com'],
    ]);
  });

  test('the daily allowance counts the person: at most 3 data links to one mailbox from one network, however it is spelled', async () => {
    await parent('sam.lopez@gmail.com', 'Oakwood Academy');
    for (const email of variants('samlopez', 'sam.lopez').slice(0, 5))
      expect((await postForm({ action: 'request', email }, { ip: '203.0.113.9' })).status).toBe(202);
    const counts = await query<{ emails: number; purpose: string }>(sql`SELECT emails, purpose FROM email_budgets WHERE purpose = 'data'`);
    expect(counts).toEqual([{ emails: 3, purpose: 'data' }]);
    expect(mail.sink.messages.filter((message) => /Your data/.test(message.subject))).toHaveLength(3);
  });

  test.each([
    ['not an address', 'hello'],
    ['two addresses', 'a@example.org,b@example.org'],
    ['a line break', 'a@example.org\r\nBcc: b@example.org'],
    ['5,000 characters', `${'a'.repeat(5000)}@example.org`],
  ])('%s: asked again (400), and what was typed comes back at most 254 characters long', async (_name, email) => {
    const answer = await postForm({ action: 'request', email });
    expect(answer.status).toBe(400);
    expect(answer.region).toContain('Please enter a valid email address.');
    expect(answer.text).not.toContain('a'.repeat(300));
    expect(mail.sink.messages).toEqual([]);
  });
});

describe('proof: nothing about a person without their inbox', () => {
  const victim = 'mia.victim@gmail.com';
  const typed = 'MiaVictim+x@googlemail.com';

  /** What the stranger gets from the email form, typing the victim's address. */
  async function strangerFillsTheForm() {
    const body = { ...emailFormValues({ email: typed, _page: '/lead-the-change' }), _elapsed: '30000' };
    const response = await forms(
      new Request(`${ORIGIN}/api/forms/${formConfig.emailGenerator.formId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
      { ip: '198.51.100.66' } as never,
    );
    return (await response.json()) as { draft: Record<string, unknown> & { id: string; token: string } };
  }

  test('a stranger’s typed address gets no data link: not in the form’s answer, not on /your-email', async () => {
    await parent(victim, 'Maple School');
    const { draft } = await strangerFillsTheForm();
    expect(JSON.stringify(draft)).not.toMatch(/your-data\?token=/);
    const page = await (await yourEmail(new Request(`${ORIGIN}/your-email?id=${draft.id}&t=${draft.token}`))).text();
    expect(page).not.toMatch(/your-data\?token=/);
    expect(page).toMatch(/href="\/your-data"/);
  });

  test('asking by the victim’s address sends the link to the victim’s inbox, not to the one who asked', async () => {
    await parent(victim, 'Maple School');
    const answer = await postForm({ action: 'request', email: typed }, { ip: '198.51.100.66' });
    expect(answer.status).toBe(202);
    expect(answer.text).not.toMatch(/your-data\?token=/);
    // The email goes to the address as typed, which reaches the victim's mailbox only.
    expect(mail.sink.messages.filter((message) => /Your data/.test(message.subject)).map((message) => message.envelope.rcptTo)).toEqual([
      [typed.toLowerCase()],
    ]);
  });

  test('a stranger’s data-link requests cannot starve the parent’s own confirmation, nor the parent’s own data link from their network', async () => {
    await parent(victim, 'Maple School');
    const dataLinks = () => mail.to(victim).filter((message) => /Your data/.test(message.subject));
    for (let n = 0; n < 5; n++) await postForm({ action: 'request', email: victim }, { ip: '198.51.100.66' });
    expect(dataLinks()).toHaveLength(3);
    // The parent, at home on another network: their own data link still comes…
    await postForm({ action: 'request', email: victim }, { ip: '192.0.2.10' });
    expect(dataLinks()).toHaveLength(4);
    // …and so does the confirmation of the letter they write today.
    const id = `sub-${Date.now()}-victim`;
    const { token } = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({ email: victim, school_contact_email: 'head@maple.edu', choose_how_to_send_your_email: 'Send via our platform' }),
    });
    const request = await sendEmail(jsonRequest('/api/send-email', { submissionId: id, token }), { ip: '192.0.2.10' });
    expect(request.status).toBe(202);
    expect(mail.last(victim, /^Please confirm/)).toBeDefined();
  });

  test('a deletion asks HubSpot to delete only the spellings the records were given under, never the one the request named', async () => {
    await parent(victim, 'Maple School');
    fake.addContact(victim);
    fake.addContact(typed.toLowerCase());
    // The link was emailed to the mailbox the typed spelling reaches (the proof); deleting from it
    // removes the records kept under the victim's own spelling.
    const done = await postForm({ action: 'delete', token: deleteToken(typed) });
    expect(done.status).toBe(200);
    expect(fake.gdprDeletions.map((deletion) => deletion.objectId)).toEqual([victim]);
    expect(fake.findContact(typed.toLowerCase())).toBeDefined();
  });

  test('a HubSpot contact who never used the site is never deleted through it', async () => {
    fake.addContact('never.used@example.org');
    expect((await postForm({ action: 'delete', token: deleteToken('never.used@example.org') })).status).toBe(200);
    expect(fake.calls.filter((c) => c.path === '/crm/v3/objects/contacts/gdpr-delete')).toEqual([]);
    expect(fake.findContact('never.used@example.org')).toBeDefined();
  });

  test('four "Yes, delete" presses at once: one deletes, three are told it is done, one audit row', async () => {
    fake.addContact('ana@example.org');
    await parent('ana@example.org', 'Oakwood Academy');
    const token = deleteToken('ana@example.org');
    const answers = await Promise.all([0, 1, 2, 3].map(() => postForm({ action: 'delete', token })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((answer) => /We deleted \d+ record/.test(answer.region))).toHaveLength(1);
    expect(answers.filter((answer) => answer.region.includes('already done'))).toHaveLength(3);
    expect(await query(sql`SELECT action FROM audit_log WHERE action = 'data_deletion.requested'`)).toHaveLength(1);
    expect(fake.gdprDeletions).toHaveLength(1);
  });
});

describe('methods, bodies and floods', () => {
  test.each(['PUT', 'DELETE', 'PATCH'])('%s: 405 with Allow', async (method) => {
    const response = await yourData(new Request(`${ORIGIN}/your-data`, { method, body: 'x' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  test.each<[string, () => Promise<{ status: number; text: string }>, number]>([
    ['a JSON body', () => post(JSON.stringify({ action: 'delete', token: 'x' }), { type: 'application/json' }), 415],
    ['broken JSON', () => post('{"action": ', { type: 'application/json' }), 415],
    [
      'a multipart body',
      () => post('--x\r\nContent-Disposition: form-data; name="action"\r\n\r\ndelete\r\n--x--', { type: 'multipart/form-data; boundary=x' }),
      415,
    ],
    ['a form of broken escapes', () => post('action=%E0%ZZ&token=%00&%=%'), 404],
    ['an empty form', () => post(''), 404],
    ['an unknown action', () => postForm({ action: 'drop_tables', token: 'x' }), 404],
    ['a 10 KB form', () => post(`action=request&email=${'a'.repeat(10_240)}`), 413],
    ['a form from another site', () => post(new URLSearchParams({ action: 'request', email: 'a@example.org' }), { origin: 'https://evil.example' }), 403],
  ])('%s: a 4xx page, never a 500', async (_name, send, status) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    tellsNothing(answer.text, 'a'.repeat(40));
  });

  test('a flood from one network (an IPv6 /64 counts as one) is answered 429 with Retry-After, and sends nothing more', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await postForm({ action: 'request', email: `p${i}@example.org` }, { ip: `2001:db8:1:2::${i + 1}` })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    const limited = await postForm({ action: 'request', email: 'p9@example.org' }, { ip: '2001:db8:1:2:ffff::9' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.region).toContain('Too many requests');
  });
});
