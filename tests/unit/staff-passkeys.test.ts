/**
 * Staff one by one with passkeys (src/server/staff/members.ts): the bootstrap password makes the first
 * owner and is refused after; invitations (forged, expired, reused); challenges used once; a
 * response from another origin or relying party, or replayed, refused; owners only where owners
 * only; removal ends sessions at once; the last owner stays. Real WebAuthn responses come from a
 * software authenticator (helpers/passkey.ts). The tests run in order on one database.
 */
import { afterAll, beforeAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import sessionFunction from '../../netlify/functions/admin-session.mts';
import passkeysFunction, { CEREMONIES_PER_WINDOW, SIGN_IN_STARTS_PER_WINDOW } from '../../netlify/functions/admin-passkeys.mts';
import staffFunction from '../../netlify/functions/staff-admin.mts';
import auditFunction from '../../netlify/functions/audit-admin.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import dataDeletions from '../../netlify/functions/data-deletions-admin.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import impactAdmin from '../../netlify/functions/impact-admin.mts';
import outbox from '../../netlify/functions/outbox.mts';
import formSubmissions from '../../netlify/functions/form-submissions-admin.mts';
import testCalendly from '../../netlify/functions/test-calendly-connection.mts';
import testHubspot from '../../netlify/functions/test-hubspot-connection.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { ABSOLUTE_TIMEOUT_MS, IDLE_TIMEOUT_MS } from '../../src/server/staff/auth';
import { INVITATION_TTL_MS, CHALLENGE_TTL_MS, purgeStaffCeremonies } from '../../src/server/staff/members';
import { listAudit } from '../../src/server/staff/audit';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { ADMIN_PASSWORD, call, ORIGIN, setAdminEnv, signIn } from './helpers/admin';
import { SoftwareAuthenticator, type Lies } from './helpers/passkey';
import { useMail, type MailCatcher } from './helpers/mail';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const session = sessionFunction as Handler;
const passkeys = passkeysFunction as Handler;
const staff = staffFunction as Handler;

let database: TestDatabase;
let mail: MailCatcher;
beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  setAdminEnv();
  // The relying party comes from the site's configured address, never the request.
  process.env.SITE_URL = ORIGIN;
  delete process.env.HUBSPOT_ACCESS_TOKEN;
});
afterAll(async () => {
  vi.useRealTimers();
  delete process.env.SITE_URL;
  await mail.close();
  await database.stop();
});

const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((line) => line.startsWith('__Host-admin_session='))!
    .split(';')[0]!;

async function auditRows(action: string): Promise<Array<{ actor: string; target: string | null }>> {
  const { rows } = await database.db.query<{ actor: string; target: string | null }>(`SELECT actor, target FROM audit_log WHERE action = $1 ORDER BY id`, [
    action,
  ]);
  return rows;
}

async function registrationOptions(body: Record<string, unknown>, cookie?: string) {
  const answer = await call(passkeys, '/api/admin/passkeys/register/options', { method: 'POST', body, cookie });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.options as { challenge: string; user: { id: string }; rp: { id: string } };
}

async function register(body: Record<string, unknown>, authenticator: SoftwareAuthenticator, cookie?: string, lies: Lies = {}) {
  const { label: _label, ...ceremony } = body;
  const options = await registrationOptions(ceremony, cookie);
  return call(passkeys, '/api/admin/passkeys/register', { method: 'POST', body: { ...body, response: authenticator.register(options, lies) }, cookie });
}

async function signInOptions() {
  const answer = await call(passkeys, '/api/admin/passkeys/sign-in/options', { method: 'POST' });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.options as { challenge: string; rpId: string };
}

async function passkeySignIn(authenticator: SoftwareAuthenticator, lies: Lies = {}) {
  const response = authenticator.authenticate(await signInOptions(), lies);
  return { response, answer: await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response } }) };
}

