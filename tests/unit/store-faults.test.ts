/**
 * Issue 7, faults: with Netlify Blobs unavailable, every function that uses it answers 503
 * `store_unavailable` with a plain message and writes nothing; when the store fails part-way, what
 * is left is the whole result or nothing that matters, and the same request sent again succeeds
 * once. The real local Blobs server sits behind a proxy that answers 503 or drops connections on
 * demand (helpers/faulty-blobs.ts); HubSpot and Calendly are the local fakes.
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
import outboxRetry from '../../netlify/functions/outbox-retry.mts';
import schoolNominations from '../../netlify/functions/school-nominations.mts';
import sendEmail from '../../netlify/functions/send-email.mts';
import subscribe from '../../netlify/functions/subscribe.mts';
import testCalendlyConnection from '../../netlify/functions/test-calendly-connection.mts';
import testHubspotConnection from '../../netlify/functions/test-hubspot-connection.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { activeHubSpotToken } from '../../src/server/admin-config';
import { eventFingerprint, signPayload, type CalendlyDelivery, type WebhookLog } from '../../src/server/calendly-webhook';
import type { NominationRecord } from '../../src/server/nominations';
import { createDraft } from '../../src/server/email-drafts';
import { confirmationLink, PLATFORM_SEND_VALUE, type OutboxMessage } from '../../src/server/outbox';
import { FAKE_CALENDLY_ORGANIZATION, startCalendlyFake, type CalendlyFake } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { ADMIN_PASSWORD, call, setAdminEnv, signIn } from './helpers/admin';
import { isWrite, startFaultyBlobs, type FaultKind, type FaultyBlobs } from './helpers/faulty-blobs';
import { regionText, useSiteShell } from './helpers/site';

type Handler = (req: Request, context: unknown) => Promise<Response>;
type Answer = Awaited<ReturnType<typeof call>>;

const SIGNING_KEY = 'faults-signing-key-0123456789';
const SEND_CHOICE = 'choose_how_to_send_your_email';
const FAULT_KINDS: FaultKind[] = ['http-503', 'drop'];

let blobs: FaultyBlobs;
let hubspot: HubSpotFake;
let calendly: CalendlyFake;
/** Signed in while the store was up. */
let cookie: string;
let webhookId: string;
let errorLogId: string;
let sequence = 0;
const logged: string[] = [];

const unique = (prefix: string) => `${prefix}-${Date.now()}-${++sequence}`;

// ---- requests, as the browser, Calendly and the scheduler send them ----

