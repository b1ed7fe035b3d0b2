/**
 * School pages, tried as an abuser would: keys that are forged, cut short, another site's, or carry
 * line breaks, NULs, broken escapes or 10 KB; referral codes and ambassador ids that are forged,
 * another site's, or hostile; wrong methods. Every answer is a 404 page (or the JSON error shape on
 * /api/schools), never a 500, and never echoes what was sent or attributes anything to a forgery.
 *
 * And nothing public without proof (issue 28, part 2): claims nobody checked — "I've sent it
 * myself", an outcome reported on such a claim, a parent writing to their own catch-all domain —
 * rename no page, change no address a form fills in, move no count or public figure and email
 * nobody, until staff approve them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import forms from '../../netlify/functions/forms.mts';
import impact from '../../netlify/functions/impact.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import { forms as formConfig } from '../../src/config/forms';
import schoolPage, { config } from '../../netlify/functions/school-page.mts';
import { query, sql } from '../../src/server/db';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { computeImpact } from '../../src/server/schools/impact';
import { runMail } from '../../src/server/letter/delivery';
import { answerLink } from '../../src/server/links';
import { decideReview } from '../../src/server/staff/review';
import { runSchoolUpdates } from '../../src/server/schools/updates';
import { referralCode } from '../../src/server/schools/pages';
import { proposeSchool } from '../../src/server/schools/records';
import { verifiedSchool } from './helpers/schools';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { confirmedSelfReport, deliveredLetter } from './helpers/delivered';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';
import { call, jsonRequest } from './helpers/requests';
import { useSiteShell } from './helpers/site';

let database: TestDatabase;
let mail: MailCatcher;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
const SECRET = Buffer.alloc(32, 7).toString('base64');
const OTHER_SITE = Buffer.alloc(32, 9).toString('base64');
const school = 'head@springfield.edu';
let key = '';
let messageId = '';

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  definitions = await useFormDefinitions();
  shell = useSiteShell();
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  process.env.SITE_URL = 'https://site.example';
  process.env.FORMS_MIN_FILL_MS = '0';
});
afterAll(async () => {
  await database.stop();
  await mail.close();
  definitions.remove();
  shell.remove();
  for (const name of ['CONFIG_ENCRYPTION_KEY', 'SITE_URL', 'FORMS_MIN_FILL_MS']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  mail.reset();
  process.env.CONFIG_ENCRYPTION_KEY = SECRET;
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  // One real page, made as a letter the platform delivered makes it.
  const message = await deliveredLetter(`parent${++seq}@example.org`, school, { schoolName: 'Springfield Academy' });
  messageId = message.id;
  key = (await verifiedSchool(school)).pageKey;
});

/** A stranger's "I've sent it myself", as the dialog records it. */
async function claimSent(values: Record<string, string>) {
  const id = `sub-${Date.now()}-${++seq}`;
  const { token } = await createDraft({ id, purpose: 'emailGenerator', values: emailFormValues(values) });
  const answer = await call(emailSentMyself, jsonRequest('/api/email-sent-myself', { submissionId: id, token }));
  expect(answer.status).toBe(202);
  // The claimant confirms from their own inbox (it is theirs): a confirmed self-report, still only a claim.
  return confirmedSelfReport(answer.body.id);
}

