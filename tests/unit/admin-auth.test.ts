import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { scryptSync } from 'node:crypto';
import sessionFunction from '../../netlify/functions/admin-session.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import testCalendly from '../../netlify/functions/test-calendly-connection.mts';
import testHubspot from '../../netlify/functions/test-hubspot-connection.mts';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../../src/server/staff/auth';
import { LIMITS } from '../../src/server/rate-limit';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { ADMIN_PASSWORD, call, ORIGIN, setAdminEnv, signIn } from './helpers/admin';

type Handler = (req: Request, context: unknown) => Promise<Response>;
let database: TestDatabase;

beforeAll(async () => {
  database = await startTestDatabase();
  setAdminEnv();
});
afterAll(async () => {
  vi.useRealTimers();
  await database.stop();
});

const session = sessionFunction as Handler;

describe('every admin endpoint answers 401 without a session', () => {
  test.each([
    ['GET', '/api/calendly-webhooks', calendlyWebhooks as Handler, undefined],
    ['POST', '/api/calendly-webhooks', calendlyWebhooks as Handler, {}],
    ['PATCH', '/api/calendly-webhooks/0000000000001-00000000-0000-0000-0000-000000000000', calendlyWebhooks as Handler, { isActive: false }],
    ['DELETE', '/api/calendly-webhooks/0000000000001-00000000-0000-0000-0000-000000000000', calendlyWebhooks as Handler, undefined],
    ['GET', '/api/hubspot-config', hubspotConfig as Handler, undefined],
    ['POST', '/api/hubspot-config', hubspotConfig as Handler, {}],
    ['GET', '/api/webhook-logs', webhookLogs as Handler, undefined],
    ['POST', '/api/webhook-logs/0000000000001-00000000-0000-0000-0000-000000000000/retry', webhookLogs as Handler, undefined],
    ['POST', '/api/test-calendly-connection', testCalendly as Handler, { accessToken: 'x' }],
    ['POST', '/api/test-hubspot-connection', testHubspot as Handler, { accessToken: 'x' }],
  ])('%s %s', async (method, path, handler, body) => {
    for (const cookie of [undefined, '__Host-admin_session=made-up-session-id-0123456789abcdef']) {
      const answer = await call(handler, path, { method, body, cookie });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthenticated');
    }
  });
});

test('asking who is signed in without a session is not an error: session null', async () => {
  for (const cookie of [undefined, '__Host-admin_session=made-up-session-id-0123456789abcdef']) {
    const answer = await call(session, '/api/admin/session', { cookie });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ session: null, passwordSignIn: true });
  }
});

