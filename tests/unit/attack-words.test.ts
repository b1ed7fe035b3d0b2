/**
 * Parents' words on school pages, tried as a careless or hostile hand would (issue 46.4; DESIGN.md
 * "Proof": quoting a parent needs their explicit agreement, asked apart from the letter, and a staff
 * star): words nobody agreed to share, words of a letter that never reached its school, an answer
 * nobody reviewed, a withdrawal, a copy that puts words in a parent's mouth or carries an address,
 * a link or a phone number, and malformed bodies at every door the choice passes. Every refusal is
 * a 4xx `{ error: { code, message } }`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import forms from '../../netlify/functions/forms.mts';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import emailSentMyself from '../../netlify/functions/email-sent-myself.mts';
import wordsAdmin from '../../netlify/functions/words-admin.mts';
import yourData from '../../netlify/functions/your-data.mts';
import yourEmail from '../../netlify/functions/your-email.mts';
import { forms as formConfig } from '../../src/config/forms';
import { onlyLeavesOut, withoutContactDetails } from '../../src/lib/shared/email/detect';
import { WORDS_CONSENT_FIELD } from '../../src/lib/shared/email/personal-fields';
import { query, sql } from '../../src/server/db';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { readMessage } from '../../src/server/letter/outbox';
import { dataToken, answerLink } from '../../src/server/links';
import { countSchoolLetters } from '../../src/server/schools/publication';
import { hasWordsConsent, listParentWords, setWordsConsent, starredWordsFor, starWords } from '../../src/server/schools/starred-words';
import { call, setAdminEnv, signIn, ORIGIN } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues, useFormDefinitions } from './helpers/forms';
import { jsonRequest } from './helpers/requests';
import { verifiedSchool } from './helpers/schools';
import { regionText, useSiteShell } from './helpers/site';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
let cookie = '';
let seq = 0;
const SCHOOL = 'head@oak.edu';
const STAFF = 'staff@example.org';

beforeAll(async () => {
  database = await startTestDatabase();
  shell = useSiteShell();
  definitions = await useFormDefinitions();
  setAdminEnv();
  process.env.SITE_URL = ORIGIN;
});
afterAll(async () => {
  await database.stop();
  shell.remove();
  definitions.remove();
  for (const name of ['SITE_URL', 'ADMIN_PASSWORD', 'CONFIG_ENCRYPTION_KEY']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  cookie = await signIn();
});

/**
 * A letter of `parentEmail` to Oak (a verified school), in `status`, with the words a parent types;
 * `agreed` records the parent's agreement to be quoted. A letter that went counts on Oak's page.
 */
async function letter(id: string, parentEmail: string, options: { status?: string; agreed?: boolean; at?: Date } = {}) {
  const status = options.status ?? 'sent';
  const record = {
    id,
    draftId: `d-${id}`,
    channel: 'platform',
    status,
    createdAt: new Date().toISOString(),
    parentEmail,
    parentName: 'Mia Victim',
    schoolName: 'Oak',
    to: SCHOOL,
    toName: 'Dr. Oak',
    subject: 'Our school',
    body: 'The letter.',
    attempts: 0,
    nextAttemptAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...(status === 'sent' || status === 'delivered' ? { sentAt: new Date().toISOString() } : {}),
    note: 'Please listen to us.',
    ownWords: 'Leo would love school again, call me on 0161 496 0000.',
  };
  const sentAt = status === 'sent' || status === 'delivered' ? new Date() : null;
  await query(sql`INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, record)
    VALUES (${id}, ${record.draftId}, 'platform', ${status}, now(), now(), ${sentAt}, now(), false, false, ${record})`);
  if (options.agreed) await setWordsConsent({ id, parentEmail }, 'letter', true, options.at);
  const school = await verifiedSchool(SCHOOL, 'Oak');
  await countSchoolLetters(school.id);
  return school.pageKey;
}

const listed = async () => (await listParentWords(undefined)).words.map((entry) => `${entry.messageId} ${entry.field}`);
const star = (body: unknown) => call(wordsAdmin, '/api/admin/words/star', { method: 'POST', body, cookie });