const nomination = (email: string) => ({ schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana Lopez', email, childGrade: '5th', sendTo: 'Principal' });
const schoolNomination = (email: string) => ({ schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana Lopez', email });

/** An accepted email-form submission's draft and its token; the submission made the parent a contact. */
async function emailDraft(parentEmail = `${unique('parent')}@example.org`) {
  hubspot.addContact(parentEmail);
  const id = unique('sub');
  const { token, email } = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: { full_name: 'Ana Lopez', email: parentEmail, child_full_name: 'Leo Lopez', child_grade: '5th grade', school_name: 'Oakwood Academy', school_contact_name: 'Dr. Patel', school_contact_email: `${unique('head')}@oakwood.edu`, choose_how_to_send_your_email: 'Send via our platform' },
  });
  return { id, token, parentEmail, subject: email.subject };
}
type Draft = Awaited<ReturnType<typeof emailDraft>>;
const sendMessage = (draft: Pick<Draft, 'id' | 'token'>) => call(sendEmail as Handler, '/api/send-email', { method: 'POST', body: { submissionId: draft.id, token: draft.token } });
const runOutboxRetry = () => call(outboxRetry as Handler, '/.netlify/functions/outbox-retry', { method: 'POST', origin: null });
async function confirmPage(token: string, method: 'GET' | 'POST' = 'POST') {
  const response =
    method === 'GET'
      ? await confirmSend(new Request(`http://localhost/confirm-send?token=${encodeURIComponent(token)}`))
      : await confirmSend(new Request('http://localhost/confirm-send', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(token)}` }));
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

// ---- what the store holds, read past the proxy ----

async function records<T>(name: Parameters<FaultyBlobs['direct']>[0], prefix = ''): Promise<Array<{ key: string; value: T }>> {
  const store = blobs.direct(name);
  const { blobs: list } = await store.list({ prefix });
  return Promise.all(list.map(async ({ key }) => ({ key, value: (await store.get(key, { type: 'json' })) as T })));
}

const nominationsFor = async (email: string) => (await records<NominationRecord>('nominations')).filter(({ value }) => value.data.email === email);
const logsFor = async (email: string) => (await records<WebhookLog>('webhook-logs', 'log/')).map(({ value }) => value).filter((log) => log.payload.payload.email === email);
const eventClaim = (delivery: CalendlyDelivery) => blobs.direct('webhook-logs').get(`event/${eventFingerprint(delivery)}`);

/** The messages made from a draft, and whether each is marked for the retry run (read past the proxy). */
async function messagesOf(draftId: string): Promise<Array<{ message: OutboxMessage; marked: boolean }>> {
  const all = await records<OutboxMessage>('outbox', 'messages/');
  const outbox = blobs.direct('outbox');
  return Promise.all(
    all
      .filter(({ value }) => value.draftId === draftId)
      .map(async ({ value }) => ({ message: value, marked: (await outbox.get(`pending/${value.id}`)) !== null })),
  );
}

/** Makes a message due (and old) now, as if its retry time had come. */
async function makeDue(id: string): Promise<void> {
  const outbox = blobs.direct('outbox');
  const message = (await outbox.get(`messages/${id}`, { type: 'json' })) as OutboxMessage;
  const past = new Date(Date.now() - 5 * 60_000).toISOString();
  await outbox.setJSON(`messages/${id}`, { ...message, createdAt: past, nextAttemptAt: past });
}

const tokenOf = (message: OutboxMessage) => new URL(confirmationLink(message)!).searchParams.get('token')!;

/** HubSpot updates that asked the workflow to send this subject: each one is an email sent. */
function emailsSent(subject: string) {
  return hubspot.calls.filter((c) => {
    const properties = (c.body as { properties?: Record<string, string> } | undefined)?.properties;
    return c.method === 'PATCH' && properties?.[SEND_CHOICE] === PLATFORM_SEND_VALUE && properties.generated_email_subject === subject;
  });
}

async function sessionKeys(): Promise<string[]> {
  return (await records('sessions')).map(({ key }) => key);
}

// ---- the 503 every caller must see ----

function expectStoreUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(answer.headers.get('set-cookie')).toBeNull();
  expect(answer.body).toEqual({
    error: { code: 'store_unavailable', message: 'Storage is unavailable right now. Nothing was saved; please try again shortly.' },
  });
  const secrets = ['local-blobs-token', hubspot.token, calendly.token, ADMIN_PASSWORD, cookie.split('=')[1]!, SIGNING_KEY];
  for (const secret of secrets) expect(answer.text).not.toContain(secret);
  expect(answer.text).not.toMatch(/127\.0\.0\.1|Netlify Blobs|Error|\n\s+at /);
}

let shell: ReturnType<typeof useSiteShell>;

beforeAll(async () => {
  shell = useSiteShell();
  process.env.SITE_URL = 'https://site.example';
  blobs = await startFaultyBlobs();
  hubspot = await startHubSpotFake();
  calendly = await startCalendlyFake();
  setAdminEnv();
  Object.assign(process.env, {
    HUBSPOT_BASE_PATH: hubspot.url,
    HUBSPOT_FORMS_BASE_PATH: hubspot.url,
    HUBSPOT_ACCESS_TOKEN: hubspot.token,
    CALENDLY_BASE_URL: calendly.url,
    CALENDLY_ACCESS_TOKEN: calendly.token,
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
  expect((await logsFor('fixture@example.org'))[0]).toMatchObject({ id: errorLogId, hubspotSyncStatus: 'error' });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([blobs.stop(), hubspot.close(), calendly.close()]);
  shell.remove();
  delete process.env.SITE_URL;
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_ACCESS_TOKEN', 'CALENDLY_BASE_URL', 'CALENDLY_ACCESS_TOKEN']) delete process.env[name];
});

beforeEach(() => {
  hubspot.reset();
  calendly.calls.length = 0;
  blobs.clearLog();
});

afterEach(() => {
  blobs.heal();
  blobs.reconnect();
});

describe('with the store down entirely, every function that uses it answers 503 and writes nothing', () => {
  const outages: Array<[string, () => void | Promise<void>]> = [
    ['answering 503', () => blobs.fail({ how: 'http-503' })],
    ['dropping connections', () => blobs.fail({ how: 'drop' })],
    ['not listening', () => blobs.pointAtClosedPort()],
  ];
  const requests: Array<[string, () => Promise<Answer>]> = [
    ['POST /api/nominations', () => call(nominations as Handler, '/api/nominations', { method: 'POST', body: nomination('down@example.org') })],
    ['POST /api/school-nominations', () => call(schoolNominations as Handler, '/api/school-nominations', { method: 'POST', body: schoolNomination('down@example.org') })],
    ['POST /api/send-email', () => sendMessage({ id: 'sub-down-0001', token: 'd'.repeat(43) })],
    ['POST /api/calendly/webhook', () => deliver(booking('down@example.org'))],
    ['POST /api/admin/session (sign in)', () => call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } })],
    ['GET /api/admin/session', () => call(adminSession as Handler, '/api/admin/session', { cookie })],
    ['DELETE /api/admin/session (sign out)', () => call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie })],
    ['GET /api/nominations', () => call(nominations as Handler, '/api/nominations', { cookie })],
    ['GET /api/calendly-webhooks', () => call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie })],
    ['POST /api/calendly-webhooks', () => call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: webhookInput(), cookie })],
    ['PATCH /api/calendly-webhooks/{id}', () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${webhookId}`, { method: 'PATCH', body: { isActive: false }, cookie })],
    ['DELETE /api/calendly-webhooks/{id}', () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${webhookId}`, { method: 'DELETE', cookie })],
    ['GET /api/hubspot-config', () => call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })],
    ['POST /api/hubspot-config', () => call(hubspotConfig as Handler, '/api/hubspot-config', { method: 'POST', body: { name: 'CRM', accessToken: 'pat-down-0001' }, cookie })],
    ['GET /api/webhook-logs', () => call(webhookLogs as Handler, '/api/webhook-logs', { cookie })],
    ['POST /api/webhook-logs/{id}/retry', () => call(webhookLogs as Handler, `/api/webhook-logs/${errorLogId}/retry`, { method: 'POST', cookie })],
    ['POST /api/test-hubspot-connection', () => call(testHubspotConnection as Handler, '/api/test-hubspot-connection', { method: 'POST', body: { accessToken: hubspot.token }, cookie })],
    ['POST /api/test-calendly-connection', () => call(testCalendlyConnection as Handler, '/api/test-calendly-connection', { method: 'POST', body: { accessToken: calendly.token }, cookie })],
    ['outbox-retry (scheduled)', runOutboxRetry],
  ];

  describe.each(outages)('the store %s', (_outage, breakStore) => {
    test.each(requests)('%s', async (_name, send) => {
      const before = await blobs.snapshot();
      await breakStore();
      const answer = await send();
      blobs.heal();
      blobs.reconnect();
      expectStoreUnavailable(answer);
      expect(await blobs.snapshot()).toEqual(before);
      // Nothing reaches HubSpot or Calendly for a request the store could not record.
      expect(hubspot.calls).toEqual([]);
      expect(calendly.calls).toEqual([]);
    });
  });

  test('a signed-in admin gets 503 while the store is down, and is still signed in once it is back', async () => {
    const session = () => call(adminSession as Handler, '/api/admin/session', { cookie });
    expect((await session()).status).toBe(200);
    blobs.fail({ how: 'drop' });
    expectStoreUnavailable(await session());
    expectStoreUnavailable(await call(webhookLogs as Handler, '/api/webhook-logs', { cookie }));
    blobs.heal();
    expect((await session()).body.session).toMatchObject({ username: 'admin' });
  });

  test('sign-in answers 503 rather than "wrong password", and gives no cookie', async () => {
    const sessionsBefore = await sessionKeys();
    blobs.fail({ how: 'http-503' });
    const wrong = await call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: 'not-the-password' } });
    const right = await call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } });
    blobs.heal();
    expectStoreUnavailable(wrong);
    expectStoreUnavailable(right);
    expect(await sessionKeys()).toEqual(sessionsBefore);
  });

  const storeless: Array<[string, () => Promise<Answer>]> = [
    ['POST /api/subscribe', () => call(subscribe as Handler, '/api/subscribe', { method: 'POST', body: { email: 'reader@example.org' } })],
    // Issue 21: search-contact now reads the webhook log (it answers only for a logged booking),
    // and update-contact refuses the send choice, so neither is store-free with a 200 any more.
    [
      'POST /api/hubspot/update-contact refusing the send choice',
      () => {
        const { id } = hubspot.addContact('ana@example.org');
        return call(hubspotUpdateContact as Handler, '/api/hubspot/update-contact', { method: 'POST', body: { contactId: id, updates: [{ field: SEND_CHOICE, value: 'I will send it myself' }] } });
      },
    ],
  ];
  test('POST /api/hubspot/search-contact needs the webhook log: 503 while it is down, HubSpot untouched', async () => {
    process.env.BOOKING_LOOKUP_WAIT_MS = '1';
    blobs.fail({ how: 'http-503' });
    const answer = await call(hubspotSearchContact as Handler, '/api/hubspot/search-contact', { method: 'POST', body: { email: 'ana@example.org', inviteeUuid: 'INVITEE-0001' } });
    blobs.heal();
    delete process.env.BOOKING_LOOKUP_WAIT_MS;
    expectStoreUnavailable(answer);
    expect(hubspot.calls).toEqual([]);
  });

  test.each(storeless)('%s never uses the store, so it keeps working', async (name, send) => {
    blobs.fail({ how: 'drop' });
    const answer = await send();
    expect(answer.status).toBe(name.includes('refusing') ? 403 : 200);
    expect(blobs.requests).toEqual([]);
  });
});

describe('POST /api/nominations and /api/school-nominations when the store fails part-way', () => {
  const forms: Array<[string, Handler, string, (email: string) => object]> = [
    ['nominations', nominations as Handler, '/api/nominations', nomination],
    ['school-nominations', schoolNominations as Handler, '/api/school-nominations', schoolNomination],
  ];
  describe.each(forms)('%s', (_name, handler, path, form) => {
    test.each(FAULT_KINDS)('the record write fails (%s): 503, no record, HubSpot untouched; sent again, it is kept once', async (how) => {
      const email = `${unique('nominee')}@example.org`;
      blobs.fail({ how });
      expectStoreUnavailable(await call(handler, path, { method: 'POST', body: form(email) }));
      blobs.heal();
      expect(await nominationsFor(email)).toEqual([]);
      expect(hubspot.calls).toEqual([]);

      const again = await call(handler, path, { method: 'POST', body: form(email) });
      expect(again.status).toBe(201);
      expect((await nominationsFor(email)).map(({ value }) => value.id)).toEqual([again.body.id]);
      expect([...hubspot.contacts.values()].filter((c) => c.properties.email === email)).toHaveLength(1);
    });

    test.each(FAULT_KINDS)('the store fails after the record is kept (%s): 201, one record, one contact', async (how) => {
      const email = `${unique('nominee')}@example.org`;
      blobs.fail({ how, afterWrites: 1 });
      const answer = await call(handler, path, { method: 'POST', body: form(email) });
      blobs.heal();
      expect(blobs.failed.length).toBeGreaterThan(0);
      expect(answer.status).toBe(201);
      expect(await nominationsFor(email)).toEqual([{ key: answer.body.id, value: expect.objectContaining({ id: answer.body.id, data: form(email) }) }]);
      expect(hubspot.findContact(email)?.properties).toMatchObject({ school_name: 'Oakwood Academy', city: 'Austin' });
    });
  });
});

describe('the confirmation page with the store down', () => {
  test.each(['GET', 'POST'] as const)('%s: a page asking to try again in a moment, nothing sent, nothing written', async (method) => {
    const draft = await emailDraft();
    expect((await sendMessage(draft)).status).toBe(202);
    const [first] = await messagesOf(draft.id);
    const message = first!.message;
    hubspot.calls.length = 0;
    const before = await blobs.snapshot();
    blobs.fail({ how: 'http-503' });
    const page = await confirmPage(tokenOf(message), method);
    blobs.heal();
    expect(page.status).toBe(503);
    expect(page.text).toContain('Please try again in a moment');
    expect(page.text).not.toMatch(/127\.0\.0\.1|Netlify Blobs|Error/);
    expect(hubspot.calls).toEqual([]);
    expect(await blobs.snapshot()).toEqual(before);
  });
});

describe('POST /api/send-email when the store fails part-way', () => {
  // The request's writes in order: the message's pending marker, the message (create-if-new), the
  // draft taking it (compare-and-swap), then after HubSpot has the link, the message and the
  // marker's removal. The store goes down after `writes`.
  const cases: Array<[string, number, number]> = [
    ['before anything is written', 0, 503],
    ['after the pending marker', 1, 503],
    ['after the message, before the draft takes it', 2, 503],
    ['after the draft takes it, before the link is recorded', 3, 202],
    ['after the link is recorded, before the marker is removed', 4, 202],
  ];
  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each(cases)('%s: one message reaches the parent, and it is sent exactly once', async (_name, writes, firstStatus) => {
      const draft = await emailDraft();
      blobs.fail({ how, afterWrites: writes });
      const first = await sendMessage(draft);
      blobs.heal();
      expect(blobs.failed).not.toEqual([]);
      expect(first.status).toBe(firstStatus);
      if (firstStatus === 503) expectStoreUnavailable(first);

      // The dialog's request again once the store is back: a draft not yet taken is still sendable.
      const again = await sendMessage(draft);
      expect(again.status).toBe(firstStatus === 503 ? 202 : 409);
      // The retry run settles what is left: an orphan message is dropped, a link not recorded is handed over.
      for (const { message, marked } of await messagesOf(draft.id)) if (marked) await makeDue(message.id);
      expect((await runOutboxRetry()).status).toBe(200);
      const left = await messagesOf(draft.id);
      expect(left).toHaveLength(1);
      expect(left[0]).toMatchObject({ message: { status: 'awaiting_confirmation', confirmation: { link: 'delivered' } }, marked: false });
      expect(hubspot.findContact(draft.parentEmail)!.properties.platform_send_confirmation_url).toBe(confirmationLink(left[0]!.message));

      expect((await confirmPage(tokenOf(left[0]!.message))).text).toContain('Your email has been sent');
      expect(emailsSent(draft.subject)).toHaveLength(1);
    });
  });

  test('a create-if-new write the store answers with 503 is a failure, not a claim: HubSpot is not called', async () => {
    const draft = await emailDraft();
    hubspot.calls.length = 0;
    blobs.fail({ how: 'http-503', only: (request) => request.conditional });
    expectStoreUnavailable(await sendMessage(draft));
    blobs.heal();
    expect(hubspot.calls).toEqual([]);
    expect((await sendMessage(draft)).status).toBe(202);
  });
});

describe('confirming when the store fails part-way', () => {
  // The confirmation's writes in order: the pair, a school slot and a parent slot (create-if-new),
  // the pending marker and the message queued (compare-and-swap), then after HubSpot the message
  // sent and the marker's removal.
  const cases: Array<[string, number, number]> = [
    ['before anything is written', 0, 503],
    ['after the pair', 1, 503],
    ['after the school slot', 2, 503],
    ['after the parent slot', 3, 503],
    ['after the pending marker', 4, 503],
    ['after the message is queued, before its delivery is recorded', 5, 200],
    ['after the delivery is recorded, before the marker is removed', 6, 200],
  ];
  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each(cases)('%s: sent exactly once, one slot of each kind', async (_name, writes, firstStatus) => {
      const draft = await emailDraft();
      expect((await sendMessage(draft)).status).toBe(202);
      const [made] = await messagesOf(draft.id);
      const message = made!.message;
      blobs.fail({ how, afterWrites: writes });
      const first = await confirmPage(tokenOf(message));
      blobs.heal();
      expect(first.status).toBe(firstStatus);
      if (firstStatus === 503) expect(emailsSent(draft.subject)).toEqual([]);

      const again = await confirmPage(tokenOf(message));
      expect(again.text).toMatch(/Your email (has been sent|is confirmed)/);
      const [state] = await messagesOf(draft.id);
      if (state!.marked) {
        await makeDue(message.id);
        expect((await runOutboxRetry()).status).toBe(200);
      }
      expect(await messagesOf(draft.id)).toEqual([{ message: expect.objectContaining({ status: 'sent' }), marked: false }]);
      expect(emailsSent(draft.subject)).toHaveLength(1);
      const owned = await Promise.all(
        (await blobs.direct('rate-limits').list({ prefix: 'send/' })).blobs.map(async ({ key }) => ({ key, owner: await blobs.direct('rate-limits').get(key, { type: 'text' }) })),
      );
      const mine = owned.filter(({ owner }) => owner === message.id).map(({ key }) => key.split('/')[1]);
      expect(mine.sort()).toEqual(['pair', 'parent', 'school']);
    });
  });
});

describe('outbox-retry when the store fails part-way', () => {
  /** A confirmed message whose first delivery failed (HubSpot down), due for its retry now. */
  async function queuedMessage(): Promise<{ draft: Draft; message: OutboxMessage }> {
    const draft = await emailDraft();
    expect((await sendMessage(draft)).status).toBe(202);
    const [first] = await messagesOf(draft.id);
    const message = first!.message;
    hubspot.failNext(500, 500, 500, 500);
    expect((await confirmPage(tokenOf(message))).text).toContain('Your email is confirmed');
    await makeDue(message.id);
    hubspot.calls.length = 0;
    return { draft, message: message! };
  }

  test.each(FAULT_KINDS)('reading a message fails (%s): the run stops with 503 and the next run delivers it once', async (how) => {
    const { draft } = await queuedMessage();
    blobs.fail({ how, only: (request) => request.method === 'GET' && request.key.startsWith('messages/') });
    expectStoreUnavailable(await runOutboxRetry());
    blobs.heal();
    expect(emailsSent(draft.subject)).toEqual([]);
    expect(await messagesOf(draft.id)).toEqual([{ message: expect.objectContaining({ status: 'queued' }), marked: true }]);

    expect((await runOutboxRetry()).status).toBe(200);
    expect(await messagesOf(draft.id)).toEqual([{ message: expect.objectContaining({ status: 'sent' }), marked: false }]);
    expect(emailsSent(draft.subject)).toHaveLength(1);
  });

  test.each(FAULT_KINDS)('recording a delivery fails (%s): the next run sees it was sent and does not send it again', async (how) => {
    const { draft, message } = await queuedMessage();
    blobs.fail({ how, only: isWrite });
    const run = await runOutboxRetry();
    expect(run.status).toBe(200);
    expect(run.body.sent).toBeGreaterThanOrEqual(1);
    blobs.heal();
    expect(blobs.failed).not.toEqual([]);
    expect(emailsSent(draft.subject)).toHaveLength(1);
    expect((await messagesOf(draft.id))[0]!.message.status).toBe('queued');

    await makeDue(message.id);
    expect((await runOutboxRetry()).status).toBe(200);
    expect(await messagesOf(draft.id)).toEqual([{ message: expect.objectContaining({ status: 'sent' }), marked: false }]);
    expect(emailsSent(draft.subject)).toHaveLength(1);
  });
});

describe('POST /api/calendly/webhook when the store fails part-way', () => {
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

  // The delivery's writes in order: the signature claim, the event claim, the log, the log's
  // sync outcome. The store goes down after `writes`.
  const cases: Array<[string, number]> = [
    ['before anything is written', 0],
    ['after the signature is claimed', 1],
    ['after the event is claimed, before its log is written', 2],
    ['after the log is written, before the sync is recorded', 3],
  ];
  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each(cases)('%s: 503, and Calendly sending it again makes one log and one sync', async (_name, writes) => {
      const delivery = booking(`${unique('invitee')}@example.org`);
      blobs.fail({ how, afterWrites: writes });
      expectStoreUnavailable(await deliver(delivery, 20));
      blobs.heal();
      expect(blobs.failed).not.toEqual([]);
      // The store went down before HubSpot could be reached (its token is read from the store).
      expect(hubspot.calls).toEqual([]);
      expect((await logsFor(delivery.payload.email!)).filter((log) => log.hubspotSyncStatus !== 'pending')).toEqual([]);

      const again = await deliver(delivery, 10);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ ok: true, logId: expect.any(String) });
      await expectOneSyncedLog(delivery);
      // A further re-send is a duplicate.
      expect((await deliver(delivery)).body).toEqual({ ok: true, duplicate: true });
    });
  });

  test.each(FAULT_KINDS)('HubSpot is updated but recording it fails (%s): 503, and the re-send finishes the log', async (how) => {
    const delivery = booking(`${unique('invitee')}@example.org`);
    blobs.fail({ how, afterWrites: 3, only: isWrite });
    expectStoreUnavailable(await deliver(delivery, 20));
    blobs.heal();
    expect(hubspot.findContact(delivery.payload.email!)?.properties.calendly_meeting_status).toBe('scheduled');
    expect(await logsFor(delivery.payload.email!)).toEqual([expect.objectContaining({ hubspotSyncStatus: 'pending' })]);

    expect((await deliver(delivery, 10)).status).toBe(200);
    await expectOneSyncedLog(delivery);
  });

  test('claims the store answers with 503 are failures: no log is kept without its claim', async () => {
    const delivery = booking(`${unique('invitee')}@example.org`);
    blobs.fail({ how: 'http-503', only: (request) => request.conditional });
    expectStoreUnavailable(await deliver(delivery, 20));
    blobs.heal();
    expect(hubspot.calls).toEqual([]);
    expect(await logsFor(delivery.payload.email!)).toEqual([]);
    expect(await eventClaim(delivery)).toBeNull();

    expect((await deliver(delivery, 10)).status).toBe(200);
    await expectOneSyncedLog(delivery);
  });
});

describe('POST /api/webhook-logs/{id}/retry when recording the outcome fails', () => {
  test.each(FAULT_KINDS)('(%s) answers 503, keeps the log retryable, and the retry then succeeds', async (how) => {
    const delivery = booking(`${unique('invitee')}@example.org`);
    hubspot.failNext(500, 500, 500, 500);
    const logId = (await deliver(delivery)).body.logId as string;
    const retry = () => call(webhookLogs as Handler, `/api/webhook-logs/${logId}/retry`, { method: 'POST', cookie });

    blobs.fail({ how, only: (request) => request.method === 'PUT' && request.key.startsWith('log/') });
    expectStoreUnavailable(await retry());
    blobs.heal();
    expect(await logsFor(delivery.payload.email!)).toEqual([expect.objectContaining({ id: logId, hubspotSyncStatus: 'error' })]);

    const again = await retry();
    expect(again.status).toBe(200);
    expect(again.body.log).toMatchObject({ id: logId, hubspotSyncStatus: 'success' });
    await expect(logsFor(delivery.payload.email!)).resolves.toHaveLength(1);
  });
});

describe('the admin session when the store fails part-way', () => {
  const signInRequest = () => call(adminSession as Handler, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } });

  // Sign-in writes: two failure counters cleared, then the new session.
  test.each([0, 1, 2].flatMap((writes) => FAULT_KINDS.map((how) => [writes, how] as const)))(
    'sign-in with the store down after %i writes (%s): 503, no cookie, no session; signing in again works',
    async (writes, how) => {
      const before = await sessionKeys();
      blobs.fail({ how, afterWrites: writes });
      expectStoreUnavailable(await signInRequest());
      blobs.heal();
      expect(await sessionKeys()).toEqual(before);

      const again = await signInRequest();
      expect(again.status).toBe(200);
      expect(again.headers.get('set-cookie')).toMatch(/^__Host-admin_session=/);
      expect(await sessionKeys()).toHaveLength(before.length + 1);
    },
  );

  test.each(FAULT_KINDS)('sign-out failing (%s) answers 503 and leaves the session signed in until it is sent again', async (how) => {
    const own = await signIn();
    const session = () => call(adminSession as Handler, '/api/admin/session', { cookie: own });
    blobs.fail({ how });
    expectStoreUnavailable(await call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie: own }));
    blobs.heal();
    expect((await session()).body.session).toMatchObject({ username: 'admin' });
    expect((await call(adminSession as Handler, '/api/admin/session', { method: 'DELETE', cookie: own })).status).toBe(200);
    expect((await session()).body).toEqual({ session: null });
  });
});

describe('POST /api/hubspot-config when the store fails part-way', () => {
  const post = (name: string, accessToken: string) => call(hubspotConfig as Handler, '/api/hubspot-config', { method: 'POST', body: { name, accessToken, isActive: true }, cookie });

  afterEach(async () => {
    const configs = blobs.direct('hubspot-configs');
    for (const { key } of (await configs.list()).blobs) await configs.delete(key);
  });

  describe.each(FAULT_KINDS)('(%s)', (how) => {
    test.each([0, 1])('the store goes down after %i writes: the old token or the new one is in use, never neither', async (writes) => {
      expect((await post('Old portal', 'pat-old-0001')).status).toBe(201);
      blobs.fail({ how, afterWrites: writes });
      const first = await post('New portal', 'pat-new-0002');
      blobs.heal();
      expect(blobs.failed).not.toEqual([]);

      const kept = (await records<{ name: string }>('hubspot-configs')).filter(({ value }) => value.name === 'New portal');
      if (first.status === 503) {
        expectStoreUnavailable(first);
        expect(kept).toEqual([]);
        expect(await activeHubSpotToken()).toBe('pat-old-0001');
        expect((await post('New portal', 'pat-new-0002')).status).toBe(201);
      } else {
        expect(first.status).toBe(201);
      }
      expect(await activeHubSpotToken()).toBe('pat-new-0002');
      expect((await records<{ name: string }>('hubspot-configs')).filter(({ value }) => value.name === 'New portal')).toHaveLength(1);
      expect((await call(hubspotConfig as Handler, '/api/hubspot-config', { cookie })).body.config).toMatchObject({ name: 'New portal', isActive: true });
    });
  });
});

describe('/api/calendly-webhooks when the store fails part-way', () => {
  const configWrites = (method: string) => (request: { store: string; method: string }) => request.store === 'webhook-configs' && request.method === method;
  const subscriptionsTo = (url: string) => [...calendly.subscriptions.values()].filter((s) => s.callback_url === url);

  test.each(FAULT_KINDS)('POST: saving fails after Calendly registered it (%s): 503, the subscription is removed, and the retry registers once', async (how) => {
    const input = webhookInput();
    blobs.fail({ how, only: configWrites('PUT') });
    expectStoreUnavailable(await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie }));
    blobs.heal();
    expect(subscriptionsTo(input.calendlyWebhookUrl)).toEqual([]);

    const again = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie });
    expect(again.status).toBe(201);
    expect(subscriptionsTo(input.calendlyWebhookUrl)).toHaveLength(1);
    const listed = (await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie })).body.webhooks as Array<{ name: string; registered: boolean }>;
    expect(listed.filter((webhook) => webhook.name === input.name)).toEqual([expect.objectContaining({ registered: true })]);
  });

  test.each(FAULT_KINDS)('DELETE: removing the record fails after Calendly removed the subscription (%s): 503, and the retry removes it', async (how) => {
    const input = webhookInput();
    const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: input, cookie });
    const remove = () => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${created.body.webhook.id}`, { method: 'DELETE', cookie });
    blobs.fail({ how, only: configWrites('DELETE') });
    expectStoreUnavailable(await remove());
    blobs.heal();
    expect(subscriptionsTo(input.calendlyWebhookUrl)).toEqual([]);

    expect((await remove()).status).toBe(200);
    const listed = (await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { cookie })).body.webhooks as Array<{ id: string }>;
    expect(listed.map((webhook) => webhook.id)).not.toContain(created.body.webhook.id);
  });
});

test('no fault above ended in a 500', () => {
  expect(logged.filter((line) => /^\[\/api\//.test(line))).toEqual([]);
});
