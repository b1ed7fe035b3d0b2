/**
 * Known schools: the records every public fact about a school rests on (issue 44). What this module
 * offers the rest of the server:
 *
 * - `verifiedSchoolAt(address)`: the verified school whose record lists an address (exactly, lower
 *   case), the only way a letter comes to rest on a school; `schoolByPageKey(key)` for its page.
 * - `suggestSchools(query)`: verified schools whose name starts a word with what a parent typed.
 * - `proposeSchool(...)`: the one proposal a typed school (a letter's address) or a nomination
 *   (a name and city) makes, however often it is typed.
 * - Staff's moves, each one statement: `createSchool`, `editSchool`, `verifySchool`,
 *   `retireSchool`, `mergeSchools`; the directory (`school_addresses`: the addresses of verified
 *   schools, one school per address by its primary key) moves with them.
 * - `windowOfSchool(school)`: its time zone, hours and holidays, for the mail layer.
 *
 * Tables `schools`, `school_addresses`, `school_address_flags` (migration 0031).
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_HOURS,
  foldName,
  slugOf,
  type Evidence,
  type Leader,
  type SchoolHours,
  type SchoolInput,
  type SchoolSource,
  type SchoolStatus,
  type SchoolSuggestion,
  type SchoolView,
} from '../../lib/shared/school-record';
import { isUniqueViolation, query, queryOne, sql } from '../db';
import { HttpError } from '../http';
import { recordKey } from '../ids';
import { defaultWindow, minutesOf, type SchoolWindow } from '../mail/window';

export type School = SchoolView;

/** A row of `schools`: the view's fields that keep their name, and the snake-cased rest. */
interface SchoolRow extends Pick<SchoolView, 'id' | 'name' | 'slug' | 'city' | 'status' | 'source' | 'leaders'> {
  page_key: string;
  email_domains: string[];
  website: string | null;
  time_zone: string;
  hours: SchoolHours;
  holidays: Array<string | Date>;
  evidence: Evidence | null;
  merged_into: string | null;
  created_at: Date;
  updated_at: Date;
  verified_at: Date | null;
  verified_by: string | null;
}

const columns = sql`id, name, slug, city, status, source, page_key, leaders, email_domains, website, time_zone, hours, holidays, evidence, merged_into, created_at, updated_at, verified_at, verified_by`;

const isoDay = (value: string | Date) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

const toSchool = (row: SchoolRow): School => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  city: row.city,
  status: row.status,
  source: row.source,
  pageKey: row.page_key,
  leaders: row.leaders,
  emailDomains: row.email_domains ?? [],
  website: row.website,
  timeZone: row.time_zone,
  hours: row.hours,
  holidays: (row.holidays ?? []).map(isoDay),
  evidence: row.evidence,
  mergedInto: row.merged_into,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  verifiedAt: row.verified_at?.toISOString() ?? null,
  verifiedBy: row.verified_by,
});

/** An address as the directory keeps it: exactly as written, in lower case (no `+tag` removed). */
export const directoryAddress = (address: string) => address.normalize('NFKC').trim().toLowerCase();

const newPageKey = () => randomBytes(16).toString('hex');
const searchOf = (name: string, city?: string | null) => ` ${foldName(name)}${city ? ` ${foldName(city)}` : ''}`;

/** The hours a school keeps, as the mail layer reads them. */
export function windowOfSchool(school: Pick<School, 'timeZone' | 'hours' | 'holidays'>): SchoolWindow {
  return {
    timeZone: school.timeZone,
    days: school.hours.days,
    opens: minutesOf(school.hours.opens),
    closes: minutesOf(school.hours.closes),
    holidays: school.holidays,
  };
}

/** The window of a school the site does not know: default hours in the parent's (or the site's) zone. */
export const windowOfProposal = defaultWindow;

export async function readSchool(id: string): Promise<School | undefined> {
  const row = await queryOne<SchoolRow>(sql`SELECT ${columns} FROM schools WHERE id = ${id}`);
  return row && toSchool(row);
}

/** The school a page key names (any status: the caller decides what a retired one shows). */
export async function schoolByPageKey(key: string): Promise<School | undefined> {
  if (!/^[0-9a-f]{32}$/.test(key)) return undefined;
  const row = await queryOne<SchoolRow>(sql`SELECT ${columns} FROM schools WHERE page_key = ${key}`);
  return row && toSchool(row);
}