async function invite(ownerCookie: string, email: string, role: 'owner' | 'staff') {
  const answer = await call(staff, '/api/admin/staff/invitations', { method: 'POST', body: { email, role }, cookie: ownerCookie });
  expect(answer.status, answer.text).toBe(201);
  const link = new URL(answer.body.invitation.link as string);
  expect(link.pathname).toBe('/webhook-config');
  return link.searchParams.get('invite')!;
}

const ownerKey = new SoftwareAuthenticator();
const ownerSecondKey = new SoftwareAuthenticator();
const staffKey = new SoftwareAuthenticator();
let ownerCookie = '';
let staffCookie = '';
let staffId = '';

describe('the first owner, from the bootstrap password', () => {
  test('with no owner, the password signs in as a bootstrap owner, and the page is told the password still works', async () => {
    expect((await call(session, '/api/admin/session')).body).toEqual({ session: null, passwordSignIn: true });
    const cookie = await signIn();
    const who = await call(session, '/api/admin/session', { cookie });
    expect(who.body.session).toMatchObject({ username: 'admin', role: 'owner', bootstrap: true, staffId: null });
    expect(who.body.passwordSignIn).toBe(true);
  });

  test('registering needs the bootstrap session', async () => {
    const answer = await call(passkeys, '/api/admin/passkeys/register/options', { method: 'POST', body: { purpose: 'bootstrap', email: 'owner@example.org' } });
    expect(answer.status).toBe(401);
  });

  test("a registration response for another site's relying party or origin is refused, and nothing is stored", async () => {
    const cookie = await signIn();
    for (const lies of [{ origin: 'https://evil.example' }, { rpID: 'evil.example' }, { type: 'webauthn.get' }]) {
      const answer = await register({ purpose: 'bootstrap', email: 'owner@example.org' }, new SoftwareAuthenticator(), cookie, lies);
      expect(answer.status, JSON.stringify(lies)).toBe(400);
      expect(answer.body.error.code).toBe('passkey_invalid');
    }
    expect((await database.db.query('SELECT 1 FROM staff')).rows).toHaveLength(0);
  });

  test('the bootstrap owner registers a passkey with their email address and is signed in with it', async () => {
    const bootstrap = await signIn();
    const otherPasswordSession = await signIn(ADMIN_PASSWORD, '198.51.100.9');
    const options = await registrationOptions({ purpose: 'bootstrap', email: 'Owner@Example.org' }, bootstrap);
    expect(options.rp.id).toBe('localhost');
    const response = ownerKey.register(options);
    const answer = await call(passkeys, '/api/admin/passkeys/register', {
      method: 'POST',
      body: { purpose: 'bootstrap', email: 'Owner@Example.org', label: 'Laptop', response },
      cookie: bootstrap,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.session).toMatchObject({ username: 'Owner@Example.org', role: 'owner', bootstrap: false });
    ownerCookie = cookieOf(answer.headers);
    expect(ownerCookie).not.toBe(bootstrap);
    // The password's sessions end: this one and any other.
    for (const cookie of [bootstrap, otherPasswordSession]) expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })).status).toBe(401);
    expect((await call(session, '/api/admin/session', { cookie: ownerCookie })).body.session.username).toBe('Owner@Example.org');
    expect(await auditRows('staff.first_owner')).toEqual([{ actor: 'Owner@Example.org', target: 'Laptop' }]);
    expect(await auditRows('passkey.added')).toEqual([{ actor: 'Owner@Example.org', target: 'Laptop' }]);
  });

  test('once an owner exists, the password is refused with a clear message and an audit entry', async () => {
    const answer = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '198.51.100.20');
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('passkeys_only');
    expect(answer.body.error.message).toMatch(/This site's staff sign in with passkeys/);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(await auditRows('sign_in.password_refused')).toEqual([{ actor: 'unknown', target: null }]);
    expect((await call(session, '/api/admin/session')).body).toEqual({ session: null, passwordSignIn: false });
  });

  test('a second bootstrap is refused', async () => {
    const answer = await call(passkeys, '/api/admin/passkeys/register/options', {
      method: 'POST',
      body: { purpose: 'bootstrap', email: 'x@example.org' },
      cookie: ownerCookie,
    });
    expect(answer.status).toBe(409);
  });
});

