/**
 * The Staff tab's invitation and the first owner's registration check the email address before
 * sending it (staffEmailSchema); they must accept and refuse what the server does, so that the
 * form never lets through what the server refuses, nor refuses what it takes.
 */
import { describe, expect, test } from 'vitest';
import { staffEmailSchema } from '../../src/lib/shared/schemas/admin';
import { invitationSchema } from '../../src/server/staff/members';

const cases: Array<[string, string | null]> = [
  ['ana@example.org', 'ana@example.org'],
  ['  ana@example.org ', 'ana@example.org'],
  ['A.Name+staff@sub.example.co.uk', 'A.Name+staff@sub.example.co.uk'],
  ['', null],
  ['   ', null],
  ['ana', null],
  ['ana@', null],
  ['@example.org', null],
  ['ana@example', null],
  ['ana @example.org', null],
  ['ana@exa mple.org', null],
  [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.org`, null],
];

describe('staffEmailSchema', () => {
  test.each(cases)('%j', (input, expected) => {
    const client = staffEmailSchema.safeParse(input);
    const server = invitationSchema.safeParse({ email: input, role: 'staff' });
    expect(client.success ? client.data : null).toBe(expected);
    expect(server.success ? server.data.email : null).toBe(expected);
    if (!client.success) expect(client.error.issues[0]?.message).toBe('Enter a valid email address');
  });
});
