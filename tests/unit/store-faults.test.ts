/**
 * Issue 7, faults: with Netlify Database unavailable, every function that uses it answers 503
 * `store_unavailable` with a plain message and writes nothing; when the database fails part-way,
 * what is left is the whole result or nothing that matters, and the same request sent again
 * succeeds once. Netlify's local database sits behind a proxy that reads the Postgres protocol and
 * either refuses a statement (it never runs) or loses its answer (it ran, and the function never
 * learns it), at once or from the Nth write on (helpers/faulty-database.ts). Each part-way case
 * list follows the statements the request really makes; HubSpot and Calendly are the local fakes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import adminSession from '../../netlify/functions/admin-session.mts';
import calendlyWebhook from '../../netlify/functions/calendly-webhook.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import hubspotSearchContact from '../../netlify/functions/hubspot-search-contact.mts';
import hubspotUpdateContact from '../../netlify/functions/hubspot-update-contact.mts';
import nominations from '../../netlify/functions/nominations.mts';
import confirmSend from '../../netlify/functions/confirm-send.mts';
import mailDeliver from '../../netlify/functions/mail-deliver.mts';
import schoolNominations from '../../netlify/functions/school-nominations.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import subscribe from '../../netlify/functions/subscribe.mts';
import testCalendlyConnection from '../../netlify/functions/test-calendly-connection.mts';
import testHubspotConnection from '../../netlify/functions/test-hubspot-connection.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { activeHubSpotToken } from '../../src/server/staff/admin-config';
import { eventFingerprint, signPayload, type CalendlyDelivery, type WebhookLog } from '../../src/server/calendly-webhook';
import type { NominationRecord } from '../../src/server/schools/nominations';
import { createDraft } from '../../src/server/letter/drafts';
import { confirmationLink } from '../../src/server/links';
import type { OutboxMessage } from '../../src/server/letter/outbox';
import { FAKE_CALENDLY_ORGANIZATION, startCalendlyFake, type CalendlyFake } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { ADMIN_PASSWORD, call, setAdminEnv, signIn } from './helpers/admin';
import { startFaultyDatabase, type FaultKind, type FaultyDatabase, type Statement } from './helpers/faulty-database';
import { regionText, useSiteShell } from './helpers/site';
import { verifiedSchool } from './helpers/schools';
import { MAIL_FROM } from './helpers/mail';
import { startSmtpFake, type SmtpFake } from '../fakes/smtp';

type Handler = (req: Request, context: unknown) => Promise<Response>;
type Answer = Awaited<ReturnType<typeof call>>;

const SIGNING_KEY = 'faults-signing-key-0123456789abcdef';
const SEND_CHOICE = 'choose_how_to_send_your_email';
const FAULT_KINDS: FaultKind[] = ['refuse', 'lose-answer'];
/** Requests that wait for HubSpot or Calendly fakes on this busy machine get room. */
const SLOW = 60_000;

let database: FaultyDatabase;
let hubspot: HubSpotFake;
let calendly: CalendlyFake;
let sink: SmtpFake;
/** Signed in while the database was up. */
let cookie: string;
let webhookId: string;
let errorLogId: string;
let sequence = 0;
const logged: string[] = [];

const unique = (prefix: string) => `${prefix}-${Date.now()}-${++sequence}`;
const writesTo =
  (table: string, verb = '(INSERT INTO|UPDATE|DELETE FROM)') =>
  (statement: Statement) =>
    statement.write && new RegExp(`^\\s*${verb}\\s+${table}\\b`, 'i').test(statement.text);

// ---- requests, as the browser, Calendly and the scheduler send them ----

