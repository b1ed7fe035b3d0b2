/**
 * Insights, tried as an abuser would: the beacon from another site, in floods, oversized, with
 * unknown events or extra fields; identifying values in every field; forged and expired
 * ambassador links; ambassador ids nobody added; experiments with no variants or on a busy place;
 * unstarred words; a parent's withdrawal; the admin endpoints without a session. Every answer is a
 * 4xx (or a silent 204 for what must not be counted), never a 500, and nothing identifying is kept.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import ambassadorFunction from '../../netlify/functions/ambassador.mts';
import ambassadorsAdmin from '../../netlify/functions/ambassadors-admin.mts';
import beacon from '../../netlify/functions/event.mts';
import experimentsAdmin from '../../netlify/functions/experiments-admin.mts';
import insightsAdmin from '../../netlify/functions/insights-admin.mts';
import wordsAdmin from '../../netlify/functions/words-admin.mts';
import { BEACON_RATE_LIMIT, SITE_EVENTS_PER_MINUTE, takeBeaconAllowance } from '../../src/server/analytics/record';
import { dayOf, saltOf } from '../../src/server/analytics/visitor';
import { addAmbassador, ambassadorLink, ambassadorPage, ambassadorToken } from '../../src/server/ambassadors';
import { insights } from '../../src/server/analytics/insights';
import { query, sql } from '../../src/server/db';
import { setWordsConsent, starredWordsFor, starWords, withdrawStarredWords } from '../../src/server/schools/starred-words';
import { verifiedSchool } from './helpers/schools';
import { countSchoolLetters } from '../../src/server/schools/publication';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, setAdminEnv, signIn, ORIGIN } from './helpers/admin';
import { useSiteShell } from './helpers/site';
import { allowed } from './helpers/time';

let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let cookie = '';
const AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const IP = '192.0.2.77';
/** What every browser sends with a beacon, and a script leaves out unless written to forge it. */
const BROWSER = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'accept-language': 'en-GB,en;q=0.9' };

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

