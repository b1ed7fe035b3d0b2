/**
 * The stop link of school updates, tried as an abuser would: forged, cut-short, other-purpose and
 * other-site tokens, line breaks, NULs, broken escapes and 10 KB values, a wrong clock, someone
 * else's link, replays, wrong methods, malformed bodies and floods. A bad link changes nothing and
 * gets a clear 4xx page (never a 500, never the token or a stack in it); a good one stops only its
 * own parent's updates, once, and says so again when used again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import schoolAnswer from '../../netlify/functions/school-answer.mts';
import stopEndpoint, { config } from '../../netlify/functions/school-updates-stop.mts';
import { parentKey } from '../../src/server/schools/impact';
import { answerLink, STOP_LINK_TTL_MS, stopLink } from '../../src/server/links';
import type { OutboxMessage } from '../../src/server/letter/outbox';
import { decideReview } from '../../src/server/staff/review';
import { query, sql } from '../../src/server/db';
import { signToken } from '../../src/server/tokens';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { setAdminEnv } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { deliveredLetter } from './helpers/delivered';
import { regionText, useSiteShell } from './helpers/site';

let fake: HubSpotFake;
let database: TestDatabase;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;
const MINUTE = 60_000;

/** A letter the platform delivered. */
const wrote = (email: string, school: string) => deliveredLetter(email, school);

async function report(message: OutboxMessage, kind: string) {
  const token = new URL(answerLink(message.id, message.followUp!.dueAt)).searchParams.get('token')!;
  const body = new URLSearchParams({ token, seen: '', comment: '', answer: kind });
  expect(
    (
      await schoolAnswer(
        new Request('http://localhost/school-answer', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
      )
    ).status,
  ).toBe(200);
  // An outcome speaks for the school: staff approve it before the other parents hear it.
  const items = await query<{ id: string }>(sql`SELECT id FROM review_items WHERE message_id = ${message.id} AND claim = ${kind} AND state = 'pending'`);
  for (const item of items) await decideReview(item.id, 'approved', 'staff@example.org');
}

/** Two parents (Ben, Cat) with an update queued for each: a third reported a meeting. */
async function twoParentsWithUpdates() {
  const school = `head${++seq}@oakwood${seq}.edu`;
  const reporter = await wrote(`ana${seq}@example.org`, school);
  const ben = await wrote(`ben${seq}@example.org`, school);
  const cat = await wrote(`cat${seq}@example.org`, school);
  await report(reporter, 'meeting');
  return { ben, cat };
}

const tokenOf = (email: string, now?: Date) => new URL(stopLink(email, now)).searchParams.get('token')!;
const stops = () => query<{ parent: string }>(sql`SELECT parent FROM school_update_stops ORDER BY parent`);
const state = () => query(sql`SELECT parent, state FROM school_updates ORDER BY parent`);

async function get(query: string) {
  const response = await stopEndpoint(new Request(`http://localhost/school-updates/stop${query}`));
  const html = await response.text();
  return { status: response.status, headers: response.headers, html, text: regionText(html) };
}
async function post(body: BodyInit, type = 'application/x-www-form-urlencoded', query = '') {
  const response = await stopEndpoint(new Request(`http://localhost/school-updates/stop${query}`, { method: 'POST', headers: { 'content-type': type }, body }));
  const html = await response.text();
  return { status: response.status, headers: response.headers, html, text: regionText(html) };
}
const postToken = (token: string) => post(new URLSearchParams({ token }));

/** Nothing of the request comes back, nor of the server's insides. */
function tellsNothing(html: string, sent: string) {
  if (sent.length >= 12) expect(html).not.toContain(sent.slice(0, 40));
  expect(html).not.toMatch(/\bat .+\.(?:ts|mts|js):\d+|Error:|stack/i);
}

beforeAll(async () => {
  fake = await startHubSpotFake();
  database = await startTestDatabase();
  shell = useSiteShell();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.SITE_URL = 'https://site.example';
});
afterAll(async () => {
  await fake.close();
  await database.stop();
  shell.remove();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'SITE_URL']) delete process.env[name];
});
beforeEach(async () => {
  fake.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  await query(sql`DELETE FROM school_updates`);
  await query(sql`DELETE FROM school_update_stops`);
});

