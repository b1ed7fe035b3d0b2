/**
 * A local stand-in for Calendly's v2 API, for the calls the site makes: `GET /users/me` (the
 * connection test) and webhook subscriptions (create, list, delete). It checks the bearer token,
 * answers errors as Calendly does (`{ title, message, details }`), and can be told to fail.
 *
 * In-process: `const fake = await startCalendlyFake()`. As a process (for `npm start` in e2e):
 * `node tests/fakes/calendly.ts --port 8913`, controlled through `POST /__fake/*`.
 */
import { createServer, type ServerResponse } from 'node:http';
import { listen, readBody } from './_http.ts';

export const FAKE_CALENDLY_TOKEN = 'fake-calendly-token';
const API = 'https://api.calendly.com';
export const FAKE_CALENDLY_ORGANIZATION = `${API}/organizations/FAKEORG000000001`;
export const FAKE_CALENDLY_USER = `${API}/users/FAKEUSER00000001`;

export interface FakeSubscription {
  uri: string;
  callback_url: string;
  created_at: string;
  updated_at: string;
  retry_started_at: null;
  state: 'active';
  events: string[];
  scope: 'organization' | 'user';
  organization: string;
  user: string | null;
  creator: string;
  /** Not part of Calendly's answers; kept so tests can sign deliveries as Calendly would. */
  signing_key: string | null;
}

export interface CalendlyFakeCall {
  method: string;
  path: string;
  body: unknown;
  authorization?: string;
}

export interface CalendlyFake {
  url: string;
  port: number;
  token: string;
  subscriptions: Map<string, FakeSubscription>;
  calls: CalendlyFakeCall[];
  failNext(...statuses: number[]): void;
  reset(): void;
  close(): Promise<void>;
}

const EVENTS = new Set(['invitee.created', 'invitee.canceled', 'invitee_no_show.created', 'invitee_no_show.deleted', 'routing_form_submission.created']);

