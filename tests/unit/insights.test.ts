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
import { assignVariant, experimentResults, letterResults, placeText, runningExperiments } from '../../src/server/analytics/experiments';
import { query } from '../../src/server/db';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, request, setAdminEnv, signIn, ORIGIN } from './helpers/admin';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let cookie = '';
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
/** What a browser sends with every request it makes for a page. */
const BROWSER = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'accept-language': 'en-GB' };

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
    headers: { ...BROWSER, 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': options.agent ?? AGENT, ...options.headers },
    body: JSON.stringify(body),
  });
  return beacon(req, { ip: options.ip ?? '198.51.100.4' });
}

const formRequest = (agent = AGENT) => new Request(`${ORIGIN}/api/forms/x`, { method: 'POST', headers: { 'user-agent': agent } });

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

  test('no row that names a draft carries a visitor hash: a named parent is never linked to their pages by the figures', async () => {
    await visit({ n: 'page_view', p: '/lead-the-change', q: '?utm_source=news' });
    await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: '/lead-the-change', draft: { id: 'd-named' } });
    const rows = (await query(sqlText(`SELECT name, visitor, journey, source FROM analytics_events WHERE journey IS NOT NULL`))) as Array<
      Record<string, unknown>
    >;
    expect(rows.map((row) => row.name).sort()).toEqual(['draft', 'form_sent']);
    expect(rows.every((row) => row.visitor === null && row.source === 'news')).toBe(true);
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

  test('the language breakdown counts each language’s visitors and drafts, the same before and after the roll-up (issue 48)', async () => {
    await visit({ n: 'page_view', p: '/es' });
    await visit({ n: 'page_view', p: '/es/lead-the-change' });
    await visit({ n: 'page_view', p: '/faqs' }, { ip: '198.51.100.9' });
    await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: '/es/lead-the-change', draft: { id: 'd-es' } });
    const language = async () => (await insights({})).breakdowns.find((table) => table.dimension === 'language')!.rows;
    const expected = [
      { value: 'es', label: 'Español', visitors: 1, drafts: 1, confirmed: 0, delivered: 0, answers: 0 },
      { value: 'en', label: 'English', visitors: 1, drafts: 0, confirmed: 0, delivered: 0, answers: 0 },
    ];
    expect(await language()).toEqual(expected);
    expect(await rollUpDays(new Date(Date.now() + 26 * 3600_000))).toEqual([dayOf(new Date())]);
    expect(await language()).toEqual(expected);
  });

  test('a roll-up out of time stops between batches, the figures stay whole meanwhile, and the next run finishes the day', async () => {
    for (let i = 0; i < 40; i++) await visit({ n: 'page_view', p: '/' }, { agent: `${AGENT} v${i}`, ip: `198.51.100.${i}` });
    const before = await insights({});
    const tomorrow = new Date(Date.now() + 26 * 3600_000);
    const day = ((await query(sqlText('SELECT day::text AS day FROM analytics_events LIMIT 1'))) as Array<{ day: string }>)[0]!.day;
    const { rollUpDay } = await import('../../src/server/analytics/rollup');
    let batches = 0;
    const deadline = { valueOf: () => (batches++ < 3 ? Number.POSITIVE_INFINITY : 0) } as unknown as number;
    expect(await rollUpDay(day, deadline)).toBe(false);
    expect((await insights({})).funnel).toEqual(before.funnel);
    expect(await rollUpDays(tomorrow)).toEqual([day]);
    expect((await insights({})).funnel).toEqual(before.funnel);
    expect(await query(sqlText('SELECT * FROM analytics_events'))).toEqual([]);
  });

  test('past 300 values of a dimension in a day, the least counted are kept as one "other" row', async () => {
    const day = '2026-01-05';
    await query(
      sqlText(
        `INSERT INTO analytics_events (at, day, name, visitor, page, campaign) SELECT '2026-01-05T12:00:00Z', '2026-01-05', 'page_view', md5(g::text), '/', 'c' || g FROM generate_series(1, 320) g`,
      ),
    );
    await query(
      sqlText(
        `INSERT INTO analytics_events (at, day, name, visitor, page, campaign) SELECT '2026-01-05T12:00:00Z', '2026-01-05', 'page_view', md5('x' || g::text), '/', 'c1' FROM generate_series(1, 5) g`,
      ),
    );
    await rollUpDays(new Date('2026-01-07T00:00:00Z'));
    const rows = (await query(
      sqlText(`SELECT value, events FROM analytics_daily WHERE day = '${day}' AND dimension = 'campaign' ORDER BY events DESC, value`),
    )) as Array<{
      value: string;
      events: number;
    }>;
    expect(rows).toHaveLength(301);
    expect(rows.slice(0, 2)).toEqual([
      { value: 'other', events: 20 },
      { value: 'c1', events: 6 },
    ]);
    expect(rows.reduce((sum, row) => sum + Number(row.events), 0)).toBe(325);
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
  /** The school page as a person's browser asks for it, from a network. */
  const openSchool = async (key: string, options: { query?: string; ip?: string; agent?: string; site?: string } = {}) => {
    const response = await schoolPage(
      new Request(`${ORIGIN}/schools/${key}${options.query ?? ''}`, {
        headers: {
          'user-agent': options.agent ?? AGENT,
          'x-nf-client-connection-ip': options.ip ?? '198.51.100.4',
          'sec-fetch-site': options.site ?? 'none',
          'sec-fetch-mode': 'navigate',
          'accept-language': 'en-GB',
        },
      }),
    );
    return { cache: response.headers.get('cache-control'), html: await response.text() };
  };
  const variantOf = (html: string) => html.match(/data-variant="([a-z]+)"/)?.[1];
  const start = async (place: string, name: string) => {
    expect((await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place, name } })).status).toBe(201);
    return (await runningExperiments(Date.now() + 10_000)).find((experiment) => experiment.place === place)!;
  };

  test('the server records who was served which variant, once a visitor-day, and a confirmed send converts for the first one served', async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const experiment = await start('school-page-cta', 'CTA words');
    expect(experiment.variants).toEqual(['control', 'together', 'child']);
    expect(assignVariant(experiment, 'a'.repeat(32))).toBe(assignVariant(experiment, 'a'.repeat(32)));
    const served = variantOf((await openSchool(key)).html)!;
    expect(variantOf((await openSchool(key)).html)).toBe(served);
    await recordFormSent(formRequest(), { ip: '198.51.100.4' }, { purpose: 'emailGenerator', page: `/schools/${key}`, draft: { id: 'd-exp' } });
    await recordConfirmation({ kind: 'done', message: { draftId: 'd-exp', status: 'queued' } });
    const [result] = await experimentResults();
    expect(result!.variants.find((variant) => variant.id === served)).toMatchObject({ visitors: 1, conversions: 1 });
    expect(result!.variants.filter((variant) => variant.id !== served).every((variant) => variant.visitors === 0)).toBe(true);
    expect(result!.verdict).toEqual({ kind: 'collecting', unitsNeeded: 200, conversionsNeeded: 19 });

    const ended = await call(experimentsAdmin, `/api/admin/experiments/${experiment.id}/end`, { method: 'POST', cookie, body: { winner: 'together' } });
    expect(ended.status).toBe(200);
    expect((await call(experimentsAdmin, `/api/admin/experiments/${experiment.id}/end`, { method: 'POST', cookie, body: { winner: 'together' } })).status).toBe(
      409,
    );
  });

  test('a link never chooses the variant: ?v= naming any variant gives the visitor the one drawn for them', async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const experiment = await start('school-page-cta', 'CTA');
    const drawn = variantOf((await openSchool(key)).html)!;
    const other = experiment.variants.find((variant) => variant !== drawn)!;
    const carried = await openSchool(key, { query: `?v=${experiment.id}.${other}` });
    expect(variantOf(carried.html)).toBe(drawn);
    expect(carried.cache).toBe('no-store');
  });

  test('forged exposure: beacons (any origin header, many user agents, a ?v=) add no visitor to a variant, and one network is at most 30 visitors of one', async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const experiment = await start('school-page-cta', 'CTA');
    for (let i = 0; i < 50; i++)
      await visit({ n: 'page_view', p: `/schools/${key}`, q: `?v=${experiment.id}.child` }, { agent: `${AGENT} forged/${i}`, ip: `203.0.113.${i}` });
    expect((await experimentResults())[0]!.variants.reduce((sum, variant) => sum + variant.visitors, 0)).toBe(0);
    // Drawing the page itself with a new user agent each time: one machine counts 30 visitors at most.
    for (let i = 0; i < 45; i++) await openSchool(key, { agent: `${AGENT} forged/${i}`, ip: '203.0.113.250' });
    await openSchool(key, { ip: '198.51.100.77' });
    expect((await experimentResults())[0]!.variants.reduce((sum, variant) => sum + variant.visitors, 0)).toBe(31);
    // A script without a browser's signals is served the page but never counted.
    await schoolPage(new Request(`${ORIGIN}/schools/${key}`, { headers: { 'user-agent': `${AGENT} script`, 'x-nf-client-connection-ip': '198.51.100.78' } }));
    expect((await experimentResults())[0]!.variants.reduce((sum, variant) => sum + variant.visitors, 0)).toBe(31);
  });

  test('the share text is measured by shares, and by the visits and drafts its links bring', async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const experiment = await start('share-text', 'Share words');
    const sharer = new Request(`${ORIGIN}/confirm-send`, {
      headers: {
        'user-agent': AGENT,
        'x-nf-client-connection-ip': '198.51.100.4',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
        'accept-language': 'en',
      },
    });
    const shown = (await placeText(sharer, undefined, 'share-text', { school: 'Birch School' }))!;
    expect(shown.experiment?.id).toBe(experiment.id);
    await visit({ n: 'share', p: '/confirm-send', k: 'whatsapp' });
    // Someone opens the shared link from WhatsApp (another network), and writes.
    const friend = { ip: '198.51.100.99', agent: `${AGENT} friend` };
    const opened = await openSchool(key, { query: `?v=${experiment.id}.${shown.experiment!.variant}`, ip: friend.ip, agent: friend.agent, site: 'none' });
    expect(opened.cache).toBe('no-store');
    await recordFormSent(formRequest(friend.agent), { ip: friend.ip }, { purpose: 'emailGenerator', page: `/schools/${key}`, draft: { id: 'd-friend' } });
    const [result] = await experimentResults();
    expect(result!.goal).toBe('share');
    expect(result!.variants.find((variant) => variant.id === shown.experiment!.variant)).toMatchObject({
      visitors: 1,
      conversions: 1,
      linkVisits: 1,
      linkDrafts: 1,
    });
    // Following the link from within the site is not a link visit.
    await openSchool(key, { query: `?v=${experiment.id}.${shown.experiment!.variant}`, ip: '198.51.100.120', site: 'same-origin' });
    expect((await experimentResults())[0]!.variants.find((variant) => variant.id === shown.experiment!.variant)!.linkVisits).toBe(1);
  });

  test("the school page draws the visitor's call to action in its HTML, and the CDN keeps no copy while the experiment runs", async () => {
    const key = (await verifiedSchool('head@birch.edu', 'Birch School')).pageKey;
    const before = await openSchool(key);
    expect(before.html).toContain('Add your voice. Write to Birch School in two minutes');
    expect(before.cache).not.toBe('no-store');
    await start('school-page-cta', 'CTA');
    // Nobody served yet: every variant still needs its whole minimum.
    expect((await experimentResults())[0]!.verdict).toEqual({ kind: 'collecting', unitsNeeded: 200, conversionsNeeded: 20 });
    const first = await openSchool(key);
    expect(first.cache).toBe('no-store');
    expect(variantOf((await openSchool(key)).html)).toBe(variantOf(first.html));
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
    expect(row).toMatchObject({ id: 'amb-7', parents: 1, delivered: 1 });
    const token = new URL(ambassadorLink('amb-7')).searchParams.get('t')!;
    expect(await ambassadorPage(token)).toEqual({ name: 'Rosa', parents: 1, delivered: 1, schoolsReached: 1, answers: 0 });
  });

  test('a draft alone, which anyone holding the id can make, is no parent brought: only a confirmation counts', async () => {
    await addAmbassador({ id: 'amb-9', name: 'Ana', email: 'ana@example.org' }, 'staff@example.org');
    for (let i = 0; i < 20; i++)
      await recordFormSent(
        formRequest(),
        { ip: '198.51.100.4' },
        { purpose: 'emailGenerator', page: '/', draft: { id: `forged-${i}`, attribution: { via: 'link', ambassadorId: 'amb-9' } } },
      );
    expect((await ambassadorLeaderboard())[0]).toMatchObject({ id: 'amb-9', parents: 0 });
    await recordConfirmation({ kind: 'done', message: { draftId: 'forged-3', status: 'queued' } });
    expect((await ambassadorLeaderboard())[0]).toMatchObject({ id: 'amb-9', parents: 1, delivered: 0 });
  });
});

function sqlText(text: string) {
  return { text, values: [] };
}
