/**
 * Daily roll-ups: once a day is over, its raw events become one row per event, dimension and
 * value (`analytics_daily`: events, distinct visitors) and the raw events (and their visitor
 * hashes) are deleted in the same statement, a batch of whole visitors at a time within the
 * scheduled function's time; a dimension keeps its `MAX_VALUES_PER_DAY` most counted values a day. The Insights tab reads days, not events: the rolled
 * days from the roll-up, and only the day or two not yet rolled from the raw events.
 *
 * Kept 13 months (`purgeInsights`, the scheduled `insights-rollup`).
 */
import { defaultLocale, locales } from '../../config/locales';
import { query, sql } from '../db';
import { dayOf } from './visitor';

export const dimensions = ['all', 'page', 'source', 'campaign', 'ambassador', 'variant', 'letter', 'school', 'kind', 'language'] as const;
export type Dimension = (typeof dimensions)[number];

/** A visit with no referring site and no campaign. */
export const DIRECT = '(direct)';
/** Roll-ups and journeys are kept this long. */
export const RETENTION_MONTHS = 13;
/** A day is rolled up once it has been over this long (an event written at 23:59:59 is in). */
const SETTLE_MS = 60 * 60_000;

/**
 * The language of the event's page, as SQL: `/es` and `/es/…` are Spanish (`countedPage` keeps a
 * Spanish page under its prefix), every other page (and "other") the default language's.
 */
const pageLanguage = locales
  .filter((locale) => locale !== defaultLocale)
  .reduce(
    (rest, locale) => sql`CASE WHEN e.page = ${`/${locale}`}::text OR e.page LIKE ${`/${locale}/%`}::text THEN ${locale}::text ELSE ${rest} END`,
    sql`${defaultLocale}::text`,
  );

/** The value of one dimension of an event row (`e`), as SQL: fixed text, chosen by the caller. */
const dimensionValue: Record<Dimension, ReturnType<typeof sql>> = {
  all: sql`''`,
  page: sql`e.page`,
  source: sql`coalesce(e.source, ${DIRECT})`,
  campaign: sql`e.campaign`,
  ambassador: sql`e.ambassador`,
  variant: sql`e.variant`,
  letter: sql`e.letter`,
  school: sql`e.school`,
  kind: sql`e.kind`,
  language: pageLanguage,
};

/** Values one dimension keeps per day and event; the rest are added up as "other" (`foldDay`). */
export const MAX_VALUES_PER_DAY = 300;
/** The value the folded rest of a day's values is kept as. */
export const OTHER = 'other';
/** The scheduled roll-up stops starting new batches after this long (the function has 30 s). */
export const ROLLUP_BUDGET_MS = 20_000;

/**
 * The batches of a day: its events by the first hex digit of their visitor hash, then those
 * without one. Each batch holds whole visitors, so the distinct visitors of the batches add up.
 */
const BATCHES = [...'0123456789abcdef'].map((digit) => sql`e.visitor LIKE ${`${digit}%`}`).concat(sql`e.visitor IS NULL`);

/**
 * Rolls up one batch of a day: its figures added, its raw events deleted; one statement, so a
 * batch is either wholly counted or not at all, and a later run takes up where this one stopped.
 */
async function rollUpBatch(day: string, batch: ReturnType<typeof sql>): Promise<void> {
  const parts = dimensions.map(
    (dimension) =>
      sql`SELECT e.name, ${dimension}::text AS dimension, ${dimensionValue[dimension]}::text AS value, e.visitor FROM analytics_events e WHERE e.day = ${day}::date AND ${batch} AND ${dimensionValue[dimension]} IS NOT NULL`,
  );
  await query(sql`
    WITH rows AS (${unionAll(parts)}),
    written AS (
      INSERT INTO analytics_daily (day, name, dimension, value, events, visitors)
      SELECT ${day}::date, name, dimension, left(value, 200), count(*)::int, count(DISTINCT visitor)::int FROM rows GROUP BY name, dimension, left(value, 200)
      ON CONFLICT (day, name, dimension, value) DO UPDATE SET events = analytics_daily.events + EXCLUDED.events, visitors = analytics_daily.visitors + EXCLUDED.visitors
      RETURNING 1
    )
    DELETE FROM analytics_events e WHERE e.day = ${day}::date AND ${batch}`);
}

