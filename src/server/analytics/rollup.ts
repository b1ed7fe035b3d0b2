/**
 * Daily roll-ups: once a day is over, its raw events become one row per event, dimension and
 * value (`analytics_daily`: events, distinct visitors) and the raw events (and their visitor
 * hashes) are deleted in the same statement. The Insights tab reads days, not events: the rolled
 * days from the roll-up, and only the day or two not yet rolled from the raw events.
 *
 * Kept 13 months (`purgeInsights`, the scheduled `insights-rollup`).
 */
import { query, sql } from '../db';
import { dayOf } from './visitor';

export const dimensions = ['all', 'page', 'source', 'campaign', 'ambassador', 'variant', 'letter', 'school', 'kind'] as const;
export type Dimension = (typeof dimensions)[number];

/** A visit with no referring site and no campaign. */
export const DIRECT = '(direct)';
/** Roll-ups and journeys are kept this long. */
export const RETENTION_MONTHS = 13;
/** A day is rolled up once it has been over this long (an event written at 23:59:59 is in). */
const SETTLE_MS = 60 * 60_000;

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
};

/** Rolls up one day: its figures written, its raw events deleted, the day marked; one statement. */
export async function rollUpDay(day: string): Promise<void> {
  const parts = dimensions.map(
    (dimension) =>
      sql`SELECT e.name, ${dimension}::text AS dimension, ${dimensionValue[dimension]}::text AS value, e.visitor FROM analytics_events e WHERE e.day = ${day}::date AND ${dimensionValue[dimension]} IS NOT NULL`,
  );
  await query(sql`
    WITH rows AS (${unionAll(parts)}),
    written AS (
      INSERT INTO analytics_daily (day, name, dimension, value, events, visitors)
      SELECT ${day}::date, name, dimension, left(value, 200), count(*)::int, count(DISTINCT visitor)::int FROM rows GROUP BY name, dimension, left(value, 200)
      ON CONFLICT (day, name, dimension, value) DO UPDATE SET events = analytics_daily.events + EXCLUDED.events, visitors = analytics_daily.visitors + EXCLUDED.visitors
      RETURNING 1
    ),
    marked AS (INSERT INTO analytics_rolled_days (day, rolled_at) VALUES (${day}::date, now()) ON CONFLICT (day) DO NOTHING RETURNING 1)
    DELETE FROM analytics_events WHERE day = ${day}::date`);
}

/** Fragments joined by UNION ALL (fixed text between them). */
function unionAll(parts: Array<ReturnType<typeof sql>>) {
  return parts.slice(1).reduce((joined, part) => sql`${joined} UNION ALL ${part}`, parts[0]!);
}

/** Rolls up every day that is over and still has raw events; returns the days rolled. */
export async function rollUpDays(now = new Date()): Promise<string[]> {
  const settled = dayOf(new Date(now.getTime() - SETTLE_MS));
  const days = await query<{ day: string }>(sql`SELECT DISTINCT day::text AS day FROM analytics_events WHERE day < ${settled}::date ORDER BY day`);
  for (const { day } of days) await rollUpDay(day);
  return days.map(({ day }) => day);
}

/** Deletes roll-ups and journeys past 13 months, and the beacon's finished rate windows. */
export async function purgeInsights(now = new Date()): Promise<number> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - RETENTION_MONTHS);
  const rows = await query<{ n: number }>(sql`
    WITH daily AS (DELETE FROM analytics_daily WHERE day < ${dayOf(cutoff)}::date RETURNING 1),
    rolled AS (DELETE FROM analytics_rolled_days WHERE day < ${dayOf(cutoff)}::date RETURNING 1),
    journeys AS (DELETE FROM analytics_journeys WHERE created_at < ${cutoff} RETURNING 1),
    windows AS (DELETE FROM analytics_rate_windows WHERE window_start < ${new Date(now.getTime() - 5 * 60_000)} RETURNING 1)
    SELECT (SELECT count(*) FROM daily) + (SELECT count(*) FROM rolled) + (SELECT count(*) FROM journeys) + (SELECT count(*) FROM windows) AS n`);
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
