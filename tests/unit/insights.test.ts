/**
 * Insights (issue 30): the beacon and the server's own steps make one funnel; the roll-up turns a
 * day's events into figures and forgets its visitor hashes; experiments assign, measure and end;
 * ambassadors and parents' words keep their rules.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import beacon from '../../netlify/functions/event.mts';
import insightsAdmin from '../../netlify/functions/insights-admin.mts';
import experimentsAdmin from '../../netlify/functions/experiments-admin.mts';
import schoolPage from '../../netlify/functions/school-page.mts';
import { verifiedSchool } from './helpers/schools';
import { useSiteShell } from './helpers/site';
import { insights } from '../../src/server/analytics/insights';
import { recordAnswerStep, recordConfirmation, recordDelivery, recordFormSent, recordSendRequest } from '../../src/server/analytics/record';
import { purgeInsights, rollUpDays } from '../../src/server/analytics/rollup';
import { dayOf } from '../../src/server/analytics/visitor';
import { addAmbassador, ambassadorLeaderboard, ambassadorLink, ambassadorPage, knownAmbassador } from '../../src/server/ambassadors';
import { assignVariant, compareVariants, experimentResults, letterResults, runningExperiments } from '../../src/server/analytics/experiments';
import { query } from '../../src/server/db';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, request, setAdminEnv, signIn, ORIGIN } from './helpers/admin';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let cookie = '';
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

beforeAll(async () => {
  database = await startTestDatabase();
  shell = useSiteShell();
  setAdminEnv();
  process.env.SITE_URL = ORIGIN;
});
afterAll(async () => {
  await database.stop();
  shell.remove();
  for (const name of ['SITE_URL', 'ADMIN_PASSWORD', 'CONFIG_ENCRYPTION_KEY']) delete process.env[name];
});
beforeEach(async () => {
  await database.truncate();
  cookie = await signIn();
});

function visit(body: Record<string, unknown>, options: { ip?: string; agent?: string; headers?: Record<string, string> } = {}) {
  const req = new Request(`${ORIGIN}/api/event`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': options.agent ?? AGENT, ...options.headers },
    body: JSON.stringify(body),
  });
  return beacon(req, { ip: options.ip ?? '198.51.100.4' });
}

const formRequest = () => new Request(`${ORIGIN}/api/forms/x`, { method: 'POST', headers: { 'user-agent': AGENT } });

describe('the funnel', () => {
  test('a campaign visit, a form, a send request, a confirmation, a delivery and an answer each count once, for the campaign', async () => {
    expect(
      (
        await visit({
          n: 'page_view',
          p: '/lead-the-change',
          q: '?utm_source=Newsletter&utm_medium=email&utm_campaign=autumn',
          r: 'https://mail.example/inbox',
        })
      ).status,
    ).toBe(204);
    expect((await visit({ n: 'form_start', p: '/lead-the-change', k: 'emailGenerator' })).status).toBe(204);
    const draft = { id: 'draft-1', letter: { id: 'two-focused-hours' }, attribution: { via: 'direct' }, data: { schoolContactEmail: 'head@oak.edu' } };
    await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: '/lead-the-change', draft });
    await recordSendRequest('draft-1', 'awaiting_confirmation');
    await recordSendRequest('draft-1', 'awaiting_confirmation');
    await recordConfirmation({ kind: 'done', message: { draftId: 'draft-1', status: 'queued' } });
    await recordConfirmation({ kind: 'done', message: { draftId: 'draft-1', status: 'queued' } });
    await recordDelivery({ draftId: 'draft-1', status: 'sent', channel: 'platform' });
    await recordAnswerStep({ draftId: 'draft-1' }, 'meeting');
    await recordAnswerStep({ draftId: 'draft-1' }, 'replied');

    const figures = await insights({});
    expect(Object.fromEntries(figures.funnel.map((step) => [step.key, step.count]))).toEqual({
      visit: 1,
      form_start: 1,
      form_sent: 1,
      send_request: 1,
      confirmed: 1,
      delivered: 1,
      answered: 1,
    });
    expect(figures.funnel[1]!.rate).toBe(1);
    const source = figures.breakdowns.find((table) => table.dimension === 'source')!;
    expect(source.rows).toEqual([{ value: 'newsletter / email', label: 'newsletter / email', visitors: 1, drafts: 1, confirmed: 1, delivered: 1, answers: 1 }]);
    expect(figures.breakdowns.find((table) => table.dimension === 'campaign')!.rows[0]).toMatchObject({ value: 'autumn', confirmed: 1 });
    expect(figures.breakdowns.find((table) => table.dimension === 'letter')!.rows[0]).toMatchObject({ value: 'two-focused-hours', delivered: 1 });
    expect(figures.answers).toEqual([{ kind: 'meeting', count: 1 }]);
  });

  test('a later day is rolled up: the same figures, read from days, and its raw events and visitor hashes are gone', async () => {
    await visit({ n: 'page_view', p: '/' });
    await visit({ n: 'page_view', p: '/', q: '' }, { ip: '198.51.100.9' });
    await visit({ n: 'share', p: '/confirm-send', k: 'whatsapp' });
    const before = await insights({});
    const tomorrow = new Date(Date.now() + 26 * 3600_000);
    expect(await rollUpDays(tomorrow)).toEqual([dayOf(new Date())]);
    expect(await query(sqlText('SELECT * FROM analytics_events'))).toEqual([]);
    const after = await insights({});
    expect(after.funnel).toEqual(before.funnel);
    expect(after.funnel[0]!.count).toBe(2);
    expect(after.shares).toEqual([{ channel: 'whatsapp', count: 1 }]);
  });

  test('roll-ups and journeys older than 13 months are purged', async () => {
    await query(sqlText(`INSERT INTO analytics_daily VALUES ('2020-01-01', 'page_view', 'all', '', 3, 2)`));
    await query(sqlText(`INSERT INTO analytics_journeys (draft_id, created_at) VALUES ('old', '2020-01-01')`));
    expect(await purgeInsights()).toBe(2);
  });

  test('the tab answers signed-in staff only, and the CSV has every table', async () => {
    await visit({ n: 'page_view', p: '/faqs', q: '?utm_source=x' });
    expect((await call(insightsAdmin, '/api/admin/insights')).status).toBe(401);
    const json = await call(insightsAdmin, '/api/admin/insights', { cookie });
    expect(json.status).toBe(200);
    expect(json.body.funnel[0].count).toBe(1);
    const csv = await insightsAdmin(request('/api/admin/insights?format=csv', { cookie }), { ip: '203.0.113.7' });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    for (const title of ['Funnel', 'Per day', 'Shares', 'Answers', 'By page', 'By source']) expect(text).toContain(title);
    expect((await call(insightsAdmin, '/api/admin/insights?from=2026-13-01', { cookie })).status).toBe(400);
    expect((await call(insightsAdmin, '/api/admin/insights?from=2026-02-01&to=2026-01-01', { cookie })).status).toBe(400);
  });
});

describe('experiments', () => {
  test('a visitor-day keeps its variant, a share link carries one, and a confirmed send converts for it', async () => {
    const started = await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place: 'school-page-cta', name: 'CTA words' } });
    expect(started.status).toBe(201);
    const [experiment] = await runningExperiments(Date.now() + 10_000);
    expect(experiment!.variants).toEqual(['control', 'together', 'child']);
    expect(assignVariant(experiment!, 'a'.repeat(32))).toBe(assignVariant(experiment!, 'a'.repeat(32)));
    expect(assignVariant(experiment!, 'a'.repeat(32), `${experiment!.id}.child`)).toBe('child');
    expect(assignVariant(experiment!, undefined, 'forged.child')).toBe('control');

    const key = 'ab'.repeat(16);
    await visit({ n: 'page_view', p: `/schools/${key}`, q: `?v=${experiment!.id}.together` });
    await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: `/schools/${key}`, draft: { id: 'd-exp' } });
    await recordConfirmation({ kind: 'done', message: { draftId: 'd-exp', status: 'queued' } });
    const [result] = await experimentResults();
    expect(result!.variants.find((variant) => variant.id === 'together')).toMatchObject({ visitors: 1, conversions: 1 });
    expect(result!.variants.find((variant) => variant.id === 'control')).toMatchObject({ visitors: 0, conversions: 0, probabilityToBeat: null });

    const ended = await call(experimentsAdmin, `/api/admin/experiments/${experiment!.id}/end`, { method: 'POST', cookie, body: { winner: 'together' } });
    expect(ended.status).toBe(200);
    expect(
      (await call(experimentsAdmin, `/api/admin/experiments/${experiment!.id}/end`, { method: 'POST', cookie, body: { winner: 'together' } })).status,
    ).toBe(409);
  });

  test("the school page draws the visitor's call to action in its HTML, and the CDN keeps no copy while the experiment runs", async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const open = async (query = '') => {
      const response = await schoolPage(
        new Request(`${ORIGIN}/schools/${key}${query}`, { headers: { 'user-agent': AGENT, 'x-nf-client-connection-ip': '198.51.100.4' } }),
      );
      return { cache: response.headers.get('cache-control'), html: await response.text() };
    };
    const before = await open();
    expect(before.html).toContain('Add your voice. Write to Birch School in two minutes');
    expect(before.cache).not.toBe('no-store');
    expect((await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place: 'school-page-cta', name: 'CTA' } })).status).toBe(
      201,
    );
    const [experiment] = await runningExperiments(Date.now() + 10_000);
    const carried = await open(`?v=${experiment!.id}.child`);
    expect(carried.html).toContain('Ask Birch School for a school that fits your child.');
    expect(carried.html).toContain(`data-variant="child"`);
    expect(carried.cache).toBe('no-store');
    const first = await open();
    expect((await open()).html.match(/data-variant="([a-z]+)"/)?.[1]).toBe(first.html.match(/data-variant="([a-z]+)"/)?.[1]);
  });

  test('the comparison is honest: equal figures are a coin toss, a clear winner is near certain', () => {
    const [, even] = compareVariants([
      { visitors: 100, conversions: 10 },
      { visitors: 100, conversions: 10 },
    ]);
    expect(even!.probabilityToBeat).toBeGreaterThan(0.4);
    expect(even!.probabilityToBeat).toBeLessThan(0.6);
    const [control, better] = compareVariants([
      { visitors: 1000, conversions: 50 },
      { visitors: 1000, conversions: 120 },
    ]);
    expect(better!.probabilityToBeat).toBeGreaterThan(0.99);
    expect(control!.interval[0]).toBeLessThan(0.05);
    expect(control!.interval[1]).toBeGreaterThan(0.05);
  });

  test('letters are compared by their answers', async () => {
    for (const [id, letter, answer] of [
      ['l1', 'a', 'replied'],
      ['l2', 'a', undefined],
      ['l3', 'b', 'meeting'],
    ] as const) {
      await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: '/', draft: { id, letter: { id: letter } } });
      await recordDelivery({ draftId: id, status: 'sent' });
      if (answer) await recordAnswerStep({ draftId: id }, answer);
    }
    const letters = await letterResults();
    expect(letters.map(({ letter, sends, answers, meetings }) => ({ letter, sends, answers, meetings }))).toEqual([
      { letter: 'a', sends: 2, answers: 1, meetings: 0 },
      { letter: 'b', sends: 1, answers: 1, meetings: 1 },
    ]);
  });
});

describe('ambassadors', () => {
  test('a known ambassador is credited with the parents they brought, and their link opens their figures', async () => {
    await addAmbassador({ id: 'amb-7', name: 'Rosa', email: 'rosa@example.org' }, 'staff@example.org');
    expect(await knownAmbassador('amb-7')).toBe(true);
    expect(await knownAmbassador('amb-8')).toBe(false);
    await visit({ n: 'page_view', p: '/', q: '?ambassadorId=amb-7' });
    // A school reached is a school staff verified (a typed one reaches no figure).
    await verifiedSchool('head@oak.edu', 'Oak School');
    await recordFormSent(
      formRequest(),
      { ip: '198.51.100.4' },
      { purpose: 'emailGenerator', page: '/', draft: { id: 'd-a', data: { schoolContactEmail: 'head@oak.edu' } } },
    );
    await recordConfirmation({ kind: 'done', message: { draftId: 'd-a', status: 'sent' } });
    const [row] = await ambassadorLeaderboard();
    expect(row).toMatchObject({ id: 'amb-7', parents: 1, confirmed: 1 });
    const token = new URL(ambassadorLink('amb-7')).searchParams.get('t')!;
    expect(await ambassadorPage(token)).toEqual({ name: 'Rosa', parents: 1, confirmed: 1, schoolsReached: 1, answers: 0 });
  });
});

function sqlText(text: string) {
  return { text, values: [] };
}
