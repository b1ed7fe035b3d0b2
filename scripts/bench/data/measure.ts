/**
 * The data bench (scripts/bench/data.mjs): the site's own handlers, called as Netlify calls them,
 * against an in-memory local database, at 100 rows and after seeding 100,000 form submissions and
 * 50,000 outbox messages (with their drafts, claims and impact events) in bulk.
 */
import { formPurposes, forms as formConfig } from '../../../src/config/forms';
import { closeDatabase } from '../../../src/server/db';
import { useFormDefinitions } from '../../../tests/unit/helpers/forms';
import { useSiteShell } from '../../../tests/unit/helpers/site';
import { LocalNetlifyDB, migrationsDirectory } from '../../local-database.mjs';
import { percentile } from '../_load.mjs';
import { table } from '../_server.mjs';
import { measureInsights } from './insights';

type Handler = (req: Request, context?: unknown) => Promise<Response>;

const ORIGIN = 'http://localhost:8888';
const RUNS = Number(process.env.BENCH_DATA_RUNS || 60);
const SUBMISSIONS = Number(process.env.BENCH_DATA_SUBMISSIONS || 100_000);
const MESSAGES = Number(process.env.BENCH_DATA_MESSAGES || 50_000);
const EVENTS = Number(process.env.BENCH_DATA_EVENTS || 1_000_000);

