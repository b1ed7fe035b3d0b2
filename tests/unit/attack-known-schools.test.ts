/**
 * The outside readings of issue 44, replayed: each of these worked on the code before known
 * schools, and each is refused now, with nothing lost for real parents.
 *
 * - A stranger with two mailboxes at a free provider writes to "Lincoln High School" at the second
 *   and answers "meeting": no page, count, outcome or share link, and no other parent is told.
 * - A name that speaks for the organisation or carries a phone number is refused, naming its field,
 *   in the email form and in a nomination; typed names never reach a subject sent to a school.
 * - A parent who typed their own mailbox for a known school never has the next parents' letters.
 * - "I've sent it myself" answers nothing about a page until its parent confirms it from their inbox,
 *   files nothing for review before, and emails no one but that one confirmation.
 * - A flood of nominations or letters for one typed school makes one proposal.
 * - A typed school keeps its parent's time zone until verified; a known school's is its record's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import forms from '../../netlify/functions/forms.mts';
import impactFunction from '../../netlify/functions/impact.mts';
import nominations from '../../netlify/functions/nominations.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import schoolPage from '../../netlify/functions/school-page.mts';
import suggestions from '../../netlify/functions/school-suggestions.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { query, sql } from '../../src/server/db';
import { readDraft } from '../../src/server/letter/drafts';
import { runMail } from '../../src/server/letter/delivery';
import { answerLink } from '../../src/server/links';
import { readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { runSchoolUpdates } from '../../src/server/schools/updates';
import { countSchoolLetters } from '../../src/server/schools/publication';
import { readSchool, retireSchool, verifySchool } from '../../src/server/schools/records';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { deliveredLetter } from './helpers/delivered';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { linkIn, MAIL_FROM, tokenOf, useMail, type MailCatcher } from './helpers/mail';
import { jsonRequest } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';

let database: TestDatabase;
let mail: MailCatcher;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  definitions = await useFormDefinitions();
  shell = useSiteShell();
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
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
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
});

const nextIp = () => `198.51.100.${(++seq % 200) + 1}`;

/** The email form, posted as the page posts it. */
async function postForm(fields: Record<string, string>, ip = nextIp()) {
  const values = emailFormValues({ _page: '/lead-the-change', _elapsed: '30000', ...fields });
  const response = await forms(
    new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(values),
    }),
    { ip } as never,
  );
  return { status: response.status, body: JSON.parse(await response.text()), parent: values.email as string };
}

