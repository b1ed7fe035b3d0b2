#!/usr/bin/env node
/**
 * `npm run load`: a bounded load test on loopback against `npm start`. It stops by itself.
 *  1. 2,000 nominations at concurrency 50: each must be stored exactly once (counted in the
 *     local database), with p50/p99 latency and throughput printed.
 *  2. 500 signed Calendly deliveries, a quarter of them duplicates: exactly one log per event
 *     (see scripts/load/calendly.mjs; it needs the admin API to register a signing key).
 *  3. "Send via our platform": 500 confirmations for 200 school addresses, the caps held and every
 *     email sent reaching HubSpot exactly once (scripts/load/platform-send.mjs).
 * HubSpot is the local fake (tests/fakes/hubspot.ts), started here on loopback.
 * The clients keep 50 requests open; the origin sees at most LOAD_ORIGIN_CONCURRENCY (default 6)
 * at once, as Netlify would spread them over warm instances (npm start keeps warm instances too,
 * scripts/local-functions/warm-pool.mjs, but each call at once needs an instance of its own, and 50
 * threads importing a function at once on two cores ran netlify-cli out of memory when every call
 * was a cold start).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { percentile, pool } from './bench/_load.mjs';
import { root, table, withServer } from './bench/_server.mjs';
import { databaseUrlFile, resetLocalDatabase } from './local-database.mjs';
import { readFileSync, statSync } from 'node:fs';

const port = Number(process.env.LOAD_PORT || 8894);
const TOTAL = Number(process.env.LOAD_NOMINATIONS || 2000);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY || 50);
const ORIGIN_CONCURRENCY = Number(process.env.LOAD_ORIGIN_CONCURRENCY || 6);

/** Every record (the `record` column) of a table of the local database that `npm start` runs. */
export async function storedRecords(tableName) {
  if (!/^[a-z_]+$/.test(tableName)) throw new Error(`not a table name: ${tableName}`);
  const client = new pg.Client({ connectionString: readFileSync(databaseUrlFile, 'utf8').trim() });
  await client.connect();
  try {
    return (await client.query(`SELECT record FROM ${tableName}`)).rows.map((row) => row.record);
  } finally {
    await client.end();
  }
}

resetLocalDatabase();
const { startHubSpotFake } = await import(pathToFileURL(join(root, 'tests', 'fakes', 'hubspot.ts')).href);
const fake = await startHubSpotFake({ formsFile: join(root, 'dist', 'api', 'form-definitions.json') });
Object.assign(process.env, {
  HUBSPOT_ACCESS_TOKEN: fake.token,
  HUBSPOT_BASE_PATH: fake.url,
  HUBSPOT_FORMS_BASE_PATH: fake.url,
  HUBSPOT_RETRY_BASE_MS: '20',
  // Confirmed school emails go out through the fake's transactional single-send.
  HUBSPOT_TRANSACTIONAL_EMAIL_ID: '4242',
  SCHOOL_EMAIL_FROM_ADDRESS: 'schools@masteryparents.example',
  BLOG_SOURCE: 'local',
  FORMS_SOURCE: 'local',
  // One address sends everything here, faster than a person.
  FORMS_RATE_LIMIT: '1000000',
  // Calendly's 500 deliveries come from this one address too (the receiver's own limit is unit-tested).
  CALENDLY_RATE_LIMIT: '1000000',
  FORMS_MIN_FILL_MS: '0',
});
await withServer(
  port,
  async (base) => {
    // The emulator's own cost per call, for reading the figures below.
    const cold = await pool(10, 1, async () => (await fetch(`${base}/api/health`)).arrayBuffer());
    console.log(`netlify serve: GET /api/health (a function doing nothing) p50 ${percentile(cold, 50).toFixed(0)} ms, one at a time.\n`);
    const run = `load-${Date.now()}`;
    let failures = 0;
    const statuses = new Map();
    const started = performance.now();
    const latencies = await pool(TOTAL, CONCURRENCY, async (i) => {
      const response = await fetch(`${base}/api/nominations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          schoolName: `Load Test Academy ${i}`,
          city: 'Austin',
          yourName: `${run}-${i}`,
          email: `parent${i}@example.org`,
          childGrade: '5th',
          sendTo: 'principal@example.org',
        }),
      }).catch(() => undefined);
      statuses.set(response?.status ?? 0, (statuses.get(response?.status ?? 0) ?? 0) + 1);
      if (response?.status !== 201) failures++;
      await response?.arrayBuffer();
    });
    const seconds = (performance.now() - started) / 1000;
    const names = (await storedRecords('nominations'))
      .map((record) => record.data?.yourName)
      .filter((name) => typeof name === 'string' && name.startsWith(run));
    const distinct = new Set(names);
    table(
      ['test', 'requests', 'concurrency', 'at origin', 'answers', 'stored', 'distinct', 'p50', 'p99', 'throughput'],
      [
        [
          'POST /api/nominations',
          TOTAL,
          CONCURRENCY,
          ORIGIN_CONCURRENCY,
          [...statuses].map(([status, n]) => `${status}×${n}`).join(' '),
          names.length,
          distinct.size,
          `${percentile(latencies, 50).toFixed(1)} ms`,
          `${percentile(latencies, 99).toFixed(1)} ms`,
          `${(TOTAL / seconds).toFixed(0)} req/s`,
        ],
      ],
    );
    const exact = failures === 0 && names.length === TOTAL && distinct.size === TOTAL;
    console.log(
      exact
        ? `\nEvery nomination stored exactly once (${TOTAL}).`
        : `\nMISMATCH: ${failures} failed answers, ${names.length} stored, ${distinct.size} distinct of ${TOTAL}.`,
    );

    const calendly = join(root, 'scripts', 'load', 'calendly.mjs');
    try {
      statSync(calendly);
      const { runCalendlyLoad } = await import(pathToFileURL(calendly).href);
      await runCalendlyLoad(base, { storedRecords, pool, percentile, table });
    } catch (error) {
      if (error?.code !== 'ENOENT') throw error;
      console.log('\n(Calendly delivery load: scripts/load/calendly.mjs is not present.)');
    }
    const { runPlatformSendLoad } = await import(pathToFileURL(join(root, 'scripts', 'load', 'platform-send.mjs')).href);
    console.log('\n"Send via our platform":\n');
    const platformExact = await runPlatformSendLoad(base, {
      pool,
      percentile,
      table,
      hubspot: { contacts: async () => [...fake.contacts.values()], calls: async () => fake.calls, transactionalSends: async () => fake.transactionalSends },
    });
    if (!exact || !platformExact) process.exitCode = 1;
  },
  { maxInFlight: ORIGIN_CONCURRENCY },
);
await fake.close();
