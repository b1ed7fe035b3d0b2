import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import testCalendly from '../../netlify/functions/test-calendly-connection.mts';
import testHubspot from '../../netlify/functions/test-hubspot-connection.mts';
import { activeHubSpotToken } from '../../src/server/staff/admin-config';
import { startCalendlyFake, FAKE_CALENDLY_ORGANIZATION, FAKE_CALENDLY_USER, type CalendlyFake } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { query, sql } from '../../src/server/db';
import { call, setAdminEnv, signIn } from './helpers/admin';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const webhooks = calendlyWebhooks as Handler;
const hubspot = hubspotConfig as Handler;

let database: TestDatabase;
let calendly: CalendlyFake;
let hubspotFake: HubSpotFake;
let cookie: string;
const logged: string[] = [];

beforeAll(async () => {
  database = await startTestDatabase();
  calendly = await startCalendlyFake();
  hubspotFake = await startHubSpotFake();
  setAdminEnv();
  process.env.CALENDLY_BASE_URL = calendly.url;
  process.env.HUBSPOT_BASE_PATH = hubspotFake.url;
  cookie = await signIn();
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([database.stop(), calendly.close(), hubspotFake.close()]);
  delete process.env.CALENDLY_BASE_URL;
  delete process.env.CALENDLY_ACCESS_TOKEN;
  delete process.env.HUBSPOT_BASE_PATH;
});
beforeEach(() => {
  calendly.reset();
  hubspotFake.reset();
  delete process.env.CALENDLY_ACCESS_TOKEN;
});

const validWebhook = {
  name: 'Strategy calls',
  description: 'Bookings of the intro call',
  calendlyWebhookUrl: 'https://example.org/api/calendly/webhook',
  events: ['invitee.created', 'invitee.canceled'],
  scope: 'organization',
  organization: FAKE_CALENDLY_ORGANIZATION,
  user: '',
  signingKey: 'a-signing-key-that-is-long-enough',
  isActive: true,
};

describe('webhook configuration validation (§5 messages)', () => {
  test.each([
    ['no name', { name: '  ' }, 'Name is required'],
    ['a bad URL', { calendlyWebhookUrl: 'not a url' }, 'Must be a valid URL'],
    ['no events', { events: [] }, 'At least one event must be selected'],
    ['no scope', { scope: '' }, 'Scope is required'],
    ['no organization', { organization: '' }, 'Organization is required'],
    ['an unknown event', { events: ['invitee.exploded'] }, 'events'],
  ])('%s → 400 "%s"', async (_name, change, message) => {
    const answer = await call(webhooks, '/api/calendly-webhooks', { method: 'POST', body: { ...validWebhook, ...change }, cookie });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain(message);
  });

  test.each([
    ['malformed JSON', '{"name":'],
    ['a JSON array', '[]'],
  ])('%s is a 400, never a 500', async (_name, body) => {
    const answer = await call(webhooks, '/api/calendly-webhooks', { method: 'POST', body, cookie });
    expect(answer.status).toBe(400);
  });
});