/** The verified school whose record lists this address, exactly (lower case), or undefined. */
export async function verifiedSchoolAt(address: string): Promise<School | undefined> {
  const row = await queryOne<SchoolRow>(sql`
    SELECT ${sql`s.id, s.name, s.slug, s.city, s.status, s.source, s.page_key, s.leaders, s.email_domains, s.website, s.time_zone, s.hours, s.holidays, s.evidence, s.merged_into, s.created_at, s.updated_at, s.verified_at, s.verified_by`}
    FROM school_addresses a JOIN schools s ON s.id = a.school_id
    WHERE a.address = ${directoryAddress(address)} AND s.status = 'verified'`);
  return row && toSchool(row);
}

/**
 * The verified school one of whose own email domains (its record's `email_domains`, which staff
 * enter: never a free mail provider's) an address is at, when exactly one is. A letter typed to
 * another address at a known school's domain is that school's, flagged for staff, not a proposal.
 */
export async function verifiedSchoolOfDomain(address: string): Promise<School | undefined> {
  const domain = directoryAddress(address).split('@').pop() ?? '';
  if (!domain) return undefined;
  const rows = await query<SchoolRow>(sql`SELECT ${columns} FROM schools WHERE status = 'verified' AND ${domain} = ANY(email_domains) ORDER BY id LIMIT 2`);
  return rows.length === 1 ? toSchool(rows[0]!) : undefined;
}

/** Whether an address is one the school's record lists. */
export const onRecord = (school: Pick<School, 'leaders'>, address: string) => school.leaders.some((leader) => leader.address === directoryAddress(address));

/** The leader a letter to this address greets, if the record lists it. */
export const leaderAt = (school: Pick<School, 'leaders'>, address: string) => school.leaders.find((leader) => leader.address === directoryAddress(address));

/**
 * Verified schools whose name (or city) has a word starting with each word of `text`, best first:
 * names starting with it, then by name. At most `limit`; nothing for a query under two letters.
 */
export async function suggestSchools(text: string, limit = 8): Promise<SchoolSuggestion[]> {
  const words = foldName(text).split(' ').filter(Boolean).slice(0, 5);
  if (words.join('').length < 2) return [];
  const escaped = words.map((word) => word.replace(/[\\%_]/g, (c) => `\\${c}`));
  const conditions = escaped.map((word) => sql`search LIKE ${`% ${word}%`}`);
  const rows = await query<SchoolRow>(sql`
    SELECT ${columns} FROM schools
    WHERE status = 'verified' AND ${sql.join(conditions, ' AND ')}
    ORDER BY (search LIKE ${` ${escaped[0]}%`}) DESC, name, id LIMIT ${limit}`);
  return rows.map((row) => ({
    key: row.page_key,
    name: row.name,
    city: row.city,
    leaders: row.leaders.map(({ name, role, address }) => ({ name, role, address })),
  }));
}

type ProposalInput =
  | { kind: 'letter'; address: string; name: string; contactName?: string; timeZone: string }
  | { kind: 'nomination'; name: string; city?: string; timeZone: string };

/** What a proposal is known by, so that a flood of the same typed school makes one proposal. */
const proposalKeyOf = (input: ProposalInput) =>
  input.kind === 'letter' ? `address:${directoryAddress(input.address)}` : `name:${foldName(input.name)}|${foldName(input.city ?? '')}`;

/**
 * The statement that writes a proposal unless one with its key exists (a CTE named `proposed`,
 * RETURNING the new row's columns), for a caller's own statement to include: a nomination is kept
 * and its school proposed in one statement.
 */
