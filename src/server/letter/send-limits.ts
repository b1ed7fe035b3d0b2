/**
 * The limits of "Send via our platform", kept by the database's constraints: one send per parent
 * and school contact (until the message is purged), at most SCHOOL a day to one school contact
 * address across all parents, and PARENT a day from one parent. Days are UTC calendar days.
 *
 * A claim is one statement: a row in `send_claims` (unique per message and per pair) and one more
 * send on the day's row of the school and of the parent, whose CHECK keeps it within the cap. A
 * constraint that refuses it refuses the whole statement, so a refused claim takes nothing, and
 * claiming again for the same message takes nothing twice. Addresses are counted as the person they
 * reach (`canonicalAddress`: `head+1@school` is `head@school`) and stored only as hashes.
 */
import { createHash } from 'node:crypto';
import { isCheckViolation, isUniqueViolation, query, queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress } from '../identity';

/** A parent's address as the person it reaches (`canonicalAddress`: no `+tag`, Gmail's dots, NFKC), hashed. */
const hash = (value: string) => createHash('sha256').update(canonicalAddress(value)).digest('hex').slice(0, 32);
const day = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The pair a parent and a school make: the parent as the person their address reaches, the school
 * as its record, or, unknown to the site, as the mailbox its address reaches (`pairSchool`). One
 * letter per pair: a `+tag` on either side is no second letter.
 */
export const pairHash = (parent: string, pairSchool: string) =>
  createHash('sha256')
    .update(`${canonicalAddress(parent)}|${pairSchool}`)
    .digest('hex')
    .slice(0, 32);

/** The school side of a pair: its record, or the mailbox an address of a school the site does not know reaches. */
export const pairSchoolOf = (school: { schoolId?: string; onRecord?: boolean; to: string }) =>
  school.onRecord && school.schoolId ? `school:${school.schoolId}` : `address:${canonicalAddress(school.to)}`;

export type LimitRefusal = 'already_sent' | 'school_limit' | 'parent_limit';

/**
 * The parent's other letter to this school that holds their pair (other than `except`): when it
 * went, or, confirmed and still waiting for the school's hours, when it goes. Undefined when no
 * other letter holds it.
 */
export async function earlierLetter(parent: string, pairSchool: string, except: string): Promise<{ sentAt?: string; goesAt?: string } | undefined> {
  const row = await queryOne<{ sent_at: string | null; goes_at: string | null; status: string | null }>(sql`
    SELECT o.record->>'sentAt' AS sent_at, o.record->'delivery'->>'at' AS goes_at, o.status
    FROM send_claims c LEFT JOIN outbox_messages o ON o.id = c.message_id
    WHERE c.pair_hash = ${pairHash(parent, pairSchool)} AND c.message_id <> ${except}`);
  if (!row) return undefined;
  if (row.sent_at) return { sentAt: row.sent_at };
  return row.goes_at ? { goesAt: row.goes_at } : {};
}

/** Whether a send would be refused now (read only; `claimLimits` decides). */
export async function checkLimits(parent: string, school: { day: string; pair: string }, now = new Date()): Promise<LimitRefusal | undefined> {
  const row = await queryOne<{ paired: boolean; school_sends: number; parent_sends: number }>(sql`
    SELECT
      EXISTS (SELECT 1 FROM send_claims WHERE pair_hash = ${pairHash(parent, school.pair)}) AS paired,
      coalesce((SELECT sends FROM school_daily_sends WHERE school = ${school.day} AND day = ${day(now)}), 0) AS school_sends,
      coalesce((SELECT sends FROM parent_daily_sends WHERE parent = ${hash(parent)} AND day = ${day(now)}), 0) AS parent_sends`);
  if (row?.paired) return 'already_sent';
  if ((row?.school_sends ?? 0) >= serverEnv.schoolDailySendLimit) return 'school_limit';
  if ((row?.parent_sends ?? 0) >= serverEnv.parentDailySendLimit) return 'parent_limit';
  return undefined;
}

/**
 * Claims the pair, a send of the school's day and one of the parent's day for message `owner`, all
 * or none. `school.day` is the school's `schoolGroupKey` (its record, or the exact address), its
 * `pair` the `pairSchoolOf` it. Claiming again for the same message (two confirmations at once)
 * takes nothing twice.
 */