describe('links that are not a genuine stop link change nothing', () => {
  const genuine = () => tokenOf('victim@example.org');
  const anotherSite = () => {
    const key = process.env.CONFIG_ENCRYPTION_KEY;
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64');
    const token = genuine();
    process.env.CONFIG_ENCRYPTION_KEY = key;
    return token;
  };
  test.each<[string, () => string, number]>([
    ['a forged signature', () => `${genuine().split('.')[0]}.${'A'.repeat(43)}`, 404],
    ['another site’s link', anotherSite, 404],
    ['the link cut short', () => genuine().slice(0, -5), 404],
    ['the payload cut short', () => genuine().slice(8), 404],
    ['a line break inside', () => genuine().replace('.', '.\r\n'), 404],
    ['a NUL inside', () => genuine().replace('.', '\u0000.'), 404],
    ['a confirmation link’s token', () => signToken({ purpose: 'confirm-send', id: parentKey('victim@example.org'), exp: Date.now() + MINUTE }), 404],
    ['a “Your data” token', () => signToken({ purpose: 'your-data', id: parentKey('victim@example.org'), exp: Date.now() + MINUTE }), 404],
    ['a 10 KB token', () => 'A'.repeat(10_240), 404],
    ['expired by one second', () => signToken({ purpose: 'school-updates-stop', id: parentKey('victim@example.org'), exp: Date.now() - 1000 }), 410],
  ])('%s: GET and POST answer with a page that says so', async (_name, make, status) => {
    const token = make();
    const before = await stops();
    const opened = await get(`?token=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(status);
    expect(opened.text).toMatch(status === 404 ? /This link is not valid/ : /This link has expired/);
    expect(opened.html).not.toContain('Stop these emails');
    tellsNothing(opened.html, token);
    const posted = await postToken(token);
    // A body over the 8 KB the page reads is refused before it is read.
    expect(posted.status).toBe(token.length > 8 * 1024 ? 413 : status);
    tellsNothing(posted.html, token);
    expect(await stops()).toEqual(before);
  });

  test.each([
    ['a broken escape', '?token=%E0%A4'],
    ['a NUL', '?token=%00'],
    ['a line break', '?token=%0D%0ASet-Cookie:%20x=1'],
    ['two tokens', '?token=a&token=b'],
    ['no token', ''],
    ['a 10 KB query', `?token=${'%E0'.repeat(3500)}`],
  ])('%s in the address: 404, never a 500', async (_name, query) => {
    const opened = await get(query);
    expect(opened.status).toBe(404);
    expect(opened.headers.get('set-cookie')).toBeNull();
    tellsNothing(opened.html, 'Set-Cookie');
  });
});

describe('a genuine link', () => {
  test('stops only its own parent: someone else’s update stays queued', async () => {
    const { ben, cat } = await twoParentsWithUpdates();
    expect((await postToken(tokenOf(ben.parentEmail))).status).toBe(200);
    expect(await stops()).toEqual([{ parent: parentKey(ben.parentEmail) }]);
    const rows = await state();
    expect(rows).toContainEqual({ parent: parentKey(ben.parentEmail), state: 'stopped' });
    expect(rows).toContainEqual({ parent: parentKey(cat.parentEmail), state: 'pending' });
  });

  test('used again: the same 200, says it was already stopped, and nothing else changes', async () => {
    const { ben } = await twoParentsWithUpdates();
    const token = tokenOf(ben.parentEmail);
    const first = await postToken(token);
    expect(first.text).toContain('Emails stopped');
    const after = { stops: await stops(), updates: await state(), snapshot: await database.snapshot() };
    for (let n = 0; n < 3; n++) {
      const again = await postToken(token);
      expect(again.status).toBe(200);
      expect(again.text).toContain('were already stopped');
    }
    expect({ stops: await stops(), updates: await state(), snapshot: await database.snapshot() }).toEqual(after);
  });

  test('opening it (GET, as a mail scanner does) stops nothing', async () => {
    const { ben } = await twoParentsWithUpdates();
    const opened = await get(`?token=${tokenOf(ben.parentEmail)}`);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain('Stop these emails');
    expect(await stops()).toEqual([]);
  });

  test('made by a clock 10 minutes ahead, it still works (only the expiry is checked)', async () => {
    const { ben } = await twoParentsWithUpdates();
    const token = tokenOf(ben.parentEmail, new Date(Date.now() + 10 * MINUTE));
    expect((await postToken(token)).status).toBe(200);
    expect(await stops()).toEqual([{ parent: parentKey(ben.parentEmail) }]);
  });

  test('one second before it expires it works; one second after, it does not', async () => {
    const { ben } = await twoParentsWithUpdates();
    const almost = tokenOf(ben.parentEmail, new Date(Date.now() - STOP_LINK_TTL_MS + 1000));
    const over = tokenOf(ben.parentEmail, new Date(Date.now() - STOP_LINK_TTL_MS - 1000));
    expect((await postToken(over)).status).toBe(410);
    expect(await stops()).toEqual([]);
    expect((await postToken(almost)).status).toBe(200);
  });

  test('every page offers “Your data”', async () => {
    const { ben } = await twoParentsWithUpdates();
    const token = tokenOf(ben.parentEmail);
    for (const page of [await get(`?token=${token}`), await postToken(token), await postToken(token), await get('?token=forged')]) {
      expect(page.html).toMatch(/<a [^>]*href="\/your-data"[^>]*>Your data<\/a>/);
    }
  });
});

describe('methods, bodies and floods', () => {
  test.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s: 405 with Allow, nothing stopped', async (method) => {
    const token = tokenOf('victim@example.org');
    const response = await stopEndpoint(new Request(`http://localhost/school-updates/stop?token=${token}`, { method }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await stops()).toEqual([]);
  });

  test.each<[string, () => Promise<Awaited<ReturnType<typeof post>>>, number]>([
    ['a JSON body', () => post(JSON.stringify({ token: 'x' }), 'application/json'), 404],
    ['broken JSON', () => post('{"token": ', 'application/json'), 404],
    ['a form body of broken escapes', () => post('token=%E0%ZZ&%00=%', 'application/x-www-form-urlencoded'), 404],
    ['an empty form', () => post('', 'application/x-www-form-urlencoded'), 404],
    ['a multipart body', () => post('--x\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc\r\n--x--', 'multipart/form-data; boundary=x'), 404],
    ['a 10 KB form', () => post(`token=${'A'.repeat(10_240)}`), 413],
  ])('%s: a 4xx page, never a 500', async (_name, send, status) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    tellsNothing(answer.html, 'A'.repeat(40));
    expect(await stops()).toEqual([]);
  });

  test('a flood from one address is cut off by the platform’s rate limit (429)', () => {
    expect(config.rateLimit).toMatchObject({ windowLimit: expect.any(Number), windowSize: 60, aggregateBy: expect.arrayContaining(['ip']) });
    expect(config.rateLimit!.windowLimit).toBeLessThanOrEqual(60);
  });
});

