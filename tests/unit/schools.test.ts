/**
 * Known schools (issue 44): schools are records staff verify. The admin Schools tab's API adds,
 * edits, verifies, retires, merges and imports them (every change audited, every bad input a 4xx
 * naming what is wrong); parents find them by name (/api/school-suggestions, and /find-school
 * without JavaScript); a school a parent types is a proposal, whose letters go but count nowhere
 * until staff verify it, when its page opens with the letters it already has.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import findSchool from '../../netlify/functions/find-school.mts';
import forms from '../../netlify/functions/forms.mts';
import schoolPage from '../../netlify/functions/school-page.mts';
import suggestions from '../../netlify/functions/school-suggestions.mts';
import schoolsAdmin from '../../netlify/functions/schools-admin.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { query, sql } from '../../src/server/db';
import { readMessage } from '../../src/server/letter/outbox';
import { proposeSchool, readSchool } from '../../src/server/schools/records';
import { call as callAdmin, ORIGIN, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { deliveredLetter } from './helpers/delivered';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { linkIn, MAIL_FROM, tokenOf, useMail, type MailCatcher } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';

type Handler = (req: Request, context: unknown) => Promise<Response>;
let database: TestDatabase;
let mail: MailCatcher;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let shell: ReturnType<typeof useSiteShell>;
let cookie = '';
let seq = 0;

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  definitions = await useFormDefinitions();
  shell = useSiteShell();
  setAdminEnv();
  process.env.SITE_URL = 'https://site.example';
  process.env.FORMS_MIN_FILL_MS = '0';
});
afterAll(async () => {
  await database.stop();
  await mail.close();
  definitions.remove();
  shell.remove();
  for (const name of ['SITE_URL', 'FORMS_MIN_FILL_MS']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  mail.reset();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  cookie = await signIn();
});

const admin = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  callAdmin(schoolsAdmin as Handler, path, { ...init, cookie });

/** A file posted to the import, with its own type (the admin helper posts JSON). */
async function upload(body: string, type = 'text/csv') {
  const response = await (schoolsAdmin as Handler)(
    new Request(`${ORIGIN}/api/admin/schools/import`, { method: 'POST', headers: { cookie, origin: ORIGIN, 'content-type': type }, body }),
    { ip: '203.0.113.7' },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const school = (overrides: Record<string, unknown> = {}) => ({
  name: 'Maple Grove School',
  city: 'Springfield',
  leaders: [{ name: 'Dr. Rivera', role: 'Head of School', address: 'head@maplegrove.example' }],
  emailDomains: ['maplegrove.example'],
  timeZone: 'America/Chicago',
  hours: { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '15:30' },
  holidays: ['2026-12-24'],
  ...overrides,
});
const website = { kind: 'website', detail: 'Listed on maplegrove.example/contact' };

/** The audit rows written, oldest first. */
const audited = async () =>
  (await query<{ action: string; target: string }>(sql`SELECT action, target FROM audit_log WHERE action LIKE 'school%' ORDER BY id`)).map(
    (row) => `${row.action} ${row.target}`,
  );

/** A parent's letter through the real path: the email form (picking a known school by its key, or typing one), "Send via our platform", confirmed from their inbox. */
async function letter(fields: Record<string, string>, ip = `198.51.100.${(++seq % 200) + 1}`) {
  const values = emailFormValues({ _page: '/lead-the-change', choose_how_to_send_your_email: 'Send via our platform', _elapsed: '30000', ...fields });
  const posted = await forms(
    new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(values),
    }),
    { ip } as never,
  );
  const answer = JSON.parse(await posted.text());
  expect(posted.status, JSON.stringify(answer)).toBe(201);
  const sent = await sendEmail(jsonRequest('/api/send-email', { submissionId: answer.id, token: answer.draft.token }), { ip });
  const request = JSON.parse(await sent.text());
  expect(sent.status, JSON.stringify(request)).toBe(202);
  const token = tokenOf(linkIn(mail.last(values.email as string, /confirm/i), '/confirm-send'));
  const confirmed = await confirmSend(
    new Request('http://localhost/confirm-send', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}&tz=Europe%2FLondon`,
    }),
  );
  return { id: request.id as string, page: regionText(await confirmed.text()), parent: values.email as string, draft: answer.draft };
}

async function page(key: string) {
  const response = await schoolPage(new Request(`http://localhost/api/schools/${key}`));
  return { status: response.status, body: response.status === 200 ? JSON.parse(await response.text()) : undefined };
}

describe('staff keep the records (the Schools tab)', () => {
  test('only signed-in staff reach it', async () => {
    expect((await callAdmin(schoolsAdmin as Handler, '/api/admin/schools')).status).toBe(401);
    expect((await callAdmin(schoolsAdmin as Handler, '/api/admin/schools', { method: 'POST', body: { school: school() } })).status).toBe(401);
    expect(await query(sql`SELECT id FROM schools`)).toEqual([]);
  });

  test('a school added with evidence is verified: its address enters the directory, its page opens, its record sets its hours; audited', async () => {
    const made = await admin('/api/admin/schools', { method: 'POST', body: { school: school(), evidence: website } });
    expect(made.status).toBe(201);
    expect(made.body.school).toMatchObject({
      name: 'Maple Grove School',
      slug: 'maple-grove-school',
      status: 'verified',
      source: 'staff',
      timeZone: 'America/Chicago',
      verifiedBy: 'admin',
      evidence: website,
      letters: { letters: 0, confirmed: 0 },
    });
    expect(await page(made.body.school.pageKey)).toMatchObject({ status: 200, body: { schoolName: 'Maple Grove School', parents: 0 } });
    expect((await admin('/api/admin/schools?status=verified&q=maple')).body.schools.map((row: { name: string }) => row.name)).toEqual(['Maple Grove School']);
    expect(await audited()).toEqual([`school.created ${made.body.school.id} verified`, 'schools.viewed verified']);
  });

  test('added without evidence it is a proposal: no page until verified', async () => {
    const made = await admin('/api/admin/schools', { method: 'POST', body: { school: school() } });
    expect(made.body.school.status).toBe('proposed');
    expect((await page(made.body.school.pageKey)).status).toBe(404);
    const verified = await admin(`/api/admin/schools/${made.body.school.id}/verify`, {
      method: 'POST',
      body: { evidence: { kind: 'reply', detail: 'Dr. Rivera answered from head@maplegrove.example on 2026-11-20' } },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.school.status).toBe('verified');
    expect((await page(made.body.school.pageKey)).status).toBe(200);
  });

  test.each<[string, Record<string, unknown>, RegExp]>([
    ['a name like the organisation’s', { name: 'Mastery Parents Fraud Desk' }, /^school\.name: .*school/i],
    ['a phone number in the name', { name: 'Lincoln High call +1 202 555 0147' }, /^school\.name: .*phone/i],
    ['a link in the name', { name: 'Lincoln https://evil.example' }, /^school\.name: /i],
    ['no address for its leader', { leaders: [{ name: 'Dr. Rivera', role: 'Head', address: 'not an address' }] }, /address/i],
    ['a time zone that does not exist', { timeZone: 'Mars/Olympus' }, /time zone/i],
    ['hours that close before they open', { hours: { days: [1], opens: '16:00', closes: '08:00' } }, /close|open/i],
    ['a holiday that is not a date', { holidays: ['Christmas'] }, /holiday|date/i],
    ['a free mail provider as the school’s domain', { emailDomains: ['gmail.com'] }, /^school\.emailDomains\.0: .*free mail/i],
  ])('%s: 400 naming the field, nothing kept', async (_name, change, message) => {
    const answer = await admin('/api/admin/schools', { method: 'POST', body: { school: school(change), evidence: website } });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(message);
    expect(await query(sql`SELECT id FROM schools`)).toEqual([]);
  });

  test.each<[string, unknown, number]>([
    ['broken JSON', '{"school": ', 400],
    ['an array', '[]', 400],
    ['unknown fields', { school: school(), evidence: website, page: 'x' }, 400],
    ['evidence of an unknown kind', { school: school(), evidence: { kind: 'rumour', detail: 'x' } }, 400],
  ])('%s: %s, never a 500', async (_name, body, status) => {
    expect((await admin('/api/admin/schools', { method: 'POST', body })).status).toBe(status);
  });

  test('an address another verified school lists is refused (409), whether added, edited or verified', async () => {
    await admin('/api/admin/schools', { method: 'POST', body: { school: school(), evidence: website } });
    const twin = await admin('/api/admin/schools', { method: 'POST', body: { school: school({ name: 'Maple Grove Lower School' }), evidence: website } });
    expect(twin.status).toBe(409);
    expect(twin.body.error).toMatchObject({ code: 'address_taken' });
    expect(twin.body.error.message).toContain('Maple Grove School');
    const other = await admin('/api/admin/schools', {
      method: 'POST',
      body: { school: school({ name: 'Birch School', leaders: [{ name: '', role: '', address: 'head@birch.example' }], emailDomains: [] }) },
    });
    expect((await admin(`/api/admin/schools/${other.body.school.id}`, { method: 'PUT', body: school({ name: 'Birch School' }) })).status).toBe(200);
    expect((await admin(`/api/admin/schools/${other.body.school.id}/verify`, { method: 'POST', body: { evidence: website } })).status).toBe(409);
  });

  test('edits change the record and its directory; someone else’s id, a retired school and a wrong action are said plainly', async () => {
    const made = (await admin('/api/admin/schools', { method: 'POST', body: { school: school(), evidence: website } })).body.school;
    const edited = await admin(`/api/admin/schools/${made.id}`, {
      method: 'PUT',
      body: school({ name: 'Maple Grove Academy', leaders: [{ name: 'Ms. Cho', role: 'Principal', address: 'principal@maplegrove.example' }] }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.school).toMatchObject({ name: 'Maple Grove Academy', slug: 'maple-grove-academy', pageKey: made.pageKey });
    expect(await query(sql`SELECT address FROM school_addresses`)).toEqual([{ address: 'principal@maplegrove.example' }]);
    expect((await admin('/api/admin/schools/no-such-school', { method: 'PUT', body: school() })).status).toBe(404);
    expect((await admin('/api/admin/schools/a%20b', { method: 'PUT', body: school() })).status).toBe(404);
    expect((await admin(`/api/admin/schools/${made.id}/publish`, { method: 'POST', body: {} })).status).toBe(404);
    expect((await admin(`/api/admin/schools/${made.id}/retire`, { method: 'POST' })).status).toBe(200);
    expect((await admin(`/api/admin/schools/${made.id}/retire`, { method: 'POST' })).body.error.code).toBe('retired');
    expect((await admin(`/api/admin/schools/${made.id}`, { method: 'PUT', body: school() })).status).toBe(409);
  });

  test('retiring closes the page and frees its addresses; its letters stay', async () => {
    const sent = await deliveredLetter('ana@example.org', 'head@maplegrove.example', { schoolName: 'Maple Grove School' });
    const record = (await readSchool(sent.schoolId!))!;
    expect((await page(record.pageKey)).body.parents).toBe(1);
    expect((await admin(`/api/admin/schools/${record.id}/retire`, { method: 'POST' })).status).toBe(200);
    expect((await page(record.pageKey)).status).toBe(404);
    expect(await query(sql`SELECT address FROM school_addresses`)).toEqual([]);
    expect((await readMessage(sent.id))?.message.status).toBe('sent');
  });
});

describe('merging two records', () => {
  test('keeps every letter and count once: the page that stands counts both schools’ parents, each once', async () => {
    const a = await deliveredLetter('ana@example.org', 'head@maplegrove.example', { schoolName: 'Maple Grove School' });
    await deliveredLetter('ben@example.org', 'head@maplegrove.example', { schoolName: 'Maple Grove School' });
    const b = await deliveredLetter('ana@example.org', 'office@maplegrove-lower.example', { schoolName: 'Maple Grove Lower' });
    await deliveredLetter('cy@example.org', 'office@maplegrove-lower.example', { schoolName: 'Maple Grove Lower' });
    const into = (await readSchool(a.schoolId!))!;
    const from = (await readSchool(b.schoolId!))!;
    expect((await page(into.pageKey)).body.parents).toBe(2);

    const merged = await admin(`/api/admin/schools/${from.id}/merge`, { method: 'POST', body: { into: into.id } });
    expect(merged.status).toBe(200);
    expect(merged.body.school.leaders.map((leader: { address: string }) => leader.address).sort()).toEqual([
      'head@maplegrove.example',
      'office@maplegrove-lower.example',
    ]);
    // Ana wrote to both: one parent. Four letters, three parents, on one page.
    expect((await page(into.pageKey)).body.parents).toBe(3);
    expect((await page(from.pageKey)).status).toBe(404);
    expect(await query(sql`SELECT count(*)::int AS n FROM impact_sends`)).toEqual([{ n: 4 }]);
    expect((await admin(`/api/admin/schools/${into.id}`)).body.letters).toHaveLength(4);
    expect(await query(sql`SELECT address, school_id FROM school_addresses ORDER BY address`)).toEqual([
      { address: 'head@maplegrove.example', school_id: into.id },
      { address: 'office@maplegrove-lower.example', school_id: into.id },
    ]);
    expect(await readSchool(from.id)).toMatchObject({ status: 'retired', mergedInto: into.id });
    expect(await audited()).toContain(`school.merged ${from.id} into ${into.id}`);
  });

  test('a school into itself, into an unknown or a retired record: refused, nothing moved', async () => {
    const a = (await admin('/api/admin/schools', { method: 'POST', body: { school: school(), evidence: website } })).body.school;
    const b = (
      await admin('/api/admin/schools', {
        method: 'POST',
        body: {
          school: school({ name: 'Birch School', leaders: [{ name: '', role: '', address: 'head@birch.example' }], emailDomains: [] }),
          evidence: website,
        },
      })
    ).body.school;
    expect((await admin(`/api/admin/schools/${a.id}/merge`, { method: 'POST', body: { into: a.id } })).status).toBe(400);
    expect((await admin(`/api/admin/schools/${a.id}/merge`, { method: 'POST', body: { into: 'nobody' } })).status).toBe(404);
    expect((await admin(`/api/admin/schools/${a.id}/merge`, { method: 'POST', body: { into: '<script>' } })).status).toBe(400);
    await admin(`/api/admin/schools/${b.id}/retire`, { method: 'POST' });
    expect((await admin(`/api/admin/schools/${a.id}/merge`, { method: 'POST', body: { into: b.id } })).status).toBe(409);
    expect((await readSchool(a.id))!.status).toBe('verified');
  });
});

describe('importing a CSV', () => {
  const header = 'name,city,leader_name,leader_role,leader_email,time_zone,days,opens,closes,holidays,website,email_domains,evidence';

  test('each good row becomes a verified school; each bad row is reported with its line and reason', async () => {
    const csv = [
      header,
      'Maple Grove School,Springfield,Dr. Rivera,Head of School,head@maplegrove.example,America/Chicago,1-5,08:00,15:30,2026-12-24,https://maplegrove.example,maplegrove.example,State directory 2026',
      '"Birch School, Lower",Shelbyville,Ms. Cho,Principal,principal@birch.example,America/New_York,"1,2,3,4,5",07:45,15:00,,,,State directory 2026',
      'Mastery Parents Fraud Desk,Nowhere,,,fraud@desk.example,UTC,1-5,08:00,16:00,,,,x',
      'Cedar School,Ogdenville,,,not-an-address,UTC,1-5,08:00,16:00,,,,x',
    ].join('\n');
    const answer = await upload(csv);
    expect(answer.status).toBe(201);
    expect(answer.body.created.map((row: { name: string }) => row.name)).toEqual(['Maple Grove School', 'Birch School, Lower']);
    expect(answer.body.refused.map((row: { line: number }) => row.line)).toEqual([4, 5]);
    expect(answer.body.refused[0].message).toMatch(/name/i);
    expect(answer.body.refused[1].message).toMatch(/address/i);
    const [maple] = await query<{ status: string; hours: unknown; time_zone: string }>(
      sql`SELECT status, hours, time_zone FROM schools WHERE name = 'Maple Grove School'`,
    );
    expect(maple).toEqual({ status: 'verified', hours: { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '15:30' }, time_zone: 'America/Chicago' });
    expect(await audited()).toEqual(['school.imported 2 added, 2 refused']);
  });

  test.each<[string, string, string, number]>([
    ['JSON instead of a CSV', '{"name":"x"}', 'application/json', 415],
    ['a NUL in the file', `${header}\nMaple\u0000,x`, 'text/csv', 400],
    ['a file without the header', 'Maple Grove School,Springfield', 'text/csv', 400],
  ])('%s: %s, nothing kept', async (_name, body, type, status) => {
    const answer = await upload(body, type);
    expect(answer.status).toBe(status);
    expect(answer.body.error.message).toBeTruthy();
    expect(await query(sql`SELECT id FROM schools`)).toEqual([]);
  });
});

describe('parents find their school', () => {
  beforeEach(async () => {
    await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy');
    await verifiedSchool('principal@pineridge.example', 'Pine Ridge Elementary');
    await proposeSchool({ kind: 'letter', address: 'me@gmail.com', name: 'Oak Lane Typed School', timeZone: 'UTC' });
  });

  async function suggest(q: string) {
    const response = await suggestions(new Request(`http://localhost/api/school-suggestions?q=${encodeURIComponent(q)}`), {});
    return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
  }

  test('verified schools whose words start with what was typed, with their leaders; a typed school is never offered', async () => {
    const answer = await suggest('oak');
    expect(answer.status).toBe(200);
    expect(answer.body.schools).toEqual([
      {
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
        name: 'Oakwood Academy',
        city: null,
        leaders: [{ name: 'Dr. Patel', role: 'Head of School', address: 'head@oakwood-academy.example' }],
      },
    ]);
    expect(answer.headers.get('cache-control')).toMatch(/max-age=60/);
    expect((await suggest('PINE rid')).body.schools.map((row: { name: string }) => row.name)).toEqual(['Pine Ridge Elementary']);
    expect((await suggest('Öakwood')).body.schools.map((row: { name: string }) => row.name)).toEqual(['Oakwood Academy']);
    expect((await suggest('lane')).body.schools).toEqual([]);
    expect((await suggest('o')).body.schools).toEqual([]);
    expect((await suggest('%')).body.schools).toEqual([]);
    expect((await suggest('_a')).body.schools).toEqual([]);
  });

  test.each([
    ['a line break', 'oak\nwood'],
    ['a NUL', 'oak\u0000'],
    ['81 characters', 'o'.repeat(81)],
  ])('%s: 400 with the error shape', async (_name, q) => {
    const answer = await suggest(q);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_query');
  });

  test('without JavaScript, /find-school lists them, each linking to its page’s form; what was typed comes back escaped', async () => {
    const response = await findSchool(new Request('http://localhost/find-school?q=oak'));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(regionText(html)).toContain('One school we know matches “oak”.');
    expect(html).toMatch(/href="\/schools\/[0-9a-f]{32}#email-form"/);
    expect(html).not.toContain('Oak Lane Typed School');
    const hostile = await (await findSchool(new Request(`http://localhost/find-school?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}`))).text();
    expect(hostile).not.toContain('<img src=x');
    expect(regionText(hostile)).toContain('We don’t know a school called');
  });
});

describe('a typed school is a proposal', () => {
  test('its letter goes to the address typed, but no page, count or share link exists until staff verify it; then its page counts the letter', async () => {
    const sent = await letter({ school_name: 'Maple Grove School', school_contact_name: 'Dr. Rivera', school_contact_email: 'Head@MapleGrove.example' });
    expect(mail.to('head@maplegrove.example')).toHaveLength(1);
    const message = (await readMessage(sent.id))!.message;
    expect(message.status).toBe('sent');
    const proposal = (await readSchool(message.schoolId!))!;
    expect(proposal).toMatchObject({ status: 'proposed', source: 'letter', name: 'Maple Grove School', leaders: [{ address: 'head@maplegrove.example' }] });
    expect((await page(proposal.pageKey)).status).toBe(404);
    expect(sent.page).not.toMatch(/schools\//);
    expect(await query(sql`SELECT message_id FROM impact_sends`)).toEqual([]);

    // A second parent types the same school: still one proposal, with both letters.
    await letter({ school_name: 'maple grove', school_contact_email: 'head@maplegrove.example' });
    const proposals = (await admin('/api/admin/schools?status=proposed')).body.schools;
    expect(proposals).toHaveLength(1);
    expect(proposals[0].letters).toEqual({ letters: 2, confirmed: 2 });

    const verified = await admin(`/api/admin/schools/${proposal.id}/verify`, { method: 'POST', body: { evidence: website } });
    expect(verified.body.counted).toBe(2);
    expect((await page(proposal.pageKey)).body).toMatchObject({ schoolName: 'Maple Grove School', parents: 2 });
  });

  test('a parent who picks a known school writes to its record: its name, its leader’s address, its time zone; the letter counts at once', async () => {
    const oakwood = await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy', { timeZone: 'America/Los_Angeles', leaderName: 'Dr. Okafor' });
    const sent = await letter({ _school: oakwood.pageKey, school_name: 'oakwood', school_contact_name: '', school_contact_email: '' });
    const message = (await readMessage(sent.id))!.message;
    expect(message).toMatchObject({ schoolId: oakwood.id, to: 'head@oakwood-academy.example', toName: 'Dr. Okafor', schoolName: 'Oakwood Academy' });
    expect(message.delivery?.timeZone).toBe('America/Los_Angeles');
    expect((await page(oakwood.pageKey)).body.parents).toBe(1);
  });

  test('another address at a known school’s own domain is that school’s, flagged for staff (not a proposal, not counted, never offered); staff add it and the letter counts', async () => {
    const made = (await admin('/api/admin/schools', { method: 'POST', body: { school: school(), evidence: website } })).body.school;
    await letter({ school_name: 'Maple Grove', school_contact_email: 'admissions@maplegrove.example' });
    expect(await query(sql`SELECT status FROM schools WHERE status = 'proposed'`)).toEqual([]);
    expect((await page(made.pageKey)).body.parents).toBe(0);
    const flags = (await admin('/api/admin/schools/flags')).body.flags;
    expect(flags).toEqual([expect.objectContaining({ schoolId: made.id, address: 'admissions@maplegrove.example', letters: 1 })]);
    const suggested = JSON.parse(await (await suggestions(new Request('http://localhost/api/school-suggestions?q=maple'), {})).text());
    expect(suggested.schools[0].leaders.map((leader: { address: string }) => leader.address)).toEqual(['head@maplegrove.example']);

    const settled = await admin(`/api/admin/schools/${made.id}/flags`, {
      method: 'POST',
      body: { address: 'admissions@maplegrove.example', decision: 'added' },
    });
    expect(settled.body).toMatchObject({ settled: 'added', counted: 1 });
    expect((await page(made.pageKey)).body.parents).toBe(1);
    expect(
      (await admin(`/api/admin/schools/${made.id}/flags`, { method: 'POST', body: { address: 'admissions@maplegrove.example', decision: 'dismissed' } }))
        .status,
    ).toBe(409);
    expect(
      (await admin(`/api/admin/schools/${made.id}/flags`, { method: 'POST', body: { address: 'nobody@maplegrove.example', decision: 'added' } })).status,
    ).toBe(404);
  });
});