async function timed(runs: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task(i);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Bulk rows made in the database itself: submissions, drafts, messages, claims, impact events. */
async function seed(db: LocalNetlifyDB, submissions: number, messages: number, tag: string): Promise<void> {
  const purposes = formPurposes.map((purpose) => `'${purpose}'`).join(', ');
  await db.exec(`
    INSERT INTO form_submissions (id, purpose, form_id, created_at, state, next_attempt_at, settled_at, record)
    SELECT lpad((9999999999999 - (1700000000000 + n * 1000))::text, 13, '0') || '-${tag}-' || lpad(n::text, 31, '0'),
           (ARRAY[${purposes}])[1 + n % ${formPurposes.length}], 'seed-form', to_timestamp(1700000000 + n),
           CASE WHEN n % 10 = 0 THEN 'pending' ELSE 'delivered' END, to_timestamp(1700000000 + n),
           CASE WHEN n % 10 = 0 THEN NULL ELSE to_timestamp(1700000000 + n) END,
           jsonb_build_object('id', n, 'values', jsonb_build_object('email', 'seed' || n || '@example.org'), 'delivery', jsonb_build_object('state', 'delivered', 'attempts', 1))
    FROM generate_series(1, ${submissions}) AS n;
    INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, record)
    SELECT lpad((9999999999999 - (1700000000000 + n * 1000))::text, 13, '0') || '-${tag}-m' || lpad(n::text, 30, '0'), 'seed-draft-${tag}-' || n,
           CASE WHEN n % 3 = 0 THEN 'self' ELSE 'platform' END, 'sent', to_timestamp(1700000000 + n), to_timestamp(1700000000 + n), to_timestamp(1700000000 + n),
           to_timestamp(1700000000 + n), false, false,
           jsonb_build_object('id', 'seed-' || n, 'status', 'sent', 'channel', 'platform', 'to', 'head@school' || (n % 5000) || '.edu', 'parentEmail', 'p' || n || '@example.org',
             'subject', 'Seed', 'body', 'Seed', 'note', '', 'attempts', 1, 'createdAt', to_timestamp(1700000000 + n), 'updatedAt', to_timestamp(1700000000 + n))
    FROM generate_series(1, ${messages}) AS n;
    INSERT INTO impact_sends (message_id, school, parent, channel, sent_at)
    SELECT 'seed-${tag}-' || n, 'school' || (n % 5000) || '.edu', 'parent-${tag}-' || n, 'platform', to_timestamp(1700000000 + n) FROM generate_series(1, ${messages}) AS n;
    ANALYZE;
  `);
}

export async function measureData(): Promise<void> {
  const db = new LocalNetlifyDB({ logger: () => undefined });
  const url = await db.start();
  await db.applyMigrations(migrationsDirectory);
  Object.assign(process.env, {
    NETLIFY_DB_URL: url,
    NETLIFY_DB_DRIVER: 'server',
    SITE_URL: ORIGIN,
    ADMIN_PASSWORD: 'bench-admin-password',
    ADMIN_LOGIN_DELAY_MS: '0',
    CONFIG_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
    FORMS_MIN_FILL_MS: '0',
    FORMS_RATE_LIMIT: '100000000',
    PLATFORM_SEND_PARENT_DAILY_LIMIT: '100000000',
    PLATFORM_SEND_SCHOOL_DAILY_LIMIT: '100000000',
  });
  delete process.env.HUBSPOT_ACCESS_TOKEN;
  const definitions = await useFormDefinitions();
  const shell = useSiteShell();
  const load = async (name: string) => ((await import(`../../../netlify/functions/${name}.mts`)) as { default: Handler }).default;
  const [formsFn, sendEmail, confirmSend, impact, outbox, session] = await Promise.all(
    ['forms', 'send-email', 'confirm-send', 'impact', 'outbox', 'admin-session'].map(load),
  );
  const { readMessage } = await import('../../../src/server/letter/outbox');
  const { confirmationLink } = await import('../../../src/server/links');

  const signIn = await session!(
    new Request(`${ORIGIN}/api/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ username: 'admin', password: 'bench-admin-password' }),
    }),
    { ip: '203.0.113.1' },
  );
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  let seq = 0;
  const emailFormId = formConfig.emailGenerator.formId;

  /** One parent's email form, then the platform send request, then the confirmation. */
  async function submitForm(): Promise<{ id: string; token: string }> {
    const n = ++seq;
    const body = {
      full_name: 'Ana Lopez',
      email: `bench${n}@example.org`,
      child_full_name: 'Leo Lopez',
      child_grade: '5th grade',
      school_name: 'Oakwood Academy',
      school_contact_name: 'Dr. Patel',
      school_contact_email: `head${n}@oakwood${n % 50}.edu`,
      choose_how_to_send_your_email: 'Send via our platform',
      _page: '/lead-the-change',
    };
    const response = await formsFn!(
      new Request(`${ORIGIN}/api/forms/${emailFormId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
      { ip: `198.51.100.${n % 250}` },
    );
    const answer = (await response.json()) as { id?: string; draft?: { id: string; token: string } };
    if (response.status !== 201 || !answer.draft) throw new Error(`form answered ${response.status}`);
    return answer.draft;
  }
  async function requestSend(draft: { id: string; token: string }): Promise<string> {
    const response = await sendEmail!(
      new Request(`${ORIGIN}/api/send-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ submissionId: draft.id, token: draft.token }),
      }),
      { ip: '198.51.100.7' },
    );
    const answer = (await response.json()) as { id: string };
    if (response.status !== 202) throw new Error(`send answered ${response.status}`);
    return answer.id;
  }
  async function confirm(messageId: string): Promise<void> {
    const message = (await readMessage(messageId))!.message;
    const token = new URL(confirmationLink(message)!).searchParams.get('token')!;
    const response = await confirmSend!(
      new Request(`${ORIGIN}/confirm-send`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(token)}`,
      }),
    );
    if (response.status >= 400) throw new Error(`confirm answered ${response.status}`);
  }

  async function measureAll(label: string) {
    const drafts: Array<{ id: string; token: string }> = [];
    const messages: string[] = [];
    const rows = [
      ['POST /api/forms/{email form}', await timed(RUNS, async () => void drafts.push(await submitForm()))],
      ['POST /api/send-email', await timed(RUNS, async (i) => void messages.push(await requestSend(drafts[i]!)))],
      ['POST /confirm-send', await timed(RUNS, async (i) => confirm(messages[i]!))],
      ['GET /api/impact', await timed(RUNS, async () => void (await (await impact!(new Request(`${ORIGIN}/api/impact`))).arrayBuffer()))],
      [
        'GET /api/admin/outbox (page of 50)',
        await timed(RUNS, async () => void (await (await outbox!(new Request(`${ORIGIN}/api/admin/outbox?limit=50`, { headers: { cookie } }))).arrayBuffer())),
      ],
    ] as const;
    return rows.map(([name, times]) => [label, name, percentile(times as number[], 50).toFixed(1), percentile(times as number[], 99).toFixed(1)]);
  }

  try {
    await seed(db, 100, 100, 'small');
    const small = await measureAll('100 rows');
    await seed(db, SUBMISSIONS, MESSAGES, 'large');
    const large = await measureAll(`${SUBMISSIONS.toLocaleString('en-US')} submissions, ${MESSAGES.toLocaleString('en-US')} messages`);
    table(['data', 'request', 'p50 ms', 'p99 ms'], [...small, ...large]);
    console.log(`\n${RUNS} requests each, one at a time, in this process against the local database emulation (PGlite: one session, no parallelism).`);
    // The Insights tab at 1,000 and at 1,000,000 events (rolled up into days as the hourly run does).
    table(['events', 'request', 'p50 ms', 'p99 ms'], await measureInsights(db, { origin: ORIGIN, cookie, runs: RUNS, events: EVENTS, load }));
  } finally {
    definitions.remove();
    shell.remove();
    await closeDatabase();
    await db.stop();
  }
}