const nomination = (email: string) => ({ schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana Lopez', email, childGrade: '5th', sendTo: 'Principal' });
const schoolNomination = (email: string) => ({ schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana Lopez', email });

/** An accepted email-form submission's draft and its token; the submission made the parent a contact. */
async function emailDraft(parentEmail = `${unique('parent')}@example.org`) {
  hubspot.addContact(parentEmail);
  const id = unique('sub');
  // A school staff verified, under a name of its own: its letters carry that name in their subject.
  const school = `${unique('head')}@oakwood.edu`;
  const name = `Oakwood Academy ${sequence}`;
  await verifiedSchool(school, name);
  const { token, email } = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: {
      full_name: 'Ana Lopez',
      email: parentEmail,
      child_full_name: 'Leo Lopez',
      child_grade: '5th grade',
      school_name: name,
      school_contact_name: 'Dr. Patel',
      school_contact_email: school,
      choose_how_to_send_your_email: 'Send via our platform',
    },
  });
  return { id, token, parentEmail, subject: email.subject };
}
type Draft = Awaited<ReturnType<typeof emailDraft>>;
/** The dialog's request, from a network of its own (each may ask a bounded number a day). */
const sendMessage = (draft: Pick<Draft, 'id' | 'token'>) =>
  call(
    sendEmail as Handler,
    '/api/send-email',
    { method: 'POST', body: { submissionId: draft.id, token: draft.token } },
    `198.51.${(sequence >> 8) & 255}.${++sequence & 255}`,
  );
const runMailDeliver = () => call(mailDeliver as Handler, '/.netlify/functions/mail-deliver', { method: 'POST', origin: null });
async function confirmPage(token: string, method: 'GET' | 'POST' = 'POST') {
  const response =
    method === 'GET'
      ? await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`))
      : await confirmSend(
          new Request('http://localhost/confirm-send', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `token=${encodeURIComponent(token)}`,
          }),
        );
  return { status: response.status, text: regionText(await response.text()) };
}

function booking(email: string): CalendlyDelivery {
  sequence += 1;
  const eventUri = `https://api.calendly.com/scheduled_events/FAULTS${sequence}`;
  return {
    event: 'invitee.created',
    created_at: new Date(Date.UTC(2026, 1, 1, 0, 0, sequence)).toISOString(),
    payload: {
      uri: `${eventUri}/invitees/INVITEE${sequence}`,
      email,
      first_name: 'Dana',
      last_name: 'Parent',
      scheduled_event: {
        start_time: '2026-02-03T15:00:00.000000Z',
        location: { join_url: `https://zoom.example/j/${sequence}` },
        event_memberships: [{ user_name: 'Alex Host' }],
      },
    },
  };
}

/** A delivery signed `secondsAgo` earlier: Calendly signs every re-send afresh. */
function deliver(delivery: CalendlyDelivery, secondsAgo = 0): Promise<Answer> {
  const body = JSON.stringify(delivery);
  const t = Math.floor(Date.now() / 1000) - secondsAgo;
  const headers = { 'calendly-webhook-signature': `t=${t},v1=${signPayload(SIGNING_KEY, t, body)}` };
  return call(calendlyWebhook as Handler, '/api/calendly/webhook', { method: 'POST', body, origin: null, headers });
}

const webhookInput = () => ({
  name: unique('Strategy calls'),
  description: '',
  calendlyWebhookUrl: `https://example.org/api/calendly/webhook?n=${++sequence}`,
  events: ['invitee.created', 'invitee.canceled'],
  scope: 'organization',
  organization: FAKE_CALENDLY_ORGANIZATION,
  user: '',
  signingKey: SIGNING_KEY,
  isActive: true,
});

// ---- what the database holds, read past the proxy ----

const nominationsFor = async (email: string) =>
  database.direct<{ id: string; record: NominationRecord }>(`SELECT id, record FROM nominations WHERE record->'data'->>'email' = $1`, [email]);
const logsFor = async (email: string) =>
  (await database.direct<{ record: WebhookLog }>(`SELECT record FROM webhook_logs WHERE invitee_email = lower($1) ORDER BY id`, [email])).map(
    (row) => row.record,
  );
/** The log holding an event's fingerprint (its claim), or null. */
const eventClaim = async (delivery: CalendlyDelivery) =>
  (await database.direct<{ id: string }>(`SELECT id FROM webhook_logs WHERE event_fingerprint = $1`, [eventFingerprint(delivery)]))[0]?.id ?? null;

/** The messages made from a draft (read past the proxy). */
async function messagesOf(draftId: string): Promise<OutboxMessage[]> {
  const rows = await database.direct<{ record: OutboxMessage }>(`SELECT record FROM outbox_messages WHERE draft_id = $1 ORDER BY id`, [draftId]);
  return rows.map((row) => row.record);
}

/** Makes what a request or a run left due (and old) now, as if the scheduled run's time had come. */
async function makeDue(): Promise<void> {
  const past = new Date(Date.now() - 5 * 60_000).toISOString();
  await database.direct(`UPDATE outbox_messages SET created_at = $1 WHERE status = 'awaiting_confirmation'`, [past]);
  await database.direct(`UPDATE emails SET next_attempt_at = $1, lease_until = $1 WHERE state IN ('scheduled', 'sending')`, [past]);
}

/** How many statements that write a request makes when nothing fails. */
async function writesOf(request: () => Promise<unknown>): Promise<number> {
  database.clearLog();
  await request();
  return database.statements.filter((statement) => statement.write).length;
}

/** What a message holds of the send limits: its claim, and the day counts of its school contact and parent. */
async function limitsOf(messageId: string) {
  const claims = await database.direct<{ school: string; parent: string; day: string }>(
    `SELECT school, parent, day::text AS day FROM send_claims WHERE message_id = $1`,
    [messageId],
  );
  const [claim] = claims;
  if (!claim) return { claims: 0, schoolSends: 0, parentSends: 0 };
  const [school] = await database.direct<{ sends: number }>(`SELECT sends FROM school_daily_sends WHERE school = $1 AND day = $2::date`, [
    claim.school,
    claim.day,
  ]);
  const [parent] = await database.direct<{ sends: number }>(`SELECT sends FROM parent_daily_sends WHERE parent = $1 AND day = $2::date`, [
    claim.parent,
    claim.day,
  ]);
  return { claims: claims.length, schoolSends: school?.sends ?? 0, parentSends: parent?.sends ?? 0 };
}

const tokenOf = (message: OutboxMessage) => new URL(confirmationLink(message)!).searchParams.get('token')!;

/** The letters with this subject that reached the school's mail server, one per Message-ID (see confirmationsTo). */
function emailsSent(subject: string) {
  return [...new Set(sink.messages.filter((message) => message.subject === subject).map((message) => message.messageId))];
}
/**
 * The confirmation emails that reached this parent, one per Message-ID: a run that died between
 * sending and recording sends again under the same Message-ID, which the parent's mail counts once.
 */
const confirmationsTo = (parent: string) => [
  ...new Map(
    sink.messages
      .filter((message) => message.envelope.rcptTo.includes(parent) && /^Please confirm/.test(message.subject))
      .map((message) => [message.messageId, message]),
  ).values(),
];

async function sessionKeys(): Promise<string[]> {
  return (await database.direct<{ id_hash: string }>(`SELECT id_hash FROM admin_sessions ORDER BY id_hash`)).map((row) => row.id_hash);
}

// ---- the 503 every caller must see ----

function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(answer.headers.get('set-cookie')).toBeNull();
  expect(answer.body).toEqual({
    error: { code: 'store_unavailable', message: 'Storage is unavailable right now. Nothing was saved; please try again shortly.' },
  });
  const secrets = [hubspot.token, calendly.token, ADMIN_PASSWORD, cookie.split('=')[1]!, SIGNING_KEY, process.env.NETLIFY_DB_URL!];
  for (const secret of secrets) expect(answer.text).not.toContain(secret);
  expect(answer.text).not.toMatch(/127\.0\.0\.1|postgres|PGlite|Netlify Database|SELECT|INSERT|Error|\n\s+at /);
}

let shell: ReturnType<typeof useSiteShell>;

beforeAll(async () => {
  shell = useSiteShell();
  process.env.SITE_URL = 'https://site.example';
  database = await startFaultyDatabase();
  hubspot = await startHubSpotFake();
  calendly = await startCalendlyFake();
  sink = await startSmtpFake();
  setAdminEnv();
  Object.assign(process.env, {
    HUBSPOT_BASE_PATH: hubspot.url,
    HUBSPOT_FORMS_BASE_PATH: hubspot.url,
    HUBSPOT_ACCESS_TOKEN: hubspot.token,
    CALENDLY_BASE_URL: calendly.url,
    CALENDLY_ACCESS_TOKEN: calendly.token,
    MAIL_FROM_ADDRESS: MAIL_FROM,
    MAIL_SENDER: 'smtp',
    SMTP_URL: sink.smtpUrl,
    SCHOOL_DELIVERY_HOURS: 'off',
  });
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }

  cookie = await signIn();
  const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: webhookInput(), cookie });
  expect(created.status).toBe(201);
  webhookId = created.body.webhook.id;
  // A log whose HubSpot sync failed, for the retry endpoint.
  hubspot.failNext(500, 500, 500, 500);
  const failed = await deliver(booking('fixture@example.org'));
  expect(failed.status).toBe(200);
  errorLogId = failed.body.logId;
  // The receiver answers Calendly within 2.5 s and lets the sync finish after; the first sync of
  // the file also loads the HubSpot client, which on a busy machine took longer than that.
  await vi.waitFor(async () => expect((await logsFor('fixture@example.org'))[0]).toMatchObject({ id: errorLogId, hubspotSyncStatus: 'error' }), {
    timeout: SLOW,
    interval: 50,
  });
}, SLOW);

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([database.stop(), hubspot.close(), calendly.close(), sink.close()]);
  shell.remove();
  delete process.env.SITE_URL;
  for (const name of [
    'HUBSPOT_BASE_PATH',
    'HUBSPOT_FORMS_BASE_PATH',
    'HUBSPOT_ACCESS_TOKEN',
    'CALENDLY_BASE_URL',
    'CALENDLY_ACCESS_TOKEN',
    'MAIL_FROM_ADDRESS',
    'MAIL_SENDER',
    'SMTP_URL',
    'SCHOOL_DELIVERY_HOURS',
  ])
    delete process.env[name];
});