export function proposalInsert(input: ProposalInput, now = new Date()) {
  const name = input.name.trim().slice(0, 150) || (input.kind === 'letter' ? directoryAddress(input.address).split('@').pop()! : 'A school');
  const leaders: Leader[] =
    input.kind === 'letter' ? [{ name: input.contactName?.trim().slice(0, 100) ?? '', role: '', address: directoryAddress(input.address) }] : [];
  const domains = input.kind === 'letter' ? [directoryAddress(input.address).split('@').pop()!] : [];
  const city = input.kind === 'nomination' ? input.city?.trim().slice(0, 100) || null : null;
  return sql`proposed AS (
      INSERT INTO schools (id, name, slug, city, status, source, proposal_key, page_key, leaders, email_domains, time_zone, hours, search, created_at, updated_at)
      VALUES (${recordKey(now)}, ${name}, ${slugOf(name)}, ${city}, 'proposed', ${input.kind}, ${proposalKeyOf(input)}, ${newPageKey()}, ${JSON.stringify(leaders)}::jsonb,
              ${domains}::text[], ${input.timeZone}, ${DEFAULT_HOURS}, ${searchOf(name, city)}, ${now}, ${now})
      ON CONFLICT (proposal_key) DO NOTHING
      RETURNING ${columns}
    )`;
}

/**
 * The proposal a typed school makes: found by its key (the exact address a letter went to, or a
 * nomination's name and city), made once. Returns the record, which may be a verified school
 * already when staff verified this proposal before (then nothing is proposed).
 */
export async function proposeSchool(input: ProposalInput, now = new Date()): Promise<School> {
  const key = proposalKeyOf(input);
  const row = await queryOne<SchoolRow>(sql`
    WITH ${proposalInsert(input, now)}
    SELECT ${columns} FROM proposed
    UNION ALL SELECT ${columns} FROM schools WHERE proposal_key = ${key} AND NOT EXISTS (SELECT 1 FROM proposed)`);
  if (!row) throw new Error(`schools: proposal ${key} neither made nor found`);
  return toSchool(row);
}

/** Refusals of staff's moves, said plainly. */
const gone = () => new HttpError(404, 'not_found', 'There is no school with this id.');
const addressTaken = (address: string, school: string) =>
  new HttpError(
    409,
    'address_taken',
    `${address} is already the address of another verified school (${school}). Merge the two records, or remove it there first.`,
  );

/** Which verified school (other than `except`) lists one of these addresses. */
async function takenBy(addresses: string[], except: string[]): Promise<{ address: string; name: string } | undefined> {
  if (addresses.length === 0) return undefined;
  return queryOne<{ address: string; name: string }>(sql`
    SELECT a.address, s.name FROM school_addresses a JOIN schools s ON s.id = a.school_id
    WHERE a.address = ANY(${addresses}::text[]) AND NOT (a.school_id = ANY(${except}::text[])) LIMIT 1`);
}

/**
 * The directory rows of one school made to be exactly `addresses` (verified) or none: one statement.
 * A unique violation means another school took an address meanwhile.
 */
const syncDirectory = (id: string, addresses: string[]) => sql`
  removed AS (DELETE FROM school_addresses WHERE school_id = ${id} AND NOT (address = ANY(${addresses}::text[])) AND EXISTS (SELECT 1 FROM changed)),
  added AS (
    INSERT INTO school_addresses (address, school_id)
    SELECT a, ${id} FROM unnest(${addresses}::text[]) AS a
    WHERE EXISTS (SELECT 1 FROM changed) AND NOT EXISTS (SELECT 1 FROM school_addresses x WHERE x.address = a AND x.school_id = ${id})
  )`;

async function guarded<T>(addresses: string[], except: string[], work: () => Promise<T>): Promise<T> {
  const taken = await takenBy(addresses, except);
  if (taken) throw addressTaken(taken.address, taken.name);
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'school_addresses_pkey')) {
      const now = await takenBy(addresses, except);
      throw addressTaken(now?.address ?? addresses[0]!, now?.name ?? 'another school');
    }
    throw error;
  }
}

/** A school staff add: verified at once when they give their evidence, else a proposal to check. */
export async function createSchool(input: SchoolInput, by: string, evidence?: Evidence, source: SchoolSource = 'staff', now = new Date()): Promise<School> {
  const id = recordKey(now);
  const addresses = input.leaders.map((leader) => leader.address);
  const status: SchoolStatus = evidence ? 'verified' : 'proposed';
  return guarded(evidence ? addresses : [], [], async () => {
    const row = await queryOne<SchoolRow>(sql`
      WITH changed AS (
        INSERT INTO schools (id, name, slug, city, status, source, page_key, leaders, email_domains, website, time_zone, hours, holidays, evidence, search, created_at, updated_at, verified_at, verified_by)
        VALUES (${id}, ${input.name}, ${slugOf(input.name)}, ${input.city || null}, ${status}, ${source}, ${newPageKey()}, ${JSON.stringify(input.leaders)}::jsonb,
                ${input.emailDomains}::text[], ${input.website || null}, ${input.timeZone}, ${input.hours}, ${input.holidays}::date[], ${evidence ?? null},
                ${searchOf(input.name, input.city)}, ${now}, ${now}, ${evidence ? now : null}, ${evidence ? by : null})
        RETURNING ${columns}
      ), ${syncDirectory(id, evidence ? addresses : [])}
      SELECT ${columns} FROM changed`);
    return toSchool(row!);
  });
}

