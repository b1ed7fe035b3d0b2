import { describe, expect, test } from 'vitest';
import { NOTE_MAX, noteMessages, noteProblem, normaliseNote } from '../../src/lib/shared/email/note';
import { firstLetter } from './helpers/letters';

describe('the personal note', () => {
  test.each([
    ['', undefined],
    ['Our daughter has been bored in maths for two years. I would love a short meeting.', undefined],
    ['Mr.Smith and Dr. Patel both said it was worth a look, e.g. at the spring meeting.', undefined],
    ['x'.repeat(NOTE_MAX), undefined],
    ['x'.repeat(NOTE_MAX + 1), noteMessages.tooLong],
    ['See https://example.org/offer', noteMessages.link],
    ['see www.example.org', noteMessages.link],
    ['visit cheap-pills.com today', noteMessages.link],
    ['hxxp-style ftp://files.example.net/x', noteMessages.link],
    ['write to me at ana@example.org', noteMessages.email],
    ['ana at example dot org is fine', undefined],
  ])('%j → %s', (note, expected) => {
    expect(noteProblem(note)).toBe(expected);
  });

  test('is normalised: control and direction characters removed, blank lines collapsed, trimmed', () => {
    expect(normaliseNote('  Hello\u202e there\r\n\r\n\r\n\r\nThanks\u0007  ')).toBe('Hello there\n\nThanks');
  });

  test('counts the normalised text, so line endings do not push a note over the limit', () => {
    expect(noteProblem(`${'x'.repeat(NOTE_MAX - 2)}\r\n\r\n`)).toBeUndefined();
  });
});

describe('the note in the email', () => {
  const links = { videoUrl: 'https://example.org/video', bookingUrl: 'https://example.org/book' };
  const data = {
    parentFullName: 'Ana Lopez',
    childFullName: 'Leo Lopez',
    childGrade: '5th grade',
    schoolName: 'Oakwood',
    schoolContactName: 'Dr. Patel',
    schoolContactEmail: 'head@oakwood.edu',
  };

  test('stands right after the introduction, and nowhere without one', async () => {
    const { generateEmail } = await import('../../src/lib/shared/email/template');
    const without = generateEmail(data, links, firstLetter).body.split('\n');
    const withNote = generateEmail(data, links, firstLetter, {
      note: '  Leo finishes his maths in ten minutes and then waits.\n\n\n\nThank you!  ',
    }).body.split('\n');
    const intro = without.findIndex((line) => line.startsWith('My name is Ana Lopez'));
    expect(withNote.slice(intro + 1, intro + 6)).toEqual(['', 'Leo finishes his maths in ten minutes and then waits.', '', 'Thank you!', '']);
    expect(withNote.slice(intro + 6)).toEqual(without.slice(intro + 2));
  });
});