describe('signing in with a passkey', () => {
  test('a registered passkey signs in (no username asked) and the sign-in is recorded', async () => {
    const { answer } = await passkeySignIn(ownerKey);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.session).toMatchObject({ username: 'Owner@Example.org', role: 'owner' });
    expect(cookieOf(answer.headers)).toMatch(/^__Host-admin_session=/);
    expect((await auditRows('sign_in.passkey')).at(-1)).toEqual({ actor: 'Owner@Example.org', target: null });
  });

  test('a replayed response is refused: its challenge was used', async () => {
    const { response, answer } = await passkeySignIn(ownerKey);
    expect(answer.status).toBe(200);
    const replay = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response } });
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('challenge_invalid');
    expect(replay.headers.get('set-cookie')).toBeNull();
  });

  test('a signature counter that does not move forward (a cloned passkey) is refused', async () => {
    const answer = (await passkeySignIn(ownerKey, { counter: 1 })).answer;
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('passkey_refused');
  });

  test.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another relying party', { rpID: 'evil.example' }],
    ['a registration ceremony', { type: 'webauthn.create' }],
  ])('a response for %s is refused and recorded', async (_name, lies) => {
    const before = (await auditRows('sign_in.passkey_failed')).length;
    const { answer } = await passkeySignIn(ownerKey, lies);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('set-cookie')).toBeNull();
    const failed = await auditRows('sign_in.passkey_failed');
    expect(failed).toHaveLength(before + 1);
    expect(failed.at(-1)!.actor).toBe('Owner@Example.org');
  });

  test("a passkey session keeps the admin session's idle (30 minutes) and absolute (8 hours) limits", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const idle = cookieOf((await passkeySignIn(ownerKey)).answer.headers);
      const active = cookieOf((await passkeySignIn(ownerKey)).answer.headers);
      for (let step = 0; step < 3; step++) {
        vi.setSystemTime(Date.now() + IDLE_TIMEOUT_MS - 60_000);
        expect((await call(session, '/api/admin/session', { cookie: active })).body.session).not.toBeNull();
      }
      expect((await call(session, '/api/admin/session', { cookie: idle })).body.session).toBeNull();
      vi.setSystemTime(Date.now() + ABSOLUTE_TIMEOUT_MS);
      expect((await call(session, '/api/admin/session', { cookie: active })).body.session).toBeNull();
      // The hourly purge lets expired challenges go.
      // (a sign-in start stores nothing; the challenge a response used is kept until it expires)
      await passkeySignIn(new SoftwareAuthenticator());
      vi.setSystemTime(Date.now() + CHALLENGE_TTL_MS + 1000);
      expect(await purgeStaffCeremonies()).toBeGreaterThanOrEqual(1);
      expect((await database.db.query('SELECT 1 FROM webauthn_challenges')).rows).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a passkey this site does not know is refused', async () => {
    const { answer } = await passkeySignIn(new SoftwareAuthenticator());
    expect(answer.status).toBe(401);
    expect((await auditRows('sign_in.passkey_failed')).at(-1)).toEqual({ actor: 'unknown', target: 'passkey not registered' });
  });

  test('a challenge is used once, for its own ceremony, and not after 5 minutes', async () => {
    // A sign-in challenge cannot register a passkey.
    const signInChallenge = await signInOptions();
    const registered = await call(passkeys, '/api/admin/passkeys/register', {
      method: 'POST',
      body: { purpose: 'add', response: new SoftwareAuthenticator().register({ challenge: signInChallenge.challenge, user: { id: 'eA' } }) },
      cookie: ownerCookie,
    });
    expect(registered.status).toBe(400);
    expect(registered.body.error.code).toBe('challenge_invalid');
    // The sign-in challenge was not spent by that, but it is after one use.
    const first = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response: ownerKey.authenticate(signInChallenge) } });
    expect(first.status).toBe(200);
    const second = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response: ownerKey.authenticate(signInChallenge) } });
    expect(second.status).toBe(400);
    // Expired.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const options = await signInOptions();
      vi.setSystemTime(Date.now() + CHALLENGE_TTL_MS + 1000);
      const late = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response: ownerKey.authenticate(options) } });
      expect(late.status).toBe(400);
    } finally {
      vi.useRealTimers();
    }
  });

  test('the owner adds a second passkey, which signs in too', async () => {
    const answer = await register({ purpose: 'add', label: 'Phone' }, ownerSecondKey, ownerCookie);
    expect(answer.status, answer.text).toBe(200);
    // The same session goes on.
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect((await passkeySignIn(ownerSecondKey)).answer.status).toBe(200);
    // Adding needs a person signed in.
    expect((await call(passkeys, '/api/admin/passkeys/register/options', { method: 'POST', body: { purpose: 'add' } })).status).toBe(401);
  });

  test("another session's add challenge cannot be used", async () => {
    const options = await registrationOptions({ purpose: 'add' }, ownerCookie);
    const other = cookieOf((await passkeySignIn(ownerKey)).answer.headers);
    const answer = await call(passkeys, '/api/admin/passkeys/register', {
      method: 'POST',
      body: { purpose: 'add', response: new SoftwareAuthenticator().register(options) },
      cookie: other,
    });
    expect(answer.status).toBe(400);
  });
});