beforeEach(() => {
  hubspot.reset();
  sink.reset();
  calendly.calls.length = 0;
  database.clearLog();
});

afterEach(() => {
  database.heal();
  database.reconnect();
});

describe('with the database down entirely, every function that uses it answers 503 and writes nothing', () => {
  const outages: Array<[string, () => void | Promise<void>]> = [
    ['refusing every statement', () => database.fail({ how: 'refuse' })],
    ['not listening', () => database.pointAtClosedPort()],
  ];
  const requests: Array<[string, () => Promise<Answer>]> = [
    ['POST /api/nominations', () => call(nominations as Handler, '/api/nominations', { method: 'POST', body: nomination('down@example.org') })],
    [
      'POST /api/school-nominations',
      () => call(schoolNominations as Handler, '/api/school-nominations', { method: 'POST', body: schoolNomination('down@example.org') }),
    ],
    ['POST /api/send-email', () => sendMessage({ id: 'sub-down-0001', token: 'd'.repeat(43) })],
    ['POST /api/calendly/webhook', () => deliver(booking('down@example.org'))],
    [
      'POST /api/admin/session (sign in)',
      () => call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }),
    ],
    ['GET /api/admin/session', () => call(adminSession as Handler, '/api/admin/session', { cookie })],
    ['DELETE /api/admin/session (sign out)', () => call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie })],
    ['GET /api/nominations', () => call(nominations as Handler, '/api/nominations', { cookie })],
    ['GET /api/calendly-webhooks', () => call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie })],
    ['POST /api/calendly-webhooks', () => call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: webhookInput(), cookie })],
    [
      'PATCH /api/calendly-webhooks/{id}',
      () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${webhookId}`, { method: 'PATCH', body: { isActive: false }, cookie }),
    ],
    ['DELETE /api/calendly-webhooks/{id}', () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${webhookId}`, { method: 'DELETE', cookie })],
    ['GET /api/hubspot-config', () => call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })],
    [
      'POST /api/hubspot-config',
      () => call(hubspotConfig as Handler, '/api/hubspot-config', { method: 'POST', body: { name: 'CRM', accessToken: 'pat-down-0001' }, cookie }),
    ],
    ['GET /api/webhook-logs', () => call(webhookLogs as Handler, '/api/webhook-logs', { cookie })],
    ['POST /api/webhook-logs/{id}/retry', () => call(webhookLogs as Handler, `/api/webhook-logs/${errorLogId}/retry`, { method: 'POST', cookie })],
    [
      'POST /api/test-hubspot-connection',
      () => call(testHubspotConnection as Handler, '/api/test-hubspot-connection', { method: 'POST', body: { accessToken: hubspot.token }, cookie }),
    ],
    [
      'POST /api/test-calendly-connection',
      () => call(testCalendlyConnection as Handler, '/api/test-calendly-connection', { method: 'POST', body: { accessToken: calendly.token }, cookie }),
    ],
    ['mail-deliver (scheduled)', runMailDeliver],
  ];

  describe.each(outages)('the database %s', (_outage, breakDatabase) => {
    test.each(requests)(
      '%s',
      async (_name, send) => {
        const before = await database.snapshot();
        await breakDatabase();
        const answer = await send();
        database.heal();
        database.reconnect();
        expectStoreUnavailable(answer);
        expect(await database.snapshot()).toEqual(before);
        // Nothing reaches HubSpot, Calendly or a mailbox for a request the database could not record.
        expect(hubspot.calls).toEqual([]);
        expect(calendly.calls).toEqual([]);
        expect(sink.messages).toEqual([]);
      },
      SLOW,
    );
  });

  test('a signed-in admin gets 503 while the database is down, and is still signed in once it is back', async () => {
    const session = () => call(adminSession as Handler, '/api/admin/session', { cookie });
    expect((await session()).status).toBe(200);
    database.fail({ how: 'refuse' });
    expectStoreUnavailable(await session());
    expectStoreUnavailable(await call(webhookLogs as Handler, '/api/webhook-logs', { cookie }));
    database.heal();
    expect((await session()).body.session).toMatchObject({ username: 'admin' });
  });

  test('sign-in answers 503 rather than "wrong password", and gives no cookie', async () => {
    const sessionsBefore = await sessionKeys();
    database.fail({ how: 'refuse' });
    const wrong = await call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: 'not-the-password' } });
    const right = await call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } });
    database.heal();
    expectStoreUnavailable(wrong);
    expectStoreUnavailable(right);
    expect(await sessionKeys()).toEqual(sessionsBefore);
  });

  const databaseless: Array<[string, () => Promise<Answer>]> = [
    ['POST /api/subscribe', () => call(subscribe as Handler, '/api/subscribe', { method: 'POST', body: { email: 'reader@example.org' } })],
    // Issue 21: search-contact reads the webhook log (it answers only for a logged booking), and
    // update-contact refuses the send choice.
    [
      'POST /api/hubspot/update-contact refusing the send choice',
      () => {
        const { id } = hubspot.addContact('ana@example.org');
        return call(hubspotUpdateContact as Handler, '/api/hubspot/update-contact', {
          method: 'POST',
          body: { contactId: id, updates: [{ field: SEND_CHOICE, value: 'I will send it myself' }] },
        });
      },
    ],
  ];
  test('POST /api/hubspot/search-contact needs the webhook log: 503 while it is down, HubSpot untouched', async () => {
    process.env.BOOKING_LOOKUP_WAIT_MS = '1';
    database.fail({ how: 'refuse' });
    const answer = await call(hubspotSearchContact as Handler, '/api/hubspot/search-contact', {
      method: 'POST',
      body: { email: 'ana@example.org', inviteeUuid: 'INVITEE-0001' },
    });
    database.heal();
    delete process.env.BOOKING_LOOKUP_WAIT_MS;
    expectStoreUnavailable(answer);
    expect(hubspot.calls).toEqual([]);
  });

  test.each(databaseless)(
    '%s never uses the database, so it keeps working',
    async (name, send) => {
      database.fail({ how: 'refuse' });
      const answer = await send();
      expect(answer.status).toBe(name.includes('refusing') ? 403 : 200);
      expect(database.statements).toEqual([]);
    },
    SLOW,
  );
});