function send(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function calendlyError(res: ServerResponse, status: number, title: string, message: string, details?: Array<{ parameter: string; message: string }>): void {
  send(res, status, { title, message, ...(details ? { details } : {}) });
}

export async function startCalendlyFake(options: { port?: number; token?: string } = {}): Promise<CalendlyFake> {
  const token = options.token ?? FAKE_CALENDLY_TOKEN;
  let failures: number[] = [];

  const fake = {
    url: '',
    port: 0,
    token,
    subscriptions: new Map<string, FakeSubscription>(),
    calls: [] as CalendlyFakeCall[],
    failNext(...statuses: number[]) {
      failures.push(...statuses);
    },
    reset() {
      failures = [];
      fake.subscriptions.clear();
      fake.calls = [];
    },
    close: async () => {},
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const body = await readBody(req);
    if (path.startsWith('/__fake/')) return control(path, body, res);

    fake.calls.push({ method: req.method ?? 'GET', path, body, authorization: req.headers.authorization });
    const failure = failures.shift();
    if (failure === 429) return calendlyError(res, 429, 'Too Many Requests', 'You have exceeded the rate limit.');
    if (failure) return calendlyError(res, failure, 'Internal Server Error', 'The server encountered an unexpected condition.');

    if (req.headers.authorization !== `Bearer ${token}`) {
      return calendlyError(res, 401, 'Unauthenticated', 'The access token is invalid');
    }

    if (path === '/users/me' && req.method === 'GET') {
      return send(res, 200, {
        resource: {
          uri: FAKE_CALENDLY_USER,
          name: 'Fake Scheduler',
          slug: 'fake-scheduler',
          email: 'scheduler@example.org',
          scheduling_url: 'https://calendly.com/fake-scheduler',
          timezone: 'America/New_York',
          avatar_url: null,
          created_at: '2024-01-01T00:00:00.000000Z',
          updated_at: '2024-01-01T00:00:00.000000Z',
          current_organization: FAKE_CALENDLY_ORGANIZATION,
          resource_type: 'User',
        },
      });
    }

    if (path === '/webhook_subscriptions' && req.method === 'POST') {
      const input = (body ?? {}) as Record<string, unknown>;
      const details: Array<{ parameter: string; message: string }> = [];
      if (typeof input.url !== 'string' || !/^https?:\/\//.test(input.url)) details.push({ parameter: 'url', message: 'is invalid' });
      if (!Array.isArray(input.events) || input.events.length === 0 || !input.events.every((e) => EVENTS.has(String(e)))) {
        details.push({ parameter: 'events', message: 'is invalid' });
      }
      if (input.organization !== FAKE_CALENDLY_ORGANIZATION) details.push({ parameter: 'organization', message: 'is invalid' });
      if (input.scope !== 'organization' && input.scope !== 'user') details.push({ parameter: 'scope', message: 'is invalid' });
      if (input.scope === 'user' && typeof input.user !== 'string') details.push({ parameter: 'user', message: 'is required for user scope' });
      if (details.length) return calendlyError(res, 400, 'Invalid Argument', 'The supplied parameters are invalid.', details);
      const existing = [...fake.subscriptions.values()].find((s) => s.callback_url === input.url && s.scope === input.scope);
      if (existing) return calendlyError(res, 409, 'Already Exists', 'Hook with this url already exists');
      const uuid = crypto.randomUUID();
      const now = new Date().toISOString();
      const subscription: FakeSubscription = {
        uri: `${API}/webhook_subscriptions/${uuid}`,
        callback_url: input.url as string,
        created_at: now,
        updated_at: now,
        retry_started_at: null,
        state: 'active',
        events: input.events as string[],
        scope: input.scope as 'organization' | 'user',
        organization: input.organization as string,
        user: (input.user as string) ?? null,
        creator: FAKE_CALENDLY_USER,
        signing_key: typeof input.signing_key === 'string' ? input.signing_key : null,
      };
      fake.subscriptions.set(uuid, subscription);
      return send(res, 201, { resource: publicView(subscription) });
    }

    if (path === '/webhook_subscriptions' && req.method === 'GET') {
      const organization = url.searchParams.get('organization');
      const scope = url.searchParams.get('scope');
      if (!organization || !scope) {
        return calendlyError(res, 400, 'Invalid Argument', 'The supplied parameters are invalid.', [
          { parameter: organization ? 'scope' : 'organization', message: 'is required' },
        ]);
      }
      const collection = [...fake.subscriptions.values()].filter((s) => s.organization === organization && s.scope === scope).map(publicView);
      return send(res, 200, {
        collection,
        pagination: { count: collection.length, next_page: null, previous_page: null, next_page_token: null, previous_page_token: null },
      });
    }

    const one = path.match(/^\/webhook_subscriptions\/([^/]+)$/);
    if (one && req.method === 'GET') {
      const subscription = fake.subscriptions.get(one[1]!);
      if (!subscription) return calendlyError(res, 404, 'Resource Not Found', 'The server could not find the requested resource.');
      return send(res, 200, { resource: publicView(subscription) });
    }
    if (one && req.method === 'DELETE') {
      if (!fake.subscriptions.delete(one[1]!)) return calendlyError(res, 404, 'Resource Not Found', 'The server could not find the requested resource.');
      return send(res, 204);
    }

    return calendlyError(res, 404, 'Resource Not Found', 'The server could not find the requested resource.');
  });

  function publicView(subscription: FakeSubscription): Omit<FakeSubscription, 'signing_key'> {
    const { signing_key: _key, ...rest } = subscription;
    return rest;
  }

  function control(path: string, body: unknown, res: ServerResponse): void {
    const input = (body ?? {}) as Record<string, unknown>;
    switch (path) {
      case '/__fake/reset':
        fake.reset();
        return send(res, 200, { ok: true });
      case '/__fake/fail':
        fake.failNext(...((input.statuses as number[]) ?? []));
        return send(res, 200, { ok: true });
      case '/__fake/subscriptions':
        return send(res, 200, { subscriptions: [...fake.subscriptions.values()] });
      case '/__fake/calls':
        return send(res, 200, { calls: fake.calls });
      default:
        return send(res, 404, { error: 'unknown control path' });
    }
  }

  Object.assign(fake, await listen(server, options.port));
  return fake as CalendlyFake;
}

// Run as a process: node tests/fakes/calendly.ts --port 8913
if (import.meta.url === `file://${process.argv[1]}`) {
  const index = process.argv.indexOf('--port');
  const port = index > 0 ? Number(process.argv[index + 1]) : 8913;
  const fake = await startCalendlyFake({ port });
  console.log(`Calendly fake listening on ${fake.url}`);
}