describe('sign-in', () => {
  test('the session cookie is __Host-, HttpOnly, Secure, SameSite=Strict, Path=/, and new at every sign-in', async () => {
    const first = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-admin_session=[A-Za-z0-9_-]{40,};/);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/']) expect(cookie).toContain(attribute);
    expect(cookie).not.toMatch(/Domain=/i);
    const id = cookie.split(';')[0]!;
    const second = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD }, cookie: id });
    const secondId = second.headers.get('set-cookie')!.split(';')[0]!;
    expect(secondId).not.toBe(id);
    // Signing in again ended the session the browser had.
    expect((await call(session, '/api/admin/session', { cookie: id })).body.session).toBeNull();
    expect((await call(session, '/api/admin/session', { cookie: secondId })).body.session.username).toBe('admin');
  });

  test('over plain http to this machine the cookies lose the __Host- prefix and Secure (Firefox and Safari refuse them there), and nowhere else', async () => {
    const signInOver = (origin: string) =>
      session(
        new Request(`${origin}/api/admin/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
        }),
        { ip: '198.51.100.30' },
      );
    for (const origin of ['http://localhost:8888', 'http://127.0.0.1:8888']) {
      const answer = await signInOver(origin);
      expect(answer.status).toBe(200);
      const cookies = answer.headers.getSetCookie();
      expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['admin_session', 'admin_device']);
      for (const cookie of cookies) {
        expect(cookie).not.toMatch(/;\s*Secure/i);
        for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/']) expect(cookie).toContain(attribute);
      }
      // The session works there under that name, and not under the other.
      const id = cookies[0]!.split(';')[0]!;
      const asked = (cookie: string) => session(new Request(`${origin}/api/admin/session`, { headers: { cookie } }), {}).then((r) => r.json());
      expect((await asked(id)).session.username).toBe('admin');
      expect((await asked(`__Host-${id}`)).session).toBeNull();
    }
    // Over https, and over http to any other host (a proxy in front), the cookies keep both.
    for (const origin of ['https://localhost:8888', 'http://site.example']) {
      const cookies = (await signInOver(origin)).headers.getSetCookie();
      expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['__Host-admin_session', '__Host-admin_device']);
      for (const cookie of cookies) expect(cookie).toMatch(/;\s*Secure/);
      const id = cookies[0]!.split(';')[0]!;
      const asked = (cookie: string) => session(new Request(`${origin}/api/admin/session`, { headers: { cookie } }), {}).then((r) => r.json());
      expect((await asked(id)).session.username).toBe('admin');
      // The unprefixed name a plain-http page could set is never read over https.
      expect((await asked(id.replace('__Host-', ''))).session).toBeNull();
    }
  });

  test.each([
    ['a wrong password', { username: 'admin', password: 'nope' }, 401, 'Wrong username or password.'],
    ['a wrong username', { username: 'root', password: ADMIN_PASSWORD }, 401, 'Wrong username or password.'],
    ['no username', { username: '', password: 'x' }, 400, 'Username is required'],
    ['no password', { username: 'admin', password: '' }, 400, 'Password is required'],
  ])('%s is refused', async (_name, body, status, message) => {
    const answer = await call(session, '/api/admin/session', { method: 'POST', body }, `198.51.100.${status}`);
    expect(answer.status).toBe(status);
    expect(answer.body.error.message).toContain(message);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  test('signing out ends the session on the server', async () => {
    const cookie = await signIn();
    const out = await call(session, '/api/admin/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    // The old cookie is worthless afterwards, even if the browser kept it.
    expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })).status).toBe(401);
  });

  test.each([
    ['idle for longer than 30 minutes', [IDLE_TIMEOUT_MS + 1000]],
    [
      'older than 8 hours, even when active',
      Array.from({ length: Math.ceil(ABSOLUTE_TIMEOUT_MS / (IDLE_TIMEOUT_MS - 60_000)) }, () => IDLE_TIMEOUT_MS - 60_000),
    ],
  ])('a session %s has expired', async (_name, steps) => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const cookie = await signIn();
      let current: unknown;
      for (const step of steps) {
        vi.setSystemTime(Date.now() + step);
        current = (await call(session, '/api/admin/session', { cookie })).body.session;
      }
      expect(current).toBeNull();
      // And the admin endpoints refuse it.
      expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a session used within 30 minutes stays valid', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const cookie = await signIn();
      for (let i = 0; i < 3; i++) {
        vi.setSystemTime(Date.now() + IDLE_TIMEOUT_MS - 60_000);
        expect((await call(session, '/api/admin/session', { cookie })).body.session?.username).toBe('admin');
      }
    } finally {
      vi.useRealTimers();
    }
  });

  test('failed sign-ins are limited per username, with a clear message', async () => {
    for (let i = 0; i < LIMITS.username; i++) {
      const answer = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'locked-user', password: 'guess' } }, `192.0.2.${i + 1}`);
      expect(answer.status).toBe(401);
    }
    const locked = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'locked-user', password: 'guess' } }, '192.0.2.99');
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toMatch(/Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\./);
  });

  test('failed sign-ins are limited per IP, even across usernames, and the right password is refused too', async () => {
    for (let i = 0; i < LIMITS.ip; i++) {
      await call(session, '/api/admin/session', { method: 'POST', body: { username: `user-${i}`, password: 'guess' } }, '192.0.2.200');
    }
    const locked = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '192.0.2.200');
    expect(locked.status).toBe(429);
    // Another address is not affected.
    expect((await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '192.0.2.201')).status).toBe(
      200,
    );
  });

  test('failed sign-ins are slowed down', async () => {
    process.env.ADMIN_LOGIN_DELAY_MS = '150';
    try {
      const started = Date.now();
      await call(session, '/api/admin/session', { method: 'POST', body: { username: 'slow', password: 'guess' } }, '192.0.2.150');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      process.env.ADMIN_LOGIN_DELAY_MS = '0';
    }
  });

  test('without a password configured, sign-in says it is not configured', async () => {
    delete process.env.ADMIN_PASSWORD;
    try {
      const answer = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: 'anything' } }, '192.0.2.160');
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('admin_not_configured');
      expect(answer.body.error.message).toMatch(/not configured/);
    } finally {
      process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
    }
  });

  test('a scrypt password hash is accepted instead of a password', async () => {
    const salt = Buffer.from('0123456789abcdef');
    process.env.ADMIN_PASSWORD_HASH = `scrypt$${salt.toString('base64')}$${scryptSync('hashed-secret', salt, 32).toString('base64')}`;
    delete process.env.ADMIN_PASSWORD;
    try {
      expect(
        (await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: 'hashed-secret' } }, '192.0.2.170')).status,
      ).toBe(200);
      expect((await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '192.0.2.171')).status).toBe(
        401,
      );
    } finally {
      delete process.env.ADMIN_PASSWORD_HASH;
      process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
    }
  });
});

describe('state-changing requests from another origin are refused', () => {
  test.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['no Origin header', { origin: null }],
    ['a cross-site fetch', { headers: { 'sec-fetch-site': 'cross-site' } }],
  ])('%s', async (_name, init) => {
    const cookie = await signIn();
    const body = { name: 'x', accessToken: 'y' };
    const answer = await call(hubspotConfig as Handler, '/api/hubspot-config', { method: 'POST', body, cookie, ...init });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('cross_origin');
    const login = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD }, ...init });
    expect(login.status).toBe(403);
  });

  test('reads from the same site need no Origin', async () => {
    const cookie = await signIn();
    expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie, origin: null })).status).toBe(200);
    expect(ORIGIN).toMatch(/^https:\/\/localhost/);
  });
});
