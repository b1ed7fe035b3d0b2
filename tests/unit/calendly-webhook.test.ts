import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import receiver from '../../netlify/functions/calendly-webhook.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { saveLog, signPayload, type WebhookLog, SIGNATURE_TOLERANCE_S, verifySignature } from '../../src/server/calendly-webhook';
import { FAKE_CALENDLY_ORGANIZATION } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, ORIGIN, setAdminEnv, signIn } from './helpers/admin';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const KEY = 'receiver-signing-key-0123456789abcdef';
const INACTIVE_KEY = 'inactive-signing-key-0123456789abcdef';

let database: TestDatabase;
let hubspot: HubSpotFake;
let cookie: string;
let sequence = 0;

beforeAll(async () => {
  database = await startTestDatabase();
  hubspot = await startHubSpotFake();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
  cookie = await signIn();
  const base = {
    description: '',
    calendlyWebhookUrl: 'https://example.org/api/calendly/webhook',
    events: ['invitee.created', 'invitee.canceled'],
    scope: 'organization',
    organization: FAKE_CALENDLY_ORGANIZATION,
  };
  for (const [name, signingKey, isActive] of [
    ['Active', KEY, true],
    ['Inactive', INACTIVE_KEY, false],
  ] as const) {
    const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', {
      method: 'POST',
      body: { ...base, name, signingKey, isActive },
      cookie,
    });
    expect(created.status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([database.stop(), hubspot.close()]);
  delete process.env.HUBSPOT_BASE_PATH;
  delete process.env.HUBSPOT_ACCESS_TOKEN;
});
beforeEach(() => hubspot.reset());

/** A Calendly v2 delivery, as its webhook sends it. */
function delivery(event: string, email: string, extra: Record<string, unknown> = {}) {
  sequence += 1;
  const eventUri = `https://api.calendly.com/scheduled_events/EVENT${sequence}`;
  return {
    event,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString(),
    created_by: 'https://api.calendly.com/users/FAKEUSER00000001',
    payload: {
      uri: `${eventUri}/invitees/INVITEE${sequence}`,
      email,
      name: 'Dana Parent',
      first_name: 'Dana',
      last_name: 'Parent',
      status: event === 'invitee.canceled' ? 'canceled' : 'active',
      scheduled_event: {
        uri: eventUri,
        name: 'Strategy Call',
        start_time: '2026-02-03T15:00:00.000000Z',
        end_time: '2026-02-03T15:30:00.000000Z',
        location: { type: 'zoom', join_url: `https://zoom.example/j/${sequence}`, status: 'pushed' },
        event_memberships: [{ user: 'https://api.calendly.com/users/HOST1', user_email: 'host@example.org', user_name: 'Alex Host' }],
      },
      ...extra,
    },
  };
}

