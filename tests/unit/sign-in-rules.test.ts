/**
 * Sign-in that strangers cannot break (issue 24, part 2): failures are counted per username and
 * address together, per address (a larger limit) and per username, and a device that has signed
 * in before is exempt from the per-username lock (never from the per-address one); counters are
 * one atomic statement; a change of the admin password, or an owner's "Sign everyone out", ends
 * every session at once; expired sessions and old counters are purged on schedule.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import adminPurge from '../../netlify/functions/admin-purge.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import sessionFunction from '../../netlify/functions/admin-session.mts';
import { ABSOLUTE_TIMEOUT_MS, DEVICE_COOKIE, IDLE_TIMEOUT_MS } from '../../src/server/staff/auth';
import { query, sql } from '../../src/server/db';
import { LIMITS, WINDOW_MS } from '../../src/server/rate-limit';
import { ADMIN_PASSWORD, call, setAdminEnv } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const session = sessionFunction as Handler;
let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
  setAdminEnv();
});
afterAll(async () => {
  vi.useRealTimers();
  await database.stop();
});
beforeEach(async () => {
  await query(sql`DELETE FROM login_attempts`);
  await query(sql`DELETE FROM admin_sessions`);
});

const OWNER_IP = '198.51.100.20';

/** Signs in and returns both cookies ("session" and "device", each "name=value"). */
async function signInOwner(ip = OWNER_IP, password = ADMIN_PASSWORD, device?: string) {
  const answer = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password }, cookie: device }, ip);
  expect(answer.status).toBe(200);
  const cookies = answer.headers.getSetCookie();
  const sessionCookie = cookies.find((cookie) => cookie.startsWith('__Host-admin_session='))!;
  const deviceCookie = cookies.find((cookie) => cookie.startsWith(`${DEVICE_COOKIE}=`))!;
  return { session: sessionCookie.split(';')[0]!, device: deviceCookie.split(';')[0]!, deviceHeader: deviceCookie };
}

const guess = (ip: string, username = 'admin', cookie?: string) =>
  call(session, '/api/admin/session', { method: 'POST', body: { username, password: 'wrong-guess' }, cookie }, ip);
const tryOwner = (ip: string, cookie?: string) =>
  call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD }, cookie }, ip);
const signedIn = async (cookie: string) => (await call(session, '/api/admin/session', { cookie })).body.session?.username as string | undefined;