export async function claimLimits(parent: string, school: { day: string; pair: string }, owner: string, now = new Date()): Promise<LimitRefusal | undefined> {
  try {
    await query(sql`
      WITH claim AS (
        INSERT INTO send_claims (message_id, pair_hash, school, parent, day)
        VALUES (${owner}, ${pairHash(parent, school.pair)}, ${school.day}, ${hash(parent)}, ${day(now)})
        ON CONFLICT (message_id) DO NOTHING
        RETURNING school, parent, day
      ), school_day AS (
        INSERT INTO school_daily_sends AS d (school, day, sends, cap) SELECT school, day, 1, ${serverEnv.schoolDailySendLimit} FROM claim
        ON CONFLICT (school, day) DO UPDATE SET sends = d.sends + 1, cap = EXCLUDED.cap
        RETURNING 1
      )
      INSERT INTO parent_daily_sends AS d (parent, day, sends, cap) SELECT parent, day, 1, ${serverEnv.parentDailySendLimit} FROM claim
      ON CONFLICT (parent, day) DO UPDATE SET sends = d.sends + 1, cap = EXCLUDED.cap`);
    return undefined;
  } catch (error) {
    if (isUniqueViolation(error, 'send_claims_one_per_pair')) return 'already_sent';
    if (isCheckViolation(error, 'school_daily_sends_within_cap')) return 'school_limit';
    if (isCheckViolation(error, 'parent_daily_sends_within_cap')) return 'parent_limit';
    throw error;
  }
}

/**
 * Gives back the claims of messages that were never confirmed (their link expired): the pair may
 * send again, and the day's counts drop by one. One statement.
 */
export async function releaseLimits(messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await query(sql`
    WITH released AS (
      DELETE FROM send_claims WHERE message_id = ANY(${messageIds}::text[]) RETURNING school, parent, day
    ), schools AS (
      UPDATE school_daily_sends d SET sends = d.sends - r.n
      FROM (SELECT school, day, count(*)::int AS n FROM released GROUP BY school, day) r
      WHERE d.school = r.school AND d.day = r.day
      RETURNING 1
    )
    UPDATE parent_daily_sends d SET sends = d.sends - r.n
    FROM (SELECT parent, day, count(*)::int AS n FROM released GROUP BY parent, day) r
    WHERE d.parent = r.parent AND d.day = r.day`);
}

/**
 * Requests not yet confirmed from one network, at most, in a day: a stranger's flood of throwaway
 * requests stops there. A request gives its place back when its parent confirms it, so a parents'
 * evening on one school Wi-Fi (forty parents, each confirming as they go, or all at the end) is
 * never stopped; a network that reaches the bound is told so plainly. The default;
 * PLATFORM_SEND_NETWORK_DAILY_REQUESTS sets it.
 */
export const REQUESTS_PER_NETWORK_DAY = 60;
const requestsPerNetworkDay = () => serverEnv.requestsPerNetworkDay;

const networkScope = (network: string) => `network:${network}`;

/**
 * Counts one request (not yet confirmed) against its network's day (one statement, within its cap
 * by a CHECK). False when the network reached its bound: nothing is written and the requester is
 * told, never a parent elsewhere.
 */
export async function takeRequestBound(network: string, now = new Date()): Promise<boolean> {
  try {
    await query(sql`
      INSERT INTO send_request_days AS d (scope, day, requests, cap) VALUES (${networkScope(network)}, ${day(now)}, 1, ${requestsPerNetworkDay()})
      ON CONFLICT (scope, day) DO UPDATE SET requests = d.requests + 1, cap = EXCLUDED.cap`);
    return true;
  } catch (error) {
    if (isCheckViolation(error, 'send_request_days_within_cap')) return false;
    throw error;
  }
}

/** Gives a confirmed request's place back to the network (and day) it was asked from. */
export async function giveBackRequestBound(network: string, askedAt: Date): Promise<void> {
  await query(sql`UPDATE send_request_days SET requests = greatest(requests - 1, 0) WHERE scope = ${networkScope(network)} AND day = ${day(askedAt)}`);
}

/** Removes the day counts older than `before` (the pairs stay until their message is purged). */
export async function purgeOldSlots(before: Date): Promise<number> {
  const schools = await query(sql`DELETE FROM school_daily_sends WHERE day < ${day(before)} RETURNING 1`);
  const parents = await query(sql`DELETE FROM parent_daily_sends WHERE day < ${day(before)} RETURNING 1`);
  const requests = await query(sql`DELETE FROM send_request_days WHERE day < ${day(before)} RETURNING 1`);
  return schools.length + parents.length + requests.length;
}