function signed(body: string, key = KEY, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${signPayload(key, t, body)}`;
}

async function deliver(body: string, signature: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['calendly-webhook-signature'] = signature;
  const response = await (receiver as Handler)(new Request(`${ORIGIN}/api/calendly/webhook`, { method: 'POST', headers, body }), {});
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function logs() {
  return (await call(webhookLogs as Handler, '/api/webhook-logs?limit=100', { cookie })).body.logs as Array<Record<string, any>>;
}

describe('the signature', () => {
  const body = JSON.stringify(delivery('invitee.created', 'sig@example.org'));
  const now = Math.floor(Date.now() / 1000);
  test.each([
    ['valid', signed(body), body, { ok: true }],
    ['wrong key', signed(body, 'some-other-key'), body, { ok: false, reason: 'mismatch' }],
    ['key of an inactive configuration', signed(body, INACTIVE_KEY), body, { ok: false, reason: 'mismatch' }],
    // Well past the tolerance: these are made when the file is collected, a while before they run.
    ['stale (older than 3 minutes)', signed(body, KEY, now - SIGNATURE_TOLERANCE_S - 120), body, { ok: false, reason: 'stale' }],
    ['from the future', signed(body, KEY, now + SIGNATURE_TOLERANCE_S + 120), body, { ok: false, reason: 'stale' }],
    ['tampered body', signed(body), body.replace('sig@example.org', 'evil@example.org'), { ok: false, reason: 'mismatch' }],
    ['missing header', null, body, { ok: false, reason: 'missing' }],
    ['malformed header', 'v1=abc', body, { ok: false, reason: 'malformed' }],
  ])('%s', async (_name, header, sentBody, expected) => {
    expect(verifySignature(header, sentBody, [{ webhookId: 'w', key: KEY }])).toMatchObject(expected);
    const answer = await deliver(sentBody, header);
    expect(answer.status).toBe(expected.ok ? 200 : 401);
  });

  test('a replayed signature is refused', async () => {
    hubspot.addContact('replay@example.org');
    const body = JSON.stringify(delivery('invitee.created', 'replay@example.org'));
    const header = signed(body);
    expect((await deliver(body, header)).status).toBe(200);
    const again = await deliver(body, header);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('replayed_signature');
  });
});

describe('the HubSpot sync', () => {
  test('invitee.created writes the meeting link, host and time onto the contact', async () => {
    const contact = hubspot.addContact('booked@example.org');
    const event = delivery('invitee.created', 'booked@example.org');
    const body = JSON.stringify(event);
    const answer = await deliver(body, signed(body));
    expect(answer.status).toBe(200);
    expect(hubspot.contacts.get(contact.id)?.properties).toMatchObject({
      meeting_link: event.payload.scheduled_event.location.join_url,
      calendly_assigned_host: 'Alex Host',
      calendly_meeting_time: '2026-02-03T15:00:00.000000Z',
      calendly_meeting_status: 'scheduled',
    });
    const log = (await logs()).find((entry) => entry.id === answer.body.logId)!;
    expect(log).toMatchObject({ eventType: 'invitee.created', status: 'success', hubspotSyncStatus: 'success', hubspotContactId: contact.id });
    expect(hubspot.calls.every((c) => c.authorization === `Bearer ${hubspot.token}`)).toBe(true);
  });

  test('invitee.canceled marks the cancellation', async () => {
    const contact = hubspot.addContact('cancel@example.org', { calendly_meeting_status: 'scheduled' });
    const body = JSON.stringify(delivery('invitee.canceled', 'cancel@example.org'));
    expect((await deliver(body, signed(body))).status).toBe(200);
    expect(hubspot.contacts.get(contact.id)?.properties.calendly_meeting_status).toBe('canceled');
  });

  test('the same event delivered twice (Calendly retrying) makes one log', async () => {
    hubspot.addContact('twice@example.org');
    const body = JSON.stringify(delivery('invitee.created', 'twice@example.org'));
    const first = await deliver(body, signed(body));
    // A retry is signed again, one second later.
    const second = await deliver(body, signed(body, KEY, Math.floor(Date.now() / 1000) + 1));
    expect(first.status).toBe(200);
    expect(second).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    expect((await logs()).filter((log) => log.payload.payload.email === 'twice@example.org')).toHaveLength(1);
  });

  test('HubSpot failing marks the sync as error, and a retry succeeds', async () => {
    const contact = hubspot.addContact('flaky@example.org');
    hubspot.failNext(500, 500, 500, 500);
    const body = JSON.stringify(delivery('invitee.created', 'flaky@example.org'));
    const answer = await deliver(body, signed(body));
    expect(answer.status).toBe(200);
    let log = (await logs()).find((entry) => entry.id === answer.body.logId)!;
    expect(log).toMatchObject({ status: 'error', hubspotSyncStatus: 'error', error: 'HubSpot answered 500.' });
    expect(hubspot.contacts.get(contact.id)?.properties.meeting_link).toBeUndefined();

    const retried = await call(webhookLogs as Handler, `/api/webhook-logs/${log.id}/retry`, { method: 'POST', cookie });
    expect(retried.status).toBe(200);
    expect(retried.body.log).toMatchObject({ status: 'success', hubspotSyncStatus: 'success', attempts: 2 });
    log = (await logs()).find((entry) => entry.id === answer.body.logId)!;
    expect(log.hubspotSyncStatus).toBe('success');
    expect(hubspot.contacts.get(contact.id)?.properties.meeting_link).toMatch(/^https:\/\/zoom\.example\/j\//);
    // A successful sync is not retried again.
    expect((await call(webhookLogs as Handler, `/api/webhook-logs/${log.id}/retry`, { method: 'POST', cookie })).status).toBe(409);
  });

  test('a sync left pending (its function ended first) can be retried once it is clearly stuck', async () => {
    const contact = hubspot.addContact('stuck@example.org');
    const body = JSON.stringify(delivery('invitee.created', 'stuck@example.org'));
    const answer = await deliver(body, signed(body));
    const done = (await logs()).find((entry) => entry.id === answer.body.logId)!;
    const retry = (id: string) => call(webhookLogs as Handler, `/api/webhook-logs/${id}/retry`, { method: 'POST', cookie });
    const leavePending = (minutesAgo: number) =>
      saveLog({
        ...done,
        status: 'received',
        hubspotSyncStatus: 'pending',
        createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      } as WebhookLog);
    delete hubspot.contacts.get(contact.id)!.properties.meeting_link;

    await leavePending(1);
    expect((await retry(done.id)).status).toBe(409);
    await leavePending(6);
    const retried = await retry(done.id);
    expect(retried.status).toBe(200);
    expect(retried.body.log).toMatchObject({ status: 'success', hubspotSyncStatus: 'success' });
    expect(hubspot.contacts.get(contact.id)?.properties.meeting_link).toMatch(/^https:\/\/zoom\.example\/j\//);
    // Back to its real time, for the tests that page the log by time.
    await saveLog({ ...retried.body.log, createdAt: done.createdAt } as WebhookLog);
  });

  test('a HubSpot token refused is an error that names the reason, not the token', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = 'revoked-token-000000';
    try {
      const body = JSON.stringify(delivery('invitee.created', 'refused@example.org'));
      const answer = await deliver(body, signed(body));
      const log = (await logs()).find((entry) => entry.id === answer.body.logId)!;
      expect(log.error).toBe('HubSpot refused the access token (401).');
      expect(JSON.stringify(log)).not.toContain('revoked-token');
    } finally {
      process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
    }
  });

  test('a contact that does not exist yet is created', async () => {
    const body = JSON.stringify(delivery('invitee.created', 'new-parent@example.org'));
    expect((await deliver(body, signed(body))).status).toBe(200);
    expect(hubspot.findContact('new-parent@example.org')?.properties).toMatchObject({ firstname: 'Dana', calendly_assigned_host: 'Alex Host' });
  });

  test('a signed body that is not a Calendly delivery is a 400', async () => {
    const body = JSON.stringify({ hello: 'world' });
    expect((await deliver(body, signed(body))).status).toBe(400);
  });
});

describe('the activity log', () => {
  test('is newest first and paged', async () => {
    for (const email of ['page1@example.org', 'page2@example.org', 'page3@example.org']) {
      const body = JSON.stringify(delivery('invitee_no_show.created', email));
      expect((await deliver(body, signed(body))).status).toBe(200);
    }
    const all = await logs();
    const times = all.map((log) => log.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all[0]).toMatchObject({ eventType: 'invitee_no_show.created', status: 'success', hubspotSyncStatus: 'skipped' });

    const first = await call(webhookLogs as Handler, '/api/webhook-logs?limit=2', { cookie });
    expect(first.body.logs).toHaveLength(2);
    expect(first.body.nextCursor).toBe(first.body.logs[1].id);
    const second = await call(webhookLogs as Handler, `/api/webhook-logs?limit=2&cursor=${first.body.nextCursor}`, { cookie });
    expect(second.body.logs[0].id).toBe(all[2]!.id);
  });
});
