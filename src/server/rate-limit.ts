/**
 * Failed sign-in counting per address and per username, and the forms' per-address limit, in the
 * database: each count is one atomic upsert, so parallel requests are each counted once.
 */
import { createHash } from 'node:crypto';
import { query, queryOne, sql } from './db';
import { serverEnv } from './env';
import { HttpError } from './http';

export const WINDOW_MS = 15 * 60_000;
export const LIMITS = { username: 5, ip: 20 } as const;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const subjectOf = (kind: keyof typeof LIMITS, value: string) => `${kind}:${digest(value.toLowerCase())}`;

type Subject = { ip: string; username: string };
const subjects = (subject: Subject) => [
  { key: subjectOf('ip', subject.ip), limit: LIMITS.ip },
  { key: subjectOf('username', subject.username), limit: LIMITS.username },
];

function lockedFor(windowStart: Date, now: number): HttpError {
  const minutes = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 60_000));
  return new HttpError(429, 'too_many_attempts', `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
}

/**
 * Takes one sign-in attempt for the address and the username, or throws 429 while either has used
 * up its attempts in the window. The attempt is counted here, before the password is checked
 * (`clearFailures` forgets it on success), so forty guesses at once get at most five checks.
 */
export async function assertNotLocked(subject: Subject, now = Date.now()): Promise<void> {
  const windowFloor = new Date(now - WINDOW_MS);
  const at = new Date(now);
  for (const { key, limit } of subjects(subject)) {
    const taken = await queryOne<{ failures: number }>(sql`
      INSERT INTO login_attempts AS a (subject, failures, window_start) VALUES (${key}, 1, ${at})
      ON CONFLICT (subject) DO UPDATE
        SET failures = CASE WHEN a.window_start < ${windowFloor} THEN 1 ELSE a.failures + 1 END,
            window_start = CASE WHEN a.window_start < ${windowFloor} THEN ${at} ELSE a.window_start END
        WHERE a.window_start < ${windowFloor} OR a.failures < ${limit}
      RETURNING failures`);
    if (!taken) {
      const row = await queryOne<{ window_start: Date }>(sql`SELECT window_start FROM login_attempts WHERE subject = ${key}`);
      throw lockedFor(row?.window_start ?? at, now);
    }
  }
}

/** After a wrong password (already counted): waits a little longer after each one. */
export async function recordFailure(subject: Subject): Promise<void> {
  const keys = subjects(subject).map(({ key }) => key);
  const rows = await query<{ failures: number }>(sql`SELECT failures FROM login_attempts WHERE subject = ANY(${keys})`);
  const worst = Math.max(0, ...rows.map((row) => row.failures));
  const delay = serverEnv.adminLoginDelayMs * Math.min(worst, 8);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

export async function clearFailures(subject: Subject): Promise<void> {
  const keys = subjects(subject).map(({ key }) => key);
  await query(sql`DELETE FROM login_attempts WHERE subject = ANY(${keys})`);
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
