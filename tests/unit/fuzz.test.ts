/**
 * Property tests over every HTTP function in netlify/functions: generated bad requests (wrong
 * methods and content types, malformed, missing, extra, huge and unicode fields, bodies over 1 MB)
 * never get a 5xx, always get a JSON error with a message (or, from the functions that answer with
 * pages, a page that says what went wrong), and write nothing to the store.
 */
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { useFormDefinitions } from './helpers/forms';
import { useSiteShell } from './helpers/site';
import { forms } from '../../src/config/forms';
import { allowed } from './helpers/time';

const functionsDir = join(import.meta.dirname, '..', '..', 'netlify', 'functions');
const RUNS = Number(process.env.FUZZ_RUNS || 1000);

interface FunctionModule {
  default: (req: Request, context: unknown) => Promise<Response>;
  config?: { path?: string | string[]; method?: string | string[]; schedule?: string };
}

const files = readdirSync(functionsDir).filter((file) => /\.m?ts$/.test(file));
let database: TestDatabase;
let hubspot: HubSpotFake;
let shell: ReturnType<typeof useSiteShell>;
let definitions: Awaited<ReturnType<typeof useFormDefinitions>>;
/** Route parameters that name something real, so the fuzzing reaches past the lookup. */
const paramValues: Record<string, string> = { formId: forms.newsletter.formId };

beforeAll(async () => {
  shell = useSiteShell();
  definitions = await useFormDefinitions();
  database = await startTestDatabase();
  hubspot = await startHubSpotFake();
  process.env.HUBSPOT_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
  process.env.HUBSPOT_RETRY_BASE_MS = '1';
  process.env.ADMIN_PASSWORD = 'fuzz-admin-password';
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
});

afterAll(async () => {
  shell.remove();
  definitions.remove();
  await database.stop();
  await hubspot.close();
});

/**
 * Tables of counters that refusing a request may count in (rate limits, replayed signatures), and
 * the audit log, which records a refused request (a failed sign-in, say) as they count it.
 */
