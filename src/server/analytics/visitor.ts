/**
 * Who counts as one visitor, without tracking anyone (the method of privacy-first analytics such
 * as Plausible): a keyed hash of the client's network and browser under a key that changes every
 * day, derived from CONFIG_ENCRYPTION_KEY and the date. The same browser on the same network is one
 * visitor for a day and a stranger the next; the address and the user agent are never stored, and
 * the raw events that carry the hash are deleted once their day is rolled up (rollup.ts).
 *
 * Not counted at all: a browser that asks not to be (Do-Not-Track, Global Privacy Control), and
 * bots (`isbot`, the maintained list of crawler user agents).
 */
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { isbot } from 'isbot';
import { serverEnv } from '../env';
import { clientIp } from '../http';
import { clientAddressKey } from '../identity';

/** The UTC day of a moment, as YYYY-MM-DD. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The day's key: a new one every UTC day, never stored. */
function dayKey(day: string): Buffer {
  const secret = serverEnv.configEncryptionKey ?? 'local-insights';
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from(day, 'utf8'), 'mastery-parents visitors v1', 32));
}

/** The visitor of a request on a day: 32 hex characters, or undefined without an address. */
export function visitorHash(req: Request, context: unknown, day: string): string | undefined {
  const ip = clientIp(req, context);
  if (!ip || ip === 'unknown') return undefined;
  const agent = req.headers.get('user-agent') ?? '';
  const host = new URL(req.url).host;
  return createHmac('sha256', dayKey(day))
    .update(`${host}|${clientAddressKey(ip)}|${agent}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
}

/** The browser asked not to be counted: Do-Not-Track or Global Privacy Control. */
export function declinesCounting(req: Request): boolean {
  return req.headers.get('dnt') === '1' || req.headers.get('sec-gpc') === '1';
}

/** A crawler, a preview fetcher or a script that says what it is (or says nothing at all). */
export function isBotRequest(req: Request): boolean {
  const agent = req.headers.get('user-agent') ?? '';
  return !agent.trim() || isbot(agent);
}

/** Whether a request may be counted: not a bot, and not one that asked us not to. */
export function countable(req: Request): boolean {
  return !declinesCounting(req) && !isBotRequest(req);
}

/** A stable number in [0, n) for a visitor and a name (an experiment's variant), the same all day. */
export function bucketOf(visitor: string, name: string, n: number): number {
  const digest = createHash('sha256').update(`${visitor}|${name}`, 'utf8').digest();
  return digest.readUInt32BE(0) % n;
}