/** Answers "did your school answer?" from the follow-up link, as the claimant can (it is their own inbox). */
async function answerFromOwnLink(message: { id: string; followUp?: { dueAt: string } }, kind: string) {
  const token = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  const body = new URLSearchParams({ token, seen: '', comment: '', answer: kind });
  expect(
    (
      await schoolAnswer(
        new Request('http://localhost/school-answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
      )
    ).status,
  ).toBe(200);
}

async function open(path: string, method = 'GET') {
  const response = await schoolPage(new Request(`http://localhost${path}`, { method }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Nothing a stranger sent comes back, and nothing of the server's insides goes out. */
function tellsNothing(text: string, sent: string) {
  if (sent.length >= 8) expect(text).not.toContain(sent);
  expect(text).not.toMatch(/\bat .+\.(?:ts|mts|js):\d+|Error:|stack/i);
}

/** The key a typed school's proposal has: a school nobody verified has no page. */
let proposalKey = '';

describe('keys', () => {
  test('the real key opens the page (the cases below differ only in their key)', async () => {
    expect((await open(`/schools/${key}`)).status).toBe(200);
    expect((await open(`/api/schools/${key}`)).status).toBe(200);
  });

  test.each<[string, () => string]>([
    ['a key of the right shape nobody was given', () => 'f'.repeat(32)],
    ['a proposed (typed, unverified) school’s own key', () => proposalKey],
    ['the key cut short', () => key.slice(0, 31)],
    ['the key and one more digit', () => `${key}0`],
    ['a line break in the key', () => `${key.slice(0, 16)}%0D%0A${key.slice(16)}`],
    ['a line break after the key', () => `${key}%0A`],
    ['a NUL after the key', () => `${key}%00`],
    ['a broken escape', () => `${key.slice(0, 30)}%E0`],
    ['a 10 KB key', () => 'a'.repeat(10_240)],
    ['a path that climbs', () => `..%2F..%2F${key}`],
    ['fullwidth digits', () => key.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))],
  ])('%s: a 404 page that offers the form, and the JSON error shape', async (_name, make) => {
    proposalKey = (await proposeSchool({ kind: 'letter', address: 'head@typed-academy.example', name: 'Typed Academy', timeZone: 'UTC' })).pageKey;
    const sent = make();
    const page = await open(`/schools/${sent}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('We could not find this school’s page');
    tellsNothing(page.text, sent);
    const api = await open(`/api/schools/${sent}`);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.text)).toEqual({ error: { code: 'unknown_school', message: expect.any(String) } });
    tellsNothing(api.text, sent);
  });
});

describe('referral codes and ambassador ids', () => {
  const attributed = (text: string) => /name="_ref"|name="_ambassador"|data-referral/.test(text);

  test('a genuine code is carried by the form (the cases below differ only in their code)', async () => {
    const page = await open(`/schools/${key}?ref=${encodeURIComponent(referralCode(messageId)!)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(referralCode(messageId)!);
  });

  test.each<[string, () => string]>([
    ['a forged mac', () => `${messageId}.${'A'.repeat(16)}`],
    [
      'another site’s code',
      () => {
        process.env.CONFIG_ENCRYPTION_KEY = OTHER_SITE;
        const code = referralCode(messageId)!;
        process.env.CONFIG_ENCRYPTION_KEY = SECRET;
        return code;
      },
    ],
    ['a code cut short', () => referralCode(messageId)!.slice(0, -2)],
    ['a code with a line break', () => referralCode(messageId)!.replace('.', '\r\n.')],
    ['a code with a NUL', () => `${referralCode(messageId)!}\u0000`],
    ['a 10 KB code', () => 'r'.repeat(10_240)],
    ['markup', () => '"><script>alert(1)</script>'],
  ])('%s: the page opens, and the code is ignored, never an error', async (_name, make) => {
    const code = make();
    const page = await open(`/schools/${key}?ref=${encodeURIComponent(code)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Springfield Academy');
    expect(page.text).not.toContain(encodeURIComponent(code).slice(0, 60));
    expect(page.text).not.toContain('<script>alert(1)');
    if (code.length > 8) expect(page.text).not.toContain(code.slice(0, 60));
  });

  test.each([
    ['a broken escape', '%E0'],
    ['a NUL', '%00'],
    ['a 10 KB value', 'x'.repeat(10_240)],
  ])('an ambassador id with %s: the page opens, nothing of it on the page', async (_name, raw) => {
    const page = await open(`/schools/${key}?ambassadorId=${raw}&ref=${raw}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('x'.repeat(201));
    expect(page.text).not.toContain('\u0000');
    expect(page.text).not.toContain('\ufffd');
  });

  test('markup in an ambassador id is never markup on the page', async () => {
    const page = await open(`/schools/${key}?ambassadorId=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(attributed(page.text) ? page.text : '').not.toContain('onerror=alert(1)>');
  });
});

describe('methods and floods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is a 405 with Allow and the error shape, on the page and the API', async (method) => {
    for (const path of [`/schools/${key}`, `/api/schools/${key}`]) {
      const answer = await open(path, method);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
      expect(JSON.parse(answer.text)).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String) } });
    }
  });

  test('a flood from one address is cut off by the platform’s rate limit', () => {
    expect(config.rateLimit).toMatchObject({ windowLimit: expect.any(Number), windowSize: 60, aggregateBy: expect.arrayContaining(['ip']) });
    expect(config.rateLimit!.windowLimit).toBeLessThanOrEqual(120);
  });
});

describe('nothing public without proof', () => {
  test('an unconfirmed "I\'ve sent it myself" to HEAD+gone@… cannot rename the page, nor change the address its form fills in', async () => {
    await claimSent({ school_name: 'Springfield Academy campaign CANCELLED - do not write', school_contact_email: 'HEAD+gone@Springfield.edu' });
    const page = await open(`/schools/${key}`);
    expect(page.text).toContain('Springfield Academy');
    expect(page.text).not.toMatch(/CANCELLED|do not write/);
    expect(page.text).not.toMatch(/gone@|springfield\.edu/i);
    // The next parent's letter from the page goes to the address the delivered letter went to.
    const values = emailFormValues({ _page: `/schools/${key}`, _school: key, _elapsed: '30000' }) as Record<string, string>;
    delete values.school_contact_email;
    const response = await forms(
      new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(values),
      }),
      { ip: '198.51.100.7' } as never,
    );
    const draft = (await readDraft(((await response.json()) as { id: string }).id))!.draft;
    expect(draft.data.schoolContactEmail).toBe(school);
    // The record's name: nothing typed names a school on its own page.
    expect(draft.data.schoolName).toBe('Springfield Academy');
  });

  test('a self-report answered "they agreed to meet" from the reporter’s own link sets no outcome, moves no count and emails no parent', async () => {
    const claim = await claimSent({ school_name: 'Springfield Academy', school_contact_email: school, email: 'claimant@example.org' });
    await answerFromOwnLink(claim, 'meeting');
    await runSchoolUpdates();
    await runMail();
    const page = await open(`/api/schools/${key}`);
    expect(JSON.parse(page.text)).toMatchObject({ parents: 1, outcome: null });
    expect(mail.sink.messages.filter((message) => /^News from/.test(message.subject))).toEqual([]);
    expect(await query(sql`SELECT claim, state FROM review_items WHERE message_id = ${claim.id} ORDER BY claim`)).toEqual([
      { claim: 'self_report', state: 'pending' },
    ]);
  });

  test('six mailboxes on one catch-all domain, each claiming a letter and a meeting, move no public figure', async () => {
    const before = await (await impact(new Request('http://localhost/api/impact'), {})).json();
    for (let n = 0; n < 6; n++) {
      const claim = await claimSent({ email: `p${n}@catchall.example`, school_contact_email: `head@school${n}.example`, school_name: `School ${n}` });
      await answerFromOwnLink(claim, 'meeting');
    }
    // And one "school" on the catch-all itself, written to through the platform and delivered.
    await deliveredLetter('p9@catchall.example', 'principal@catchall.example', { schoolName: 'Catchall Academy' });
    expect(await (await impact(new Request('http://localhost/api/impact'), {})).json()).toMatchObject({
      schoolsReached: before.schoolsReached,
      meetings: before.meetings,
      parentsWrote: before.parentsWrote,
    });
    expect(await computeImpact()).toMatchObject({ parentsWrote: { display: 'fewer than 5' }, meetings: { display: 'fewer than 5' } });
    expect(JSON.parse((await open(`/api/schools/${(await verifiedSchool('principal@catchall.example')).pageKey}`)).text)).toMatchObject({
      parents: 0,
      outcome: null,
    });
    expect(await query(sql`SELECT reason FROM review_items WHERE reason = 'own_domain'`)).toEqual([{ reason: 'own_domain' }]);
  });

  test('staff approval and a verified school are the proof: an approved self-report counts on the page, under the record’s name', async () => {
    const maple = await verifiedSchool('office@maple.edu', 'Maple School');
    const claim = await claimSent({ school_name: 'Maple School CLOSED', school_contact_email: 'office@maple.edu' });
    expect(JSON.parse((await open(`/api/schools/${maple.pageKey}`)).text)).toMatchObject({ parents: 0 });
    const [item] = await query<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${claim.id}`);
    await decideReview(item!.id, 'approved', 'staff@example.org');
    const page = await open(`/api/schools/${maple.pageKey}`);
    expect(JSON.parse(page.text)).toMatchObject({ schoolName: 'Maple School', published: true, parents: 1 });
    expect(page.text).not.toContain('CLOSED');
  });
});