/** A letter "Send via our platform", confirmed from the parent's inbox (with their browser's time zone). */
async function platformLetter(fields: Record<string, string>, tz = 'Europe/London') {
  const ip = nextIp();
  const form = await postForm({ choose_how_to_send_your_email: 'Send via our platform', ...fields }, ip);
  expect(form.status, JSON.stringify(form.body)).toBe(201);
  const requested = await sendEmail(jsonRequest('/api/send-email', { submissionId: form.body.id, token: form.body.draft.token }), { ip });
  const request = JSON.parse(await requested.text());
  expect(requested.status, JSON.stringify(request)).toBe(202);
  const token = tokenOf(linkIn(mail.last(form.parent, /confirm/i), '/confirm-send'));
  const confirmed = await confirmSend(
    new Request('http://localhost/confirm-send', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}&tz=${encodeURIComponent(tz)}`,
    }),
  );
  return { message: (await readMessage(request.id))!.message, page: await confirmed.text(), parent: form.parent };
}

/** "Did your school answer?" answered from the parent's own follow-up link. */
async function answer(message: OutboxMessage, kind: string) {
  const token = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  const body = new URLSearchParams({ token, seen: '', comment: '', answer: kind });
  const response = await schoolAnswer(
    new Request('http://localhost/school-answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
  );
  expect(response.status).toBe(200);
}

const impact = async () => JSON.parse(await (await impactFunction(new Request('http://localhost/api/impact'), {})).text());
const pageOf = async (key: string) => (await schoolPage(new Request(`http://localhost/api/schools/${key}`))).status;

describe('a stranger’s own two mailboxes', () => {
  test('"Lincoln High School" at the stranger’s second mailbox: the letter goes there (it is their letter), but no page, count, outcome or share link, and no parent is told of a meeting', async () => {
    // A real school with real parents, whom a published "meeting" would tell.
    const real = await deliveredLetter('real-parent@example.org', 'head@lincoln-high.example', { schoolName: 'Lincoln High School' });
    const figures = await impact();

    const { message, page } = await platformLetter({
      email: 'stranger.one@gmail.com',
      school_name: 'Lincoln High School',
      school_contact_name: 'Principal Skinner',
      school_contact_email: 'stranger.two@gmail.com',
    });
    expect(message.status).toBe('sent');
    const delivered = mail.to('stranger.two@gmail.com');
    expect(delivered).toHaveLength(1);
    // Sent from the organisation to someone other than the writer: no typed school name in its subject.
    expect(delivered[0]!.subject).not.toMatch(/Lincoln/);
    const proposal = (await readSchool(message.schoolId!))!;
    expect(proposal.status).toBe('proposed');
    expect(await pageOf(proposal.pageKey)).toBe(404);
    expect(regionText(page)).not.toMatch(/\/schools\/|Share the school|add their voice/i);
    expect(page).not.toContain(proposal.pageKey);
    for (const email of mail.to('stranger.one@gmail.com')) expect(email.text).not.toContain('/schools/');

    await answer((await readMessage(message.id))!.message, 'meeting');
    await runSchoolUpdates();
    await runMail();
    // The answer is kept (it is the parent's), but about a school nobody verified it counts nowhere and
    // files nothing yet: should staff verify the school, it reaches the review queue then.
    expect(await query(sql`SELECT message_id FROM school_answers`)).toEqual([{ message_id: message.id }]);
    expect(await query(sql`SELECT reason FROM review_items`)).toEqual([]);
    expect(mail.to('real-parent@example.org').filter((email) => /^News from/.test(email.subject))).toEqual([]);
    const realPage = (await readSchool(real.schoolId!))!;
    expect(JSON.parse(await (await schoolPage(new Request(`http://localhost/api/schools/${realPage.pageKey}`))).text())).toMatchObject({
      parents: 1,
      outcome: null,
    });
    expect(await impact()).toMatchObject({ schoolsReached: figures.schoolsReached, meetings: figures.meetings, parentsWrote: figures.parentsWrote });
    // Staff verify the "school" (say it were real): its letter counts, and the claimed meeting waits for their review.
    await verifySchool(proposal.id, { kind: 'note', detail: 'checked by phone' }, 'staff');
    expect(await countSchoolLetters(proposal.id)).toBe(1);
    expect(await query(sql`SELECT reason, state FROM review_items WHERE message_id = ${message.id}`)).toEqual([
      { reason: 'outcome_reported', state: 'pending' },
    ]);
    expect(JSON.parse(await (await schoolPage(new Request(`http://localhost/api/schools/${proposal.pageKey}`))).text())).toMatchObject({
      parents: 1,
      outcome: null,
    });
    await retireSchool(proposal.id);
    // And a proposal is never offered to another parent.
    expect(
      JSON.parse(await (await suggestions(new Request('http://localhost/api/school-suggestions?q=lincoln'), {})).text()).schools.map(
        (school: { leaders: Array<{ address: string }> }) => school.leaders[0]!.address,
      ),
    ).toEqual(['head@lincoln-high.example']);
  });

  test('the letter to the typed "school" is signed with the parent’s typed name only inside the letter itself', async () => {
    const { message } = await platformLetter({
      email: 'stranger.one@gmail.com',
      school_name: 'Lincoln High School',
      school_contact_email: 'stranger.two@gmail.com',
    });
    const [letter] = mail.to('stranger.two@gmail.com');
    expect(letter!.subject).toBe(message.subject);
    expect(JSON.stringify(letter!.from)).toContain(MAIL_FROM);
  });
});

describe('words that cannot speak for anyone', () => {
  test.each<[string, Record<string, string>, string]>([
    ['the organisation’s name and a phone number as the school', { school_name: 'Mastery Parents Fraud Desk - call +1 202 555 0147 now' }, 'school_name'],
    ['a phone number as the school', { school_name: 'Lincoln High (202) 555-0147' }, 'school_name'],
    ['a phone number as the contact’s name', { school_contact_name: 'Call 202-555-0147' }, 'school_contact_name'],
    ['the organisation as the contact', { school_contact_name: 'Mastery Parents Security Team' }, 'school_contact_name'],
    ['the organisation as the parent', { full_name: 'The Mastery Parents Team' }, 'full_name'],
  ])('%s: 400 naming %s, nothing stored, nothing mailed', async (_name, fields, field) => {
    const form = await postForm({ choose_how_to_send_your_email: 'Send via our platform', ...fields });
    expect(form.status).toBe(400);
    expect(Object.keys(form.body.error.fields ?? {})).toContain(field);
    expect(await query(sql`SELECT id FROM email_drafts`)).toEqual([]);
    expect(await query(sql`SELECT id FROM schools`)).toEqual([]);
    expect(mail.sink.messages).toEqual([]);
  });

  test.each<[string, Record<string, string>]>([
    ['a phone number as the school', { schoolName: 'Lincoln High call +1 202 555 0147' }],
    ['the organisation as the school', { schoolName: 'Mastery Parents Fraud Desk' }],
    ['a phone number as the city', { city: 'Call 202 555 0147' }],
  ])('a nomination with %s: 400 naming the field, no proposal', async (_name, change) => {
    const body = {
      schoolName: 'Lincoln High School',
      city: 'Springfield',
      yourName: 'Ana Lopez',
      email: 'ana@example.org',
      childGrade: '5th',
      sendTo: 'Principal',
      ...change,
    };
    const response = await nominations(jsonRequest('/api/nominations', body), { ip: nextIp() });
    const answered = JSON.parse(await response.text());
    expect(response.status).toBe(400);
    expect(answered.error.message).toContain(Object.keys(change)[0]!);
    expect(await query(sql`SELECT id FROM schools`)).toEqual([]);
  });
});

describe('a known school’s address is its record’s', () => {
  test('a parent who typed their own mailbox for a known school is flagged for staff, and the next parents’ letters still go to the record’s address', async () => {
    const oakwood = await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy');
    const first = await platformLetter({ _school: oakwood.pageKey, school_contact_email: 'first.parent.own@gmail.com' });
    expect(first.message.to).toBe('first.parent.own@gmail.com');
    expect(await query(sql`SELECT address, state FROM school_address_flags`)).toEqual([{ address: 'first.parent.own@gmail.com', state: 'open' }]);
    expect(await pageOf(oakwood.pageKey)).toBe(200);
    expect(JSON.parse(await (await schoolPage(new Request(`http://localhost/api/schools/${oakwood.pageKey}`))).text()).parents).toBe(0);

    // The next parent, from the school's page: the address the form fills is the record's.
    const next = await postForm({
      _page: `/schools/${oakwood.pageKey}`,
      _school: oakwood.pageKey,
      school_contact_email: '',
      school_contact_name: '',
      school_name: 'whatever I type',
    });
    const draft = (await readDraft(next.body.id))!.draft;
    expect(draft.data).toMatchObject({ schoolContactEmail: 'head@oakwood-academy.example', schoolName: 'Oakwood Academy', schoolContactName: 'Dr. Patel' });
  });

  test('a forged or proposed school key in the form fills nothing: the letter is the typed one', async () => {
    await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy');
    const { message } = await platformLetter({ school_name: 'Maple Grove', school_contact_email: 'head@maplegrove.example' });
    const proposal = (await readSchool(message.schoolId!))!;
    for (const key of [proposal.pageKey, 'f'.repeat(32), 'not-a-key', `${proposal.pageKey}\u0000`]) {
      const form = await postForm({ _school: key, school_name: 'Typed School', school_contact_email: 'head@typed.example' });
      expect(form.status).toBe(201);
      expect((await readDraft(form.body.id))!.draft.data).toMatchObject({ schoolName: 'Typed School', schoolContactEmail: 'head@typed.example' });
    }
  });
});

describe('"I’ve sent it myself" before its parent confirms', () => {
  async function claim(fields: Record<string, string>) {
    const form = await postForm({ choose_how_to_send_your_email: 'I will send it myself', ...fields });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    const response = await emailSentMyself(jsonRequest('/api/email-sent-myself', { submissionId: form.body.id, token: form.body.draft.token }), {
      ip: nextIp(),
    });
    return { status: response.status, body: JSON.parse(await response.text()), parent: form.parent };
  }

  test('answers nothing about a page (no key, slug or count), files nothing for review, and emails only its parent, once', async () => {
    const oakwood = await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy');
    await deliveredLetter('real@example.org', 'head@oakwood-academy.example');
    const probe = await claim({ school_contact_email: 'head@oakwood-academy.example' });
    expect(probe.status).toBe(202);
    expect(JSON.stringify(probe.body)).not.toMatch(new RegExp(`${oakwood.pageKey}|oakwood-academy|"others"|"slug"|"key"`));
    expect(await query(sql`SELECT id FROM review_items`)).toEqual([]);
    expect(mail.sink.messages.map((email) => JSON.stringify(email.to))).toEqual([expect.stringContaining(probe.parent)]);
    expect(mail.to('head@oakwood-academy.example')).toEqual([]);
  });

  test('three probes with a victim’s address spend nothing of the victim’s real letter: its follow-up still goes', async () => {
    await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy');
    const real = await deliveredLetter('victim@example.org', 'head@oakwood-academy.example');
    for (let n = 0; n < 3; n++) await claim({ email: 'victim@example.org', school_contact_email: 'head@oakwood-academy.example' });
    // At most one "did you send it?" per probe, each to the victim (theirs to ignore); no follow-ups, no review items.
    expect(mail.to('victim@example.org').length).toBeLessThanOrEqual(3);
    expect(await query(sql`SELECT id FROM review_items`)).toEqual([]);
    const { runFollowUps } = await import('../../src/server/schools/answers');
    await runFollowUps(new Date(Date.parse(real.followUp!.dueAt) + 60_000));
    await runMail(() => new Date(Date.parse(real.followUp!.dueAt) + 120_000));
    expect(mail.to('victim@example.org').filter((email) => /did .* answer|hear back|answer/i.test(email.subject))).toHaveLength(1);
  });
});

describe('floods make one proposal', () => {
  test('twelve nominations of one typed school from twelve networks: one proposal, every nomination kept', async () => {
    for (let n = 0; n < 12; n++) {
      const body = {
        schoolName: n % 2 ? 'lincoln  high school' : 'Lincoln High School',
        city: 'Springfield',
        yourName: 'Ana Lopez',
        email: `parent${n}@example.org`,
        childGrade: '5th',
        sendTo: 'Principal',
      };
      expect((await nominations(jsonRequest('/api/nominations', body), { ip: nextIp() })).status).toBe(201);
    }
    expect(await query(sql`SELECT count(*)::int AS n FROM nominations`)).toEqual([{ n: 12 }]);
    expect(await query(sql`SELECT name, status, source FROM schools`)).toEqual([{ name: 'Lincoln High School', status: 'proposed', source: 'nomination' }]);
  });

  test('letters from many parents to one typed address: one proposal carrying them all', async () => {
    for (let n = 0; n < 4; n++)
      await platformLetter({
        school_name: n ? `Maple Grove ${'!'.repeat(n)}` : 'Maple Grove',
        school_contact_email: n % 2 ? 'HEAD@maplegrove.example' : 'head@maplegrove.example',
      });
    expect(await query(sql`SELECT count(*)::int AS n FROM schools`)).toEqual([{ n: 1 }]);
    expect(await query(sql`SELECT count(DISTINCT school_id)::int AS n FROM outbox_messages`)).toEqual([{ n: 1 }]);
  });
});

describe('time', () => {
  test('a typed school keeps its parent’s time zone; a known school’s letter keeps its record’s, whatever the parent’s browser says', async () => {
    const typed = await platformLetter({ school_name: 'Maple Grove', school_contact_email: 'head@maplegrove.example' }, 'Asia/Tokyo');
    expect(typed.message.delivery?.timeZone).toBe('Asia/Tokyo');
    const known = await verifiedSchool('head@oakwood-academy.example', 'Oakwood Academy', { timeZone: 'America/Denver' });
    const letter = await platformLetter({ _school: known.pageKey, school_contact_email: '', school_contact_name: '' }, 'Asia/Tokyo');
    expect(letter.message.delivery?.timeZone).toBe('America/Denver');
  });
});