describe('webhook configurations', () => {
  test('without a Calendly token it is stored and said to be not registered yet', async () => {
    const created = await call(webhooks, '/api/calendly-webhooks', { method: 'POST', body: { ...validWebhook, name: 'Unregistered' }, cookie });
    expect(created.status).toBe(201);
    expect(created.body.message).toMatch(/not registered with Calendly yet/i);
    expect(created.body.webhook).toMatchObject({ name: 'Unregistered', registered: false, isActive: true, events: validWebhook.events });
    expect(calendly.calls).toEqual([]);
    const list = await call(webhooks, '/api/calendly-webhooks', { cookie });
    expect(list.body.webhooks.map((w: { name: string }) => w.name)).toContain('Unregistered');
  });

  test('with a Calendly token it creates the subscription with every field', async () => {
    process.env.CALENDLY_ACCESS_TOKEN = calendly.token;
    const created = await call(webhooks, '/api/calendly-webhooks', {
      method: 'POST',
      body: { ...validWebhook, name: 'Registered', scope: 'user', user: FAKE_CALENDLY_USER, calendlyWebhookUrl: 'https://example.org/hook-user' },
      cookie,
    });
    expect(created.status).toBe(201);
    expect(created.body.webhook.registered).toBe(true);
    const [subscription] = [...calendly.subscriptions.values()];
    expect(subscription).toMatchObject({
      callback_url: 'https://example.org/hook-user',
      events: validWebhook.events,
      organization: FAKE_CALENDLY_ORGANIZATION,
      user: FAKE_CALENDLY_USER,
      scope: 'user',
      signing_key: validWebhook.signingKey,
    });
    expect(calendly.calls[0]?.authorization).toBe(`Bearer ${calendly.token}`);
  });

  test('a signing key is generated when none is given, and Calendly receives it', async () => {
    process.env.CALENDLY_ACCESS_TOKEN = calendly.token;
    const created = await call(webhooks, '/api/calendly-webhooks', {
      method: 'POST',
      body: { ...validWebhook, signingKey: '', calendlyWebhookUrl: 'https://example.org/hook-generated' },
      cookie,
    });
    expect(created.status).toBe(201);
    const key = [...calendly.subscriptions.values()][0]?.signing_key ?? '';
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(created.text).not.toContain(key);
  });

  test.each([
    ['Calendly refuses the token', () => void (process.env.CALENDLY_ACCESS_TOKEN = 'wrong-token'), /refused the Calendly access token/],
    ['Calendly fails', () => calendly.failNext(500), /Calendly answered/],
  ])('%s → 502 with the reason, nothing stored', async (_name, arrange, message) => {
    process.env.CALENDLY_ACCESS_TOKEN = calendly.token;
    arrange();
    const name = `Failing ${Math.random()}`;
    const answer = await call(webhooks, '/api/calendly-webhooks', {
      method: 'POST',
      body: { ...validWebhook, name, calendlyWebhookUrl: 'https://example.org/x' },
      cookie,
    });
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toMatch(message);
    const list = await call(webhooks, '/api/calendly-webhooks', { cookie });
    expect(list.body.webhooks.map((w: { name: string }) => w.name)).not.toContain(name);
  });

  test('deactivate, then delete (removing the Calendly subscription)', async () => {
    process.env.CALENDLY_ACCESS_TOKEN = calendly.token;
    const created = await call(webhooks, '/api/calendly-webhooks', {
      method: 'POST',
      body: { ...validWebhook, calendlyWebhookUrl: 'https://example.org/to-delete' },
      cookie,
    });
    const id = created.body.webhook.id;
    const off = await call(webhooks, `/api/calendly-webhooks/${id}`, { method: 'PATCH', body: { isActive: false }, cookie });
    expect(off.status).toBe(200);
    expect(off.body.webhook.isActive).toBe(false);
    expect(calendly.subscriptions.size).toBe(1);
    const gone = await call(webhooks, `/api/calendly-webhooks/${id}`, { method: 'DELETE', cookie });
    expect(gone.status).toBe(200);
    expect(calendly.subscriptions.size).toBe(0);
    const list = await call(webhooks, '/api/calendly-webhooks', { cookie });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).not.toContain(id);
    expect((await call(webhooks, `/api/calendly-webhooks/${id}`, { method: 'DELETE', cookie })).status).toBe(404);
  });

  test('the signing key never comes back in full', async () => {
    const created = await call(webhooks, '/api/calendly-webhooks', { method: 'POST', body: { ...validWebhook, name: 'Masked key' }, cookie });
    const list = await call(webhooks, '/api/calendly-webhooks', { cookie });
    for (const text of [created.text, list.text]) expect(text).not.toContain(validWebhook.signingKey);
    expect(created.body.webhook.signingKey).toBe('••••••••ough');
  });
});