describe('in Spanish, for a parent who wrote in Spanish (issue 48)', () => {
  const spanishLink = (email: string) => {
    const url = new URL(stopLink(email, new Date(), 'es'));
    expect(url.searchParams.get('lang')).toBe('es');
    return url;
  };

  test('the stop page asks, stops and says so in Spanish, in the Spanish frame; the button keeps the language', async () => {
    const url = spanishLink('ana.es@example.org');
    const opened = await get(url.search);
    expect(opened.status).toBe(200);
    expect(opened.html).toContain('<html lang="es"');
    expect(opened.text).toContain('¿Dejar de recibir correos sobre su carta?');
    expect(opened.html).toContain('action="/school-updates/stop?lang=es"');
    expect(opened.html).toContain('href="/your-data?lang=es"');
    expect(opened.text).not.toMatch(/Stop these emails|Your data|\{link\}|updatesStop\./);
    const token = url.searchParams.get('token')!;
    const stopped = await post(new URLSearchParams({ token }), 'application/x-www-form-urlencoded', '?lang=es');
    expect(stopped.text).toContain('No volveremos a escribirle con noticias ni preguntas sobre su carta');
    expect(await stops()).toEqual([{ parent: parentKey('ana.es@example.org') }]);
    // A mail app's one-click unsubscribe posts to the link itself, lang and all.
    const again = await post('List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded', url.search);
    expect(again.text).toContain('ya estaban detenidos');
  });

  test('a broken or expired Spanish link says so in Spanish; an unknown lang is English', async () => {
    expect((await get('?token=nope&lang=es')).text).toContain('Este enlace no es válido');
    const expired = signToken({ purpose: 'school-updates-stop', id: parentKey('ana.es@example.org'), exp: Date.now() - 1000 });
    const page = await get(`?token=${expired}&lang=es`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Este enlace venció');
    expect((await get('?token=nope&lang=fr')).text).toContain('This link is not valid');
    const wrongMethod = await stopEndpoint(new Request('http://localhost/school-updates/stop?lang=es', { method: 'PUT' }));
    expect(wrongMethod.status).toBe(405);
    expect(regionText(await wrongMethod.text())).toContain('No disponible');
  });
});
