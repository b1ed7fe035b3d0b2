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