describe('what may stand on a page', () => {
  test.each([
    ['an email address', 'Write to mia.v@example.org any time', 'Write to [removed] any time'],
    ['a disguised address', 'mia (at) example (dot) org', '[removed]'],
    ['a link', 'See https://evil.example/x for more', 'See [removed] for more'],
    ['a bare domain', 'read bit.ly/abc today', 'read [removed] today'],
    ['a phone number', 'Call 0161 496 0000 after six', 'Call [removed] after six'],
    ['an international number', 'or +44 (0)161-496-0000', 'or [removed]'],
  ])('%s is taken out', (_name, text, published) => {
    expect(withoutContactDetails(text)).toBe(published);
  });

  test.each([
    ['a year or a grade', 'In 2025 she moved to grade 5 of 6', 'In 2025 she moved to grade 5 of 6'],
    ['plain words', 'He would finish maths in two hours.', 'He would finish maths in two hours.'],
  ])('%s stays', (_name, text, published) => {
    expect(withoutContactDetails(text)).toBe(published);
  });

  test.each([
    ['a name cut', 'Leo would love school again.', '[name] would love school again.', true],
    ['a sentence cut, marked', 'Leo is bored. He waits all day.', '… He waits all day.', true],
    ['the same words', 'Leo is bored.', 'Leo is bored.', true],
    ['a word added', 'Leo is bored.', 'Leo is very bored.', false],
    ['a word changed', 'the school is slow', 'the school is terrible', false],
    ['words reordered', 'slow and dull', 'dull and slow', false],
    ['an editorial word in brackets', 'Leo is bored.', '[honestly] Leo is bored.', false],
  ])('staff copy: %s', (_name, original, copy, allowed) => {
    expect(onlyLeavesOut(original, copy)).toBe(allowed);
  });
});