describe('failed sign-ins lock per person and address, never the owner on their own device', () => {
  test('signing in gives a signed, long-lived known-device cookie: __Host-, HttpOnly, Secure, SameSite=Strict', async () => {
    const { deviceHeader } = await signInOwner();
    expect(deviceHeader).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43};`));
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/']) expect(deviceHeader).toContain(attribute);
    expect(Number(/Max-Age=(\d+)/.exec(deviceHeader)?.[1])).toBeGreaterThanOrEqual(300 * 24 * 3600);
  });

  test("a stranger's failed guesses from other addresses do not lock the owner's known device", async () => {
    const { device } = await signInOwner();
    // A stranger guesses the owner's username from many addresses, past the per-username limit.
    for (let i = 0; i < LIMITS.username; i++) expect((await guess(`192.0.2.${i + 1}`)).status).toBe(401);
    expect((await guess('192.0.2.99')).status).toBe(429);
    // Another, unknown device of the owner is locked out by the per-username limit meanwhile…
    expect((await tryOwner('198.51.100.77')).status).toBe(429);
    // …but the owner's own device, known from an earlier sign-in, is not.
    const again = await tryOwner(OWNER_IP, device);
    expect(again.status).toBe(200);
    // From another network too (a phone on the road): the device is what is known.
    expect((await tryOwner('198.51.100.78', device)).status).toBe(200);
  });

  test("a stranger on the owner's own network locks the pair, not the owner's known device", async () => {
    const { device } = await signInOwner('192.0.2.200');
    for (let i = 0; i < LIMITS.pair; i++) expect((await guess('192.0.2.200')).status).toBe(401);
    expect((await guess('192.0.2.200')).status).toBe(429);
    expect((await tryOwner('192.0.2.200')).status).toBe(429);
    expect((await tryOwner('192.0.2.200', device)).status).toBe(200);
  });

  test("the owner signing in lifts the per-username lock strangers put on the owner's other devices", async () => {
    const { device } = await signInOwner();
    for (let i = 0; i < LIMITS.username; i++) await guess(`192.0.2.${i + 161}`);
    expect((await tryOwner('198.51.100.80')).status).toBe(429);
    expect((await tryOwner(OWNER_IP, device)).status).toBe(200);
    expect((await tryOwner('198.51.100.80')).status).toBe(200);
    // The stranger's own address stays locked for the pair it guessed.
    for (let i = 0; i < LIMITS.pair; i++) await guess('192.0.2.190');
    expect((await guess('192.0.2.190')).status).toBe(429);
    await signInOwner();
    expect((await guess('192.0.2.190')).status).toBe(429);
  });

  test('the per-address limit still holds, for a known device too', async () => {
    const { device } = await signInOwner('192.0.2.210');
    for (let i = 0; i < LIMITS.ip; i++) await guess('192.0.2.210', `someone-${i}`);
    const locked = await tryOwner('192.0.2.210', device);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatchObject({ code: 'too_many_attempts', message: expect.stringMatching(/Please wait \d+ minutes?/) });
    // An IPv6 client is counted by its /64: another address in it is the same network.
    for (let i = 0; i < LIMITS.ip; i++) await guess(`2001:db8:5:6::${i + 1}`, `v6-${i}`);
    expect((await tryOwner('2001:db8:5:6::abcd', device)).status).toBe(429);
    expect((await tryOwner('2001:db8:5:7::1', device)).status).toBe(200);
  });

  test('five wrong passwords for one username from one address lock that pair, not the username elsewhere', async () => {
    for (let i = 0; i < LIMITS.pair; i++) expect((await guess('192.0.2.220')).status).toBe(401);
    expect((await tryOwner('192.0.2.220')).status).toBe(429);
    expect((await guess('192.0.2.220', 'another-user')).status).toBe(401);
    expect((await tryOwner('192.0.2.221')).status).toBe(200);
  });

  test('a forged device cookie, or one for another username, exempts nothing', async () => {
    const { device } = await signInOwner();
    const [name, value] = device.split('=') as [string, string];
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    for (let i = 0; i < LIMITS.username; i++) await guess(`192.0.2.${i + 101}`);
    expect((await tryOwner('198.51.100.90', forged)).status).toBe(429);
    // The cookie names the username it signed in as.
    for (let i = 0; i < LIMITS.username; i++) await guess(`192.0.2.${i + 131}`, 'other-person');
    expect(
      (await call(session, '/api/admin/session', { method: 'POST', body: { username: 'other-person', password: 'x' }, cookie: device }, '198.51.100.91'))
        .status,
    ).toBe(429);
  });

  test('the counters are atomic: thirty parallel guesses get five checks, the rest are refused', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => guess('192.0.2.230', 'parallel')));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMITS.pair);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMITS.pair);
    const [row] = await query<{ failures: number }>(sql`SELECT max(failures)::int AS failures FROM login_attempts`);
    expect(row?.failures).toBe(LIMITS.pair);
  });

  test('a successful sign-in is not counted as a failure', async () => {
    for (let i = 0; i < LIMITS.ip + 5; i++) await signInOwner('192.0.2.240');
    expect((await tryOwner('192.0.2.240')).status).toBe(200);
  });

  test('a malformed sign-in is a 400 with {error:{code,message}}, and counts nothing', async () => {
    for (const body of ['{', '[]', '{"username":5}', JSON.stringify({ username: 'admin', password: 'x'.repeat(10_000) })]) {
      const answer = await call(session, '/api/admin/session', { method: 'POST', body }, '192.0.2.250');
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await query(sql`SELECT 1 FROM login_attempts`)).toEqual([]);
  });
});

describe('sessions end at once', () => {
  test('a change of the admin password ends every session', async () => {
    const first = await signInOwner('198.51.100.31');
    const second = await signInOwner('198.51.100.32');
    expect(await signedIn(first.session)).toBe('admin');
    process.env.ADMIN_PASSWORD = 'a-new-admin-password';
    try {
      const refused = await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie: first.session });
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toMatch(/password has changed/);
      // Not only the session that asked: all of them, at once.
      expect(await query(sql`SELECT 1 FROM admin_sessions`)).toEqual([]);
      expect(await signedIn(second.session)).toBeUndefined();
      const fresh = await signInOwner('198.51.100.33', 'a-new-admin-password');
      expect(await signedIn(fresh.session)).toBe('admin');
      expect((await tryOwner('198.51.100.34')).status).toBe(401);
    } finally {
      process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
    }
  });

  test('a password hash replacing the password ends every session too', async () => {
    const { session: cookie } = await signInOwner();
    process.env.ADMIN_PASSWORD_HASH = 'scrypt$MDEyMzQ1Njc4OWFiY2RlZg==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    try {
      expect(await signedIn(cookie)).toBeUndefined();
    } finally {
      delete process.env.ADMIN_PASSWORD_HASH;
    }
  });

  test('"Sign everyone out" ends every session, the owner\'s own too, and needs a session', async () => {
    const mine = await signInOwner('198.51.100.41');
    const theirs = await signInOwner('198.51.100.42');
    expect((await call(session, '/api/admin/sessions', { method: 'DELETE' })).status).toBe(401);
    expect((await call(session, '/api/admin/sessions', { method: 'DELETE', cookie: mine.session, origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(session, '/api/admin/sessions', { method: 'POST', cookie: mine.session })).status).toBe(405);
    expect(await signedIn(theirs.session)).toBe('admin');
    const ended = await call(session, '/api/admin/sessions', { method: 'DELETE', cookie: mine.session });
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ok: true, ended: 2 });
    expect(ended.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect(await signedIn(mine.session)).toBeUndefined();
    expect(await signedIn(theirs.session)).toBeUndefined();
    const [entry] = await query<{ action: string; target: string }>(sql`SELECT action, target FROM audit_log WHERE action = 'session.signed_out_everyone'`);
    expect(entry).toEqual({ action: 'session.signed_out_everyone', target: '2 sessions' });
  });

  test('the scheduled purge removes expired sessions and sign-in counters whose window is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const { session: old } = await signInOwner('198.51.100.51');
      await guess('192.0.2.251');
      vi.setSystemTime(Date.now() + Math.max(WINDOW_MS, IDLE_TIMEOUT_MS) + 60_000);
      const { session: current } = await signInOwner('198.51.100.52');
      const answer = await adminPurge();
      const counts = (await answer.json()) as { sessions: number; attempts: number };
      expect(counts.sessions).toBe(1);
      expect(counts.attempts).toBeGreaterThanOrEqual(1);
      expect(await signedIn(current)).toBe('admin');
      expect(await signedIn(old)).toBeUndefined();
      expect(ABSOLUTE_TIMEOUT_MS).toBeGreaterThan(IDLE_TIMEOUT_MS);
    } finally {
      vi.useRealTimers();
    }
  });
});
