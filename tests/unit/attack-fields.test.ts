/**
 * Issue 21, parts 2 and 6, as an attacker tries them: free text smuggled through the fields the
 * school email interpolates, links and addresses in disguise in the note, values long enough to
 * break the server, a note that costs seconds of CPU, and a parent whose device clock is wrong.
 * Each of these passed (or broke the server) before the change.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import forms from '../../netlify/functions/forms.mts';
import { forms as formConfig, type FormPurpose } from '../../src/config/forms';
import { emailFieldProblems, fieldMessages, lineProblem, NAME_MAX, normaliseEmailFields, SCHOOL_MAX } from '../../src/lib/shared/email/fields';
import { gradeMessage } from '../../src/lib/shared/email/grade';
import { noteMessages, noteProblem, normaliseNote } from '../../src/lib/shared/email/note';
import { judgeSubmission } from '../../src/server/forms/bot-check';
import { readDraft } from '../../src/server/letter/drafts';
import { readSubmission } from '../../src/server/forms/submissions';
import { query, sql } from '../../src/server/db';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { regionText, useSiteShell } from './helpers/site';

const smuggled = {
  bccInSchool: 'Springfield\r\nBcc: x@y',
  wireInContact: 'Principal,\n\nWire $5,000 to boss@evil.example',
  shortener: 'goo.gl/x',
  fullwidthAt: 'boss＠evil.ru',
  ideographicDot: 'evil。com',
};

describe('every interpolated field is a name', () => {
  test.each([
    ['school_name', smuggled.bccInSchool, fieldMessages.oneLine],
    ['school_contact_name', smuggled.wireInContact, fieldMessages.oneLine],
    ['school_contact_name', 'Principal, wire $5,000 to boss@evil.example', fieldMessages.email],
    ['full_name', smuggled.shortener, fieldMessages.link],
    ['child_full_name', smuggled.fullwidthAt, fieldMessages.email],
    ['school_name', smuggled.ideographicDot, fieldMessages.link],
    ['school_name', 'Oakwood ｗｗｗ．ｅｖｉｌ．ｃｏｍ', fieldMessages.link],
    ['school_name', 'Oakwood https://evil.example', fieldMessages.link],
    ['school_name', 'Oakwood <a href=x>click</a>', fieldMessages.markup],
    ['school_name', 'Oakwood > Springfield', fieldMessages.markup],
    ['full_name', 'Ana\u202eLopez', fieldMessages.oneLine],
    ['full_name', 'Ana\tLopez', fieldMessages.oneLine],
    ['school_name', 'x'.repeat(SCHOOL_MAX + 1), fieldMessages.tooLong(SCHOOL_MAX)],
    ['full_name', 'x'.repeat(NAME_MAX + 1), fieldMessages.tooLong(NAME_MAX)],
    ['child_grade', '61', gradeMessage],
    ['child_grade', 'Grade 13', gradeMessage],
    ['child_grade', 'x'.repeat(2000), fieldMessages.tooLong(40)],
  ])('%s = %j is refused', (name, value, message) => {
    expect(emailFieldProblems({ [name]: value })).toEqual({ [name]: message });
  });

  test.each([
    ['school_name', "St. Mary's Academy"],
    ['school_name', 'École Jean-Jacques Rousseau'],
    ['school_name', 'x'.repeat(SCHOOL_MAX)],
    ['school_contact_name', 'Dr. Patel'],
    ['full_name', 'Zoë O’Brien-Nguyễn'],
    ['child_full_name', '李小龙'],
    ['child_grade', '5th grade'],
    ['child_grade', 'Year 7'],
    ['child_grade', 'K'],
  ])('%s = %j is a name', (name, value) => {
    expect(emailFieldProblems({ [name]: value })).toEqual({});
  });

  test('a name is kept as NFKC, trimmed, with single spaces', () => {
    expect(normaliseEmailFields({ school_name: '  Ｏａｋｗｏｏｄ   Academy \r\n', email: 'a@b.org' })).toEqual({
      school_name: 'Oakwood Academy',
      email: 'a@b.org',
    });
    expect(lineProblem('  Ｏａｋｗｏｏｄ  ', 7)).toBeUndefined();
  });
});

describe('the note, read after NFKC', () => {
  test.each([
    [`see ${smuggled.shortener} for more`, noteMessages.link],
    [`write to ${smuggled.fullwidthAt}`, noteMessages.email],
    [`visit ${smuggled.ideographicDot} today`, noteMessages.link],
    ['visit evil｡com today', noteMessages.link],
    ['open 203.0.113.7/offer', noteMessages.link],
    ['<script>alert(1)</script>', noteMessages.markup],
  ])('%j → %s', (note, message) => {
    expect(noteProblem(note)).toBe(message);
  });

  test('60,000 spaces are cleaned up in linear time (under 50 ms of CPU)', () => {
    // Warm, the best of three runs, and the CPU this process spent rather than the time that went
    // by: a busy machine's pause is not the code's cost (the quadratic clean-up took 1.5 s on every
    // run), and npm test runs Vitest at idle priority, where time goes by while it waits.
    noteProblem('warm up  \n');
    const cpuMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    for (const note of [' '.repeat(60_000), `${' '.repeat(60_000)}x`, `${' \t'.repeat(30_000)}\nx`]) {
      const runs = Array.from({ length: 3 }, () => {
        const started = cpuMs();
        expect(normaliseNote(note).length).toBeLessThanOrEqual(1);
        noteProblem(note);
        return cpuMs() - started;
      });
      expect(Math.min(...runs)).toBeLessThan(50);
    }
  });
});

describe('the fill time is measured on the page, not read from the device clock', () => {
  const judge = (signals: Partial<Parameters<typeof judgeSubmission>[0]>) =>
    judgeSubmission({ honeypot: '', elapsed: undefined, postedWithoutScript: false, minFillMs: 2000, ...signals });

  test('a parent whose clock runs 10 minutes ahead is a person', () => {
    expect(judge({ elapsed: '45000', started: String(Date.now() + 600_000) } as never)).toEqual({ verdict: 'ok' });
  });
  test('a script that sends no fill time, or a time no page measured, is suspect', () => {
    expect(judge({})).toEqual({ verdict: 'suspect', reason: 'no_fill_time' });
    expect(judge({ elapsed: '-5' })).toEqual({ verdict: 'suspect', reason: 'no_fill_time' });
    expect(judge({ elapsed: 'soon' })).toEqual({ verdict: 'suspect', reason: 'no_fill_time' });
  });
  test('far too fast, or the honeypot filled, is suspect', () => {
    expect(judge({ elapsed: '300' })).toEqual({ verdict: 'suspect', reason: 'too_fast' });
    expect(judge({ elapsed: '60000', honeypot: 'http://spam.example' })).toEqual({ verdict: 'suspect', reason: 'honeypot' });
  });
  test('a browser without JavaScript measures nothing: only the honeypot applies', () => {
    expect(judge({ postedWithoutScript: true })).toEqual({ verdict: 'ok' });
  });
});

describe('POST /api/forms/{formId}: a 400 naming the field, never a 500', () => {
  let fake: HubSpotFake;
  let database: TestDatabase;
  let shell: ReturnType<typeof useSiteShell>;
  let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
  const seq = 0;
  const formId = (purpose: FormPurpose) => formConfig[purpose].formId;
  const emailForm = (overrides: Record<string, unknown> = {}) => emailFormValues({ _page: '/lead-the-change', _elapsed: '45000', ...overrides });
  async function post(body: unknown, init: { path?: string; type?: string; accept?: string; ip?: string } = {}) {
    const type = init.type ?? 'application/json';
    const payload = type === 'application/json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString();
    const response = await forms(
      new Request(`http://localhost${init.path ?? `/api/forms/${formId('emailGenerator')}`}`, {
        method: 'POST',
        headers: { 'content-type': type, accept: init.accept ?? 'application/json' },
        body: payload,
      }),
      { ip: init.ip ?? `203.0.113.${(seq % 250) + 1}` } as never,
    );
    const text = await response.text();
    return { status: response.status, text, body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined };
  }
  const storedCount = async () => (await query(sql`SELECT id FROM form_submissions`)).length;

  beforeAll(async () => {
    shell = useSiteShell();
    database = await startTestDatabase();
    fake = await startHubSpotFake();
    definitions = await useFormDefinitions();
    process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
    process.env.HUBSPOT_BASE_PATH = fake.url;
    process.env.FORMS_MIN_FILL_MS = '2000';
    process.env.FORMS_DELIVERY_BUDGET_MS = '1500';
  });
  afterAll(async () => {
    definitions.remove();
    shell.remove();
    await database.stop();
    await fake.close();
    for (const name of ['HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'FORMS_MIN_FILL_MS', 'FORMS_DELIVERY_BUDGET_MS'])
      delete process.env[name];
  });
  beforeEach(() => {
    fake.reset();
    for (const definition of Object.values(definitions.definitions)) fake.addForm(definition);
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  });

  test.each([
    ['school_name', smuggled.bccInSchool],
    ['school_contact_name', smuggled.wireInContact],
    ['school_name', 'x'.repeat(201)],
    ['school_name', 'x'.repeat(2000)],
    ['child_grade', '61'],
    ['child_grade', 'x'.repeat(2000)],
    ['full_name', smuggled.shortener],
    ['child_full_name', smuggled.fullwidthAt],
  ])('%s = %j', async (name, value) => {
    const before = await storedCount();
    const answer = await post(emailForm({ [name]: value }));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe('invalid_submission');
    expect(Object.keys(answer.body.error.fields)).toEqual([name]);
    expect(await storedCount()).toBe(before);
    expect(fake.formSubmissions).toHaveLength(0);
  });

  test.each([[smuggled.ideographicDot], [`ask ${smuggled.fullwidthAt}`], [`see ${smuggled.shortener}`]])('a note of %j', async (note) => {
    const answer = await post(emailForm({ _note: `Please ${note}` }));
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.error.fields)).toEqual(['_note']);
  });

  test('without JavaScript: the form again, the message beside the school name', async () => {
    const answer = await post(emailForm({ school_name: 'Springfield goo.gl/x', _elapsed: '' }), {
      type: 'application/x-www-form-urlencoded',
      accept: 'text/html',
    });
    expect(answer.status).toBe(400);
    expect(regionText(answer.text)).toContain('Please check your answers');
    expect(answer.text).toContain(fieldMessages.link);
    expect(answer.text).toMatch(/<input[^>]*name="school_name"[^>]*aria-invalid="true"|<input[^>]*aria-invalid="true"[^>]*name="school_name"/);
  });

  test('a note that is a number is text, not a 500', async () => {
    const answer = await post(emailForm({ _note: 42 }));
    expect(answer.status, answer.text).toBe(201);
    expect((await readDraft(answer.body.id))!.draft.note).toBe('42');
  });

  test('a note of 60,000 spaces is accepted as no note', async () => {
    const answer = await post(emailForm({ _note: ' '.repeat(60_000) }));
    expect(answer.status, answer.text).toBe(201);
    expect((await readDraft(answer.body.id))!.draft.note).toBe('');
  });

  test('names are stored and interpolated as NFKC single lines', async () => {
    const answer = await post(emailForm({ school_name: '  Ｏａｋｗｏｏｄ   Academy ' }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.values.school_name).toBe('Oakwood Academy');
    expect(answer.body.draft.email.subject).toBe('How Oakwood Academy can unlock mastery learning for every student');
  });

  test('a malformed percent-encoding in the path is a 404, not a 500', async () => {
    const answer = await post(emailForm(), { path: '/api/forms/%E0' });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('unknown_form');
  });

  test('a parent whose device clock runs 10 minutes ahead gets their email made and delivered', async () => {
    // A page built before sends its device timestamp too; only the measured time counts.
    const answer = await post(emailForm({ _started: String(Date.now() + 10 * 60_000), _elapsed: '45000' }));
    expect(answer.status).toBe(201);
    expect(answer.body.draft).toBeDefined();
    expect(await readSubmission('emailGenerator', answer.body.id)).toBeDefined();
    expect(fake.formSubmissions).toHaveLength(1);
  });

  test('a script that omits the fill time is held, not delivered (and a misjudged parent still gets their email)', async () => {
    const before = await storedCount();
    const { _elapsed, ...scripted } = emailForm();
    const answer = await post(scripted);
    expect(answer.status).toBe(201);
    expect(await storedCount()).toBe(before + 1);
    expect(await query(sql`SELECT state, record->'delivery'->>'heldReason' AS reason FROM form_submissions WHERE id = ${answer.body.id}`)).toEqual([
      { state: 'held', reason: 'no_fill_time' },
    ]);
    expect(answer.body.draft?.email.subject).toBeTruthy();
    expect(fake.formSubmissions).toHaveLength(0);
  });

  test('one IPv6 /64 is one client for the per-address limit: new addresses in it are not new people', async () => {
    process.env.FORMS_RATE_LIMIT = '2';
    try {
      const statuses = [];
      for (const ip of ['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1:ffff::3']) statuses.push((await post(emailForm(), { ip })).status);
      expect(statuses).toEqual([201, 201, 429]);
      expect((await post(emailForm(), { ip: '2001:db8:77:2::1' })).status).toBe(201);
    } finally {
      delete process.env.FORMS_RATE_LIMIT;
    }
  });
});