/**
 * Past `MAX_VALUES_PER_DAY` values of a dimension in a day (made-up referrers, campaigns a script
 * invented), the least counted are added up into one "other" row (their visitors summed: an upper
 * bound), so that nobody can make the figures grow by the row.
 */
async function foldDay(day: string): Promise<void> {
  await query(sql`
    WITH ranked AS (
      SELECT name, dimension, value, events, visitors,
        row_number() OVER (PARTITION BY name, dimension ORDER BY events DESC, visitors DESC, value) AS rank
      FROM analytics_daily WHERE day = ${day}::date AND dimension <> 'all'
    ),
    folded AS (
      DELETE FROM analytics_daily d USING ranked r
      WHERE d.day = ${day}::date AND d.name = r.name AND d.dimension = r.dimension AND d.value = r.value AND r.rank > ${MAX_VALUES_PER_DAY} AND r.value <> ${OTHER}
      RETURNING d.name, d.dimension, d.events, d.visitors
    )
    INSERT INTO analytics_daily (day, name, dimension, value, events, visitors)
    SELECT ${day}::date, name, dimension, ${OTHER}, sum(events)::int, sum(visitors)::int FROM folded GROUP BY name, dimension
    ON CONFLICT (day, name, dimension, value) DO UPDATE SET events = analytics_daily.events + EXCLUDED.events, visitors = analytics_daily.visitors + EXCLUDED.visitors`);
}

/**
 * Rolls up one day in its batches, folds its rare values and marks it rolled. With a deadline it
 * stops between batches once the time is spent and returns false (the next run goes on).
 */
export async function rollUpDay(day: string, deadline = Number.POSITIVE_INFINITY): Promise<boolean> {
  for (const batch of BATCHES) {
    if (Date.now() > deadline) return false;
    await rollUpBatch(day, batch);
  }
  await foldDay(day);
  await query(sql`INSERT INTO analytics_rolled_days (day, rolled_at) VALUES (${day}::date, now()) ON CONFLICT (day) DO NOTHING`);
  return true;
}

/** Fragments joined by UNION ALL (fixed text between them). */
function unionAll(parts: Array<ReturnType<typeof sql>>) {
  return parts.slice(1).reduce((joined, part) => sql`${joined} UNION ALL ${part}`, parts[0]!);
}

/** Rolls up every day that is over and still has raw events, within the time budget; returns the days finished. */
export async function rollUpDays(now = new Date(), budgetMs = ROLLUP_BUDGET_MS): Promise<string[]> {
  const deadline = Date.now() + budgetMs;
  const settled = dayOf(new Date(now.getTime() - SETTLE_MS));
  const days = await query<{ day: string }>(sql`SELECT DISTINCT day::text AS day FROM analytics_events WHERE day < ${settled}::date ORDER BY day`);
  const finished: string[] = [];
  for (const { day } of days) {
    if (!(await rollUpDay(day, deadline))) break;
    finished.push(day);
  }
  return finished;
}

/** Deletes roll-ups, journeys and exposures past 13 months, and the beacon's finished rate windows. */
export async function purgeInsights(now = new Date()): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - RETENTION_MONTHS);
  const rows = await query<{ n: number }>(sql`
    WITH daily AS (DELETE FROM analytics_daily WHERE day < ${dayOf(cutoff)}::date RETURNING 1),
    rolled AS (DELETE FROM analytics_rolled_days WHERE day < ${dayOf(cutoff)}::date RETURNING 1),
    journeys AS (DELETE FROM analytics_journeys WHERE created_at < ${cutoff} RETURNING 1),
    windows AS (DELETE FROM analytics_rate_windows WHERE window_start < ${new Date(now.getTime() - 5 * 60_000)} RETURNING 1),
    exposures AS (DELETE FROM experiment_exposures WHERE day < ${dayOf(cutoff)}::date RETURNING 1)
    SELECT (SELECT count(*) FROM daily) + (SELECT count(*) FROM rolled) + (SELECT count(*) FROM journeys) + (SELECT count(*) FROM windows)
      + (SELECT count(*) FROM exposures) AS n`);
  return Number(rows[0]?.n ?? 0);
}

