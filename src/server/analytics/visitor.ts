/**
 * Who counts as one visitor, without tracking anyone (the method of Plausible and Fathom): a keyed
 * hash of the client's network and browser under a random salt made for the day
 * (`analytics_salts`), deleted once the next day is over. The same browser on the same network is
 * one visitor for a day and a stranger the next; the address and the user agent are never stored,
 * and once its salt is gone nobody, with or without the site's keys, can tell whose a hash was.
 *
 * - One machine is not a crowd: the raw events keep the network (also hashed under the day's
 *   salt) and a network counts at most `NETWORK_VISITORS` visitors a day (record.ts); the rest of
 *   its browsers count as one.
 * - Not counted at all: a browser that asks not to be (Do-Not-Track, Global Privacy Control), bots
 *   (`isbot`, the maintained list of crawler user agents), requests from the networks of cloud and
 *   hosting companies (`data-centres.ts`), and requests without a browser's own
 *   signals (`Sec-Fetch-*` and `Accept-Language`, which every browser sends with a beacon and
 *   scripts leave out unless they are written to forge them).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { query, queryOne, sql } from '../db';
import { clientIp } from '../http';
import { clientAddressKey } from '../identity';
import { isDataCentre } from './data-centres';

/** The UTC day of a moment, as YYYY-MM-DD. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Browsers one network counts as separate visitors in a day; more are counted as one. */
export const NETWORK_VISITORS = 30;

const salts = new Map<string, Promise<Buffer>>();

/** The day's random salt: made by whichever instance asks first, the same for all. */
export function saltOf(day: string): Promise<Buffer> {
  let salt = salts.get(day);
  if (!salt) {
    salt = (async () => {
      const made = await queryOne<{ salt: Buffer }>(sql`
        WITH made AS (INSERT INTO analytics_salts (day, salt) VALUES (${day}::date, ${randomBytes(32)}) ON CONFLICT (day) DO NOTHING RETURNING salt)
        SELECT salt FROM made UNION ALL SELECT salt FROM analytics_salts WHERE day = ${day}::date LIMIT 1`);
      if (!made) throw new Error('no salt for the day');
      return Buffer.from(made.salt);
    })();
    salts.set(day, salt);
    salt.catch(() => salts.delete(day));
    for (const known of salts.keys()) if (known < day && salts.size > 3) salts.delete(known);
  }
  return salt;
}

/**
 * Forgets the salts this instance holds, so that the next hash reads (or makes) the day's salt in
 * the database again. For a database emptied under a running instance, as the tests empty theirs
 * between two tests: the salt kept in memory would no longer be the one the database has, and a
 * void could not find the network's events by it.
 */
export function forgetCachedSalts(): void {
  salts.clear();
}

/** Deletes every salt older than yesterday: a hash of the day before cannot be made again. */
export async function forgetOldSalts(now = new Date()): Promise<number> {
  const yesterday = dayOf(new Date(now.getTime() - 24 * 3600_000));
  for (const day of salts.keys()) if (day < yesterday) salts.delete(day);
  const rows = await query(sql`DELETE FROM analytics_salts WHERE day < ${yesterday}::date RETURNING 1`);
  return rows.length;
}

const keyed = (salt: Buffer, text: string) => createHmac('sha256', salt).update(text, 'utf8').digest('hex').slice(0, 32);

/** The client's network as the day's keyed hash (32 hex), or undefined without an address. */
export async function networkHash(req: Request, context: unknown, day: string): Promise<string | undefined> {
  const ip = clientIp(req, context);
  if (!ip || ip === 'unknown') return undefined;
  return keyed(await saltOf(day), `network|${clientAddressKey(ip)}`);
}

/** The visitor of a request on a day: 32 hex characters, or undefined without an address. */
export async function visitorHash(req: Request, context: unknown, day: string): Promise<string | undefined> {
  const ip = clientIp(req, context);
  if (!ip || ip === 'unknown') return undefined;
  const agent = req.headers.get('user-agent') ?? '';
  const host = new URL(req.url).host;
  return keyed(await saltOf(day), `${host}|${clientAddressKey(ip)}|${agent}`);
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

/** Whether a request may be counted: not a bot, not from a data centre's network, and not one that asked us not to. */
export function countable(req: Request, context: unknown): boolean {
  return !declinesCounting(req) && !isBotRequest(req) && !isDataCentre(clientIp(req, context));
}

/**
 * A browser's own signals on a request it makes for a page (the beacon, a page drawn by a
 * function): the Fetch Metadata headers and a language. A script that sends none of them is not
 * a person's browser.
 */
export function hasBrowserSignals(req: Request): boolean {
  return Boolean(req.headers.get('sec-fetch-mode') && req.headers.get('sec-fetch-site') && req.headers.get('accept-language'));
}

/** A stable number in [0, n) for a visitor and a name (an experiment's variant), the same all day. */
export function bucketOf(visitor: string, name: string, n: number): number {
  const digest = createHash('sha256').update(`${visitor}|${name}`, 'utf8').digest();
  return digest.readUInt32BE(0) % n;
}

/**
 * The day's keyed hashes of every address of a network prefix as the abuse watch names it
 * ("a.b.c.0/24": its 256 addresses, each a network of its own here; an IPv6 "…::/64": itself), for
 * the days whose salt still exists (today and yesterday). Past them nothing can be matched: the
 * salt is gone on purpose.
 */
export async function networkHashesOf(prefix: string): Promise<Array<{ day: string; hashes: string[] }>> {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/.exec(prefix);
  const keys = v4 ? Array.from({ length: 256 }, (_, last) => `${v4[1]}.${v4[2]}.${v4[3]}.${last}`) : /::\/64$/.test(prefix) ? [prefix] : [];
  if (keys.length === 0) return [];
  const rows = await query<{ day: string; salt: Buffer }>(sql`SELECT day::text AS day, salt FROM analytics_salts ORDER BY day`);
  return rows.map((row) => ({ day: row.day, hashes: keys.map((key) => keyed(Buffer.from(row.salt), `network|${key}`)) }));
}
