/**
 * POST /api/forms/{formId}: the site's own forms. Checked against the definition the page shows,
 * stored first, forwarded to HubSpot's authenticated submission endpoint exactly once (now, or by
 * the scheduled run when HubSpot is slow, down or refuses for a while), kept 30 days after, and
 * shown on the admin page. Bots and floods are refused; bad input is named per field.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import formsAdmin from '../../netlify/functions/form-submissions-admin.mts';
import formsDeliver from '../../netlify/functions/forms-deliver.mts';
import formsPurge from '../../netlify/functions/forms-purge.mts';
import forms from '../../netlify/functions/forms.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import { readDraft } from '../../src/server/letter/drafts';
import {
  deliverDue,
  deliverSubmission,
  formsHubSpot,
  purgeSettled,
  readSubmission,
  saveSubmission,
  SUBMISSION_RETENTION_MS,
  type StoredSubmission,
} from '../../src/server/forms/submissions';
import { query, sql } from '../../src/server/db';
import { forms as formConfig, type FormPurpose } from '../../src/config/forms';
import { noteMessages, ownWordsMessages } from '../../src/lib/shared/email/note';
import { messages } from '../../src/lib/shared/forms/values';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call as callAdmin, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { regionText, useSiteShell } from './helpers/site';

let fake: HubSpotFake;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let seq = 0;
let ipSeq = 0;

const formId = (purpose: FormPurpose) => formConfig[purpose].formId;
/** A fresh address per request unless given, so that the per-address limit does not interfere. */
const nextIp = () => `198.51.100.${(ipSeq++ % 250) + 1}`;

async function post(purpose: FormPurpose | string, body: unknown, init: { type?: string; accept?: string; ip?: string; cookie?: string } = {}) {
  const id = purpose in formConfig ? formId(purpose as FormPurpose) : purpose;
  const type = init.type ?? 'application/json';
  // The enhanced form always posts its fill time, measured on the page (`_elapsed`, ms).
  const posted = typeof body === 'object' && body !== null && !('_elapsed' in body) && type === 'application/json' ? { ...body, _elapsed: '30000' } : body;
  const payload =
    typeof posted === 'string'
      ? posted
      : type.startsWith('application/x-www-form-urlencoded')
        ? new URLSearchParams(posted as Record<string, string>).toString()
        : JSON.stringify(posted);
  const headers: Record<string, string> = { 'content-type': type, accept: init.accept ?? 'application/json' };
  if (init.cookie) headers.cookie = init.cookie;
  const response = await forms(new Request(`http://localhost/api/forms/${id}`, { method: 'POST', headers, body: payload }), {
    ip: init.ip ?? nextIp(),
  } as never);
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, body: json };
}

const newsletter = (overrides: Record<string, string> = {}) => ({ email: `reader${++seq}@example.org`, _consent_1001: 'true', _page: '/faqs', ...overrides });
const emailForm = (overrides: Record<string, string> = {}) => emailFormValues({ _page: '/lead-the-change', ...overrides });

/** Every stored record but the per-address counters. */
async function storedKeys(): Promise<string[]> {
  const rows = await query<{ key: string }>(sql`
    SELECT 'submission/' || id AS key FROM form_submissions
    UNION ALL SELECT 'draft/' || id FROM email_drafts
    UNION ALL SELECT 'message/' || id FROM outbox_messages`);
  return rows.map((row) => row.key).sort();
}

const submissionsOf = (guid: string) => fake.formSubmissions.filter((entry) => entry.formGuid === guid && entry.authenticated);
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

beforeAll(async () => {
  setAdminEnv();
  shell = useSiteShell();
  database = await startTestDatabase();
  fake = await startHubSpotFake();
  definitions = await useFormDefinitions((all) => {
    all.contact = { ...all.contact, render: 'embed' };
  });
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '1';
  process.env.FORMS_DELIVERY_BUDGET_MS = '1500';
  process.env.FORMS_RETRY_BUDGET_MS = '1500';
  process.env.FORMS_MIN_FILL_MS = '2000';
});

