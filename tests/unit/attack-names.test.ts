/**
 * Issue 28, part 4: names that speak for someone else, and links in every spelling. Each case went
 * through before: a MIME encoded-word as a name left as From "billing@masteryparents.org via
 * Mastery Parents", the fixed list of top-level domains let `evil.zip`, `пример.рф`, `bit.do`,
 * `evil[.]com` and `evil\u2060.com` reach the school, names kept invisible characters, and
 * "Mastery Parents Billing Team" was a name.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import forms from '../../netlify/functions/forms.mts';
import { forms as formConfig } from '../../src/config/forms';
import { forbiddenContent, plainForm, undisguised } from '../../src/lib/shared/email/detect';
import { emailFieldProblems, fieldMessages, namesOrganisation } from '../../src/lib/shared/email/fields';
import { noteMessages, noteProblem, normaliseNote, ownWordsMessages, ownWordsProblem } from '../../src/lib/shared/email/note';
import { query, sql } from '../../src/server/db';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { useSiteShell } from './helpers/site';

/** The link spellings the outside readings sent through. */
const linkSpellings = [
  ['a new generic top-level domain', 'evil.zip'],
  ['an internationalised domain', 'пример.рф'],
  ['a shortener on a country domain', 'bit.do/x'],
  ['a dot in brackets', 'evil[.]com'],
  ['a dot in parentheses', 'evil(.)com'],
  ['"(dot)"', 'evil (dot) com'],
  ['spaces around the dot', 'evil . com'],
  ['a word joiner before the dot', 'evil\u2060.com'],
  ['a zero-width space inside the name', 'ev\u200bil.com'],
  ['a one-dot leader as the dot', 'evil\u2024com'],
  ['a punycode domain', 'xn--e1afmkfd.xn--p1ai'],
  ['an IPv4 address', '203.0.113.7'],
] as const;

describe('links are links in every spelling: names and the note share one detector', () => {
  test.each(linkSpellings)('%s (%j) is a link in a name', (_, spelling) => {
    expect(emailFieldProblems({ school_name: `Oakwood ${spelling}` })).toEqual({ school_name: expect.stringMatching(/web address|one line/) });
    expect(forbiddenContent(`Oakwood ${spelling}`)).toBe('link');
  });

  test.each(linkSpellings)('%s (%j) is a link in the note and in the parent’s own words', (_, spelling) => {
    expect(noteProblem(`Please read ${spelling} first.`)).toBe(noteMessages.link);
    expect(ownWordsProblem(`More on ${spelling}`)).toBe(ownWordsMessages.link);
  });

  test.each([
    ['boss[at]evil.ru', 'email'],
    ['boss (at) evil.ru', 'email'],
    ['boss\u200d@evil.ru', 'email'],
  ] as const)('%j is an address', (text, problem) => {
    expect(forbiddenContent(text)).toBe(problem);
  });

  test.each([
    "St. Mary's Academy",
    'Dr. Patel',
    'J.R.R. Tolkien Middle School',
    'Mr.Smith and Dr. Patel both said it, e.g. in spring.',
    'It works. Me too. In fact, so do we.',
    'ana at example dot org is fine',
    'a polka dot club',
    'Grade 3.5 maths, 1.5 hours a day',
    'Zoë O’Brien-Nguyễn',
    '李小龙',
  ])('%j stays words', (text) => {
    expect(forbiddenContent(text)).toBeUndefined();
  });

  test('the disguises are undone before the search, and a sentence keeps its full stop', () => {
    expect(undisguised(plainForm('evil [ . ] com and evil\u2060。com'))).toBe('evil.com and evil.com');
    expect(undisguised('It works. Me too')).toBe('It works. Me too');
  });
});