/** Staff change a school's record. A verified school's directory follows its leaders' addresses. */
export async function editSchool(id: string, input: SchoolInput, now = new Date()): Promise<School> {
  const current = await readSchool(id);
  if (!current) throw gone();
  if (current.status === 'retired') throw new HttpError(409, 'retired', 'This school is retired; its record no longer changes.');
  const addresses = current.status === 'verified' ? input.leaders.map((leader) => leader.address) : [];
  return guarded(addresses, [id], async () => {
    const row = await queryOne<SchoolRow>(sql`
      WITH changed AS (
        UPDATE schools SET name = ${input.name}, slug = ${slugOf(input.name)}, city = ${input.city || null}, leaders = ${JSON.stringify(input.leaders)}::jsonb,
          email_domains = ${input.emailDomains}::text[], website = ${input.website || null}, time_zone = ${input.timeZone}, hours = ${input.hours},
          holidays = ${input.holidays}::date[], search = ${searchOf(input.name, input.city)}, updated_at = ${now}
        WHERE id = ${id} AND status = ${current.status}
        RETURNING ${columns}
      ), ${syncDirectory(id, addresses)}
      SELECT ${columns} FROM changed`);
    if (!row) throw new HttpError(409, 'changed', 'This school changed meanwhile; reload it.');
    return toSchool(row);
  });
}

/** Staff verify a school on their evidence: its addresses enter the directory, its page opens. */
export async function verifySchool(id: string, evidence: Evidence, by: string, now = new Date()): Promise<School> {
  const current = await readSchool(id);
  if (!current) throw gone();
  if (current.status === 'retired') throw new HttpError(409, 'retired', 'A retired school cannot be verified; add a new record instead.');
  if (current.leaders.length === 0) throw new HttpError(400, 'no_address', 'Add the address parents write to before verifying this school.');
  const addresses = current.leaders.map((leader) => leader.address);
  return guarded(addresses, [id], async () => {
    const row = await queryOne<SchoolRow>(sql`
      WITH changed AS (
        UPDATE schools SET status = 'verified', evidence = ${evidence}, verified_at = ${now}, verified_by = ${by.slice(0, 200)}, updated_at = ${now}
        WHERE id = ${id} AND status IN ('proposed', 'verified')
        RETURNING ${columns}
      ), ${syncDirectory(id, addresses)}
      SELECT ${columns} FROM changed`);
    if (!row) throw new HttpError(409, 'changed', 'This school changed meanwhile; reload it.');
    return toSchool(row);
  });
}

/** Staff retire a school: its page closes, its addresses leave the directory; its letters stay. */
export async function retireSchool(id: string, now = new Date()): Promise<School> {
  const row = await queryOne<SchoolRow>(sql`
    WITH changed AS (
      UPDATE schools SET status = 'retired', updated_at = ${now} WHERE id = ${id} AND status <> 'retired' RETURNING ${columns}
    ), removed AS (DELETE FROM school_addresses WHERE school_id = ${id} AND EXISTS (SELECT 1 FROM changed))
    SELECT ${columns} FROM changed`);
  if (row) return toSchool(row);
  if (!(await readSchool(id))) throw gone();
  throw new HttpError(409, 'retired', 'This school is retired already.');
}

/**
 * Merges `from` into `into` in one statement: its letters, counts, starred words and flags move to
 * `into` (a letter counts once: the counts are kept per letter), its addresses join `into`'s
 * leaders (and, when `into` is verified, the directory), and `from` is retired, naming `into`.
 */