describe('only words a parent agreed to share, from a letter that reached the school', () => {
  test('words a parent did not agree to share are not listed, cannot be starred, and the page says nothing', async () => {
    const key = await letter(`m${++seq}`, 'ana@example.org');
    expect(await listed()).toEqual([]);
    const refused = await star({ messageId: `m${seq}`, field: 'own_words' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'no_consent', message: expect.any(String) });
    expect(await starredWordsFor(key)).toEqual([]);
  });

  test.each(['awaiting_confirmation', 'queued', 'bounced', 'failed', 'withdrawn'])(
    'a letter %s (not delivered) does not reach staff, and its words cannot be starred',
    async (status) => {
      const key = await letter(`m${++seq}`, 'ana@example.org', { status, agreed: true });
      expect(await listed()).toEqual([]);
      const refused = await star({ messageId: `m${seq}`, field: 'note' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('not_delivered');
      expect(await starredWordsFor(key)).toEqual([]);
    },
  );

  test('agreed and delivered: listed, and once starred on the page with the first name, without the phone number', async () => {
    const id = `m${++seq}`;
    const key = await letter(id, 'mia@example.org', { agreed: true });
    expect(await listed()).toEqual([`${id} note`, `${id} own_words`]);
    const starred = await star({ messageId: id, field: 'own_words' });
    expect(starred.status).toBe(200);
    expect(await starredWordsFor(key)).toEqual([{ firstName: 'Mia', words: 'Leo would love school again, call me on [removed].' }]);
    expect((await listParentWords(undefined)).words.find((entry) => entry.field === 'own_words')).toMatchObject({ starred: true });
  });

  test('staff cut the child’s name from the copy (audited as an edit), and cannot add words of their own', async () => {
    const id = `m${++seq}`;
    const key = await letter(id, 'mia@example.org', { agreed: true });
    const added = await star({ messageId: id, field: 'own_words', words: 'Leo would really love school again.' });
    expect(added.status).toBe(400);
    expect(added.body.error.code).toBe('words_added');
    expect(await starredWordsFor(key)).toEqual([]);
    expect((await star({ messageId: id, field: 'own_words' })).status).toBe(200);
    const cut = await star({ messageId: id, field: 'own_words', words: '[name] would love school again.' });
    expect(cut.status).toBe(200);
    expect(cut.body).toEqual({ starred: true, words: '[name] would love school again.' });
    expect(await starredWordsFor(key)).toEqual([{ firstName: 'Mia', words: '[name] would love school again.' }]);
    const audit = await query<{ action: string }>(sql`SELECT action FROM audit_log WHERE action LIKE 'words.%' ORDER BY id`);
    expect(audit.map((row) => row.action)).toEqual(['words.starred', 'words.edited']);
  });

  test('a withdrawal from “Your data” takes the quotes down, and nothing agreed before it can be starred again; a new agreement can', async () => {
    const first = `m${++seq}`;
    const key = await letter(first, 'mia@example.org', { agreed: true, at: new Date(Date.now() - 60_000) });
    await starWords({ messageId: first, field: 'note' }, STAFF);
    expect(await starredWordsFor(key)).toHaveLength(1);
    const response = await yourData(
      new Request(`${ORIGIN}/your-data`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        body: new URLSearchParams({ action: 'withdraw_words', token: dataToken('MIA+x@Example.org') }).toString(),
      }),
    );
    expect(response.status).toBe(200);
    expect(regionText(await response.text())).toContain('We took 1 quote of yours off the school pages.');
    expect(await starredWordsFor(key)).toEqual([]);
    expect(await listed()).toEqual([]);
    expect((await star({ messageId: first, field: 'own_words' })).body.error.code).toBe('no_consent');
    // Ticking the box again on a new letter is a new agreement.
    const second = `m${++seq}`;
    await letter(second, 'mia@example.org', { agreed: true, at: new Date(Date.now() + 60_000) });
    expect(await listed()).toEqual([`${second} note`, `${second} own_words`]);
    expect((await star({ messageId: second, field: 'note' })).status).toBe(200);
  });

  test('“Your data” shows the agreement and the quote beside the way to withdraw it, and the download holds both', async () => {
    const id = `m${++seq}`;
    await letter(id, 'mia@example.org', { agreed: true });
    await starWords({ messageId: id, field: 'note' }, STAFF);
    const token = dataToken('mia@example.org');
    const page = regionText(await (await yourData(new Request(`${ORIGIN}/your-data?token=${encodeURIComponent(token)}`))).text());
    expect(page).toContain('Your words on school pages');
    expect(page).toContain('“Please listen to us.”');
    expect(page).toContain('Withdraw my agreement to be quoted');
    const download = await (await yourData(new Request(`${ORIGIN}/your-data?token=${encodeURIComponent(token)}&format=json`))).json();
    expect(download.wordsOnSchoolPages.agreements).toEqual([expect.objectContaining({ messageId: id, source: 'letter' })]);
    expect(download.wordsOnSchoolPages.quotes).toEqual([expect.objectContaining({ messageId: id, field: 'note', words: 'Please listen to us.' })]);
  });

  test('an answer’s comment: only with its own agreement, only once the answer counts, and unticking takes it down', async () => {
    const id = `m${++seq}`;
    const key = await letter(id, 'mia@example.org');
    const followUp = new URL(answerLink(id, new Date().toISOString())).searchParams.get('token')!;
    // The version of the answer the page showed: the one stored now.
    const seen = async () => String((await query<{ version: number }>(sql`SELECT version FROM school_answers WHERE message_id = ${id}`))[0]?.version ?? '');
    const answer = async (fields: Record<string, string>) =>
      schoolAnswer(
        new Request(`${ORIGIN}/school-answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: followUp, days: '', seen: await seen(), ...fields }).toString(),
        }),
      );
    // "They replied" speaks for the school: it counts only once staff review it.
    expect((await answer({ answer: 'replied', comment: 'They will meet us.', [WORDS_CONSENT_FIELD]: 'yes' })).status).toBe(200);
    expect(await hasWordsConsent(id, 'answer')).toBe(true);
    expect(await listed()).toEqual([]);
    expect((await star({ messageId: id, field: 'answer_comment' })).body.error.code).toBe('answer_not_reviewed');
    // An answer that counts at once; the letter's own words stay unlisted (no agreement for them).
    expect((await answer({ answer: 'acknowledged', comment: 'They thanked us.', [WORDS_CONSENT_FIELD]: 'yes' })).status).toBe(200);
    expect(await listed()).toEqual([`${id} answer_comment`]);
    expect((await star({ messageId: id, field: 'answer_comment' })).status).toBe(200);
    expect(await starredWordsFor(key)).toEqual([{ firstName: 'Mia', words: 'They thanked us.' }]);
    expect((await star({ messageId: id, field: 'note' })).body.error.code).toBe('no_consent');
    // The same answer again without the box: the comment comes down.
    expect((await answer({ answer: 'acknowledged', comment: 'They thanked us.' })).status).toBe(200);
    expect(await starredWordsFor(key)).toEqual([]);
    expect(await listed()).toEqual([]);
    // Anything but a tick is refused, and changes nothing.
    const forged = await answer({ answer: 'acknowledged', comment: 'x', [WORDS_CONSENT_FIELD]: 'true' });
    expect(forged.status).toBe(400);
    expect(await hasWordsConsent(id, 'answer')).toBe(false);
  });
});

describe('the choice, where the parent writes', () => {
  async function postForm(body: Record<string, string>, type = 'application/json') {
    const payload = type === 'application/json' ? JSON.stringify({ _elapsed: '30000', ...body }) : new URLSearchParams(body).toString();
    const response = await forms(
      new Request(`${ORIGIN}/api/forms/${formConfig.emailGenerator.formId}`, {
        method: 'POST',
        headers: { 'content-type': type, accept: type === 'application/json' ? 'application/json' : 'text/html' },
        body: payload,
      }),
      { ip: `198.51.100.${++seq % 250}` } as never,
    );
    return response;
  }

  test.each([
    ['unticked (nothing sent)', {}, false],
    ['ticked', { [WORDS_CONSENT_FIELD]: 'yes' }, true],
  ])('the email form, %s: the draft keeps the choice', async (_name, extra: Record<string, string>, agreed) => {
    const response = await postForm(emailFormValues({ _page: '/lead-the-change', _own_words: 'Leo waits all day.', ...extra }));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.draft.wordsConsent).toBe(agreed);
    expect((await readDraft(body.id))?.draft.wordsConsent).toBe(agreed);
  });

  test.each([
    ['a forged value', 'true'],
    ['a list', ['yes', 'yes']],
    ['a boolean', true],
  ])('the email form refuses %s for the box with a 400 naming it', async (_name, value) => {
    const response = await postForm({ ...emailFormValues({ _page: '/lead-the-change' }), [WORDS_CONSENT_FIELD]: value as string });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('invalid_submission');
    expect(Object.keys(body.error.fields)).toContain(WORDS_CONSENT_FIELD);
  });

  test('without JavaScript, the form posts the box and /your-email offers it again, unticked unless ticked', async () => {
    const response = await postForm(emailFormValues({ _page: '/lead-the-change', _note: 'Thank you.' }), 'application/x-www-form-urlencoded');
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    const html = await (await yourEmail(new Request(`${ORIGIN}${location}`))).text();
    expect(html).toMatch(/<input[^>]*name="_quote_words"[^>]*>/);
    expect(html.match(/<input[^>]*name="_quote_words"[^>]*>/)![0]).not.toContain('checked');
    expect(html).toContain('You may quote my words on our school’s page (first name only)');
  });

  async function draft(wordsConsent = false) {
    const id = `sub-${Date.now()}-${++seq}`;
    const made = await createDraft({
      id,
      purpose: 'emailGenerator',
      values: emailFormValues({ choose_how_to_send_your_email: 'Send via our platform' }),
      note: 'We want this.',
      wordsConsent,
    });
    return { id, token: made.token };
  }

  test.each([
    ['the dialog ticks it', undefined, true, true],
    ['the form ticked it and the dialog leaves it', true, undefined, true],
    ['the form ticked it and the dialog unticks it', true, false, false],
    ['nobody ticks it', false, undefined, false],
  ])('send via our platform: %s', async (_name, inForm, inDialog, agreed) => {
    const made = await draft(inForm ?? false);
    const response = await sendEmail(
      jsonRequest('/api/send-email', { submissionId: made.id, token: made.token, ...(inDialog === undefined ? {} : { wordsConsent: inDialog }) }),
      { ip: `198.51.100.${++seq % 250}` },
    );
    expect(response.status).toBe(202);
    const { id } = await response.json();
    expect(await hasWordsConsent(id, 'letter')).toBe(agreed);
    expect((await readMessage(id))?.message.body).not.toContain('quote');
  });

  test.each([
    ['send-email', sendEmail, '/api/send-email'],
    ['email-sent-myself', emailSentMyself, '/api/email-sent-myself'],
  ])('%s refuses a consent that is not true or false, with a 400', async (_name, handler, path) => {
    const made = await draft();
    const response = await handler(jsonRequest(path, { submissionId: made.id, token: made.token, wordsConsent: 'yes' }), { ip: '198.51.100.9' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(await query(sql`SELECT 1 FROM word_consents`)).toEqual([]);
  });

  test('without JavaScript, /your-email sends the box with the letter, and refuses anything but a tick', async () => {
    const made = await draft();
    const post = (fields: Record<string, string>) =>
      yourEmail(
        new Request(`${ORIGIN}/your-email`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ id: made.id, t: made.token, action: 'send', note: 'We want this.', ...fields }).toString(),
        }),
        { ip: '198.51.100.10' },
      );
    expect((await post({ [WORDS_CONSENT_FIELD]: 'on' })).status).toBe(400);
    expect(await query(sql`SELECT 1 FROM word_consents`)).toEqual([]);
    expect((await post({ [WORDS_CONSENT_FIELD]: 'yes' })).status).toBe(200);
    const messageId = (await readDraft(made.id))?.draft.messageId;
    expect(messageId).toBeDefined();
    expect(await hasWordsConsent(messageId!, 'letter')).toBe(true);
  });
});

describe('the star endpoint', () => {
  test.each([
    ['words that are not text', { messageId: 'm1', field: 'note', words: 5 }],
    ['an empty copy', { messageId: 'm1', field: 'note', words: '   ' }],
    ['an unknown field', { messageId: 'm1', field: 'email' }],
    ['an extra field', { messageId: 'm1', field: 'note', consent: true }],
    ['no message', { field: 'note' }],
  ])('%s is a 400', async (_name, body) => {
    const answer = await star(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  test('unstarring takes no copy, and without a session nothing is starred', async () => {
    expect((await call(wordsAdmin, '/api/admin/words/unstar', { method: 'POST', body: { messageId: 'm1', field: 'note', words: 'x' }, cookie })).status).toBe(
      400,
    );
    expect((await call(wordsAdmin, '/api/admin/words/star', { method: 'POST', body: { messageId: 'm1', field: 'note' } })).status).toBe(401);
  });
});
