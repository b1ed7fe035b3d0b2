import { describe, expect, test } from 'vitest';
import { GRADE_PLACEHOLDER, normaliseGrade, ordinal } from '../../src/lib/shared/email/grade';
import { generateEmail } from '../../src/lib/shared/email/template';
import { firstLetter } from './helpers/letters';

describe('normaliseGrade', () => {
  test.each([
    ['5', '5th grade'],
    ['5th', '5th grade'],
    ['5th grade', '5th grade'],
    ['5TH GRADE', '5th grade'],
    ['5th Grade.', '5th grade'],
    ['Grade 5', '5th grade'],
    ['grade5', '5th grade'],
    ['Gr 5', '5th grade'],
    ['grade five', '5th grade'],
    ['Fifth grade', '5th grade'],
    ['fifth', '5th grade'],
    ['1', '1st grade'],
    ['2nd', '2nd grade'],
    ['3', '3rd grade'],
    ['Grade 11', '11th grade'],
    ['12', '12th grade'],
    ['12th', '12th grade'],
    ['twelfth grade', '12th grade'],
    ['Kindergarten', 'kindergarten'],
    ['K', 'kindergarten'],
    ['kg', 'kindergarten'],
    ['in kindergarten', 'kindergarten'],
    ['Pre-K', 'pre-K'],
    ['PreK', 'pre-K'],
    ['pre-kindergarten', 'pre-K'],
    ['TK', 'transitional kindergarten'],
    ['freshman', '9th grade'],
    ['Senior year', '12th grade'],
    // Anything else reads well after "is in" as typed.
    ['Year 7', 'Year 7'],
    ['middle school', 'middle school'],
    ['  5th   grade ', '5th grade'],
    ['13', '13'],
    ['', GRADE_PLACEHOLDER],
    ['   ', GRADE_PLACEHOLDER],
    [undefined, GRADE_PLACEHOLDER],
  ] as const)('%j → %s', (typed, expected) => {
    expect(normaliseGrade(typed)).toBe(expected);
  });

  test.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [21, '21st'],
  ])('ordinal(%i) is %s', (n, expected) => {
    expect(ordinal(n)).toBe(expected);
  });
});

describe('the email reads well for every grade a parent may type', () => {
  const links = { videoUrl: 'https://www.youtube.com/watch?v=abc123', bookingUrl: 'https://calendly.com/team/intro' };
  test.each([
    ['5', 'is in 5th grade at', 'Parent of Ada Park, 5th grade'],
    ['5th', 'is in 5th grade at', 'Parent of Ada Park, 5th grade'],
    ['5th grade', 'is in 5th grade at', 'Parent of Ada Park, 5th grade'],
    ['Grade 5', 'is in 5th grade at', 'Parent of Ada Park, 5th grade'],
    ['Kindergarten', 'is in kindergarten at', 'Parent of Ada Park, kindergarten'],
    ['K', 'is in kindergarten at', 'Parent of Ada Park, kindergarten'],
    ['Pre-K', 'is in pre-K at', 'Parent of Ada Park, pre-K'],
    ['', "is in [Child's Grade] at", "Parent of Ada Park, [Child's Grade]"],
  ])('%j', (childGrade, sentence, closing) => {
    const { body } = generateEmail({ childFullName: 'Ada Park', childGrade, schoolName: 'Oakwood Academy' }, links, firstLetter);
    expect(body).toContain(`my child, Ada Park, ${sentence} Oakwood Academy.`);
    expect(body.endsWith(closing)).toBe(true);
  });
});