export async function mergeSchools(fromId: string, intoId: string, now = new Date()): Promise<School> {
  if (fromId === intoId) throw new HttpError(400, 'same_school', 'Choose two different schools to merge.');
  const [from, into] = await Promise.all([readSchool(fromId), readSchool(intoId)]);
  if (!from || !into) throw gone();
  if (from.status === 'retired' || into.status === 'retired')
    throw new HttpError(409, 'retired', 'A retired school cannot be merged; choose the record that stands.');
  const leaders = [...into.leaders];
  for (const leader of from.leaders) if (!leaders.some((known) => known.address === leader.address)) leaders.push(leader);
  if (leaders.length > 10) throw new HttpError(400, 'too_many_addresses', 'Together the two records list more than 10 addresses; remove some first.');
  const addresses = into.status === 'verified' ? leaders.map((leader) => leader.address) : [];
  const fromAddresses = from.leaders.map((leader) => leader.address);
  return guarded(addresses, [fromId, intoId], async () => {
    const row = await queryOne<SchoolRow>(sql`
      WITH retired AS (
        UPDATE schools SET status = 'retired', merged_into = ${intoId}, updated_at = ${now} WHERE id = ${fromId} AND status <> 'retired' RETURNING id
      ), moved AS (
        -- The directory rows of the merged record become the other's (or go, when it is not verified):
        -- moved, not deleted and added again, which one statement could not do to the same key.
        UPDATE school_addresses SET school_id = ${intoId} WHERE school_id = ${fromId} AND ${into.status === 'verified'}::boolean AND EXISTS (SELECT 1 FROM retired) RETURNING address
      ), freed AS (
        DELETE FROM school_addresses WHERE school_id = ${fromId} AND NOT ${into.status === 'verified'}::boolean AND EXISTS (SELECT 1 FROM retired) RETURNING address
      ), changed AS (
        UPDATE schools SET leaders = ${JSON.stringify(leaders)}::jsonb, email_domains = (SELECT array(SELECT DISTINCT unnest(email_domains || ${from.emailDomains}::text[]))), updated_at = ${now}
        WHERE id = ${intoId} AND status = ${into.status} AND EXISTS (SELECT 1 FROM retired)
        RETURNING ${columns}
      ), letters AS (
        UPDATE outbox_messages SET school_id = ${intoId}, record = jsonb_set(record, '{schoolId}', to_jsonb(${intoId}::text)), version = version + 1
        WHERE school_id = ${fromId} AND EXISTS (SELECT 1 FROM changed) RETURNING 1
      ), counted AS (
        UPDATE impact_sends SET page = ${into.pageKey} WHERE page = ${from.pageKey} AND EXISTS (SELECT 1 FROM changed) RETURNING 1
      ), words AS (
        UPDATE starred_words SET school_page = ${into.pageKey} WHERE school_page = ${from.pageKey} AND EXISTS (SELECT 1 FROM changed) RETURNING 1
      ), flags AS (
        INSERT INTO school_address_flags AS f (school_id, address, letters, state, created_at, updated_at)
        SELECT ${intoId}, address, letters, state, created_at, ${now} FROM school_address_flags WHERE school_id = ${fromId} AND EXISTS (SELECT 1 FROM changed)
        ON CONFLICT (school_id, address) DO UPDATE SET letters = f.letters + EXCLUDED.letters, updated_at = EXCLUDED.updated_at
        RETURNING 1
      ), added AS (
        INSERT INTO school_addresses (address, school_id)
        SELECT a, ${intoId} FROM unnest(${addresses}::text[]) AS a
        WHERE EXISTS (SELECT 1 FROM changed) AND NOT (a = ANY(${fromAddresses}::text[]))
          AND NOT EXISTS (SELECT 1 FROM school_addresses x WHERE x.address = a AND x.school_id = ${intoId})
      )
      SELECT ${columns} FROM changed`);
    if (!row) throw new HttpError(409, 'changed', 'One of the schools changed meanwhile; reload them.');
    return toSchool(row);
  });
}

