/**
 * The abuse watch: one compact row per request at an entry point (a form, an email draft, a "send
 * via our platform", an "I've sent it myself", a nomination), and what those rows say about the
 * last hour and the last day by network, email domain, school and form, with what runs past its
 * usual rate. A row keeps no whole IP address and no parent's address: the network as its prefix
 * (`networkPrefix`), the parent's email domain, the school's key (`schoolOf`, as the impact figures
 * count it), the form. Rows are kept `WATCH_RETENTION_MS` (the scheduled abuse-watch run purges).
 */
import { query, sql } from '../db';
import { emailDomainOf, networkPrefix } from '../identity';

export const requestKinds = ['form', 'draft', 'send', 'self_report', 'nomination'] as const;
export type RequestKind = (typeof requestKinds)[number];

/** What the watch groups requests by. */
export const watchDimensions = ['network', 'email_domain', 'school', 'form'] as const;
export type WatchDimension = (typeof watchDimensions)[number];

/** Rows are deleted this long after the request (the usual rate needs a week and an hour of them). */
export const WATCH_RETENTION_MS = 8 * 24 * 3600_000;
/** The usual hourly rate of a key is its requests over this many days before the last hour. */
export const USUAL_DAYS = 7;
/** A key trends when its last hour is at least this many times its usual hourly rate… */
export const TRENDING_FACTOR = 5;
/** …with at least this many requests in the hour (a parents' evening of ten is not a burst). */
export const TRENDING_MIN_REQUESTS = 20;
/** How many keys each dimension lists, busiest first. */
const LIST_LIMIT = 25;

const HOUR_MS = 3600_000;
const USUAL_HOURS = USUAL_DAYS * 24;

/** The column of each dimension (fixed text, never a value). */
const columns: Record<WatchDimension, ReturnType<typeof sql>> = {
  network: sql`network`,
  email_domain: sql`email_domain`,
  school: sql`school`,
  form: sql`form`,
};
export const dimensionColumn = (dimension: WatchDimension) => columns[dimension];

export interface WatchedRequest {
  kind: RequestKind;
  /** The caller's IP as the function saw it: kept only as its network prefix. */
  ip: string;
  /** The parent's address (or the nominator's): kept only as its domain. */
  email?: string;
  /** The school's key (`schoolOf` of its address, or a nomination's named school). */
  school?: string;
  form?: string;
  /** The letter a send or a self-report made, for voiding it. */
  subject?: string;
}

/**
 * Records one request. The watch must never cost a parent their request: a row it cannot write
 * is logged and left out.
 */
export async function recordRequest(request: WatchedRequest, now = new Date()): Promise<void> {
  const domain = request.email ? (emailDomainOf(request.email)?.slice(0, 253) ?? null) : null;
  try {
    await query(sql`
      INSERT INTO abuse_requests (kind, network, email_domain, school, form, subject, created_at)
      VALUES (${request.kind}, ${networkPrefix(request.ip)}, ${domain}, ${request.school?.trim().toLowerCase().slice(0, 300) || null},
              ${request.form?.slice(0, 100) || null}, ${request.subject ?? null}, ${now})`);
  } catch (error) {
    console.error('[abuse-watch] a request was not recorded:', error instanceof Error ? error.message : 'unknown error');
  }
}

export interface WatchRow {
  dimension: WatchDimension;
  key: string;
  /** Requests in the last hour and the last 24 hours. */
  hour: number;
  day: number;
  /** Requests per hour over the USUAL_DAYS before the last hour. */
  usualPerHour: number;
  /** The last hour over the usual rate (a key unseen before counts as one request in the week). */
  ratio: number;
  trending: boolean;
}

/** The ratio of a last hour to a week before it (`before` requests in USUAL_HOURS hours). */
export function trendRatio(hour: number, before: number): number {
  return hour / ((Math.max(before, 0) + 1) / USUAL_HOURS);
}

export const isTrending = (hour: number, ratio: number) => hour >= TRENDING_MIN_REQUESTS && ratio >= TRENDING_FACTOR;

/** The busiest keys of one dimension over the last day, each with its hour, day, usual rate and ratio. */
export async function watchRows(dimension: WatchDimension, now = new Date()): Promise<WatchRow[]> {
  const column = columns[dimension];
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const dayAgo = new Date(now.getTime() - 24 * HOUR_MS);
  const weekAgo = new Date(hourAgo.getTime() - USUAL_HOURS * HOUR_MS);
  const rows = await query<{ key: string; hour: number; day: number; before: number }>(sql`
    SELECT ${column} AS key,
      count(*) FILTER (WHERE created_at > ${hourAgo})::int AS hour,
      count(*) FILTER (WHERE created_at > ${dayAgo})::int AS day,
      count(*) FILTER (WHERE created_at <= ${hourAgo})::int AS before
    FROM abuse_requests
    WHERE created_at > ${weekAgo} AND created_at <= ${now} AND ${column} IS NOT NULL
    GROUP BY ${column}
    HAVING count(*) FILTER (WHERE created_at > ${dayAgo}) > 0
    ORDER BY hour DESC, day DESC, key
    LIMIT ${LIST_LIMIT}`);
  return rows.map((row) => {
    const ratio = trendRatio(row.hour, row.before);
    return {
      dimension,
      key: row.key,
      hour: row.hour,
      day: row.day,
      usualPerHour: row.before / USUAL_HOURS,
      ratio: Math.round(ratio * 10) / 10,
      trending: isTrending(row.hour, ratio),
    };
  });
}

/** Every dimension's rows, and the ones trending among them (highest ratio first). */
export async function watchSummary(now = new Date()) {
  const byDimension = Object.fromEntries(
    await Promise.all(watchDimensions.map(async (dimension) => [dimension, await watchRows(dimension, now)] as const)),
  ) as Record<WatchDimension, WatchRow[]>;
  const trending = watchDimensions.flatMap((dimension) => byDimension[dimension].filter((row) => row.trending)).sort((a, b) => b.ratio - a.ratio);
  const totals = await query<{ hour: number; day: number }>(sql`
    SELECT count(*) FILTER (WHERE created_at > ${new Date(now.getTime() - HOUR_MS)})::int AS hour, count(*)::int AS day
    FROM abuse_requests WHERE created_at > ${new Date(now.getTime() - 24 * HOUR_MS)} AND created_at <= ${now}`);
  return { generatedAt: now.toISOString(), totals: totals[0] ?? { hour: 0, day: 0 }, trending, byDimension };
}

/** Deletes the rows older than WATCH_RETENTION_MS; returns how many. */
export async function purgeWatch(now = new Date()): Promise<number> {
  const rows = await query(sql`DELETE FROM abuse_requests WHERE created_at < ${new Date(now.getTime() - WATCH_RETENTION_MS)} RETURNING 1`);
  return rows.length;
}
