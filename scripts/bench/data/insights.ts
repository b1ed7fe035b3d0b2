/**
 * The insight queries as the events grow (issue 30): GET /api/admin/insights (funnel, per-day
 * lines, every breakdown) from the site's launch and for the last 30 days, and GET
 * /api/admin/experiments, after 1,000 events and after 1,000,000 spread over a year and rolled up
 * as the hourly `insights-rollup` does. The tab reads days, so the cost should follow the days
 * and values shown, not the events.
 */
import type { NetlifyDB } from '@netlify/database-dev';

/** What the bench needs of a database: statements run as given (the emulator, or our socket-tuned one). */
type Database = Pick<NetlifyDB, 'exec'>;
import { rollUpDays } from '../../../src/server/analytics/rollup';
import { percentile } from '../_load.mjs';

type Handler = (req: Request, context?: unknown) => Promise<Response>;

const DAY_MS = 24 * 3600_000;

/** `events` events over the `days` days before today (none today), then rolled up. */
async function seedEvents(db: Database, events: number, days: number, tag: string): Promise<void> {
  const start = new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
  await db.exec(`
    INSERT INTO analytics_events (day, name, visitor, page, source, campaign, ambassador, variant, letter, school, kind, journey)
    SELECT '${start}'::date + (n % ${days}),
           (ARRAY['page_view','page_view','page_view','page_view','form_start','draft','send_request','confirmed','delivered','answer'])[1 + n % 10],
           substr(md5('${tag}' || (n % 50000)), 1, 32),
           (ARRAY['/','/lead-the-change','/faqs','/schools/*','/why-this-matters'])[1 + n % 5],
           CASE WHEN n % 3 = 0 THEN NULL ELSE 'source-' || (n % 40) END,
           CASE WHEN n % 4 = 0 THEN 'campaign-' || (n % 12) END,
           CASE WHEN n % 9 = 0 THEN 'amb-' || (n % 30) END,
           NULL,
           (ARRAY['two-focused-hours','every-child-at-their-pace','a-question-from-a-parent'])[1 + n % 3],
           substr(md5('school' || (n % 2000)), 1, 32),
           CASE WHEN n % 10 = 4 THEN 'email_generator' WHEN n % 10 = 9 THEN 'replied' END,
           NULL
    FROM generate_series(1, ${events}) AS n;
    ANALYZE analytics_events;
  `);
  await rollUpDays(new Date(), Number.POSITIVE_INFINITY);
  await db.exec('ANALYZE');
}

async function timed(runs: number, task: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function measureInsights(
  db: Database,
  input: { origin: string; cookie: string; runs: number; events: number; load: (name: string) => Promise<Handler> },
): Promise<string[][]> {
  const [insights, experiments] = await Promise.all([input.load('insights-admin'), input.load('experiments-admin')]);
  const get = (handler: Handler, path: string) => async () => {
    const response = await handler(new Request(`${input.origin}${path}`, { headers: { cookie: input.cookie } }), { ip: '203.0.113.1' });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.arrayBuffer();
  };
  const last30 = new Date(Date.now() - 30 * DAY_MS).toISOString().slice(0, 10);
  const measure = async (label: string) =>
    (
      [
        ['GET /api/admin/insights (since the launch)', await timed(input.runs, get(insights, '/api/admin/insights'))],
        ['GET /api/admin/insights (last 30 days)', await timed(input.runs, get(insights, `/api/admin/insights?from=${last30}`))],
        ['GET /api/admin/experiments', await timed(input.runs, get(experiments, '/api/admin/experiments'))],
      ] as const
    ).map(([name, times]) => [label, name, percentile([...times], 50).toFixed(1), percentile([...times], 99).toFixed(1)]);

  await seedEvents(db, 1_000, 365, 'small');
  const small = await measure('1,000 events');
  await seedEvents(db, input.events - 1_000, 365, 'large');
  const large = await measure(`${input.events.toLocaleString('en-US')} events`);
  return [...small, ...large];
}