const COUNTERS = ['login_attempts', 'form_rate_windows', 'calendly_signatures', 'audit_log'];

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
const contentTypes = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined);
const hostile = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ maxLength: 5 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '<script>alert(1)</script>',
    "'; DROP TABLE x;--",
    '../../etc/passwd',
    'a'.repeat(20_000),
    '__proto__',
    'constructor',
    '😀'.repeat(500),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }),
);
const fieldNames = fc.constantFrom(
  'email',
  'schoolName',
  'city',
  'yourName',
  'childGrade',
  'sendTo',
  'contactId',
  'updates',
  'name',
  'events',
  'scope',
  'organization',
  'calendlyWebhookUrl',
  'accessToken',
  'username',
  'password',
  'idempotencyKey',
  'parentEmail',
  'subject',
  'body',
  '__proto__',
  'extra',
  'submissionId',
  'token',
  'note',
  // The newsletter form's own fields, for /api/forms/{formId}.
  '_consent_1001',
  '_website',
  '_started',
  '_page',
  '_note',
);
/** A body over 1 MB, and the same text as a Blob (see fuzzRequest). */
const OVERSIZED = JSON.stringify({ email: 'x@example.org', padding: 'p'.repeat(1_100_000) });
const OVERSIZED_BLOB = new Blob([OVERSIZED]);
const bodies = fc.oneof(
  fc.dictionary(fieldNames, hostile, { maxKeys: 8 }).map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{', '{"email":', 'null', '[]', '"just a string"', '{"email":"a@b.co",}', ''),
  fc.constant(OVERSIZED),
);

/**
 * A request as the platform hands it to a function. The body over 1 MB goes as a Blob of the same
 * text, made once: `new Request` encodes a string body to UTF-8 each time (0.33 ms of CPU for this
 * one, 11 s over the runs below, most of whose functions never read it), and a Blob's bytes are
 * only read when the function reads the body, the same bytes. A string body also gets
 * `text/plain;charset=UTF-8` when it has no content type; so does the Blob.
 */
function fuzzRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined): Request {
  if (body !== OVERSIZED) return new Request(url, { method, headers, body });
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return new Request(url, { method, headers: typed ? headers : { ...headers, 'content-type': 'text/plain;charset=UTF-8' }, body: OVERSIZED_BLOB });
}

for (const file of files) {
  describe(`fuzz ${file}`, () => {
    test(
      `${RUNS} bad requests: never a 5xx, always a JSON error, nothing stored`,
      async () => {
        const mod = (await import(pathToFileURL(join(functionsDir, file)).href)) as FunctionModule;
        const rawPath = mod.config?.path;
        if (!rawPath || mod.config?.schedule) return; // scheduled functions take no HTTP requests
        const path = (Array.isArray(rawPath) ? rawPath[0]! : rawPath)
          .replace(/:(\w+)\??/g, (_match, name: string) => paramValues[name] ?? `fuzz-${name}`)
          .replace(/\*$/, 'x');
        const before = await database.snapshot(COUNTERS);

        await fc.assert(
          fc.asyncProperty(
            methods,
            contentTypes,
            bodies,
            fc.option(fc.constantFrom('https://evil.example', 'null'), { nil: undefined }),
            async (method, type, body, origin) => {
              const headers: Record<string, string> = {};
              if (type) headers['content-type'] = type;
              if (origin) headers.origin = origin;
              const withBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
              const request = fuzzRequest(`http://localhost${path}`, method, headers, withBody ? body : undefined);
              const response = await mod.default(request, { ip: '127.0.0.1', params: {}, cookies: { get: () => undefined } });
              // A valid request may legitimately succeed; what matters is how the rest are refused.
              expect(response.status).toBeLessThan(500);
              if (response.status >= 400 && /^text\/html\b/.test(response.headers.get('content-type') ?? '')) {
                // A page for a person: it says what went wrong, and nothing more.
                const page = await response.text();
                expect(page).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
                expect(page).not.toMatch(/\bat .+\.m?[jt]s:\d+|fake-hubspot-token|fuzz-admin-password/);
              } else if (response.status >= 400) {
                const answer = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
                expect(typeof answer.error?.code).toBe('string');
                expect(typeof answer.error?.message).toBe('string');
                expect(JSON.stringify(answer)).not.toMatch(/\bat .+\.m?[jt]s:\d+|fake-hubspot-token|fuzz-admin-password/);
              }
            },
          ),
          { numRuns: RUNS },
        );

        // Requests the store accepted are valid ones; with these generators there should be none.
        expect(await database.snapshot(COUNTERS)).toEqual(before);
      },
      allowed(240_000),
    );
  });
}

/**
 * The staff and passkey endpoints (issue 24) refuse every request from another origin before
 * reading it, so the loop above mostly meets that refusal. Here they get the same bad requests
 * from this site, signed in with the bootstrap password's owner session and without one: still
 * never a 5xx, and nothing stored but challenges (each options request stores one, by design) and
 * the invitations a valid invitation request may make.
 */
describe('fuzz the staff and passkey endpoints from this site', () => {
  const targets = [
    [
      'admin-passkeys.mts',
      [
        '/api/admin/passkeys/sign-in/options',
        '/api/admin/passkeys/sign-in',
        '/api/admin/passkeys/register/options',
        '/api/admin/passkeys/register',
        '/api/admin/invitation',
      ],
    ],
    [
      'staff-admin.mts',
      [
        '/api/admin/staff',
        '/api/admin/staff/invitations',
        '/api/admin/staff/00000000-0000-4000-8000-000000000000',
        '/api/admin/staff/fuzz-id',
        '/api/admin/staff/00000000-0000-4000-8000-000000000000/passkeys/1',
      ],
    ],
  ] as const;
  const passkeyFields = fc.constantFrom(
    'purpose',
    'email',
    'token',
    'label',
    'response',
    'role',
    'id',
    'rawId',
    'type',
    'clientDataJSON',
    'attestationObject',
    'authenticatorData',
    'signature',
  );
  const purposes = fc.constantFrom('bootstrap', 'invitation', 'add', 'sign_in', '');
  const passkeyBodies = fc.oneof(
    bodies,
    fc
      .record(
        { purpose: purposes, email: fc.oneof(fc.emailAddress(), hostile), token: fc.oneof(fc.base64String({ minLength: 43, maxLength: 44 }), hostile) },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
    fc
      .record(
        {
          purpose: purposes,
          response: fc.record(
            {
              id: hostile,
              rawId: hostile,
              type: fc.constantFrom('public-key', 'x'),
              response: fc.dictionary(passkeyFields, fc.oneof(fc.base64String({ maxLength: 200 }), hostile), { maxKeys: 5 }),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
    fc
      .record({ email: fc.oneof(fc.emailAddress(), hostile), role: fc.constantFrom('owner', 'staff', 'admin', '') }, { requiredKeys: [] })
      .map((value) => JSON.stringify(value)),
  );

  for (const [file, paths] of targets) {
    test(
      `${file}: bad requests from this site never get a 5xx and store nothing`,
      async () => {
        const mod = (await import(pathToFileURL(join(functionsDir, file)).href)) as FunctionModule;
        const signIn = (await import(pathToFileURL(join(functionsDir, 'admin-session.mts')).href)) as FunctionModule;
        const login = await signIn.default(
          new Request('https://localhost/api/admin/session', {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: 'https://localhost' },
            body: JSON.stringify({ username: 'admin', password: 'fuzz-admin-password' }),
          }),
          { ip: '127.0.0.9' },
        );
        expect(login.status).toBe(200);
        const owner = login.headers
          .getSetCookie()
          .find((line) => line.startsWith('__Host-admin_session='))!
          .split(';')[0]!;
        const before = await database.snapshot([...COUNTERS, 'webauthn_challenges', 'staff_invitations']);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...paths),
            methods,
            fc.constantFrom('application/json', 'text/plain', undefined),
            passkeyBodies,
            fc.boolean(),
            async (path, method, type, body, signedIn) => {
              const headers: Record<string, string> = { origin: 'https://localhost' };
              if (type) headers['content-type'] = type;
              if (signedIn) headers.cookie = owner;
              const withBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
              const response = await mod.default(fuzzRequest(`https://localhost${path}`, method, headers, withBody ? body : undefined), { ip: '127.0.0.9' });
              expect(response.status).toBeLessThan(500);
              if (response.status >= 400) {
                const answer = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
                expect(typeof answer.error?.code).toBe('string');
                expect(typeof answer.error?.message).toBe('string');
              }
            },
          ),
          { numRuns: RUNS },
        );
        expect(await database.snapshot([...COUNTERS, 'webauthn_challenges', 'staff_invitations'])).toEqual(before);
      },
      allowed(240_000),
    );
  }
});
