/**
 * Failed sign-in counting per IP and per username, in Blobs (one small record per key), so that
 * guessing is slowed and then refused for a while.
 */
import { createHash } from 'node:crypto';
import { serverEnv } from './env';
import { HttpError } from './http';
import { store, withStore } from './store';

export const WINDOW_MS = 15 * 60_000;
export const LIMITS = { username: 5, ip: 20 } as const;

interface Counter {
  failures: number;
  windowStart: number;
}

const limits = () => store('rate-limits', { strong: true });
const keyOf = (kind: keyof typeof LIMITS, value: string) =>
  `login/${kind}/${createHash('sha256').update(value.toLowerCase()).digest('hex')}`;

async function read(key: string): Promise<Counter> {
  const counter = (await withStore(() => limits().get(key, { type: 'json' }))) as Counter | null;
  if (!counter || Date.now() - counter.windowStart > WINDOW_MS) return { failures: 0, windowStart: Date.now() };
  return counter;
}

type Subject = { ip: string; username: string };
const keys = (subject: Subject) => [
  { key: keyOf('ip', subject.ip), limit: LIMITS.ip },
  { key: keyOf('username', subject.username), limit: LIMITS.username },
];

/** Throws 429 while either the IP or the username has used up its failed attempts. */
export async function assertNotLocked(subject: Subject): Promise<void> {
  for (const { key, limit } of keys(subject)) {
    const counter = await read(key);
    if (counter.failures >= limit) {
      const minutes = Math.max(1, Math.ceil((counter.windowStart + WINDOW_MS - Date.now()) / 60_000));
      throw new HttpError(
        429,
        'too_many_attempts',
        `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      );
    }
  }
}

/** Counts a failure and waits a little longer after each one. */
export async function recordFailure(subject: Subject): Promise<void> {
  let worst = 0;
  for (const { key } of keys(subject)) {
    const counter = await read(key);
    counter.failures += 1;
    worst = Math.max(worst, counter.failures);
    await withStore(() => limits().setJSON(key, counter));
  }
  const delay = serverEnv.adminLoginDelayMs * Math.min(worst, 8);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

export async function clearFailures(subject: Subject): Promise<void> {
  for (const { key } of keys(subject)) await withStore(() => limits().delete(key));
}

/** The window of the forms' per-address limit. */
export const FORM_WINDOW_MS = 10 * 60_000;

/**
 * Counts one form submission from `ip` in the current 10-minute window and says whether it is
 * within `limit`. The count is a compare-and-swap on one small record, so concurrent submissions
 * are each counted once.
 */
export async function takeFormSubmission(ip: string, limit: number, now = Date.now()): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const windowStart = now - (now % FORM_WINDOW_MS);
  const key = `forms/${createHash('sha256').update(ip).digest('hex')}/${windowStart}`;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + FORM_WINDOW_MS - now) / 1000));
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = await withStore(() => limits().getWithMetadata(key, { type: 'json' }));
    const count = (found?.data as { count?: number } | undefined)?.count ?? 0;
    if (count >= limit) return { allowed: false, retryAfterSeconds };
    const next = { count: count + 1, windowStart };
    const { modified } = await withStore(() => (found ? limits().setJSON(key, next, { onlyIfMatch: found.etag ?? '' }) : limits().setJSON(key, next, { onlyIfNew: true })));
    if (modified) return { allowed: true, retryAfterSeconds };
  }
  // Heavily contended: treat as over the limit rather than count wrongly.
  return { allowed: false, retryAfterSeconds };
}

/** Deletes the forms' counters of windows that are over. */
export async function purgeFormCounters(now = Date.now()): Promise<number> {
  const { blobs } = await withStore(() => limits().list({ prefix: 'forms/' }));
  let purged = 0;
  for (const { key } of blobs) {
    const windowStart = Number(key.split('/')[2]);
    if (windowStart + FORM_WINDOW_MS < now) {
      await withStore(() => limits().delete(key));
      purged++;
    }
  }
  return purged;
}