describe('POST /api/nominations and /api/school-nominations when the database fails part-way', () => {
  // The request's statements: the nomination stored (one INSERT), then after HubSpot its sync
  // outcome noted (one UPDATE, bookkeeping whose failure is ignored).
  const forms: Array<[string, Handler, string, (email: string) => object]> = [
    ['nominations', nominations as Handler, '/api/nominations', nomination],
    ['school-nominations', schoolNominations as Handler, '/api/school-nominations', schoolNomination],
  ];
  describe.each(forms)('%s', (_name, handler, path, form) => {
    test(
      'refused before the nomination is stored: 503, no record, HubSpot untouched; sent again, it is kept once',
      async () => {
        const email = `${unique('nominee')}@example.org`;
        database.fail({ how: 'refuse' });
        expectStoreUnavailable(await call(handler, path, { method: 'POST', body: form(email) }));
        database.heal();
        expect(await nominationsFor(email)).toEqual([]);
        expect(hubspot.calls).toEqual([]);

        const again = await call(handler, path, { method: 'POST', body: form(email) });
        expect(again.status).toBe(201);
        expect((await nominationsFor(email)).map(({ id }) => id)).toEqual([again.body.id]);
        expect([...hubspot.contacts.values()].filter((c) => c.properties.email === email)).toHaveLength(1);
      },
      SLOW,
    );

    test(
      'the answer to storing the nomination is lost: 503, the nomination is kept whole, HubSpot untouched; sent again, it is the one kept, synced once',
      async () => {
        const email = `${unique('nominee')}@example.org`;
        database.fail({ how: 'lose-answer', only: (statement) => /INSERT INTO nominations/.test(statement.text) });
        expectStoreUnavailable(await call(handler, path, { method: 'POST', body: form(email) }));
        database.heal();
        expect(database.failed).toHaveLength(1);
        // The statement ran: the nomination is there, whole, and nothing was half-done with it.
        expect(await nominationsFor(email)).toEqual([{ id: expect.any(String), record: expect.objectContaining({ data: form(email) }) }]);
        expect(hubspot.calls).toEqual([]);
        const [kept] = await nominationsFor(email);

        const again = await call(handler, path, { method: 'POST', body: form(email) });
        expect(again.status).toBe(201);
        expect(again.body.id).toBe(kept!.id);
        expect(await nominationsFor(email)).toEqual([{ id: kept!.id, record: expect.objectContaining({ data: form(email), hubspot: 'synced' }) }]);
        expect([...hubspot.contacts.values()].filter((c) => c.properties.email === email)).toHaveLength(1);
      },
      SLOW,
    );

    test.each(FAULT_KINDS)(
      'the database fails after the nomination is stored (%s): 201, one record, one contact',
      async (how) => {
        const email = `${unique('nominee')}@example.org`;
        database.fail({ how, afterWrites: 1 });
        const answer = await call(handler, path, { method: 'POST', body: form(email) });
        database.heal();
        // The abuse watch's row fails too, and is let go: a parent's nomination never waits on it.
        const failed = database.failed.filter((statement) => !/INSERT INTO abuse_requests/.test(statement.text));
        expect(failed).toEqual([expect.objectContaining({ write: true, text: expect.stringMatching(/^\s*UPDATE nominations/) })]);
        expect(answer.status).toBe(201);
        expect(await nominationsFor(email)).toEqual([{ id: answer.body.id, record: expect.objectContaining({ id: answer.body.id, data: form(email) }) }]);
        expect(hubspot.findContact(email)?.properties).toMatchObject({ school_name: 'Oakwood Academy', city: 'Austin' });
      },
      SLOW,
    );
  });
});