afterAll(async () => {
  definitions.remove();
  shell.remove();
  await database.stop();
  await fake.close();
  for (const name of [
    'HUBSPOT_BASE_PATH',
    'HUBSPOT_FORMS_BASE_PATH',
    'HUBSPOT_ACCESS_TOKEN',
    'FORMS_DELIVERY_BUDGET_MS',
    'FORMS_RETRY_BUDGET_MS',
    'FORMS_MIN_FILL_MS',
    'FORMS_RATE_LIMIT',
  ])
    delete process.env[name];
});

beforeEach(() => {
  fake.reset();
  // Every form of the site exists in HubSpot, as the build's definitions say.
  for (const definition of Object.values(definitions.definitions)) fake.addForm(definition);
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  delete process.env.FORMS_RATE_LIMIT;
});

describe('an accepted submission', () => {
  test('JSON: stored, then forwarded once to the authenticated endpoint with the page and the consent, never the visitor’s HubSpot cookie', async () => {
    const answer = await post('newsletter', newsletter(), { cookie: 'hubspotutk=0123456789abcdef0123456789abcdef; other=1' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      form: 'newsletter',
      status: 'accepted',
      delivery: 'delivered',
      values: { email: expect.stringMatching(/@example\.org$/) },
    });
    const sent = submissionsOf(formId('newsletter'));
    expect(sent).toHaveLength(1);
    const body = sent[0]!.body as {
      fields: Array<{ name: string; value: string }>;
      context: Record<string, string>;
      submittedAt: string;
      legalConsentOptions: unknown;
    };
    expect(body.fields).toEqual([{ objectTypeId: '0-1', name: 'email', value: answer.body.values.email }]);
    // The address is typed, not proven: the cookie would tie this browser to that person's contact.
    expect(body.context).toEqual({ pageUri: 'http://localhost:8888/faqs', pageName: expect.stringContaining('FAQs') });
    expect(body.legalConsentOptions).toEqual({
      consent: { consentToProcess: true, text: expect.any(String), communications: [{ subscriptionTypeId: 1001, value: true, text: expect.any(String) }] },
    });
    expect(fake.calls.find((c) => c.path.includes('/secure/submit/'))?.authorization).toBe(`Bearer ${fake.token}`);
    const { record } = (await readSubmission('newsletter', answer.body.id))!;
    expect(record.delivery).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(Number(body.submittedAt)).toBe(record.submittedAt);
  });

  test('a form naming an address HubSpot knows rewrites nothing of that contact: only its empty properties are filled, and no form is submitted in its name', async () => {
    const victim = fake.addContact('sam@example.org', { firstname: 'Samantha', school_name: 'Pine Ridge School' });
    victim.searchableAt = 0;
    const answer = await post(
      'toolkit',
      { firstname: 'Mallory', email: 'SAM@example.org', school_name: 'Fraud Desk Academy', referral_source: 'A friend', _page: '/resources' },
      { cookie: 'hubspotutk=0123456789abcdef0123456789abcdef' },
    );
    expect(answer.status).toBe(201);
    expect(answer.body.delivery).toBe('delivered');
    expect(fake.findContact('sam@example.org')!.properties).toMatchObject({
      firstname: 'Samantha',
      school_name: 'Pine Ridge School',
      referral_source: 'A friend',
    });
    expect(submissionsOf(formId('toolkit'))).toEqual([]);
    // An address HubSpot does not know is submitted as a form (it makes the contact), without the cookie.
    await post(
      'toolkit',
      { firstname: 'Ana', email: 'new-reader@example.org', school_name: 'Oakwood Academy', referral_source: 'A friend', _page: '/resources' },
      { cookie: 'hubspotutk=0123456789abcdef0123456789abcdef' },
    );
    const [made] = submissionsOf(formId('toolkit'));
    expect(JSON.stringify(made!.body)).not.toContain('0123456789abcdef');
  });

  test('form-encoded from a browser without JavaScript: 303 to the thank-you page of that form', async () => {
    const answer = await post('newsletter', newsletter({ _page: '/nominate-school' }), {
      type: 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/forms/submitted?form=newsletter&page=%2Fnominate-school');
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
  });

  test('form-encoded checkbox groups arrive as lists and go to HubSpot joined with ";"', async () => {
    const body = new URLSearchParams({ firstname: 'Ana', email: `p${++seq}@example.org` });
    body.append('resources_wanted', 'social_media_templates');
    body.append('resources_wanted', 'fact_sheets');
    body.append('_elapsed', '30000');
    const answer = await post('resources', body.toString(), { type: 'application/x-www-form-urlencoded', accept: 'application/json' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.values.resources_wanted).toBe('social_media_templates;fact_sheets');
    const sent = submissionsOf(formId('resources'))[0]!.body as { fields: Array<{ name: string; value: string }> };
    expect(sent.fields).toContainEqual({ objectTypeId: '0-1', name: 'resources_wanted', value: 'social_media_templates;fact_sheets' });
  });

  test('an email form: the school email is composed on the server, with a one-time send token', async () => {
    const answer = await post('emailGenerator', { ...emailForm(), _note: 'We met at the open day.' });
    expect(answer.status).toBe(201);
    const draft = answer.body.draft;
    expect(draft).toMatchObject({
      id: answer.body.id,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      note: 'We met at the open day.',
      wantsPlatformSend: false,
    });
    expect(draft.email.subject).toBe('How Oakwood Academy can unlock mastery learning for every student');
    expect(draft.email.body).toContain('We met at the open day.');
    const stored = await readDraft(answer.body.id);
    expect(stored?.draft.tokenHash).not.toContain(draft.token);
    // The note is the site's own: HubSpot never gets it.
    const sent = submissionsOf(formId('emailGenerator'))[0]!.body as { fields: Array<{ name: string }> };
    expect(sent.fields.map((f) => f.name)).not.toContain('_note');
  });

  test("an email form: the answer in the parent's own words stands in the letter right after the introduction", async () => {
    const answer = await post('emailGenerator', { ...emailForm(), _own_words: '  Leo would stop waiting for the class.  ', _note: 'We met at the open day.' });
    expect(answer.status, answer.text).toBe(201);
    const draft = answer.body.draft;
    expect(draft).toMatchObject({ ownWords: 'Leo would stop waiting for the class.', letter: { id: expect.any(String) } });
    const paragraphs = (draft.email.body as string).split('\n\n');
    expect(paragraphs.slice(2, 4)).toEqual(['Leo would stop waiting for the class.', 'We met at the open day.']);
    expect((await readDraft(answer.body.id))?.draft.ownWords).toBe('Leo would stop waiting for the class.');
    const sent = submissionsOf(formId('emailGenerator')).at(-1)!.body as { fields: Array<{ name: string }> };
    expect(sent.fields.map((f) => f.name)).not.toContain('_own_words');
  });

  test('an email form without JavaScript: 303 to its "Your Email is Ready" page', async () => {
    const answer = await post(
      'referSchool',
      { ...emailForm({ _page: '/form' }), role_to_student: 'Parent', state: 'TX', city: 'Austin' },
      { type: 'application/x-www-form-urlencoded', accept: 'text/html' },
    );
    expect(answer.status, answer.text).toBe(303);
    expect(answer.headers.get('location')).toMatch(/^\/your-email\?id=\d{13}-[0-9a-f-]{36}&t=[A-Za-z0-9_-]{43}$/);
  });
});

describe('bad input: a 4xx naming the field, nothing stored, nothing sent', () => {
  const cases: Array<[string, FormPurpose, unknown, number, Record<string, string | RegExp>]> = [
    ['a missing required field', 'emailGenerator', emailForm({ school_contact_email: '' }), 400, { school_contact_email: messages.required }],
    ['a wrong email', 'newsletter', newsletter({ email: 'not-an-address' }), 400, { email: messages.email }],
    ['a wrong type', 'newsletter', { ...newsletter(), email: { nested: true } }, 400, { email: /text value/ }],
    [
      'an option not in the definition',
      'emailGenerator',
      emailForm({ choose_how_to_send_your_email: 'Carrier pigeon' }),
      400,
      { choose_how_to_send_your_email: messages.option },
    ],
    ['an over-long value', 'emailGenerator', emailForm({ school_name: 'x'.repeat(2001) }), 400, { school_name: messages.tooLong(2000) }],
    ['an unknown field', 'newsletter', { ...newsletter(), favourite_colour: 'blue' }, 400, { favourite_colour: messages.unknown }],
    ['a required consent box left empty', 'newsletter', newsletter({ _consent_1001: '' }), 400, { _consent_1001: messages.requiredCheckbox }],
    ['a note with a link', 'emailGenerator', emailForm({ _note: 'See https://example.com' }), 400, { _note: noteMessages.link }],
    ['a note over 600 characters', 'emailGenerator', emailForm({ _note: 'a'.repeat(601) }), 400, { _note: noteMessages.tooLong }],
    ['an answer in own words with a link', 'emailGenerator', emailForm({ _own_words: 'Read goo.gl/abc' }), 400, { _own_words: ownWordsMessages.link }],
    [
      'an answer in own words with an address',
      'emailGenerator',
      emailForm({ _own_words: 'Write to me at ana＠example.org' }),
      400,
      { _own_words: ownWordsMessages.email },
    ],
    ['an answer in own words over 600 characters', 'emailGenerator', emailForm({ _own_words: 'a'.repeat(601) }), 400, { _own_words: ownWordsMessages.tooLong }],
    [
      'a phone number with too few digits',
      'partnership',
      { firstname: 'A', lastname: 'B', email: 'a@b.org', phone: '12', school_name: 'S', city: 'C', state: 'S', relationship_to_school: 'Parent' },
      400,
      { phone: messages.phone(7, 20) },
    ],
  ];
  test.each(cases)('%s (%s)', async (_name, purpose, body, status, fields) => {
    const before = await storedKeys();
    const answer = await post(purpose, body);
    expect(answer.status).toBe(status);
    expect(typeof answer.body.error.code).toBe('string');
    expect(typeof answer.body.error.message).toBe('string');
    for (const [name, message] of Object.entries(fields)) expect(answer.body.error.fields[name]).toMatch(message);
    expect(await storedKeys()).toEqual(before);
    expect(fake.formSubmissions).toHaveLength(0);
  });

  // The outside reading found a NUL in the toolkit or newsletter form answered with a 500.
  test.each<[FormPurpose, Record<string, string>]>([
    ['newsletter', newsletter()],
    ['toolkit', { firstname: 'Ana', email: 'ana@example.org', school_name: 'Oakwood Academy', referral_source: 'A friend', _page: '/resources' }],
    ['emailGenerator', emailForm()],
  ])(
    'a NUL in any field of the %s form (or an escape, or half a surrogate pair) is a 400 naming that field, in JSON and in a form encoding',
    async (purpose, body) => {
      for (const name of Object.keys(body).filter((key) => !key.startsWith('_'))) {
        for (const [type, bad] of [
          ['application/json', '\u0000x'],
          ['application/x-www-form-urlencoded', '\u0000x'],
          ['application/json', '\ud800'],
          ['application/json', '\u001b[2J'],
        ]) {
          const answer = await post(purpose, { ...body, [name]: `${body[name]}${bad}` }, { type });
          expect(answer.status, `${name} as ${type}`).toBe(400);
          expect(answer.body.error.fields[name], `${name} as ${type}`).toBeTruthy();
        }
      }
      expect(fake.formSubmissions).toHaveLength(0);
    },
  );

  const requests: Array<[string, () => Request, number]> = [
    [
      'an unknown form',
      () => new Request('http://localhost/api/forms/no-such-form', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      404,
    ],
    ['GET', () => new Request(`http://localhost/api/forms/${formId('newsletter')}`), 405],
    [
      'a text body',
      () =>
        new Request(`http://localhost/api/forms/${formId('newsletter')}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'email=a@b.org' }),
      415,
    ],
    [
      'broken JSON',
      () =>
        new Request(`http://localhost/api/forms/${formId('newsletter')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"email":',
        }),
      400,
    ],
    [
      'a JSON array',
      () => new Request(`http://localhost/api/forms/${formId('newsletter')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }),
      400,
    ],
    [
      'a body over 64 KB',
      () =>
        new Request(`http://localhost/api/forms/${formId('newsletter')}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'a@b.org', pad: 'p'.repeat(70_000) }),
        }),
      413,
    ],
    [
      'a file in multipart',
      () => {
        const data = new FormData();
        data.append('email', 'a@b.org');
        data.append('upload', new Blob(['x']), 'x.txt');
        return new Request(`http://localhost/api/forms/${formId('newsletter')}`, { method: 'POST', body: data });
      },
      400,
    ],
  ];
  test.each(requests)('%s', async (_name, make, status) => {
    const before = await storedKeys();
    const response = await forms(make(), { ip: nextIp() } as never);
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(await storedKeys()).toEqual(before);
  });

  test('without JavaScript, bad input shows the form again with the answers kept and each problem next to its field', async () => {
    const answer = await post('newsletter', newsletter({ email: 'nope', _page: '/faqs' }), { type: 'application/x-www-form-urlencoded', accept: 'text/html' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(regionText(answer.text)).toContain('Please check your answers');
    expect(answer.text).toMatch(/<input[^>]*name="email"[^>]*aria-invalid="true"[^>]*>|<input[^>]*aria-invalid="true"[^>]*name="email"/);
    expect(answer.text).toContain('value="nope"');
    expect(answer.text).toContain(messages.email);
    expect(fake.formSubmissions).toHaveLength(0);
  });
});

describe('bots and floods', () => {
  const stateOf = async (id: string) => (await readSubmission('newsletter', id))!.record.delivery;

  test('a filled honeypot is answered like a success, held (never sent), and released in one click it is delivered once', async () => {
    const answer = await post('newsletter', newsletter({ _website: 'http://spam.example' }));
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('accepted');
    expect(await stateOf(answer.body.id)).toMatchObject({ state: 'held', heldReason: 'honeypot' });
    await deliverDue((await formsHubSpot())!, later(60));
    expect(fake.formSubmissions).toHaveLength(0);

    const cookie = await signIn();
    const listed = await callAdmin(formsAdmin, '/api/admin/form-submissions?form=newsletter&limit=100', { cookie });
    expect(listed.body.submissions.find((entry: { id: string }) => entry.id === answer.body.id)).toMatchObject({ delivery: { state: 'held' } });
    expect((await callAdmin(formsAdmin, `/api/admin/form-submissions/newsletter/${answer.body.id}/retry`, { method: 'POST', cookie })).status).toBe(409);
    const released = await callAdmin(formsAdmin, `/api/admin/form-submissions/newsletter/${answer.body.id}/release`, { method: 'POST', cookie });
    expect(released.status).toBe(200);
    expect(released.body.submission.delivery.state).toBe('delivered');
    expect(fake.formSubmissions).toHaveLength(1);
    expect((await callAdmin(formsAdmin, `/api/admin/form-submissions/newsletter/${answer.body.id}/release`, { method: 'POST', cookie })).status).toBe(409);
  });

  test('an email form caught by the honeypot gets its email (a misjudged parent can copy it) but no power: its draft sends and records nothing until staff release it', async () => {
    const answer = await post('emailGenerator', emailForm({ _website: 'http://spam.example', choose_how_to_send_your_email: 'Send via our platform' }));
    expect(answer.status).toBe(201);
    expect(answer.body.draft.email.body).toContain('Dear Dr. Patel');
    const asked = { submissionId: answer.body.id, token: answer.body.draft.token };
    for (const handler of [sendEmail, emailSentMyself]) {
      const response = await handler(
        new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) }),
        { ip: nextIp() } as never,
      );
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('held_for_review');
    }
    expect(await query(sql`SELECT id FROM outbox_messages`)).toEqual([]);

    const cookie = await signIn();
    expect((await callAdmin(formsAdmin, `/api/admin/form-submissions/emailGenerator/${answer.body.id}/release`, { method: 'POST', cookie })).status).toBe(200);
    const released = await sendEmail(
      new Request('http://localhost/api/send-email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(asked) }),
      { ip: nextIp() } as never,
    );
    expect(released.status).toBe(202);
  });

  test('a form sent faster than a person fills it is held, not dropped; one that took a while is delivered', async () => {
    const fast = await post('newsletter', newsletter({ _elapsed: '300' }));
    expect(fast.status).toBe(201);
    expect(await stateOf(fast.body.id)).toMatchObject({ state: 'held', heldReason: 'too_fast' });
    expect((await post('newsletter', newsletter({ _elapsed: '5000' }))).body.delivery).toBe('delivered');
    expect(fake.formSubmissions).toHaveLength(1);
  });

  test('held submissions nobody releases are deleted after 7 days', async () => {
    const held = await post('newsletter', newsletter({ _website: 'x' }));
    await purgeSettled(new Date(Date.now() + 6 * 24 * 3600_000));
    expect(await readSubmission('newsletter', held.body.id)).toBeDefined();
    await purgeSettled(new Date(Date.now() + 8 * 24 * 3600_000));
    expect(await readSubmission('newsletter', held.body.id)).toBeUndefined();
  });

  test('at most FORMS_RATE_LIMIT submissions per address in 10 minutes, then 429 with Retry-After', async () => {
    process.env.FORMS_RATE_LIMIT = '3';
    const ip = '192.0.2.77';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('newsletter', newsletter(), { ip })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await post('newsletter', newsletter(), { ip });
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await post('newsletter', newsletter(), { ip: '192.0.2.78' })).status).toBe(201);
  });

  test('the per-address count is exact under 20 concurrent submissions', async () => {
    process.env.FORMS_RATE_LIMIT = '7';
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('newsletter', newsletter(), { ip: '192.0.2.99' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(13);
  });
});

describe('nothing lost, delivered once', () => {
  test('HubSpot down: accepted and stored; delivered exactly once by the scheduled run after it is back', async () => {
    fake.down = true;
    const answer = await post('newsletter', newsletter());
    expect(answer.status).toBe(201);
    expect(answer.body.delivery).toBe('queued');
    const { record } = (await readSubmission('newsletter', answer.body.id))!;
    expect(record.delivery).toMatchObject({ state: 'pending', lastError: 'hubspot_503' });
    // Still down at the next run: it waits.
    expect((await deliverDue((await formsHubSpot())!, later(60))).waiting).toBeGreaterThanOrEqual(1);
    fake.down = false;
    await deliverDue((await formsHubSpot())!, later(600));
    await deliverDue((await formsHubSpot())!, later(1200));
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
    expect((await readSubmission('newsletter', answer.body.id))!.record.delivery.state).toBe('delivered');
  });

  test('HubSpot too slow: the request answers in time, and the late-recorded submission is found, not sent again', async () => {
    fake.submitDelayMs = 2500;
    const answer = await post('newsletter', newsletter());
    expect(answer.body.delivery).toBe('queued');
    fake.submitDelayMs = 0;
    // HubSpot recorded it after all.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
    const { record } = (await readSubmission('newsletter', answer.body.id))!;
    expect(record.delivery).toMatchObject({ state: 'pending', uncertain: true, lastError: 'timeout' });
    await deliverDue((await formsHubSpot())!, later(10));
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
    expect((await readSubmission('newsletter', answer.body.id))!.record.delivery).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  test('a 500 that recorded nothing is looked for, then sent; a 429 is retried without looking', async () => {
    // Each attempt first asks whether the address has a contact (0: that answer succeeds), then submits.
    fake.failNext(0, 500);
    const first = await post('newsletter', newsletter());
    fake.failNext(0, 429);
    const second = await post('newsletter', newsletter());
    await deliverDue((await formsHubSpot())!, later(10));
    expect(submissionsOf(formId('newsletter'))).toHaveLength(2);
    for (const answer of [first, second]) expect((await readSubmission('newsletter', answer.body.id))!.record.delivery.state).toBe('delivered');
    const lookups = fake.calls.filter((c) => c.path.startsWith('/form-integrations/v1/submissions/forms/'));
    expect(lookups).toHaveLength(1);
  });

  test('a run that died while sending leaves a claim; once it lapses the next run settles it exactly once', async () => {
    fake.down = true;
    const answer = await post('newsletter', newsletter());
    fake.down = false;
    const found = (await readSubmission('newsletter', answer.body.id))!;
    // A claim as a dying run leaves it, after it reached HubSpot.
    const claim: StoredSubmission = {
      ...found.record,
      delivery: { ...found.record.delivery, state: 'sending', leaseUntil: new Date(Date.now() + 1000).toISOString() },
    };
    await saveSubmission(claim, found.etag);
    await fetch(`${fake.url}/submissions/v3/integration/secure/submit/48526151/${claim.formId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ submittedAt: String(claim.submittedAt), fields: [{ name: 'email', value: claim.values.email }] }),
    });
    expect((await deliverDue((await formsHubSpot())!, new Date())).skipped).toBeGreaterThanOrEqual(1);
    await deliverDue((await formsHubSpot())!, later(2));
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
    expect((await readSubmission('newsletter', claim.id))!.record.delivery.state).toBe('delivered');
  });

  test('two retry runs at once deliver each submission once', async () => {
    fake.down = true;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await post('newsletter', newsletter())).body.id);
    fake.down = false;
    fake.delayMs = 30;
    const client = (await formsHubSpot())!;
    await Promise.all([deliverDue(client, later(30)), deliverDue(client, later(30)), deliverDue(client, later(30))]);
    fake.delayMs = 0;
    expect(submissionsOf(formId('newsletter'))).toHaveLength(5);
    for (const id of ids) expect((await readSubmission('newsletter', id))!.record.delivery.state).toBe('delivered');
  });

  test('HubSpot refuses a submission for good (400): failed with its error type, and the admin can send it again', async () => {
    const form = fake.forms.get(formId('newsletter'))!;
    fake.forms.set(form.id, { ...form, fieldGroups: [{ fields: [{ name: 'work_email', fieldType: 'email', required: true }] }] });
    const answer = await post('newsletter', newsletter());
    expect(answer.status).toBe(201);
    const { record } = (await readSubmission('newsletter', answer.body.id))!;
    expect(record.delivery).toMatchObject({ state: 'failed', lastError: 'FIELD_NOT_IN_FORM_DEFINITION' });
    // Not retried by the schedule.
    await deliverDue((await formsHubSpot())!, later(600));
    expect(fake.formSubmissions).toHaveLength(0);

    fake.forms.set(form.id, form);
    const cookie = await signIn();
    const retried = await callAdmin(formsAdmin, `/api/admin/form-submissions/newsletter/${answer.body.id}/retry`, { method: 'POST', cookie });
    expect(retried.status).toBe(200);
    expect(retried.body.submission.delivery.state).toBe('delivered');
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
  });

  test('without HubSpot every submission is accepted and stored, and waits; configured later, it is delivered', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const answer = await post('newsletter', newsletter());
    expect(answer.body.delivery).toBe('stored');
    expect(fake.calls).toHaveLength(0);
    const run = await formsDeliver();
    expect(await run.json()).toEqual({ notConfigured: true });
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
    await formsDeliver();
    expect(submissionsOf(formId('newsletter'))).toHaveLength(1);
  });

  test('a form shown with the embed is not taken here', async () => {
    const answer = await post('contact', { email: 'a@b.org' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('form_embedded');
  });
});

describe('retention and the admin page', () => {
  test('delivered submissions are purged 30 days after HubSpot accepted them; waiting ones are kept', async () => {
    const delivered = (await post('newsletter', newsletter())).body.id;
    fake.down = true;
    const waiting = (await post('newsletter', newsletter())).body.id;
    fake.down = false;
    const { purgeSettled } = await import('../../src/server/forms/submissions');
    expect(await purgeSettled(new Date(Date.now() + SUBMISSION_RETENTION_MS - 60_000))).toBe(0);
    expect(await purgeSettled(new Date(Date.now() + SUBMISSION_RETENTION_MS + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await readSubmission('newsletter', delivered)).toBeUndefined();
    expect(await readSubmission('newsletter', waiting)).toBeDefined();
    expect((await formsPurge()).status).toBe(200);
  });

  test('signed in: submissions per form, newest first and paged, with their fields and delivery; one can be deleted', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await post('resources', { email: `r${++seq}@example.org`, firstname: `Reader ${i}`, resources_wanted: ['visual_graphics'] })).body.id);
    expect((await callAdmin(formsAdmin, '/api/admin/form-submissions?form=resources')).status).toBe(401);
    const cookie = await signIn();
    const page = await callAdmin(formsAdmin, '/api/admin/form-submissions?form=resources&limit=2', { cookie });
    expect(page.status).toBe(200);
    expect(page.body.submissions.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.forms.find((f: { purpose: string }) => f.purpose === 'resources').count).toBeGreaterThanOrEqual(3);
    expect(page.body.submissions[0].fields).toContainEqual({ name: 'firstname', label: expect.any(String), value: 'Reader 2' });
    expect(page.body.submissions[0].delivery.state).toBe('delivered');
    const next = await callAdmin(formsAdmin, `/api/admin/form-submissions?form=resources&limit=2&cursor=${page.body.nextCursor}`, { cookie });
    expect(next.body.submissions[0].id).toBe(ids[0]);

    expect(
      (await callAdmin(formsAdmin, `/api/admin/form-submissions/resources/${ids[1]}`, { method: 'DELETE', cookie, origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await callAdmin(formsAdmin, `/api/admin/form-submissions/resources/${ids[1]}`, { method: 'DELETE', cookie })).status).toBe(200);
    expect(await readSubmission('resources', ids[1]!)).toBeUndefined();
    expect((await callAdmin(formsAdmin, `/api/admin/form-submissions/resources/${ids[1]}`, { method: 'DELETE', cookie })).status).toBe(404);
    expect((await callAdmin(formsAdmin, '/api/admin/form-submissions?form=nope', { cookie })).status).toBe(400);
  });
});

test('deliverSubmission leaves a record alone while another run holds its claim', async () => {
  fake.down = true;
  const id = (await post('newsletter', newsletter())).body.id;
  fake.down = false;
  const found = (await readSubmission('newsletter', id))!;
  const held: StoredSubmission = { ...found.record, delivery: { ...found.record.delivery, state: 'sending', leaseUntil: later(1).toISOString() } };
  const result = await deliverSubmission(await formsHubSpot(), { record: held, etag: found.etag });
  expect(result.delivery.state).toBe('sending');
  expect(fake.formSubmissions).toHaveLength(0);
});
