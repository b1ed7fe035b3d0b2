/**
 * The local database answers a parameterised statement at once. Netlify's emulator writes each
 * answer in several small writes; without TCP_NODELAY on its sockets Nagle's algorithm held the
 * last one until node-postgres's delayed ACK, about 40 ms per statement (LocalNetlifyDB in
 * scripts/local-database.mjs turns it off). This checks that socket option by its effect, through
 * the functions' own path (src/server/db.ts: node-postgres's pool from @netlify/database).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { query, sql } from '../../src/server/db';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { allowed } from './helpers/time';

const ROUND_TRIPS = 25;
/** Several rounds, so that a burst of other work on a loaded machine cannot fail it; the Nagle delay is in every round trip of every round. */
const ROUNDS = 5;
/** 5 ms, stretched where Vitest runs at idle priority (helpers/time.ts) but never near Nagle's 40. */
const LIMIT_MS = Math.min(allowed(5), 20);

async function medianRoundTripMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const started = performance.now();
    const rows = await query<{ n: number }>(sql`SELECT ${i}::int AS n`);
    times.push(performance.now() - started);
    expect(rows[0]?.n).toBe(i);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUND_TRIPS / 2)]!;
}

let database: TestDatabase;
beforeAll(async () => {
  database = await startTestDatabase();
  // The pool's first connection is made outside the rounds.
  await query(sql`SELECT ${0}::int`);
});
afterAll(async () => {
  await database.stop();
});

test(`a parameterised statement's round trip to the local database takes under ${LIMIT_MS} ms (median)`, async () => {
  const medians: number[] = [];
  for (let round = 0; round < ROUNDS && !(medians.at(-1)! <= LIMIT_MS); round++) medians.push(await medianRoundTripMs());
  expect(Math.min(...medians), `medians of ${ROUND_TRIPS} round trips per round: ${medians.map((ms) => ms.toFixed(1)).join(', ')} ms`).toBeLessThanOrEqual(
    LIMIT_MS,
  );
});