describe('the confirmation page with the database down', () => {
  test.each(['GET', 'POST'] as const)(
    '%s: a page asking to try again in a moment, nothing sent, nothing written',
    async (method) => {
      const draft = await emailDraft();
      expect((await sendMessage(draft)).status).toBe(202);
      const [message] = await messagesOf(draft.id);
      sink.reset();
      const before = await database.snapshot();
      database.fail({ how: 'refuse' });
      const page = await confirmPage(tokenOf(message!), method);
      database.heal();
      expect(page.status).toBe(503);
      expect(page.text).toContain('Please try again in a moment');
      expect(page.text).not.toMatch(/127\.0\.0\.1|postgres|Netlify Database|Error/);
      expect(sink.messages).toEqual([]);
      expect(await database.snapshot()).toEqual(before);
    },
    SLOW,
  );
});

describe('POST /api/send-email when the database fails part-way', () => {
  // Every write the request makes (its network's count, the message, the draft taking it, the
  // replacement of an older request, the confirmation email with its allowance, its sending, the
  // record of it) can fail, refused or with its answer lost. Whatever the request answered, once the
  // database is back the parent's request again (if it was refused) and the scheduled run leave
  // exactly one confirmation in their inbox, and confirming it sends the letter exactly once.
  let writes = 0;
  beforeAll(async () => {
    writes = await writesOf(async () => sendMessage(await emailDraft()));
    expect(writes).toBeGreaterThanOrEqual(5);
  }, SLOW);

  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test(
      'at every write: one confirmation reaches the parent, and the letter goes exactly once',
      async () => {
        for (let at = 0; at < writes; at++) {
          const draft = await emailDraft();
          sink.reset();
          database.fail({ how, afterWrites: at });
          const first = await sendMessage(draft);
          database.heal();
          if (first.status !== 202) expectStoreUnavailable(first);
          // The dialog's request again once the database is back: refused only when the draft took one.
          const again = await sendMessage(draft);
          expect([202, 409], `write ${at}`).toContain(again.status);
          await makeDue();
          expect((await runMailDeliver()).status).toBe(200);
          expect(confirmationsTo(draft.parentEmail), `write ${at}`).toHaveLength(1);
          const token = new URL(confirmationsTo(draft.parentEmail)[0]!.text.match(/https:\/\/\S+\/confirm-send\?token=\S+/)![0]).searchParams.get('token')!;
          expect((await confirmPage(token)).text, `write ${at}`).toContain('Your email has been sent');
          expect(emailsSent(draft.subject), `write ${at}`).toHaveLength(1);
          const waiting = (await messagesOf(draft.id)).filter((message) => message.status === 'awaiting_confirmation');
          expect(waiting, `write ${at}`).toEqual([]);
        }
      },
      10 * SLOW,
    );
  });

  test(
    'a refused claim of the draft is a failure, not a claim: nothing is emailed',
    async () => {
      const draft = await emailDraft();
      sink.reset();
      database.fail({ how: 'refuse', only: writesTo('email_drafts', 'UPDATE') });
      expectStoreUnavailable(await sendMessage(draft));
      database.heal();
      expect(sink.messages).toEqual([]);
      expect((await sendMessage(draft)).status).toBe(202);
    },
    SLOW,
  );
});