describe('invitations', () => {
  test('a forged link is refused with an audit entry', async () => {
    const forged = 'A'.repeat(43);
    const check = await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token: forged } });
    expect(check.status).toBe(404);
    expect(check.body.error.code).toBe('invitation_invalid');
    const options = await call(passkeys, '/api/admin/passkeys/register/options', { method: 'POST', body: { purpose: 'invitation', token: forged } });
    expect(options.status).toBe(404);
    // Two refusals from one network in one window: one row, counted twice (a flood writes one row).
    expect((await auditRows('invitation.refused')).filter((row) => row.target?.startsWith('no such invitation'))).toHaveLength(1);
    expect((await listAudit({ action: 'invitation.refused' }, 5)).entries[0]).toMatchObject({ actor: 'unknown', count: 2 });
    // A token of the wrong shape is a 400.
    expect((await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token: 'short' } })).status).toBe(400);
  });

  test('an expired link is refused', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const token = await invite(ownerCookie, 'late@example.org', 'staff');
      vi.setSystemTime(Date.now() + INVITATION_TTL_MS + 60_000);
      const check = await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token } });
      expect(check.status).toBe(410);
      expect(check.body.error.code).toBe('invitation_expired');
      expect((await auditRows('invitation.refused')).at(-1)).toEqual({ actor: 'late@example.org', target: 'expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  test('an invited person registers a passkey and is signed in with the role given; the link works once', async () => {
    const token = await invite(ownerCookie, 'helper@example.org', 'staff');
    expect((await auditRows('invitation.created')).at(-1)).toEqual({ actor: 'Owner@Example.org', target: 'helper@example.org as staff' });
    const check = await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token } });
    expect(check.body.invitation).toMatchObject({ email: 'helper@example.org', role: 'staff' });
    // Two ceremonies started from one link: only one can use it.
    const spare = await registrationOptions({ purpose: 'invitation', token });
    const answer = await register({ purpose: 'invitation', token, label: 'Work laptop' }, staffKey);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.session).toMatchObject({ username: 'helper@example.org', role: 'staff' });
    staffCookie = cookieOf(answer.headers);
    staffId = answer.body.session.staffId;
    expect((await auditRows('invitation.used')).at(-1)).toEqual({ actor: 'helper@example.org', target: 'as staff' });

    const reused = await call(passkeys, '/api/admin/passkeys/register', {
      method: 'POST',
      body: { purpose: 'invitation', token, response: new SoftwareAuthenticator().register(spare) },
    });
    expect(reused.status).toBe(410);
    expect(reused.body.error.code).toBe('invitation_used');
    expect((await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token } })).status).toBe(410);
    expect((await auditRows('invitation.refused')).at(-1)).toEqual({ actor: 'helper@example.org', target: 'already used' });
    const { rows } = await database.db.query(`SELECT email FROM staff ORDER BY email_canonical`);
    expect(rows).toEqual([{ email: 'helper@example.org' }, { email: 'Owner@Example.org' }]);
  });

  test('inviting someone on the staff already is refused', async () => {
    const answer = await call(staff, '/api/admin/staff/invitations', {
      method: 'POST',
      body: { email: 'Helper@example.org', role: 'owner' },
      cookie: ownerCookie,
    });
    expect(answer.status).toBe(409);
  });

  test('the owner sees people, passkeys and open invitations', async () => {
    const answer = await call(staff, '/api/admin/staff', { cookie: ownerCookie });
    expect(answer.status).toBe(200);
    const owner = answer.body.staff.find((person: { email: string }) => person.email === 'Owner@Example.org');
    expect(owner.passkeys.map((key: { label: string }) => key.label)).toEqual(['Laptop', 'Phone']);
    expect(answer.body.invitations.map((row: { email: string }) => row.email)).not.toContain('helper@example.org');
  });
});