export interface DailyFigure {
  day: string;
  name: string;
  value: string;
  events: number;
  visitors: number;
}

type FigureQuery = { from: string; to: string; names: readonly string[]; dimension: Dimension; prefix?: string };

/**
 * One dimension's rows per day and event in a period: rolled days from the roll-up, the rest
 * (today, and yesterday until it is rolled) from the raw events. `prefix` keeps the values that
 * start with it (an experiment's variants).
 */
function figureRows(input: FigureQuery) {
  const like = input.prefix ? `${input.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '%';
  const value = dimensionValue[input.dimension];
  return sql`
    SELECT day, name, value, events, visitors FROM analytics_daily
    WHERE dimension = ${input.dimension} AND day BETWEEN ${input.from}::date AND ${input.to}::date AND name = ANY(${[...input.names]}::text[]) AND value LIKE ${like}
    UNION ALL
    SELECT e.day, e.name, ${value}::text, count(*)::int, count(DISTINCT e.visitor)::int FROM analytics_events e
    WHERE e.day BETWEEN ${input.from}::date AND ${input.to}::date AND e.name = ANY(${[...input.names]}::text[])
      AND ${value} IS NOT NULL AND ${value}::text LIKE ${like}
      AND NOT EXISTS (SELECT 1 FROM analytics_rolled_days r WHERE r.day = e.day)
    GROUP BY 1, 2, 3`;
}

/** One dimension's figures per day and event in a period (see `figureRows`). */
export async function dailyFigures(input: FigureQuery): Promise<DailyFigure[]> {
  const rows = await query<DailyFigure>(sql`SELECT day::text AS day, name, value, events, visitors FROM (${figureRows(input)}) t`);
  return rows.map((row) => ({ ...row, events: Number(row.events), visitors: Number(row.visitors) }));
}

/**
 * One dimension's totals over a period, per event and value (no days): what a breakdown shows,
 * added up in the database, so the answer is one row per value however many days it spans.
 */
export async function periodTotals(input: FigureQuery): Promise<Array<Omit<DailyFigure, 'day'>>> {
  const rows = await query<Omit<DailyFigure, 'day'>>(sql`
    SELECT name, value, sum(events)::int AS events, sum(visitors)::int AS visitors FROM (${figureRows(input)}) t GROUP BY name, value`);
  return rows.map((row) => ({ ...row, events: Number(row.events), visitors: Number(row.visitors) }));
}

/**
 * A breakdown's most telling values over a period, ranked and cut in the database (most confirmed,
 * then forms sent, then visitors), so that however many values strangers made up, the tab reads
 * `limit` rows: one per value with its visitors and the steps parents took.
 */
export async function topValues(input: {
  from: string;
  to: string;
  dimension: Dimension;
  limit: number;
}): Promise<Array<{ value: string; visitors: number; drafts: number; confirmed: number; delivered: number; answers: number }>> {
  const rows = await query<{ value: string; visitors: number; drafts: number; confirmed: number; delivered: number; answers: number }>(sql`
    SELECT value,
      coalesce(sum(visitors) FILTER (WHERE name = 'page_view'), 0)::int AS visitors,
      coalesce(sum(events) FILTER (WHERE name = 'draft'), 0)::int AS drafts,
      coalesce(sum(events) FILTER (WHERE name = 'confirmed'), 0)::int AS confirmed,
      coalesce(sum(events) FILTER (WHERE name = 'delivered'), 0)::int AS delivered,
      coalesce(sum(events) FILTER (WHERE name = 'answer'), 0)::int AS answers
    FROM (${figureRows({ ...input, names: ['page_view', 'draft', 'confirmed', 'delivered', 'answer'] })}) t
    GROUP BY value ORDER BY confirmed DESC, drafts DESC, visitors DESC, value LIMIT ${input.limit}`);
  return rows.map((row) => ({
    value: row.value,
    visitors: Number(row.visitors),
    drafts: Number(row.drafts),
    confirmed: Number(row.confirmed),
    delivered: Number(row.delivered),
    answers: Number(row.answers),
  }));
}