function send(body: string, headers: Record<string, string> = {}, ip = IP) {
  return beacon(
    new Request(`${ORIGIN}/api/event`, {
      method: 'POST',
      headers: { ...BROWSER, 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': AGENT, ...headers },
      body,
    }),
    { ip },
  );
}
const events = () => query<Record<string, unknown>>(sql`SELECT * FROM analytics_events`);
const view = (extra: Record<string, unknown> = {}) => JSON.stringify({ n: 'page_view', p: '/', ...extra });

describe('the beacon', () => {
  test.each([
    ['another site', { origin: 'https://evil.example' }, 403],
    ['a look-alike of this site', { origin: `${ORIGIN}.evil.example` }, 403],
    ['no origin, from a cross-site fetch', { 'sec-fetch-site': 'cross-site' }, 403],
    ['no origin and no fetch metadata', {}, 403],
    ['a form post', { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, 415],
  ])('%s is refused and nothing is stored', async (_name, headers: Record<string, string>, status) => {
    const req = new Request(`${ORIGIN}/api/event`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': AGENT, ...headers },
      body: view(),
    });
    expect((await beacon(req, { ip: IP })).status).toBe(status);
    expect(await events()).toEqual([]);
  });

  test.each([
    ['an unknown event name', JSON.stringify({ n: 'purchase', p: '/' }), 400],
    ['a server step claimed by a browser', JSON.stringify({ n: 'confirmed', p: '/' }), 400],
    ['an extra field', view({ email: 'mia@example.org' }), 400],
    ['a page that is not a path', JSON.stringify({ n: 'page_view', p: 'https://evil.example/' }), 400],
    ['an oversized referrer', view({ r: `https://x.example/${'a'.repeat(700)}` }), 400],
    ['a body over 2 KB', view({ q: `?${'a'.repeat(3000)}` }), 413],
    ['broken JSON', '{"n":', 400],
    ['a kind with markup', JSON.stringify({ n: 'share', p: '/', k: '<b>' }), 400],
  ])('%s is refused and nothing is stored', async (_name, body, status) => {
    const response = await send(body);
    expect(response.status).toBe(status);
    const answer = await response.json();
    expect(answer.error.code).toMatch(/^[a-z_]+$/);
    expect(await events()).toEqual([]);
  });

  test.each([
    ['Do-Not-Track', { dnt: '1' }],
    ['Global Privacy Control', { 'sec-gpc': '1' }],
    ['a crawler', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['headless Chromium', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' }],
    ['no user agent', { 'user-agent': '' }],
  ])('%s is answered 204 and not counted at all', async (_name, headers) => {
    expect((await send(view(), headers)).status).toBe(204);
    expect(await events()).toEqual([]);
  });

  test('a flood from one network is cut at the limit, and other networks still count', async () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 30);
    const req = new Request(`${ORIGIN}/api/event`, { method: 'POST' });
    const taken = [];
    for (let i = 0; i < BEACON_RATE_LIMIT + 5; i++) taken.push(await takeBeaconAllowance(req, { ip: IP }, at));
    expect(taken.filter((answer) => answer === 'ok')).toHaveLength(BEACON_RATE_LIMIT);
    expect(taken.at(-1)).toBe('network');
    expect(await takeBeaconAllowance(req, { ip: '198.51.100.200' }, at)).toBe('ok');
    expect(await takeBeaconAllowance(req, { ip: IP }, at + 60_000)).toBe('ok');
    // Through the endpoint: a network whose minute is spent gets 429 and nothing is stored.
    const now = Date.now();
    for (const minute of [now - (now % 60_000), now - (now % 60_000) + 60_000]) {
      const client = createHmac('sha256', await saltOf(dayOf(new Date(minute))))
        .update(`beacon|${IP}`)
        .digest('hex');
      await query(
        sql`INSERT INTO analytics_rate_windows (client, window_start, events) VALUES (${client}, ${new Date(minute)}, ${BEACON_RATE_LIMIT}) ON CONFLICT DO NOTHING`,
      );
    }
    expect((await send(view())).status).toBe(429);
    expect(await events()).toEqual([]);
  });

  test('nothing identifying is stored: no address, no user agent, no query, no email, no token', async () => {
    const secret = 'mia.victim@gmail.com';
    await send(
      view({
        p: '/confirm-send',
        q: `?utm_source=news&token=abc.def&email=${secret}&utm_campaign=${encodeURIComponent(secret)}`,
        r: `https://mail.example/read?to=${secret}`,
      }),
    );
    await send(JSON.stringify({ n: 'form_start', p: `/your-data`, k: 'emailGenerator', q: `?utm_source=${encodeURIComponent('Mia Victim <mia@x.org>')}` }));
    const stored = JSON.stringify(await database.snapshot(['admin_sessions', 'audit_log', 'staff', 'login_attempts']));
    for (const needle of [IP, '192.0.2', 'Safari', 'Macintosh', 'token', 'abc.def', 'mail.example/read', '<', 'mia@x.org'])
      expect(stored).not.toContain(needle);
    const [row] = await events();
    expect(row).toMatchObject({ page: '/confirm-send', source: 'news', campaign: 'other' });
    expect(String(row!.visitor)).toMatch(/^[0-9a-f]{32}$/);
  });

  test('an ambassador id nobody added is not credited', async () => {
    await send(view({ q: '?ambassadorId=made-up' }));
    await addAmbassador({ id: 'real-one', name: 'Rosa', email: 'rosa@example.org' }, 'staff');
    await send(view({ q: '?ambassadorId=real-one' }));
    expect((await events()).map((row) => row.ambassador)).toEqual([null, 'real-one']);
  });
});

describe('figures a stranger cannot move (issue 46)', () => {
  test.each([
    ['no Fetch Metadata', { 'sec-fetch-mode': '' }],
    ['no language', { 'accept-language': '' }],
  ])('a request with %s (a script, not a browser) is answered 204 and not counted', async (_name, headers) => {
    expect((await send(view(), headers)).status).toBe(204);
    expect(await events()).toEqual([]);
  });

  test.each([
    ['Amazon Web Services', '3.5.140.10'],
    ['Hetzner, over IPv6', '2a01:4f8::1'],
  ])('a browser-like beacon from a data centre (%s) is answered 204 and not counted; a household beside it is', async (_name, ip) => {
    expect((await send(view(), {}, ip)).status).toBe(204);
    expect(await events()).toEqual([]);
    expect((await send(view(), {}, '73.15.0.1')).status).toBe(204);
    expect(await events()).toHaveLength(1);
  });

  test("past the site's ceiling, events from every network are refused with 429 site_busy, and said", async () => {
    const now = Date.now();
    for (const minute of [now - (now % 60_000), now - (now % 60_000) + 60_000])
      await query(sql`INSERT INTO analytics_rate_windows (client, window_start, events) VALUES ('site', ${new Date(minute)}, ${SITE_EVENTS_PER_MINUTE})`);
    const response = await send(view(), {}, '203.0.113.200');
    expect(response.status).toBe(429);
    expect((await response.json()).error).toMatchObject({ code: 'site_busy' });
    expect(await events()).toEqual([]);
  });

  test('an unknown path, a made-up campaign and a 580-character UTM value are each counted as "other"', async () => {
    await send(view({ p: '/wp-admin/setup.php' }));
    await send(view({ p: '/schools/not-a-key' }));
    await send(view({ q: `?utm_source=${'x'.repeat(580)}` }));
    await send(view({ q: '?utm_source=news&utm_campaign=%E2%9C%93%20win' }));
    const rows = await events();
    expect(rows.map((row) => row.page)).toEqual(['other', 'other', '/', '/']);
    expect(rows[2]).toMatchObject({ source: 'other' });
    expect(rows[3]).toMatchObject({ source: 'news', campaign: 'other' });
  });

  test('a Spanish page counts as itself under its prefix, a Spanish school page for its school; a made-up path under /es is "other"; a Spanish post its slug (issue 48)', async () => {
    const key = 'ab'.repeat(16);
    for (const p of [
      '/es',
      '/es/',
      '/es/lead-the-change',
      '/ES/FAQS',
      '/es/wp-admin',
      `/es/schools/lakeside-school-${key}`,
      '/es/schools/not-a-key',
      '/es/blogs-insights/a-post',
    ])
      await send(view({ p }));
    // A Spanish post counts by its slug under the prefix, as an English one does (the blog in Spanish).
    expect((await events()).map((row) => [row.page, row.school ?? null])).toEqual([
      ['/es', null],
      ['/es', null],
      ['/es/lead-the-change', null],
      ['/es/faqs', null],
      ['other', null],
      ['/es/schools/*', key],
      ['other', null],
      ['/es/blogs-insights/a-post', null],
    ]);
  });

  test('a named school page counts for its school, as its bare key does', async () => {
    const key = 'cd'.repeat(16);
    await send(view({ p: `/schools/lakeside-school-${key}` }));
    await send(view({ p: `/schools/${key}` }));
    expect((await events()).map((row) => [row.page, row.school])).toEqual([
      ['/schools/*', key],
      ['/schools/*', key],
    ]);
  });

  test('one machine claiming a new user agent for every view is at most 30 visitors a day, other networks unaffected', async () => {
    for (let i = 0; i < BEACON_RATE_LIMIT; i++) await send(view(), { 'user-agent': `${AGENT} forged/${i}` });
    await send(view(), {}, '198.51.100.30');
    const visitors = await query<{ n: number }>(sql`SELECT count(DISTINCT visitor)::int AS n FROM analytics_events`);
    // 30 from the machine, one "crowd" for the rest of it, one from the other network.
    expect(Number(visitors[0]!.n)).toBe(32);
  });

  test(
    "one machine forging a flood (a new user agent each time, a school page, an ambassador, a ?v=, shares, forms started, for three minutes) moves no figure past its network's 31 visitors, and no parent for the ambassador",
    async () => {
      const school = await verifiedSchool('head@birch.edu', 'Birch School');
      await addAmbassador({ id: 'amb-1', name: 'Rosa', email: 'rosa@example.org' }, 'staff');
      const noon = new Date(`${dayOf(new Date())}T12:00:00Z`).getTime();
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        // The beacon takes 60 events a minute from a network: 15 forged visitors a minute, three minutes.
        for (let i = 0; i < 45; i++) {
          vi.setSystemTime(noon + Math.floor(i / 15) * 60_000);
          const forged = { 'user-agent': `${AGENT} forged/${i}`, origin: ORIGIN };
          const page = { p: `/schools/${school.pageKey}`, q: '?ambassadorId=amb-1&utm_source=flood&v=school-page-cta.b' };
          expect((await send(view(page), forged)).status).toBe(204);
          expect((await send(JSON.stringify({ n: 'share', ...page, k: 'whatsapp' }), forged)).status).toBe(204);
          expect((await send(JSON.stringify({ n: 'form_start', ...page, k: 'emailGenerator' }), forged)).status).toBe(204);
        }
        // A parent elsewhere does the same once, and counts once.
        await send(JSON.stringify({ n: 'share', p: '/', k: 'whatsapp' }), {}, '198.51.100.30');
        const figures = await insights({});
        const step = (key: string) => figures.funnel.find((row) => row.key === key)!.count;
        expect([step('visit'), step('form_start'), step('form_sent')]).toEqual([31, 31, 0]);
        expect(figures.shares).toEqual([{ channel: 'whatsapp', count: 32 }]);
        const table = (dimension: string) => figures.breakdowns.find((breakdown) => breakdown.dimension === dimension)!.rows;
        expect(table('school').map((row) => [row.value, row.visitors])).toEqual([[school.pageKey, 31]]);
        expect(table('source').map((row) => [row.value, row.visitors])).toEqual([['flood', 31]]);
        expect(table('ambassador').map((row) => [row.value, row.visitors])).toEqual([['amb-1', 31]]);
        // Visits are not parents: the ambassador brought nobody, and no variant was served.
        expect(await ambassadorPage(ambassadorToken('amb-1'))).toMatchObject({ parents: 0 });
        expect(await query(sql`SELECT 1 FROM experiment_exposures`)).toEqual([]);
      } finally {
        vi.useRealTimers();
      }
    },
    allowed(60_000),
  );

  test('the day key is random and kept two days at most: yesterday can be hashed, the day before cannot', async () => {
    const { forgetOldSalts } = await import('../../src/server/analytics/visitor');
    const now = new Date();
    const day = (offset: number) => dayOf(new Date(now.getTime() - offset * 24 * 3600_000));
    const [today, yesterday, before] = [await saltOf(day(0)), await saltOf(day(1)), await saltOf(day(2))];
    expect(today.equals(yesterday)).toBe(false);
    expect(await forgetOldSalts(now)).toBe(1);
    const kept = await query<{ day: string }>(sql`SELECT day::text AS day FROM analytics_salts ORDER BY day`);
    expect(kept.map((row) => row.day)).toContain(day(1));
    expect(kept.map((row) => row.day)).not.toContain(day(2));
    expect((await saltOf(day(2))).equals(before)).toBe(false);
  });
});

