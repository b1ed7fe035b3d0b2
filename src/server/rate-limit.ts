/**
 * Failed sign-in counting per username and address together, per address and per username, and
 * the forms' per-address limit, in the database: each count is one atomic statement, so parallel
 * requests are each counted once.
 */
import { createHash } from 'node:crypto';
import { query, queryOne, sql } from './db';
import { serverEnv } from './env';
import { HttpError } from './http';
import { clientAddressKey } from './identity';

export const WINDOW_MS = 15 * 60_000;
/**
 * Failed sign-ins allowed per window: for one username from one address (`pair`), from one
 * address whatever the username (`ip`, larger), and for one username from anywhere
 * (`username`). A device that has signed in before (`knownDevice`, its signed cookie) is exempt
 * from the per-username lock, and its `pair` is the username on that device rather than on its
 * address: strangers guessing from elsewhere, or from the same café's network, never lock the
 * owner out of their own device. The per-address limit holds for everyone.
 */
export const LIMITS = { pair: 5, ip: 20, username: 10 } as const;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const subjectOf = (kind: keyof typeof LIMITS, value: string) => `${kind}:${digest(value.toLowerCase())}`;

/** `knownDevice`: the id of the device's known-device cookie, when it has a valid one. */
export type SignInSubject = { ip: string; username: string; knownDevice?: string };
const subjects = (subject: SignInSubject) => {
  const network = clientAddressKey(subject.ip);
  return [
    {
      key: subjectOf('pair', subject.knownDevice ? `${subject.username}|device:${subject.knownDevice}` : `${subject.username}|${network}`),
      limit: LIMITS.pair,
    },
    { key: subjectOf('ip', network), limit: LIMITS.ip },
    ...(subject.knownDevice ? [] : [{ key: subjectOf('username', subject.username), limit: LIMITS.username }]),
  ];
};

function lockedFor(windowStart: Date, now: number): HttpError {
  const minutes = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 60_000));
  return new HttpError(429, 'too_many_attempts', `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
}

/**
 * Takes one sign-in attempt for each of the request's subjects, or throws 429 while any of them
 * has used up its attempts in the window. One statement: nothing is counted when one subject is
 * locked, and of parallel requests each is counted once, none past a limit. The attempt is
 * counted here, before the password is checked (`clearFailures` forgets it on success), so forty
 * guesses at once get at most five checks.
 */
export async function assertNotLocked(subject: SignInSubject, now = Date.now()): Promise<void> {
  const windowFloor = new Date(now - WINDOW_MS);
  const at = new Date(now);
  const wanted = subjects(subject);
  const keys = wanted.map(({ key }) => key);
  const limits = wanted.map(({ limit }) => limit);
  const row = await queryOne<{ taken: number; locked_since: Date | null }>(sql`
    WITH wanted AS (SELECT * FROM unnest(${keys}::text[], ${limits}::int[]) AS w(subject, lim)),
    locked AS (
      SELECT a.window_start FROM login_attempts a JOIN wanted w ON w.subject = a.subject
      WHERE a.window_start >= ${windowFloor} AND a.failures >= w.lim
    ),
    taken AS (
      INSERT INTO login_attempts AS a (subject, failures, window_start)
      SELECT subject, 1, ${at} FROM wanted WHERE NOT EXISTS (SELECT 1 FROM locked)
      ON CONFLICT (subject) DO UPDATE
        SET failures = CASE WHEN a.window_start < ${windowFloor} THEN 1 ELSE a.failures + 1 END,
            window_start = CASE WHEN a.window_start < ${windowFloor} THEN ${at} ELSE a.window_start END
        WHERE a.window_start < ${windowFloor}
           OR a.failures < CASE split_part(a.subject, ':', 1) WHEN 'pair' THEN ${LIMITS.pair}::int WHEN 'ip' THEN ${LIMITS.ip}::int ELSE ${LIMITS.username}::int END
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM taken) AS taken, (SELECT min(window_start) FROM locked) AS locked_since`);
  if (!row || row.taken < keys.length) throw lockedFor(row?.locked_since ?? at, now);
}

/** After a wrong password (already counted): waits a little longer after each one. */
export async function recordFailure(subject: SignInSubject): Promise<void> {
  const keys = subjects(subject).map(({ key }) => key);
  const rows = await query<{ failures: number }>(sql`SELECT failures FROM login_attempts WHERE subject = ANY(${keys})`);
  const worst = Math.max(0, ...rows.map((row) => row.failures));
  const delay = serverEnv.adminLoginDelayMs * Math.min(worst, 8);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

/**
 * After a successful sign-in (the right password): forgets the failures of this username from
 * this address (or device) and for this username anywhere, which lifts a lock strangers put on
 * the owner's other devices; takes back the attempt this sign-in counted for the address, whose
 * other failures run out with their window. One statement.
 */
export async function clearFailures(subject: SignInSubject): Promise<void> {
  const pair = subjects(subject)[0]!.key;
  const username = subjectOf('username', subject.username);
  const ip = subjectOf('ip', clientAddressKey(subject.ip));
  await query(sql`
    WITH forgotten AS (DELETE FROM login_attempts WHERE subject = ANY(${[pair, username]}::text[]) RETURNING 1)
    UPDATE login_attempts SET failures = greatest(failures - 1, 0) WHERE subject = ${ip}`);
}

/** The window of the forms' per-address limit. */
export const FORM_WINDOW_MS = 10 * 60_000;

/**
 * Counts one form submission from `client` (an address, or an IPv6 /64 prefix) in the current
 * 10-minute window and says whether it is within `limit`. One upsert: concurrent submissions are
 * each counted once, and one over the limit is not counted.
 */
export async function takeFormSubmission(client: string, limit: number, now = Date.now()): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowStart = now - (now % FORM_WINDOW_MS);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + FORM_WINDOW_MS - now) / 1000));
  const counted = await queryOne<{ submissions: number }>(sql`
    INSERT INTO form_rate_windows AS w (client, window_start, submissions) VALUES (${digest(client)}, ${new Date(windowStart)}, 1)
    ON CONFLICT (client, window_start) DO UPDATE SET submissions = w.submissions + 1 WHERE w.submissions < ${limit}
    RETURNING submissions`);
  return { allowed: limit > 0 && counted !== undefined, retryAfterSeconds };
}

/** Deletes the counters of windows that are over (sign-in and forms). */
export async function purgeFormCounters(now = Date.now()): Promise<number> {
  const forms = await query(sql`DELETE FROM form_rate_windows WHERE window_start < ${new Date(now - FORM_WINDOW_MS)} RETURNING 1`);
  const logins = await query(sql`DELETE FROM login_attempts WHERE window_start < ${new Date(now - WINDOW_MS)} RETURNING 1`);
  return forms.length + logins.length;
}

/** Deletes the sign-in counters whose window is over; returns how many. */
export async function purgeLoginAttempts(now = Date.now()): Promise<number> {
  return (await query(sql`DELETE FROM login_attempts WHERE window_start < ${new Date(now - WINDOW_MS)} RETURNING 1`)).length;
}