describe('an invitation lives on its owner’s word', () => {
  test('it is emailed to the address invited; an owner lists and cancels it, and the link then opens nothing', async () => {
    const token = await invite(ownerCookie, 'cancel-me@example.org', 'staff');
    const emailed = mail.last('cancel-me@example.org', /invit/i);
    expect(emailed?.text).toContain(`/webhook-config?invite=${token}`);
    const listed = (await call(staff, '/api/admin/staff', { cookie: ownerCookie })).body.invitations as Array<{ id: string; email: string }>;
    const open = listed.find((row) => row.email === 'cancel-me@example.org')!;
    expect((await call(staff, `/api/admin/staff/invitations/${open.id}`, { method: 'DELETE', cookie: staffCookie })).status).toBe(403);
    expect((await call(staff, `/api/admin/staff/invitations/${open.id}`, { method: 'DELETE', cookie: ownerCookie })).status).toBe(200);
    expect((await auditRows('invitation.cancelled')).at(-1)).toEqual({ actor: 'Owner@Example.org', target: 'cancel-me@example.org' });
    const check = await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token } });
    expect(check.status).toBe(410);
    expect(check.body.error.code).toBe('invitation_cancelled');
    expect((await call(passkeys, '/api/admin/passkeys/register/options', { method: 'POST', body: { purpose: 'invitation', token } })).status).toBe(410);
    expect(
      ((await call(staff, '/api/admin/staff', { cookie: ownerCookie })).body.invitations as Array<{ email: string }>).map((row) => row.email),
    ).not.toContain('cancel-me@example.org');
    // Cancelled once; again, or an id never made, is a 404; a malformed id too.
    for (const id of [open.id, '999999', 'abc'])
      expect((await call(staff, `/api/admin/staff/invitations/${id}`, { method: 'DELETE', cookie: ownerCookie })).status).toBe(404);
  });

  test('demoting the owner who invited voids their open invitations', async () => {
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'owner' }, cookie: ownerCookie })).status).toBe(200);
    const token = await invite(staffCookie, 'friend-of-helper@example.org', 'owner');
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: ownerCookie })).status).toBe(200);
    const check = await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token } });
    expect(check.status).toBe(410);
    expect(check.body.error.code).toBe('invitation_cancelled');
    const { rows } = await database.db.query(`SELECT void_reason FROM staff_invitations WHERE email = 'friend-of-helper@example.org'`);
    expect(rows).toEqual([{ void_reason: 'inviter_demoted' }]);
  });

  test('two owners removing each other at once leave one owner', async () => {
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'owner' }, cookie: ownerCookie })).status).toBe(200);
    const { rows } = await database.db.query<{ id: string }>(`SELECT id FROM staff WHERE email = 'Owner@Example.org'`);
    const [first, second] = await Promise.all([
      call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: ownerCookie }),
      call(staff, `/api/admin/staff/${rows[0]!.id}`, { method: 'PATCH', body: { role: 'staff' }, cookie: staffCookie }),
    ]);
    // One wins; the other is refused (the last owner, or no longer an owner at all).
    expect([first.status, second.status].filter((status) => status === 200)).toHaveLength(1);
    const owners = await database.db.query(`SELECT 1 FROM staff WHERE role = 'owner'`);
    expect(owners.rows).toHaveLength(1);
    // Back to the starting roles for the tests after.
    if (second.status === 200) {
      const helperAsOwner = await call(staff, `/api/admin/staff/${rows[0]!.id}`, { method: 'PATCH', body: { role: 'owner' }, cookie: staffCookie });
      expect(helperAsOwner.status).toBe(200);
    }
    await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: ownerCookie });
  });
});