describe('HubSpot configuration', () => {
  const token = 'pat-na1-11111111-2222-3333-4444-555555555555';
  const refresh = 'refresh-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

  test.each([
    ['no name', { name: '', accessToken: token }, 'Name is required'],
    ['no access token', { name: 'Main', accessToken: '' }, 'Access token is required'],
  ])('%s → 400 "%s"', async (_name, body, message) => {
    const answer = await call(hubspot, '/api/hubspot-config', { method: 'POST', body, cookie });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain(message);
  });

  test('tokens are masked in every answer and log line, encrypted at rest, and the active one is used', async () => {
    const before = await call(hubspot, '/api/hubspot-config', { cookie });
    expect(before.status).toBe(200);
    const created = await call(hubspot, '/api/hubspot-config', {
      method: 'POST',
      body: { name: 'Main portal', accessToken: token, refreshToken: refresh },
      cookie,
    });
    expect(created.status).toBe(201);
    expect(created.body.config).toMatchObject({ name: 'Main portal', isActive: true, accessToken: '••••••••5555' });
    const read = await call(hubspot, '/api/hubspot-config', { cookie });
    expect(read.body.config.name).toBe('Main portal');
    for (const text of [created.text, read.text, logged.join('\n')]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(refresh);
    }
    // At rest: no stored row holds the token in clear.
    const rows = await query<{ row: string }>(sql`SELECT row_to_json(c)::text AS row FROM hubspot_configs c`);
    expect(rows.length).toBeGreaterThan(0);
    for (const { row } of rows) {
      expect(row).not.toContain(token);
      expect(row).not.toContain(refresh);
    }
    expect(await activeHubSpotToken()).toBe(token);
  });

  test('a newer active configuration replaces the previous one', async () => {
    await call(hubspot, '/api/hubspot-config', { method: 'POST', body: { name: 'Old', accessToken: 'old-token-0000000000001' }, cookie });
    await call(hubspot, '/api/hubspot-config', { method: 'POST', body: { name: 'New', accessToken: 'new-token-0000000000002' }, cookie });
    expect((await call(hubspot, '/api/hubspot-config', { cookie })).body.config.name).toBe('New');
    expect(await activeHubSpotToken()).toBe('new-token-0000000000002');
  });

  test('without a CONFIG_ENCRYPTION_KEY nothing is stored and the answer says why', async () => {
    const key = process.env.CONFIG_ENCRYPTION_KEY;
    delete process.env.CONFIG_ENCRYPTION_KEY;
    try {
      const answer = await call(hubspot, '/api/hubspot-config', { method: 'POST', body: { name: 'Nope', accessToken: token }, cookie });
      expect(answer.status).toBe(503);
      expect(answer.body.error.message).toMatch(/CONFIG_ENCRYPTION_KEY is not configured/);
    } finally {
      process.env.CONFIG_ENCRYPTION_KEY = key;
    }
  });
});

describe('connection tests', () => {
  test.each([
    ['Calendly, good token', testCalendly as Handler, () => calendly.token, 200, 'Calendly connection test successful'],
    ['Calendly, wrong token', testCalendly as Handler, () => 'wrong-calendly-token', 400, 'Calendly refused this access token'],
    ['HubSpot, good token', testHubspot as Handler, () => hubspotFake.token, 200, 'HubSpot connection test successful'],
    ['HubSpot, wrong token', testHubspot as Handler, () => 'wrong-hubspot-token', 400, 'HubSpot refused this access token'],
    ['Calendly, empty token', testCalendly as Handler, () => '', 400, 'Access token is required'],
    ['HubSpot, empty token', testHubspot as Handler, () => ' ', 400, 'Access token is required'],
  ])('%s → %i', async (_name, handler, token, status, message) => {
    const accessToken = token();
    const answer = await call(handler, '/api/test', { method: 'POST', body: { accessToken }, cookie });
    expect(answer.status).toBe(status);
    expect(answer.body.message ?? answer.body.error.message).toContain(message);
    if (accessToken.trim()) expect(answer.text).not.toContain(accessToken);
  });

  test('an unreachable service gives the §8 failure message', async () => {
    process.env.CALENDLY_BASE_URL = 'http://127.0.0.1:9';
    try {
      const answer = await call(testCalendly as Handler, '/api/test', { method: 'POST', body: { accessToken: 'x' }, cookie });
      expect(answer.status).toBe(502);
      expect(answer.body.error.message).toBe('Failed to connect to the Calendly API');
    } finally {
      process.env.CALENDLY_BASE_URL = calendly.url;
    }
  });
});
