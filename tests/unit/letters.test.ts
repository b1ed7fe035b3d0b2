/**
 * The letters of the school email (content/letters): each holds the template's rules; parents
 * writing to one school get them in rotation, the choice made in one statement; the parent's
 * letter is what the preview, /your-email and the platform send use; and the question in the
 * parent's own words keeps the note's rules.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import yourEmail from '../../netlify/functions/your-email.mts';
import { LETTER_LIMITS, letterSchema, withStatistics } from '../../src/lib/shared/email/letter-texts';
import { noteMessages, ownWordsMessages, ownWordsProblem, noteProblem } from '../../src/lib/shared/email/note';
import { generateEmail } from '../../src/lib/shared/email/template';
import { query, sql } from '../../src/server/db';
import { createDraft, readDraft } from '../../src/server/letter/drafts';
import { letters, pickLetter, rotationKey } from '../../src/server/letter/bodies';
import { readMessage } from '../../src/server/letter/outbox';
import { recordSelfSent, requestPlatformSend } from '../../src/server/letter/request';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues } from './helpers/forms';
import { committedLetters, committedStats, firstLetter } from './helpers/letters';
import { regionText, useSiteShell } from './helpers/site';

const links = { videoUrl: 'https://www.youtube.com/watch?v=abc123', bookingUrl: 'https://calendly.com/team/intro' };
const raw = yaml.load(`title: A test letter
order: 9
introduction: My name is {parent}, and my child, {child}, is in {grade} at {school}. I am writing to you today.
body: "Here is a short video: {video}\\n\\nYou can book a call here: {booking}"
closing: Thank you for everything you do for the children of {school}.
`) as Record<string, unknown>;

describe('a letter holds the template’s rules', () => {
  test.each(committedLetters().map((letter) => [letter.id]))('the committed letter %s is valid', (id) => {
    expect(committedLetters().find((letter) => letter.id === id)).toBeDefined();
  });

  test('there are at least three letters, and they differ', () => {
    const all = committedLetters();
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(new Set(all.map((letter) => letter.body)).size).toBe(all.length);
  });

  test('a valid letter passes', () => {
    expect(letterSchema.safeParse(raw).success).toBe(true);
  });

  test.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a body without {video}', { body: 'Book a call here: {booking} and enjoy the day.' }, 'body', /must contain \{video\}, \{booking\}/],
    ['a body without {booking}', { body: 'Here is the video: {video} and nothing more.' }, 'body', /must contain \{video\}, \{booking\}/],
    [
      'an introduction without {child}',
      { introduction: 'My name is {parent}, and I write about {school} and {grade}.' },
      'introduction',
      /must contain \{parent\}, \{child\}, \{grade\}, \{school\}/,
    ],
    ['an unknown placeholder', { closing: 'Thank you, {principal}, for everything you do.' }, 'closing', /braces only around the placeholders/],
    ['a stray brace', { closing: 'Thank you for everything you do } for {school}.' }, 'closing', /braces only around the placeholders/],
    // Issue 32: the letters said 85 % while the site's figure could say another; a figure is quoted.
    [
      'a percentage typed in',
      { body: 'Here is a short video: {video}. 85% of students improve. Book: {booking}' },
      'body',
      /a percentage only as \{stat:<id>\}/,
    ],
    [
      'a percentage with a space',
      { body: 'Here is a short video: {video}. 85 % of students improve. Book: {booking}' },
      'body',
      /a percentage only as \{stat:<id>\}/,
    ],
    ['a body over its limit', { body: `{video} {booking} ${'word '.repeat(LETTER_LIMITS.body / 5)}` }, 'body', /at most|too big|<=/i],
    ['a closing over its limit', { closing: 'thanks '.repeat(LETTER_LIMITS.closing / 6) }, 'closing', /at most|too big|<=/i],
    ['no title', { title: undefined }, 'title', /./],
  ])('%s fails on the field %s', (_name, change, field, message) => {
    const result = letterSchema.safeParse({ ...raw, ...change });
    expect(result.success).toBe(false);
    const issue = result.error!.issues.find((candidate) => candidate.path[0] === field);
    expect(issue?.message).toMatch(message);
  });

  test('the server refuses a folder with a broken letter, naming the file and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'letters-'));
    process.env.LETTERS_DIR = dir;
    try {
      writeFileSync(join(dir, 'good.yaml'), yaml.dump(raw));
      writeFileSync(join(dir, 'broken.yaml'), yaml.dump({ ...raw, body: 'No links at all in this one, sadly.' }));
      await expect(letters()).rejects.toThrow(/content\/letters\/broken\.yaml: body: must contain \{video\}/);
    } finally {
      delete process.env.LETTERS_DIR;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a figure is quoted from the statistics as the site shows it; one the statistics lack fails, naming the file', () => {
    const quoting = {
      id: 'quoting',
      introduction: 'My name is {parent}.',
      body: 'Results: {stat:improvement-8-weeks} of students improve. {video} {booking}',
      closing: 'Thanks.',
    };
    const stats = committedStats();
    const shown = stats.find((stat) => stat.id === 'improvement-8-weeks')!;
    expect(withStatistics(quoting, stats, 'content/letters/quoting.yaml').body).toBe(
      `Results: ${shown.target}${shown.suffix} of students improve. {video} {booking}`,
    );
    expect(() => withStatistics({ ...quoting, body: '{stat:no-such-figure} {video} {booking}' }, stats, 'content/letters/quoting.yaml')).toThrow(
      'content/letters/quoting.yaml: {stat:no-such-figure} names no statistic of content/stats.yaml',
    );
    expect(letterSchema.safeParse({ ...raw, body: 'Results: {stat:improvement-8-weeks}. Video {video}, call {booking}' }).success).toBe(true);
  });

  test('every committed letter quotes the home page’s figure of improvement within 8 weeks, 85%', () => {
    for (const letter of committedLetters()) expect(letter.body).toContain('85% of students');
  });

  test('the server fills the figures in from content/stats.yaml', async () => {
    const all = await letters();
    expect(all.map((letter) => letter.body).join('\n')).not.toContain('{stat:');
    expect(all[0]!.body).toContain('85% of students show measurable improvement');
  });

  test('the first letter is today’s email, word for word', () => {
    const { body } = generateEmail(
      { parentFullName: 'Ana Lopez', childFullName: 'Leo Lopez', childGrade: '5', schoolName: 'Oakwood', schoolContactName: 'Dr. Patel' },
      links,
      firstLetter,
    );
    expect(body).toContain('My name is Ana Lopez, and my child, Leo Lopez, is in 5th grade at Oakwood. I am writing to share a learning model');
    expect(body).toContain('Here is a 30-second video overview of how it works: https://www.youtube.com/watch?v=abc123&t=10s');
    expect(body).toMatch(
      /I would love to talk about how Oakwood could unlock mastery learning for every student\.\n\nWarm regards,\nAna Lopez\nParent of Leo Lopez, 5th grade$/,
    );
  });

  test.each(committedLetters().map((letter) => [letter.id, letter] as const))(
    '%s fills every placeholder and keeps the greeting and signature',
    (_id, letter) => {
      const { body } = generateEmail(
        { parentFullName: 'Ana Lopez', childFullName: 'Leo Lopez', childGrade: '5', schoolName: 'Oakwood', schoolContactName: 'Dr. Patel' },
        links,
        letter,
        { ownWords: 'Leo would love it.' },
      );
      expect(body).not.toMatch(/[{}]/);
      for (const text of ['Dear Dr. Patel,', 'Ana Lopez', 'Leo Lopez', '5th grade', 'Oakwood', 'https://calendly.com/team/intro', 'watch?v=abc123'])
        expect(body).toContain(text);
      // The parent's words stand right after the introduction.
      expect(body.split('\n\n')[2]).toBe('Leo would love it.');
    },
  );
});

describe('the question in the parent’s own words keeps the note’s rules', () => {
  test.each<[string, string, string | undefined, string | undefined]>([
    ['nothing', '', undefined, undefined],
    ['a plain answer', 'She would finally be challenged in maths.', undefined, undefined],
    ['600 characters', 'a'.repeat(600), undefined, undefined],
    ['601 characters', 'a'.repeat(601), ownWordsMessages.tooLong, noteMessages.tooLong],
    ['a link', 'See https://example.com', ownWordsMessages.link, noteMessages.link],
    ['a bare domain', 'cheap-pills.com', ownWordsMessages.link, noteMessages.link],
    ['a look-alike address', 'boss＠evil.ru', ownWordsMessages.email, noteMessages.email],
    ['markup', '<script>x</script>', ownWordsMessages.markup, noteMessages.markup],
  ])('%s', (_name, text, answerProblem, noteProblemText) => {
    expect(ownWordsProblem(text)).toBe(answerProblem);
    expect(noteProblem(text)).toBe(noteProblemText);
  });
});

describe('parents writing to one school get the letters in rotation', () => {
  let database: TestDatabase;
  let shell: ReturnType<typeof useSiteShell>;
  let seq = 0;
  const ids = committedLetters().map((letter) => letter.id);

  beforeAll(async () => {
    database = await startTestDatabase();
    shell = useSiteShell();
    // The confirmation email carries a signed link.
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 5).toString('base64');
  });
  afterAll(async () => {
    await database.stop();
    shell.remove();
    delete process.env.CONFIG_ENCRYPTION_KEY;
  });
  beforeEach(async () => {
    await query(sql`DELETE FROM letter_rotations`);
    delete process.env.PLATFORM_SEND_CONFIRMATION;
  });

  const draftFor = (overrides: Record<string, string> = {}, extra: { ownWords?: string } = {}) =>
    createDraft({ id: `sub-${Date.now()}-${++seq}`, purpose: 'emailGenerator', values: emailFormValues(overrides), ...extra });

  test('two parents at one school get different letters, and the letters go round in order', async () => {
    const picked = [];
    for (let n = 0; n < ids.length + 1; n++) picked.push((await draftFor()).draft.letter.id);
    expect(picked).toEqual([...ids, ids[0]]);
    expect(new Set(picked.slice(0, 2)).size).toBe(2);
  });

  test('the school is its canonical address: Head+1@Oakwood.EDU is head@oakwood.edu', async () => {
    const first = await draftFor({ school_contact_email: 'head@oakwood.edu' });
    const second = await draftFor({ school_contact_email: 'Head+1@Oakwood.EDU' });
    expect(second.draft.letter.id).not.toBe(first.draft.letter.id);
    expect(rotationKey({ address: 'Head+1@Oakwood.EDU' })).toBe(rotationKey({ address: 'head@oakwood.edu' }));
  });

  test('another school has its own turn', async () => {
    await draftFor({ school_contact_email: 'head@oakwood.edu' });
    expect((await draftFor({ school_contact_email: 'office@elm.edu' })).draft.letter.id).toBe(ids[0]);
  });

  test('picks at the same moment for one school each get the next letter', async () => {
    const picks = await Promise.all(ids.map(() => pickLetter({ address: 'head@maple.edu' })));
    expect(new Set(picks.map((letter) => letter.id))).toEqual(new Set(ids));
    const [row] = await query<{ picks: number }>(sql`SELECT picks FROM letter_rotations`);
    expect(row?.picks).toBe(ids.length);
  });

  test('a letter removed from the folder: the school goes on with the first', async () => {
    await query(
      sql`INSERT INTO letter_rotations (school, letter_id, picks, updated_at) VALUES (${rotationKey({ address: 'head@birch.edu' })}, 'gone', 4, now())`,
    );
    expect((await pickLetter({ address: 'head@birch.edu' })).id).toBe(ids[0]);
  });

  test('the rotation keeps no address: only a hash', async () => {
    await draftFor({ school_contact_email: 'head@oakwood.edu' });
    const snapshot = (await database.snapshot()).filter((line) => line.startsWith('letter_rotations'));
    expect(snapshot.join('\n')).not.toMatch(/oakwood/i);
  });

  test('the draft and the message keep the letter; the platform sends the parent’s letter', async () => {
    process.env.PLATFORM_SEND_CONFIRMATION = 'email';
    await draftFor();
    const made = await draftFor({ choose_how_to_send_your_email: 'Send via our platform' }, { ownWords: 'Leo would stop waiting.' });
    expect(made.draft.letter.id).toBe(ids[1]);
    expect(made.email.body).toContain(fillStart(made.draft.letter.introduction));
    const [draftRow] = await query<{ letter_id: string }>(sql`SELECT letter_id FROM email_drafts WHERE id = ${made.draft.id}`);
    expect(draftRow?.letter_id).toBe(ids[1]);

    const answer = await requestPlatformSend({ submissionId: made.draft.id, token: made.token }, { network: 'a'.repeat(32) });
    const message = (await readMessage(answer.body.id))!.message;
    expect(message.letterId).toBe(ids[1]);
    expect(message.body).toBe(made.email.body);
    expect(message.body.split('\n\n')[2]).toBe('Leo would stop waiting.');
    const [messageRow] = await query<{ letter_id: string }>(sql`SELECT letter_id FROM outbox_messages WHERE id = ${message.id}`);
    expect(messageRow?.letter_id).toBe(ids[1]);
  });

  test('“I’ve sent it myself” records the parent’s letter', async () => {
    await draftFor();
    const made = await draftFor();
    const answer = await recordSelfSent({ submissionId: made.draft.id, token: made.token }, { network: 'a'.repeat(32) });
    const message = (await readMessage(answer.body.id))!.message;
    expect(message).toMatchObject({ letterId: made.draft.letter.id, body: made.email.body });
  });

  test('/your-email without JavaScript shows the parent’s letter', async () => {
    const first = await draftFor();
    const second = await draftFor();
    const page = async (made: typeof first) =>
      regionText(await (await yourEmail(new Request(`http://localhost/your-email?id=${made.draft.id}&t=${made.token}`))).text());
    expect(await page(first)).toContain(fillStart(committedLetters()[0]!.introduction));
    expect(await page(second)).toContain(fillStart(committedLetters()[1]!.introduction));
    expect(await page(second)).not.toContain(fillStart(committedLetters()[0]!.introduction));
  });

  test('/your-email without JavaScript, after choosing "Send via our platform" in the form, says where that send is asked for', async () => {
    const page = async (made: Awaited<ReturnType<typeof draftFor>>) =>
      regionText(await (await yourEmail(new Request(`http://localhost/your-email?id=${made.draft.id}&t=${made.token}`))).text());
    const chosen = await draftFor({ choose_how_to_send_your_email: 'Send via our platform' });
    expect(await page(chosen)).toContain('You chose to let us send it. Read it through, then press Send via our platform below');
    expect(await page(await draftFor({ choose_how_to_send_your_email: "I'll send it myself" }))).not.toContain('You chose to let us send it');
    // Once asked for, the page says so instead.
    await requestPlatformSend({ submissionId: chosen.draft.id, token: chosen.token }, { network: 'b'.repeat(32) });
    expect(await page(chosen)).not.toContain('You chose to let us send it');
    expect(await page(chosen)).toContain('You asked us to send this email. Check your inbox for the link to confirm it.');
  });

  test('a draft made before the letters reads as the first letter', async () => {
    const made = await draftFor();
    const { letter: _letter, ...old } = made.draft;
    await query(sql`UPDATE email_drafts SET record = ${old} WHERE id = ${made.draft.id}`);
    expect((await readDraft(made.draft.id))?.draft.letter.id).toBe(ids[0]);
  });
});

/** The longest run of a letter's text without a placeholder: what every parent's copy of it shares. */
function fillStart(text: string): string {
  return text
    .split(/\{[a-z]+\}/)
    .map((part) => part.trim())
    .sort((a, b) => b.length - a.length)[0]!;
}
