/**
 * Function latency under load: each endpoint called 200 times by 50 clients against `npm start`,
 * the origin seeing at most BENCH_ORIGIN_CONCURRENCY (default 6) at once (see scripts/load.mjs
 * for why). `netlify serve` cold-starts a worker thread for every call, so the figures are an
 * upper bound; the first row is that floor (a function that does nothing).
 */
import { percentile, pool } from './_load.mjs';
import { table, withServer } from './_server.mjs';

export const title = 'Function latency under load (npm start)';

const CALLS = Number(process.env.BENCH_CALLS || 200);
const CLIENTS = 50;
const ORIGIN = Number(process.env.BENCH_ORIGIN_CONCURRENCY || 6);

const nomination = (i) => ({
  schoolName: `Bench Academy ${i}`,
  city: 'Austin',
  yourName: `Bench Parent ${i}`,
  email: `bench${i}@example.org`,
  childGrade: '5th',
  sendTo: 'principal@example.org',
});

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const cases = [
  ['GET /api/health (the floor)', () => ['/api/health']],
  ['GET /api/hubspot-blogs', () => ['/api/hubspot-blogs']],
  ['POST /api/nominations (stored)', (i) => ['/api/nominations', json(nomination(i))]],
  ['POST /api/nominations (invalid, 400)', (i) => ['/api/nominations', json({ ...nomination(i), email: 'not-an-email' })]],
  ['POST /api/calendly/webhook (unsigned, 401)', () => ['/api/calendly/webhook', json({ event: 'invitee.created' })]],
];

export async function run() {
  await withServer(
    Number(process.env.BENCH_PORT || 8897),
    async (base) => {
      const rows = [];
      for (const [name, make] of cases) {
        const call = async (i) => {
          const [path, init] = make(i);
          const response = await fetch(`${base}${path}`, init).catch(() => undefined);
          await response?.arrayBuffer();
          return response?.status ?? 0;
        };
        // One at a time: what a single call costs (a cold worker under netlify serve).
        const alone = await pool(20, 1, (i) => call(CALLS + i));
        const statuses = new Map();
        const started = performance.now();
        const latencies = await pool(CALLS, CLIENTS, async (i) => {
          const status = await call(i);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        });
        const seconds = (performance.now() - started) / 1000;
        rows.push([
          name,
          [...statuses].map(([status, n]) => `${status}×${n}`).join(' '),
          `${percentile(alone, 50).toFixed(0)} ms`,
          `${percentile(latencies, 50).toFixed(0)} ms`,
          `${percentile(latencies, 99).toFixed(0)} ms`,
          `${(CALLS / seconds).toFixed(1)}/s`,
        ]);
      }
      table(['endpoint', 'answers', 'alone p50', 'loaded p50', 'loaded p99', 'throughput'], rows);
      console.log(`\nAlone: 20 calls one at a time. Loaded: ${CALLS} calls from ${CLIENTS} clients, at most ${ORIGIN} at the origin at once (the rest queue).`);
    },
    { maxInFlight: ORIGIN },
  );
}