describe('confirming when the database fails part-way', () => {
  // The confirmation's writes: the limits claimed (one statement), the letter written to the mail
  // layer, the message queued, the school's page made, the letter claimed, sent and recorded, the
  // message marked sent, the page published, the letter counted. Whatever fails, the parent's
  // confirmation again and the scheduled run send it exactly once, with one claim on the limits.
  let writes = 0;
  beforeAll(async () => {
    const draft = await emailDraft();
    await sendMessage(draft);
    const [message] = await messagesOf(draft.id);
    writes = await writesOf(() => confirmPage(tokenOf(message!)));
    expect(writes).toBeGreaterThanOrEqual(5);
  }, SLOW);

  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test(
      'at every write: sent exactly once, one claim, counted once for the school and the parent',
      async () => {
        for (let at = 0; at < writes; at++) {
          const draft = await emailDraft();
          expect((await sendMessage(draft)).status).toBe(202);
          const [message] = await messagesOf(draft.id);
          sink.reset();
          database.fail({ how, afterWrites: at });
          const first = await confirmPage(tokenOf(message!));
          database.heal();
          expect([200, 409, 503], `write ${at}`).toContain(first.status);
          const again = await confirmPage(tokenOf(message!));
          expect(again.text, `write ${at}`).toMatch(/Your email (has been sent|is confirmed)/);
          await makeDue();
          expect((await runMailDeliver()).status).toBe(200);
          expect(
            (await messagesOf(draft.id)).map((each) => each.status),
            `write ${at}`,
          ).toEqual(['sent']);
          expect(emailsSent(draft.subject), `write ${at}`).toHaveLength(1);
          expect(await limitsOf(message!.id), `write ${at}`).toEqual({ claims: 1, schoolSends: 1, parentSends: 1 });
          const counted = await database.direct<{ n: number }>(`SELECT count(*)::int AS n FROM impact_sends WHERE message_id = $1`, [message!.id]);
          expect(counted, `write ${at}`).toEqual([{ n: 1 }]);
        }
      },
      10 * SLOW,
    );
  });
});

describe('the mail run when the database fails part-way', () => {
  /** A confirmed letter whose first delivery the mail server deferred, due for its retry now. */
  async function waitingLetter() {
    const draft = await emailDraft();
    expect((await sendMessage(draft)).status).toBe(202);
    const [message] = await messagesOf(draft.id);
    sink.failNext(451);
    expect((await confirmPage(tokenOf(message!))).text).toContain('Your email is confirmed');
    await makeDue();
    sink.reset();
    return { draft, message: message! };
  }
  const claimsEmail = (statement: Statement) => /UPDATE emails SET state = 'sending'/i.test(statement.text);

  test.each(FAULT_KINDS)(
    'claiming an email fails (%s): the run stops with 503 and the next run sends it once',
    async (how) => {
      const { draft } = await waitingLetter();
      database.fail({ how, only: claimsEmail });
      expectStoreUnavailable(await runMailDeliver());
      database.heal();
      expect(database.failed).not.toEqual([]);
      await makeDue();
      expect((await runMailDeliver()).status).toBe(200);
      expect((await messagesOf(draft.id)).map((message) => message.status)).toEqual(['sent']);
      expect(emailsSent(draft.subject)).toHaveLength(1);
    },
    SLOW,
  );

  test.each(FAULT_KINDS)(
    'recording the letter sent fails (%s): the next run settles it, and never sends it again',
    async (how) => {
      const { draft } = await waitingLetter();
      // The save of a message (its letter recorded as sent), not the run's other updates.
      database.fail({ how, only: (statement) => /^\s*UPDATE outbox_messages SET status = \$1/i.test(statement.text) });
      await runMailDeliver();
      database.heal();
      expect(database.failed).not.toEqual([]);
      expect(emailsSent(draft.subject)).toHaveLength(1);
      await makeDue();
      expect((await runMailDeliver()).status).toBe(200);
      expect((await messagesOf(draft.id)).map((message) => message.status)).toEqual(['sent']);
      expect(emailsSent(draft.subject)).toHaveLength(1);
    },
    SLOW,
  );
});