/** Schools of one status, oldest first (the proposals are a queue), a page at a time (keyset on the id), optionally by name. */
export async function listSchools(filter: {
  status: SchoolStatus;
  text?: string;
  cursor?: string;
  limit: number;
}): Promise<{ schools: School[]; nextCursor?: string }> {
  const words = foldName(filter.text ?? '')
    .split(' ')
    .filter(Boolean)
    .slice(0, 5);
  const conditions = words.map((word) => sql`search LIKE ${`% ${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const rows = await query<SchoolRow>(sql`
    SELECT ${columns} FROM schools
    WHERE status = ${filter.status} AND (${filter.cursor ?? null}::text IS NULL OR id > ${filter.cursor ?? null}::text)
      ${conditions.length ? sql`AND ${sql.join(conditions, ' AND ')}` : sql``}
    ORDER BY id LIMIT ${filter.limit + 1}`);
  const page = rows.slice(0, filter.limit).map(toSchool);
  return { schools: page, ...(rows.length > filter.limit ? { nextCursor: page.at(-1)!.id } : {}) };
}

/** How many letters each school has, by how they stand, for staff (proposals show what they carry). */
export async function letterCounts(ids: string[]): Promise<Map<string, { letters: number; confirmed: number }>> {
  const counts = new Map<string, { letters: number; confirmed: number }>();
  if (ids.length === 0) return counts;
  const rows = await query<{ school_id: string; letters: number; confirmed: number }>(sql`
    SELECT school_id, count(*)::int AS letters, count(*) FILTER (WHERE status IN ('queued', 'sent', 'delivered'))::int AS confirmed
    FROM outbox_messages WHERE school_id = ANY(${ids}::text[]) AND erased_at IS NULL GROUP BY school_id`);
  for (const row of rows) counts.set(row.school_id, { letters: row.letters, confirmed: row.confirmed });
  return counts;
}

/** Flags a letter to a verified school at an address its record does not list (once per address; counted after). */
export async function flagAddress(schoolId: string, address: string, now = new Date()): Promise<void> {
  await query(sql`
    INSERT INTO school_address_flags AS f (school_id, address, letters, state, created_at, updated_at)
    VALUES (${schoolId}, ${directoryAddress(address)}, 1, 'open', ${now}, ${now})
    ON CONFLICT (school_id, address) DO UPDATE SET letters = f.letters + 1, updated_at = EXCLUDED.updated_at`);
}

export interface AddressFlag {
  schoolId: string;
  schoolName: string;
  address: string;
  letters: number;
  createdAt: string;
}

/** The open flags, newest first. */
export async function openFlags(limit = 50): Promise<AddressFlag[]> {
  const rows = await query<{ school_id: string; name: string; address: string; letters: number; created_at: Date }>(sql`
    SELECT f.school_id, s.name, f.address, f.letters, f.created_at FROM school_address_flags f JOIN schools s ON s.id = f.school_id
    WHERE f.state = 'open' ORDER BY f.created_at DESC LIMIT ${limit}`);
  return rows.map((row) => ({
    schoolId: row.school_id,
    schoolName: row.name,
    address: row.address,
    letters: row.letters,
    createdAt: row.created_at.toISOString(),
  }));
}

/** Staff settle a flag: the address joins the record (and the directory), or the flag is dismissed. */
export async function settleFlag(schoolId: string, address: string, decision: 'added' | 'dismissed', now = new Date()): Promise<School | undefined> {
  const flag = await queryOne<{ state: string }>(
    sql`SELECT state FROM school_address_flags WHERE school_id = ${schoolId} AND address = ${directoryAddress(address)}`,
  );
  if (!flag) throw new HttpError(404, 'not_found', 'There is no such flag.');
  if (flag.state !== 'open') throw new HttpError(409, 'already_settled', 'Someone settled this flag already; reload the list.');
  let school: School | undefined;
  if (decision === 'added') {
    const current = await readSchool(schoolId);
    if (!current) throw gone();
    const leaders = current.leaders.some((leader) => leader.address === directoryAddress(address))
      ? current.leaders
      : [...current.leaders, { name: '', role: '', address: directoryAddress(address) }];
    school = await editSchool(
      schoolId,
      {
        name: current.name,
        city: current.city ?? undefined,
        leaders,
        emailDomains: current.emailDomains,
        website: current.website ?? undefined,
        timeZone: current.timeZone,
        hours: current.hours,
        holidays: current.holidays,
      },
      now,
    );
  }
  await query(
    sql`UPDATE school_address_flags SET state = ${decision}, updated_at = ${now} WHERE school_id = ${schoolId} AND address = ${directoryAddress(address)} AND state = 'open'`,
  );
  return school;
}
