import { describe, expect, test } from 'vitest';
import { emailFormFields, sendChoiceField } from '../../src/config/forms';
import { normaliseSubmission } from '../../src/lib/shared/hubspot-values';
import { isPlatformChoice, readEmailSubmission, shouldSendAutomatically } from '../../src/lib/shared/email/submission';

const submitted = {
  child_full_name: 'Maya Lopez',
  child_grade: '5th grade',
  school_name: 'Oakwood Academy',
  school_contact_name: 'Dr. Patel',
  school_contact_email: 'head@oakwood.edu',
  full_name: 'Ana Lopez',
  email: 'ana@example.org',
  role_to_student: 'Mother',
  state: 'Texas',
  city: 'Austin',
  choose_how_to_send_your_email: 'Send via our platform',
  referral_source: '/lead-the-change',
};

describe('the HubSpot field names of the email form', () => {
  test('default to the names the form uses', () => {
    expect(emailFormFields).toEqual({
      childFullName: 'child_full_name',
      childGrade: 'child_grade',
      schoolName: 'school_name',
      schoolContactName: 'school_contact_name',
      schoolContactEmail: 'school_contact_email',
      parentFullName: 'full_name',
      parentEmail: 'email',
      role: 'role_to_student',
      state: 'state',
      city: 'city',
    });
    expect(sendChoiceField).toEqual({ name: 'choose_how_to_send_your_email', platformValue: 'Send via our platform' });
  });
});

describe('readEmailSubmission', () => {
  test('maps every field to the email data', () => {
    expect(readEmailSubmission(submitted)).toEqual({
      data: {
        childFullName: 'Maya Lopez',
        childGrade: '5th grade',
        schoolName: 'Oakwood Academy',
        schoolContactName: 'Dr. Patel',
        schoolContactEmail: 'head@oakwood.edu',
        parentFullName: 'Ana Lopez',
        parentEmail: 'ana@example.org',
        role: 'Mother',
        state: 'Texas',
        city: 'Austin',
      },
      wantsPlatformSend: true,
    });
  });

  test('reads the list shape of the hsFormCallback message the same way as the object shape', () => {
    const list = Object.entries(submitted).map(([name, value]) => ({ name, value }));
    expect(readEmailSubmission(normaliseSubmission(list))).toEqual(readEmailSubmission(normaliseSubmission(submitted)));
  });

  test('missing fields become empty strings, unknown fields are ignored', () => {
    const { data, wantsPlatformSend } = readEmailSubmission({ school_name: ' Oakwood ', favourite_colour: 'blue', __proto__: 'x' } as Record<string, string>);
    expect(data.schoolName).toBe('Oakwood');
    expect(data.parentEmail).toBe('');
    expect(Object.keys(data)).not.toContain('favourite_colour');
    expect(wantsPlatformSend).toBe(false);
  });

  test('over-long values are cut to the schema limits instead of failing', () => {
    const { data } = readEmailSubmission({ child_grade: 'x'.repeat(500) });
    expect(data.childGrade).toHaveLength(60);
  });

  test.each([
    ['Send via our platform', true],
    ['Send Via our platform', true],
    ['  send via  our platform ', true],
    ['I will send it myself', false],
    ['', false],
    [undefined, false],
  ])('the choice %j means platform send: %s', (choice, expected) => {
    expect(isPlatformChoice(choice)).toBe(expected);
  });

  test.each([
    [{ choose_how_to_send_your_email: 'Send via our platform', email: 'ana@example.org' }, true],
    [{ choose_how_to_send_your_email: 'Send via our platform', email: '' }, false],
    [{ choose_how_to_send_your_email: 'Send via our platform' }, false],
    [{ choose_how_to_send_your_email: 'I will send it myself', email: 'ana@example.org' }, false],
  ])('sends by itself for %j: %s', (values, expected) => {
    expect(shouldSendAutomatically(readEmailSubmission(values))).toBe(expected);
  });
});