describe('names are names', () => {
  const encoded = '=?utf-8?b?YmlsbGluZ0BtYXN0ZXJ5cGFyZW50cy5vcmc=?=';

  test.each([
    ['full_name', encoded],
    ['full_name', '=?iso-8859-1?q?Ana_L=F3pez?='],
    ['child_full_name', `Leo ${encoded}`],
    ['school_contact_name', '=?utf-8?Q?Dr=2E_Patel?='],
    ['school_name', 'Oakwood =?utf-8?b?QWNhZGVteQ==?='],
  ])('a MIME encoded-word in %s (%j) is refused', (name, value) => {
    expect(emailFieldProblems({ [name]: value })).toEqual({ [name]: fieldMessages.encoded });
  });

  test.each([
    ['a left-to-right mark', 'Ana\u200eLopez'],
    ['a right-to-left mark', 'Ana Lopez\u200f'],
    ['a zero-width space', 'Ana\u200b Lopez'],
    ['a zero-width joiner', 'Ana\u200dLopez'],
    ['a word joiner', 'Ana\u2060Lopez'],
    ['a tag character', 'Ana\u{E0041}\u{E0042} Lopez'],
    ['a byte-order mark', 'Ana\ufeffLopez'],
    ['a Hangul filler', 'Ana\u3164Lopez'],
    ['a soft hyphen', 'Ana Lo\u00adpez'],
    ['a variation selector', 'Ana\ufe0f Lopez'],
    ['a private-use character', 'Ana \ue000Lopez'],
    ['a blank Braille pattern', 'Ana\u2800Lopez'],
    ['a right-to-left override', 'Ana\u202eLopez'],
  ])('%s in a name is refused', (_, value) => {
    for (const name of ['full_name', 'child_full_name', 'school_contact_name', 'school_name']) {
      expect(emailFieldProblems({ [name]: value })).toEqual({ [name]: fieldMessages.oneLine });
    }
  });

  test('the note keeps its words and loses what no reader sees', () => {
    expect(normaliseNote('Leo\u200b loves\u{E0041} maths\u2060.')).toBe('Leo loves maths.');
  });

  test.each([
    ['full_name', 'Mastery Parents Billing Team'],
    ['full_name', 'mastery-parents'],
    ['full_name', 'MASTERY PARENTS'],
    ['full_name', 'The Mastery Parents Movement'],
    ['full_name', 'Mastеry Parеnts Support'],
    ['child_full_name', 'Mastery Parents'],
  ])('%s = %j names the organisation and is refused', (name, value) => {
    expect(emailFieldProblems({ [name]: value })).toEqual({ [name]: fieldMessages.organisation });
  });

  test.each(['Ana Mastery', 'Parents Association of Oakwood', 'Masterson Parenti'])('%j is a name, not the organisation', (value) => {
    expect(namesOrganisation(value)).toBe(false);
    expect(emailFieldProblems({ full_name: value })).toEqual({});
  });
});

describe('POST /api/forms/{formId}: each refusal is a 400 naming the field, nothing stored', () => {
  let fake: HubSpotFake;
  let database: TestDatabase;
  let shell: ReturnType<typeof useSiteShell>;
  let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
  let seq = 0;

  async function post(values: Record<string, unknown>, browser = false) {
    const headers = browser
      ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
      : { 'content-type': 'application/json', accept: 'application/json' };
    const body = browser ? new URLSearchParams(values as Record<string, string>).toString() : JSON.stringify(values);
    const response = await forms(new Request(`http://localhost/api/forms/${formConfig.emailGenerator.formId}`, { method: 'POST', headers, body }), {
      ip: `198.51.100.${(++seq % 250) + 1}`,
    } as never);
    const text = await response.text();
    return { status: response.status, text, body: browser ? undefined : JSON.parse(text) };
  }
  const stored = async () => (await query(sql`SELECT id FROM form_submissions`)).length;

  beforeAll(async () => {
    shell = useSiteShell();
    database = await startTestDatabase();
    fake = await startHubSpotFake();
    definitions = await useFormDefinitions();
    process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
    process.env.HUBSPOT_BASE_PATH = fake.url;
  });
  afterAll(async () => {
    definitions.remove();
    shell.remove();
    await database.stop();
    await fake.close();
    for (const name of ['HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN']) delete process.env[name];
  });
  beforeEach(() => {
    fake.reset();
    for (const definition of Object.values(definitions.definitions)) fake.addForm(definition);
    process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  });

  test.each([
    ['full_name', '=?utf-8?b?YmlsbGluZ0BtYXN0ZXJ5cGFyZW50cy5vcmc=?='],
    ['full_name', 'Mastery Parents Billing Team'],
    ['full_name', 'Ana\u200eLopez'],
    ['school_name', 'Oakwood evil.zip'],
    ['school_contact_name', 'Dr. Patel пример.рф'],
    ['child_full_name', 'Leo evil[.]com'],
    ['_note', 'Read bit.do/x first'],
    ['_own_words', 'See evil\u2060.com'],
  ])('%s = %j', async (name, value) => {
    const before = await stored();
    const answer = await post(emailFormValues({ _page: '/lead-the-change', _elapsed: '45000', [name]: value }));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe('invalid_submission');
    expect(Object.keys(answer.body.error.fields)).toEqual([name]);
    expect(await stored()).toBe(before);
    expect(fake.formSubmissions).toHaveLength(0);
  });

  test('without JavaScript: the form again, with the message beside the name', async () => {
    const answer = await post(emailFormValues({ _page: '/lead-the-change', full_name: '=?utf-8?b?QW5h?=' }), true);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(fieldMessages.encoded);
    expect(answer.text).toMatch(/<input[^>]*name="full_name"[^>]*aria-invalid="true"|<input[^>]*aria-invalid="true"[^>]*name="full_name"/);
  });
});