describe('POST /api/calendly/webhook when the database fails part-way', () => {
  async function expectOneSyncedLog(delivery: CalendlyDelivery): Promise<void> {
    const email = delivery.payload.email!;
    const found = await logsFor(email);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ status: 'success', hubspotSyncStatus: 'success' });
    expect(await eventClaim(delivery)).toBe(found[0]!.id);
    expect(hubspot.findContact(email)?.properties).toMatchObject({
      calendly_meeting_status: 'scheduled',
      meeting_link: delivery.payload.scheduled_event!.location!.join_url,
    });
    expect([...hubspot.contacts.values()].filter((c) => c.properties.email === email)).toHaveLength(1);
  }

  // The delivery's statements: the signing keys read, then the writes: the signature claimed, the
  // log written (its unique event fingerprint is the event's claim), then — after the HubSpot token
  // is read and the contact updated — the sync outcome recorded on the log.
  const cases: Array<[string, number]> = [
    ['before anything is written', 0],
    ['after the signature is claimed, before the log is written', 1],
    ['after the log is written, before the sync is recorded', 2],
  ];
  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each(cases)(
      '%s: 503, and Calendly sending it again makes one log and one sync',
      async (_name, writes) => {
        const delivery = booking(`${unique('invitee')}@example.org`);
        database.fail({ how, afterWrites: writes });
        expectStoreUnavailable(await deliver(delivery, 20));
        database.heal();
        expect(database.failed).not.toEqual([]);
        // The database went down before HubSpot could be reached (its token is read from the database).
        expect(hubspot.calls).toEqual([]);
        expect((await logsFor(delivery.payload.email!)).filter((log) => log.hubspotSyncStatus !== 'pending')).toEqual([]);

        const again = await deliver(delivery, 10);
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ ok: true, logId: expect.any(String) });
        await expectOneSyncedLog(delivery);
        // A further re-send is a duplicate.
        expect((await deliver(delivery)).body).toEqual({ ok: true, duplicate: true });
      },
      SLOW,
    );
  });

  test.each(FAULT_KINDS)(
    'HubSpot is updated but recording it fails (%s): 503, and the re-send finishes the log',
    async (how) => {
      const delivery = booking(`${unique('invitee')}@example.org`);
      // The writes before: the address's request counted, the signature claimed, the event logged.
      database.fail({ how, afterWrites: 3, only: (statement) => statement.write });
      expectStoreUnavailable(await deliver(delivery, 20));
      database.heal();
      expect(database.failed).toEqual([expect.objectContaining({ text: expect.stringMatching(/ON CONFLICT \(id\) DO UPDATE/) })]);
      expect(hubspot.findContact(delivery.payload.email!)?.properties.calendly_meeting_status).toBe('scheduled');
      // Refused, the log is still pending; lost, it holds the outcome and the re-send is a duplicate.
      expect(await logsFor(delivery.payload.email!)).toEqual([expect.objectContaining({ hubspotSyncStatus: how === 'refuse' ? 'pending' : 'success' })]);

      const again = await deliver(delivery, 10);
      expect(again.status).toBe(200);
      if (how === 'lose-answer') expect(again.body).toEqual({ ok: true, duplicate: true });
      await expectOneSyncedLog(delivery);
    },
    SLOW,
  );

  test(
    'a refused event claim is a failure: no log is kept without its claim',
    async () => {
      const delivery = booking(`${unique('invitee')}@example.org`);
      database.fail({ how: 'refuse', only: writesTo('webhook_logs', 'INSERT INTO') });
      expectStoreUnavailable(await deliver(delivery, 20));
      database.heal();
      expect(hubspot.calls).toEqual([]);
      expect(await logsFor(delivery.payload.email!)).toEqual([]);
      expect(await eventClaim(delivery)).toBeNull();

      expect((await deliver(delivery, 10)).status).toBe(200);
      await expectOneSyncedLog(delivery);
    },
    SLOW,
  );
});

describe('POST /api/webhook-logs/{id}/retry when recording the outcome fails', () => {
  test.each(FAULT_KINDS)(
    '(%s) answers 503, and the log ends synced once',
    async (how) => {
      const delivery = booking(`${unique('invitee')}@example.org`);
      hubspot.failNext(500, 500, 500, 500);
      const logId = (await deliver(delivery)).body.logId as string;
      const retry = () => call(webhookLogs as Handler, `/api/webhook-logs/${logId}/retry`, { method: 'POST', cookie });

      database.fail({ how, only: writesTo('webhook_logs') });
      expectStoreUnavailable(await retry());
      database.heal();
      expect(database.failed).toHaveLength(1);
      if (how === 'refuse') {
        // Never recorded: the log stays retryable, and the retry then succeeds.
        expect(await logsFor(delivery.payload.email!)).toEqual([expect.objectContaining({ id: logId, hubspotSyncStatus: 'error' })]);
        const again = await retry();
        expect(again.status).toBe(200);
        expect(again.body.log).toMatchObject({ id: logId, hubspotSyncStatus: 'success' });
      } else {
        // Recorded, though the page was not told: retrying again is refused as there is nothing to retry.
        expect(await logsFor(delivery.payload.email!)).toEqual([expect.objectContaining({ id: logId, hubspotSyncStatus: 'success' })]);
        expect((await retry()).status).toBe(409);
      }
      await expect(logsFor(delivery.payload.email!)).resolves.toHaveLength(1);
    },
    SLOW,
  );
});

