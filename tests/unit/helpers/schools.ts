/**
 * Known schools for tests: a verified school record for an address, made as staff make one (with
 * their evidence), so that letters to it rest on a school the site knows. Schools are the subject
 * of tests/unit/schools.test.ts; these tests need the record that proves a school.
 */
import { createSchool, verifiedSchoolAt, type School } from '../../../src/server/schools/records';

let seq = 0;

/** The verified school whose record lists `address`, made if there is none. */
export async function verifiedSchool(address: string, name = 'Oakwood Academy', options: { timeZone?: string; leaderName?: string } = {}): Promise<School> {
  const known = await verifiedSchoolAt(address);
  if (known) return known;
  return createSchool(
    {
      name,
      leaders: [{ name: options.leaderName ?? 'Dr. Patel', role: 'Head of School', address: address.trim().toLowerCase() }],
      emailDomains: [],
      timeZone: options.timeZone ?? 'UTC',
      hours: { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '16:00' },
      holidays: [],
    },
    'tests',
    { kind: 'note', detail: `made by a test (${++seq})` },
  );
}
