/**
 * Voiding what a burst counted (the abuse watch's "void", src/server/abuse/void.ts): the raw page
 * views, form starts and shares and the experiment exposures that came from one network prefix in
 * a time window. Only what is still linkable can go: events of the days whose salt still exists and
 * that are not yet added up into a finished day; after that a burst is part of a day's totals.
 */
import { query, sql } from '../db';
import { networkHashesOf } from './visitor';

export interface EventVoid {
  events: number;
  exposures: number;
}

async function matching(prefix: string, from: Date, to: Date, remove: boolean): Promise<EventVoid> {
  let events = 0;
  let exposures = 0;
  for (const { day, hashes } of await networkHashesOf(prefix)) {
    const [eventRows, exposureRows] = remove
      ? await Promise.all([
          query(sql`DELETE FROM analytics_events WHERE day = ${day}::date AND network = ANY(${hashes}::text[]) AND at >= ${from} AND at < ${to} RETURNING 1`),
          query(
            sql`DELETE FROM experiment_exposures WHERE day = ${day}::date AND network = ANY(${hashes}::text[]) AND at >= ${from} AND at < ${to} RETURNING 1`,
          ),
        ])
      : await Promise.all([
          query(sql`SELECT 1 FROM analytics_events WHERE day = ${day}::date AND network = ANY(${hashes}::text[]) AND at >= ${from} AND at < ${to}`),
          query(sql`SELECT 1 FROM experiment_exposures WHERE day = ${day}::date AND network = ANY(${hashes}::text[]) AND at >= ${from} AND at < ${to}`),
        ]);
    events += eventRows.length;
    exposures += exposureRows.length;
  }
  return { events, exposures };
}

/** How many counted events and exposures a network prefix left in the window (still linkable). */
export const countNetworkEvents = (prefix: string, from: Date, to: Date) => matching(prefix, from, to, false);

/** Deletes them: the figures read without them at once (raw events are read until their day is rolled up). */
export const voidNetworkEvents = (prefix: string, from: Date, to: Date) => matching(prefix, from, to, true);
