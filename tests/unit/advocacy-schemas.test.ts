import { describe, expect, test } from 'vitest';
import {
  emailDataSchema,
  nominationSchema,
  referralDataSchema,
  referralTrackingSchema,
  schoolNominationSchema,
  searchContactSchema,
  sendEmailSchema,
  subscribeSchema,
  updateContactSchema,
} from '../../src/lib/shared/schemas';

const nomination = { schoolName: 'Oakwood', city: 'Austin', yourName: 'Ana Lopez', email: 'ana@example.org', childGrade: '5', sendTo: 'Principal' };
const sendEmail = { submissionId: '8204539414161-944443e2', token: 'T'.repeat(43), note: 'Thank you for reading.' };

describe.each([
  [
    'nominationSchema',
    nominationSchema,
    nomination,
    [
      { ...nomination, email: 'not-an-email' },
      { ...nomination, sendTo: '' },
      { ...nomination, city: '   ' },
      { ...nomination, childGrade: 5 },
      (({ sendTo: _, ...rest }) => rest)(nomination),
      { ...nomination, extra: 'x' },
    ],
  ],
  [
    'schoolNominationSchema',
    schoolNominationSchema,
    { schoolName: 'Oakwood', city: 'Austin', yourName: 'Ana', email: 'ana@example.org' },
    [
      { schoolName: 'Oakwood', city: 'Austin', yourName: 'Ana', email: 'nope' },
      { schoolName: 'Oakwood', city: 'Austin', yourName: 'Ana' },
      { schoolName: 'Oakwood', city: 'Austin', yourName: 'Ana', email: 'ana@example.org', sendTo: 'x' },
    ],
  ],
  [
    'sendEmailSchema',
    sendEmailSchema,
    sendEmail,
    [
      { ...sendEmail, submissionId: 'short' },
      { ...sendEmail, submissionId: 'has spaces in it' },
      { ...sendEmail, token: 'x' },
      { ...sendEmail, token: `${'T'.repeat(42)}!` },
      { ...sendEmail, note: 'x'.repeat(2001) },
      { ...sendEmail, subject: 'Forged text' },
      { submissionId: sendEmail.submissionId },
    ],
  ],
  // Issue 21: the lookup names the booking (Calendly's invitee_uuid) as well as the email.
  [
    'searchContactSchema',
    searchContactSchema,
    { email: 'ana@example.org', inviteeUuid: 'INVITEE-0001' },
    [
      { email: 'ana', inviteeUuid: 'INVITEE-0001' },
      {},
      { email: 'ana@example.org' },
      { email: 'ana@example.org', inviteeUuid: '<x>' },
      { email: 'ana@example.org', inviteeUuid: 'INVITEE-0001', properties: ['*'] },
    ],
  ],
  ['subscribeSchema', subscribeSchema, { email: 'ana@example.org' }, [{ email: '' }, { email: 42 }, null]],
  [
    'updateContactSchema',
    updateContactSchema,
    { contactId: '1001', updates: [{ field: 'choose_how_to_send_your_email', value: 'Send Via our platform' }] },
    [
      { contactId: 'abc', updates: [{ field: 'f', value: 'v' }] },
      { contactId: '1001', updates: [] },
      { contactId: '1001', updates: Array.from({ length: 6 }, () => ({ field: 'f', value: 'v' })) },
      { contactId: '1001', updates: [{ field: 'f' }] },
    ],
  ],
  [
    'referralTrackingSchema',
    referralTrackingSchema,
    { ambassadorId: 'amb-1', referralType: 'referSchool', formDetails: { school_name: 'Oakwood' } },
    [
      { ambassadorId: '', referralType: 'referSchool' },
      { ambassadorId: 'amb-1', referralType: 'other' },
      { ambassadorId: 'amb-1', referralType: 'toolkit', formDetails: { n: 1 } },
    ],
  ],
] as const)('%s', (_name, schema, valid, invalid) => {
  test('accepts a valid payload', () => {
    expect(schema.safeParse(valid).success).toBe(true);
  });
  test.each(invalid.map((payload) => [JSON.stringify(payload)?.slice(0, 80), payload]))('refuses %s', (_label, payload) => {
    expect(schema.safeParse(payload).success).toBe(false);
  });
});

describe('email data', () => {
  test('every field defaults to empty, so a partial form still makes an email', () => {
    expect(emailDataSchema.parse({})).toEqual({
      childFullName: '',
      childGrade: '',
      schoolName: '',
      schoolContactEmail: '',
      schoolContactName: '',
      parentFullName: '',
      parentEmail: '',
    });
    expect(referralDataSchema.parse({ role: 'Father' })).toMatchObject({ role: 'Father', state: '', city: '' });
  });

  test('refuses values beyond the limits', () => {
    expect(emailDataSchema.safeParse({ schoolName: 'x'.repeat(201) }).success).toBe(false);
  });
});