describe('ambassador links', () => {
  beforeEach(async () => {
    await addAmbassador({ id: 'amb-1', name: 'Rosa', email: 'rosa@example.org' }, 'staff');
  });
  const open = async (path: string) => {
    const response = await ambassadorFunction(new Request(`${ORIGIN}${path}`));
    return { status: response.status, text: await response.text() };
  };

  test('the signed link opens the page with counts only', async () => {
    const page = await open(new URL(ambassadorLink('amb-1')).pathname + new URL(ambassadorLink('amb-1')).search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Thank you, Rosa');
    expect(page.text).not.toContain('rosa@example.org');
  });

  const forged = () => {
    const token = ambassadorToken('amb-1');
    const [payload] = token.split('.');
    return {
      'a flipped signature': `${payload}.${'A'.repeat(43)}`,
      'another id under the same signature': `${Buffer.from(`amb-2|${Date.now() + 1e9}`).toString('base64url')}.${token.split('.')[1]}`,
      'an expired link': ambassadorToken('amb-1', Date.now() - 400 * 24 * 3600_000),
      'an id nobody added, signed': ambassadorToken('ghost'),
      'no token': '',
      'a 10 KB token': 'x'.repeat(10_000),
      'a NUL': `${payload}\u0000.${token.split('.')[1]}`,
    };
  };
  const forgeries = [
    'a flipped signature',
    'another id under the same signature',
    'an expired link',
    'an id nobody added, signed',
    'no token',
    'a 10 KB token',
    'a NUL',
  ] as const;
  test.each(forgeries)('%s is a 404 that says nothing more', async (name) => {
    const token = forged()[name];
    const page = await open(`/ambassador?t=${encodeURIComponent(token)}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('Rosa');
  });

  test('the page is not available to other methods', async () => {
    expect((await ambassadorFunction(new Request(`${ORIGIN}/ambassador`, { method: 'POST' }))).status).toBe(405);
  });
});

describe('the admin endpoints', () => {
  test.each([
    ['insights', insightsAdmin, '/api/admin/insights', 'GET'],
    ['experiments', experimentsAdmin, '/api/admin/experiments', 'GET'],
    ['ambassadors', ambassadorsAdmin, '/api/admin/ambassadors', 'GET'],
    ['parents’ words', wordsAdmin, '/api/admin/words', 'GET'],
    ['starring', wordsAdmin, '/api/admin/words/star', 'POST'],
  ] as const)('%s needs a signed-in session', async (_name, handler, path, method) => {
    expect((await call(handler, path, { method, body: method === 'POST' ? {} : undefined })).status).toBe(401);
  });

  test('another site cannot start an experiment with a staff session', async () => {
    expect(
      (
        await call(experimentsAdmin, '/api/admin/experiments', {
          method: 'POST',
          cookie,
          origin: 'https://evil.example',
          body: { place: 'school-page-cta', name: 'x' },
        })
      ).status,
    ).toBe(403);
  });

  test.each([
    ['no variants to compare', { place: 'school-page-cta', name: 'x', variants: ['control'] }, 400, 'no_variants'],
    ['an unknown place', { place: 'nowhere', name: 'x' }, 400, 'unknown_place'],
    ['an unknown variant', { place: 'school-page-cta', name: 'x', variants: ['control', 'made-up'] }, 400, 'unknown_variant'],
    ['an empty name', { place: 'school-page-cta', name: ' ' }, 400, 'invalid_request'],
    ['extra fields', { place: 'school-page-cta', name: 'x', sql: 'DROP TABLE' }, 400, 'invalid_request'],
  ])('an experiment with %s is refused with a clear message', async (_name, body, status, code) => {
    const answer = await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body });
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.message.length).toBeGreaterThan(10);
  });

  test('two experiments on one place: the second is refused and names the place', async () => {
    expect((await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place: 'school-page-cta', name: 'first' } })).status).toBe(
      201,
    );
    const second = await call(experimentsAdmin, '/api/admin/experiments', { method: 'POST', cookie, body: { place: 'school-page-cta', name: 'second' } });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toContain('already running');
  });

  test.each([
    ['an id with spaces', { id: 'a b', name: 'x', email: 'x@example.org' }],
    ['markup in the name', { id: 'ok', name: '<script>', email: 'x@example.org' }],
    ['no email', { id: 'ok', name: 'x', email: 'nope' }],
  ])('an ambassador with %s is refused', async (_name, body) => {
    expect((await call(ambassadorsAdmin, '/api/admin/ambassadors', { method: 'POST', cookie, body })).status).toBe(400);
  });

  test('a link for an ambassador nobody added is a 404, and a NUL in a cursor a 400', async () => {
    expect((await call(ambassadorsAdmin, '/api/admin/ambassadors/ghost/link', { method: 'POST', cookie })).status).toBe(404);
    expect((await call(wordsAdmin, '/api/admin/words?cursor=%00', { cookie })).status).toBe(400);
    expect((await call(insightsAdmin, '/api/admin/insights?from=2026-01-01&format=xml', { cookie })).status).toBe(400);
  });
});

describe("parents' words", () => {
  const school = 'head@oak.edu';
  async function sentMessage(id: string, parentEmail: string) {
    const record = {
      id,
      draftId: `d-${id}`,
      channel: 'platform',
      status: 'sent',
      parentEmail,
      parentName: 'Mia Victim',
      schoolName: 'Oak',
      to: school,
      note: 'Please listen to us.',
      ownWords: 'She would love school again.',
    };
    await query(sql`INSERT INTO outbox_messages (id, draft_id, channel, status, created_at, updated_at, sent_at, next_attempt_at, work_left, follow_up_waiting, record)
      VALUES (${id}, ${record.draftId}, 'platform', 'sent', now(), now(), now(), now(), false, false, ${record})`);
    // The parent ticked "You may quote my words" (tests/unit/attack-words.test.ts tries the rest).
    await setWordsConsent({ id, parentEmail }, 'letter', true, new Date(Date.now() - 60_000));
  }

  test('nothing a parent wrote is on the page until starred; then first name only; a withdrawal takes it down for good', async () => {
    await sentMessage('m1', 'mia@example.org');
    // Words show only on a verified school's page, from a letter that counts there.
    await expect(starWords({ messageId: 'm1', field: 'own_words' }, 'staff@example.org')).rejects.toMatchObject({ status: 409, code: 'not_delivered' });
    const key = (await verifiedSchool(school, 'Oak')).pageKey;
    await countSchoolLetters((await verifiedSchool(school)).id);
    expect(await starredWordsFor(key)).toEqual([]);
    await starWords({ messageId: 'm1', field: 'own_words' }, 'staff@example.org');
    expect(await starredWordsFor(key)).toEqual([{ firstName: 'Mia', words: 'She would love school again.' }]);
    expect(await withdrawStarredWords('MIA+x@Example.org')).toBe(1);
    expect(await starredWordsFor(key)).toEqual([]);
    await expect(starWords({ messageId: 'm1', field: 'note' }, 'staff@example.org')).rejects.toMatchObject({ status: 409 });
  });

  test('reading the words is on the audit log', async () => {
    await sentMessage('m2', 'ana@example.org');
    await countSchoolLetters((await verifiedSchool(school, 'Oak')).id);
    const list = await call(wordsAdmin, '/api/admin/words', { cookie });
    expect(list.status).toBe(200);
    expect(list.body.words.map((entry: { field: string }) => entry.field)).toEqual(['note', 'own_words']);
    const audit = await query<{ action: string }>(sql`SELECT action FROM audit_log WHERE action = 'words.viewed'`);
    expect(audit).toHaveLength(1);
  });
});