describe('roles: owners only where owners only', () => {
  const id = '0000000000001-00000000-0000-0000-0000-000000000000';
  const ownerOnly: Array<[string, string, Handler, unknown]> = [
    ['GET', '/api/calendly-webhooks', calendlyWebhooks as Handler, undefined],
    ['POST', '/api/calendly-webhooks', calendlyWebhooks as Handler, {}],
    ['PATCH', `/api/calendly-webhooks/${id}`, calendlyWebhooks as Handler, { isActive: false }],
    ['DELETE', `/api/calendly-webhooks/${id}`, calendlyWebhooks as Handler, undefined],
    ['GET', '/api/hubspot-config', hubspotConfig as Handler, undefined],
    ['POST', '/api/hubspot-config', hubspotConfig as Handler, { name: 'x', accessToken: 'y' }],
    ['POST', '/api/test-calendly-connection', testCalendly as Handler, { accessToken: 'x' }],
    ['POST', '/api/test-hubspot-connection', testHubspot as Handler, { accessToken: 'x' }],
    ['GET', '/api/admin/audit', auditFunction as Handler, undefined],
    ['GET', '/api/admin/data-deletions', dataDeletions as Handler, undefined],
    ['DELETE', '/api/admin/sessions', session, undefined],
    ['GET', '/api/admin/staff', staff, undefined],
    ['POST', '/api/admin/staff/invitations', staff, { email: 'x@example.org', role: 'owner' }],
    ['PATCH', '/api/admin/staff/00000000-0000-4000-8000-000000000000', staff, { role: 'owner' }],
    ['DELETE', '/api/admin/staff/00000000-0000-4000-8000-000000000000', staff, undefined],
    ['DELETE', '/api/admin/staff/00000000-0000-4000-8000-000000000000/passkeys/1', staff, undefined],
  ];

  test.each(ownerOnly)('staff calling %s %s: 403, nothing changed, recorded', async (method, path, handler, body) => {
    const before = await database.snapshot(['audit_log', 'admin_sessions']);
    const answer = await call(handler, path, { method, body, cookie: staffCookie });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('owner_only');
    expect(await database.snapshot(['audit_log', 'admin_sessions'])).toEqual(before);
    expect((await auditRows('staff.forbidden')).at(-1)).toEqual({ actor: 'helper@example.org', target: `${method} ${path}` });
  });

  test.each([
    ['/api/admin/outbox', outbox as Handler],
    ['/api/admin/form-submissions', formSubmissions as Handler],
    ['/api/admin/impact', impactAdmin as Handler],
    ['/api/webhook-logs', webhookLogs as Handler],
  ])('staff may open %s', async (path, handler) => {
    const answer = await call(handler, path, { cookie: staffCookie });
    expect([401, 403]).not.toContain(answer.status);
  });

  test('a role change applies at once, and the last owner cannot be demoted', async () => {
    const ownerId = (await call(session, '/api/admin/session', { cookie: ownerCookie })).body.session.staffId as string;
    const demote = await call(staff, `/api/admin/staff/${ownerId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: ownerCookie });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('last_owner');
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'owner' }, cookie: ownerCookie })).status).toBe(200);
    expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie: staffCookie })).status).toBe(200);
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'PATCH', body: { role: 'staff' }, cookie: ownerCookie })).status).toBe(200);
    expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie: staffCookie })).status).toBe(403);
    expect((await auditRows('staff.role_changed')).map((row) => row.target).slice(-2)).toEqual(['helper@example.org to owner', 'helper@example.org to staff']);
  });
});

describe('removal', () => {
  test('removing a passkey ends the sessions opened with it at once', async () => {
    const signedIn = await passkeySignIn(ownerSecondKey);
    const phoneCookie = cookieOf(signedIn.answer.headers);
    const list = await call(staff, '/api/admin/staff', { cookie: ownerCookie });
    const owner = list.body.staff.find((person: { email: string }) => person.email === 'Owner@Example.org');
    const phone = owner.passkeys.find((key: { label: string }) => key.label === 'Phone');
    const answer = await call(staff, `/api/admin/staff/${owner.id}/passkeys/${phone.id}`, { method: 'DELETE', cookie: ownerCookie });
    expect(answer.status).toBe(200);
    expect((await call(session, '/api/admin/session', { cookie: phoneCookie })).body.session).toBeNull();
    expect((await passkeySignIn(ownerSecondKey)).answer.status).toBe(401);
    // The laptop's session goes on.
    expect((await call(session, '/api/admin/session', { cookie: ownerCookie })).body.session).not.toBeNull();
    expect((await auditRows('passkey.removed')).at(-1)).toEqual({ actor: 'Owner@Example.org', target: 'Owner@Example.org: Phone' });
  });

  test("the site's last owner passkey and the last owner cannot be removed", async () => {
    const list = await call(staff, '/api/admin/staff', { cookie: ownerCookie });
    const owner = list.body.staff.find((person: { email: string }) => person.email === 'Owner@Example.org');
    const key = await call(staff, `/api/admin/staff/${owner.id}/passkeys/${owner.passkeys[0].id}`, { method: 'DELETE', cookie: ownerCookie });
    expect(key.status).toBe(409);
    const person = await call(staff, `/api/admin/staff/${owner.id}`, { method: 'DELETE', cookie: ownerCookie });
    expect(person.status).toBe(409);
    expect(person.body.error.code).toBe('last_owner');
    expect((await call(session, '/api/admin/session', { cookie: ownerCookie })).body.session).not.toBeNull();
  });

  test('removing a person ends their sessions at once: the next request is a 401, and their passkey no longer signs in', async () => {
    expect((await call(outbox as Handler, '/api/admin/outbox', { cookie: staffCookie })).status).toBe(200);
    const answer = await call(staff, `/api/admin/staff/${staffId}`, { method: 'DELETE', cookie: ownerCookie });
    expect(answer.status).toBe(200);
    expect((await call(outbox as Handler, '/api/admin/outbox', { cookie: staffCookie })).status).toBe(401);
    expect((await passkeySignIn(staffKey)).answer.status).toBe(401);
    expect((await auditRows('staff.removed')).at(-1)).toEqual({ actor: 'Owner@Example.org', target: 'helper@example.org (staff)' });
    expect((await call(staff, `/api/admin/staff/${staffId}`, { method: 'DELETE', cookie: ownerCookie })).status).toBe(404);
  });

  test('the password is still refused, and the owner still signs in with their passkey', async () => {
    expect((await call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '198.51.100.30')).status).toBe(
      403,
    );
    expect((await passkeySignIn(ownerKey)).answer.status).toBe(200);
  });
});

test('registrations started and invitation checks are limited per network; sign-in starts have their own limit and store nothing', async () => {
  // The limit counts per 10-minute window: the clock is held a minute into one, so that the
  // requests cannot straddle two windows (which let the last one through at 01:00 once).
  const windowMs = 10 * 60_000;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.floor(Date.now() / windowMs) * windowMs + windowMs + 60_000);
  onTestFinished(() => void vi.useRealTimers());
  const challengesBefore = (await database.db.query('SELECT 1 FROM webauthn_challenges')).rows.length;
  const starts: number[] = [];
  for (let i = 0; i <= SIGN_IN_STARTS_PER_WINDOW; i++)
    starts.push((await call(passkeys, '/api/admin/passkeys/sign-in/options', { method: 'POST' }, '198.51.100.77')).status);
  expect(starts.slice(0, SIGN_IN_STARTS_PER_WINDOW).every((status) => status === 200)).toBe(true);
  expect(starts.at(-1)).toBe(429);
  expect((await database.db.query('SELECT 1 FROM webauthn_challenges')).rows).toHaveLength(challengesBefore);
  // The sign-in flood spent nothing of what registrations and invitation checks may use.
  const checks: number[] = [];
  for (let i = 0; i <= CEREMONIES_PER_WINDOW; i++)
    checks.push((await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token: 'A'.repeat(43) } }, '198.51.100.77')).status);
  expect(checks.slice(0, CEREMONIES_PER_WINDOW).every((status) => status === 404)).toBe(true);
  expect(checks.at(-1)).toBe(429);
  const refused = await call(
    passkeys,
    '/api/admin/passkeys/register/options',
    { method: 'POST', body: { purpose: 'invitation', token: 'A'.repeat(43) } },
    '198.51.100.77',
  );
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  // Another network is not affected.
  expect((await call(passkeys, '/api/admin/passkeys/sign-in/options', { method: 'POST' }, '198.51.100.78')).status).toBe(200);
  expect((await call(passkeys, '/api/admin/invitation', { method: 'POST', body: { token: 'A'.repeat(43) } }, '198.51.100.78')).status).toBe(404);
});

test('the relying party is the configured site, whatever Host or Origin a request names', async () => {
  const foreign = new Request('https://evil.example/api/admin/passkeys/sign-in/options', {
    method: 'POST',
    headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
  });
  const answer = await passkeys(foreign, { ip: '198.51.100.90' });
  if (answer.status === 200) expect(((await answer.json()) as { options: { rpId: string } }).options.rpId).toBe('localhost');
  else expect(answer.status).toBe(403);
  expect((await signInOptions()).rpId).toBe('localhost');
});

test('a sign-in challenge this site did not make, or one made too far ahead, is refused', async () => {
  const authenticator = new SoftwareAuthenticator();
  const forged = Buffer.alloc(40, 1).toString('base64url');
  const answer = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response: authenticator.authenticate({ challenge: forged }) } });
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).not.toBe('internal');
});

test('requests from another origin are refused before anything is read', async () => {
  for (const path of [
    '/api/admin/passkeys/sign-in/options',
    '/api/admin/passkeys/sign-in',
    '/api/admin/passkeys/register/options',
    '/api/admin/passkeys/register',
    '/api/admin/invitation',
  ]) {
    const answer = await call(passkeys, path, { method: 'POST', body: {}, origin: 'https://evil.example' });
    expect(answer.status, path).toBe(403);
  }
  expect(ORIGIN).toBe('https://localhost:8888');
});

test('a short credential id, or a NUL in a sign-in name, is a 400, never a 5xx', async () => {
  const { response } = await passkeySignIn(new SoftwareAuthenticator());
  for (const id of ['AAAAAAAAAAA', 'A']) {
    const answer = await call(passkeys, '/api/admin/passkeys/sign-in', { method: 'POST', body: { response: { ...response, id, rawId: id } } });
    expect(answer.status, id).toBe(400);
  }
  const named = await call(session, '/api/admin/session', { method: 'POST', body: { username: 'ad\u0000min', password: 'x' } });
  expect(named.status).toBe(400);
  expect(named.body.error.message).toMatch(/NUL/);
});
