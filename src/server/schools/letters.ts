/**
 * Where a letter stands with the school records: what the rest of the server asks before anything
 * about a letter is public.
 *
 * - `schoolOfLetter(letter)`: the record it was written to (following a merge) and whether it is
 *   **on record**: the school is verified and its record lists the address the letter goes to.
 *   Only an on-record letter has a page, a count, outcomes, a digest and a share link; the others
 *   still go, to the address the parent typed, and serve only that parent.
 * - `schoolNameOf(...)`: the name an email about the letter may carry in its subject: the record's,
 *   never a typed one ("your school" otherwise).
 * - `fillFromSchool(...)`: the email form as a known school posts it (a suggestion picked, a school
 *   page's form): the record's name, and its address when the parent left it out.
 */
import { query, sql } from '../db';
import { readSchool, schoolByPageKey, verifiedSchoolAt, onRecord, leaderAt, directoryAddress, type School } from './records';

export interface LetterSchool {
  /** The record the letter was written to (after a merge, the record that stands), if any. */
  school?: School;
  /** The school is verified and its record lists the letter's address. */
  onRecord: boolean;
}

/** The record a school id names now, following merges (a few steps at most). */
export async function currentSchool(id: string): Promise<School | undefined> {
  let school = await readSchool(id);
  for (let hop = 0; hop < 5 && school?.mergedInto; hop++) school = await readSchool(school.mergedInto);
  return school;
}

/**
 * The school a letter rests on: the record it names (`schoolId`), else the verified school whose
 * record lists its address. On record only when that school is verified and lists the address.
 */
export async function schoolOfLetter(letter: { schoolId?: string; to: string }): Promise<LetterSchool> {
  const named = letter.schoolId ? await currentSchool(letter.schoolId) : undefined;
  const school = named?.status === 'verified' ? named : ((await verifiedSchoolAt(letter.to)) ?? named);
  return { ...(school ? { school } : {}), onRecord: Boolean(school && school.status === 'verified' && onRecord(school, letter.to)) };
}

/** The name an email about a letter may carry: the record's when the letter is on record, else the fallback. */
export const schoolNameOf = (place: LetterSchool, fallback = 'your school') => (place.onRecord && place.school ? place.school.name : fallback);

/** The page key of the letter's school when the letter is on record (the page it counts on). */
export const pageKeyOf = (place: LetterSchool) => (place.onRecord && place.school ? place.school.pageKey : undefined);

/** The page key of the verified school whose record lists an address, if any. */
export async function pageKeyAt(address: string): Promise<string | undefined> {
  return (await verifiedSchoolAt(address))?.pageKey;
}

/**
 * The email form as a known school posts it: `keyField` names a verified school by its page key (a
 * suggestion the parent picked, or the school page the form is on). The school's name becomes the
 * record's; an address left out is filled with the record's first (or the one whose leader the
 * parent named); a contact name left out is the leader's. An address the parent typed stays theirs:
 * it is their letter (a letter to an address the record does not list is flagged for staff when
 * it is confirmed). Returns the school, or undefined when the key names no verified school.
 */
export async function fillFromSchool(
  raw: Record<string, unknown>,
  fields: { schoolName: string; schoolContactEmail: string; schoolContactName: string },
  keyField: string,
): Promise<School | undefined> {
  const posted = raw[keyField];
  const key = typeof posted === 'string' ? posted.trim().toLowerCase() : '';
  if (!/^[0-9a-f]{32}$/.test(key)) return undefined;
  const school = await schoolByPageKey(key);
  if (school?.status !== 'verified' || school.leaders.length === 0) return undefined;
  const typedAddress = typeof raw[fields.schoolContactEmail] === 'string' ? (raw[fields.schoolContactEmail] as string).trim() : '';
  const typedContact = typeof raw[fields.schoolContactName] === 'string' ? (raw[fields.schoolContactName] as string).trim() : '';
  if (!typedAddress) {
    const named = typedContact ? school.leaders.find((leader) => leader.name && leader.name.toLowerCase() === typedContact.toLowerCase()) : undefined;
    raw[fields.schoolContactEmail] = (named ?? school.leaders[0]!).address;
  }
  const leader = leaderAt(school, String(raw[fields.schoolContactEmail]));
  if (!typedContact && leader?.name) raw[fields.schoolContactName] = leader.name;
  raw[fields.schoolName] = school.name;
  return school;
}

/** The letters written to a school, by how they stand with its record (for staff and for counting on verification). */
export async function lettersOfSchool(schoolId: string, limit = 500): Promise<Array<{ id: string; to: string; status: string; channel: string }>> {
  const rows = await query<{ id: string; to: string; status: string; channel: string }>(sql`
    SELECT id, record->>'to' AS to, status, channel FROM outbox_messages WHERE school_id = ${schoolId} AND erased_at IS NULL ORDER BY id LIMIT ${limit}`);
  return rows;
}

export { directoryAddress };