describe('the admin session when the database fails part-way', () => {
  const signInRequest = () => call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } });

  // Sign-in's writes: the attempt counted for the pair, the address and the username (one
  // statement), the counts cleared once the password is right, the new session stored, then the
  // sign-in recorded in the audit log.
  const cases: Array<[string, number]> = [
    ['before anything is written', 0],
    ['after the attempt is counted', 1],
    ['after the counts are cleared, before the session is stored', 2],
    ['after the session is stored, before the sign-in is audited', 3],
  ];
  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each(cases)(
      'sign-in failing %s: 503, no cookie, no session anyone holds; signing in again works',
      async (_name, writes) => {
        const before = await sessionKeys();
        database.fail({ how, afterWrites: writes });
        expectStoreUnavailable(await signInRequest());
        database.heal();
        expect(database.failed).not.toEqual([]);
        const after = await sessionKeys();
        // A session row the lost answer left has no cookie anywhere: nobody can use it, and it is purged when idle.
        if ((how === 'lose-answer' && writes === 2) || writes === 3) expect(after).toHaveLength(before.length + 1);
        else expect(after).toEqual(before);

        const again = await signInRequest();
        expect(again.status).toBe(200);
        expect(again.headers.get('set-cookie')).toMatch(/^__Host-admin_session=/);
        expect(await sessionKeys()).toHaveLength(after.length + 1);
      },
      SLOW,
    );
  });

  test.each(FAULT_KINDS)(
    'sign-out failing (%s) answers 503; the session ends once, whether the answer or the statement was lost',
    async (how) => {
      const own = await signIn();
      const session = () => call(adminSession as Handler, '/api/admin/session', { cookie: own });
      database.fail({ how });
      expectStoreUnavailable(await call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie: own }));
      database.heal();
      if (how === 'refuse') expect((await session()).body.session).toMatchObject({ username: 'admin' });
      else expect((await session()).body).toEqual({ session: null, passwordSignIn: true });
      expect((await call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie: own })).status).toBe(200);
      expect((await session()).body).toEqual({ session: null, passwordSignIn: true });
    },
    SLOW,
  );
});

describe('POST /api/hubspot-config when the database fails part-way', () => {
  const post = (name: string, accessToken: string) =>
    call(hubspotConfig as Handler, '/api/hubspot-config', { method: 'POST', body: { name, accessToken, isActive: true }, cookie });
  const configs = () => database.direct<{ is_active: boolean; record: { name: string } }>(`SELECT is_active, record FROM hubspot_configs ORDER BY id`);

  afterEach(async () => {
    await database.direct(`DELETE FROM hubspot_configs`);
  });

  // The request's one write replaces the active configuration and stores the new one in one statement.
  test.each(FAULT_KINDS)(
    'storing the new configuration fails (%s): 503, and the old token or the new one is in use, never neither',
    async (how) => {
      expect((await post('Old portal', 'pat-old-0001')).status).toBe(201);
      database.fail({ how, only: (statement) => statement.write && /hubspot_configs/.test(statement.text) });
      const first = await post('New portal', 'pat-new-0002');
      database.heal();
      expect(database.failed).toHaveLength(1);
      expectStoreUnavailable(first);
      const active = (await configs()).filter((config) => config.is_active);
      expect(active).toHaveLength(1);
      if (how === 'refuse') {
        expect((await configs()).map((config) => config.record.name)).toEqual(['Old portal']);
        expect(await activeHubSpotToken()).toBe('pat-old-0001');
      } else {
        // The statement ran whole: the new one replaced the old.
        expect(active[0]!.record.name).toBe('New portal');
        expect(await activeHubSpotToken()).toBe('pat-new-0002');
      }

      expect((await post('New portal', 'pat-new-0002')).status).toBe(201);
      expect(await activeHubSpotToken()).toBe('pat-new-0002');
      expect((await configs()).filter((config) => config.is_active)).toEqual([
        expect.objectContaining({ record: expect.objectContaining({ name: 'New portal' }) }),
      ]);
      expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })).body.config).toMatchObject({ name: 'New portal', isActive: true });
    },
    SLOW,
  );
});

describe('/api/calendly-webhooks when the database fails part-way', () => {
  const subscriptionsTo = (url: string) => [...calendly.subscriptions.values()].filter((s) => s.callback_url === url);
  const listed = async () =>
    (await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie })).body.webhooks as Array<{ id: string; name: string; registered: boolean }>;

  test.each(FAULT_KINDS)(
    'POST: saving fails after Calendly registered it (%s): 503, the subscription is removed, and the retry registers once',
    async (how) => {
      const input = webhookInput();
      database.fail({ how, only: writesTo('webhook_configs', 'INSERT INTO') });
      expectStoreUnavailable(await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie }));
      database.heal();
      expect(database.failed).toHaveLength(1);
      expect(subscriptionsTo(input.calendlyWebhookUrl)).toEqual([]);
      // No configuration is left claiming a subscription that is gone.
      expect((await listed()).filter((webhook) => webhook.name === input.name)).toEqual([]);

      const again = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie });
      expect(again.status).toBe(201);
      expect(subscriptionsTo(input.calendlyWebhookUrl)).toHaveLength(1);
      expect((await listed()).filter((webhook) => webhook.name === input.name)).toEqual([expect.objectContaining({ registered: true })]);
    },
    SLOW,
  );

  test.each(FAULT_KINDS)(
    'DELETE: removing the record fails after Calendly removed the subscription (%s): 503, and it ends removed',
    async (how) => {
      const input = webhookInput();
      const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie });
      const remove = () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${created.body.webhook.id}`, { method: 'DELETE', cookie });
      database.fail({ how, only: writesTo('webhook_configs', 'DELETE FROM') });
      expectStoreUnavailable(await remove());
      database.heal();
      expect(database.failed).toHaveLength(1);
      expect(subscriptionsTo(input.calendlyWebhookUrl)).toEqual([]);

      // Refused, the record is still there and removing it again finishes; lost, it is already gone.
      const again = await remove();
      expect(again.status).toBe(how === 'refuse' ? 200 : 404);
      expect((await listed()).map((webhook) => webhook.id)).not.toContain(created.body.webhook.id);
    },
    SLOW,
  );
});

test('no fault above ended in a 500', () => {
  expect(logged.filter((line) => /^\[\/api\//.test(line))).toEqual([]);
});
