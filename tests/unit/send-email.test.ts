import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import sendEmail from '../../netlify/functions/send-email.mts';
import outboxRetry from '../../netlify/functions/outbox-retry.mts';
import { config as sendEmailConfig } from '../../netlify/functions/send-email.mts';
import { config as retryConfig } from '../../netlify/functions/outbox-retry.mts';
import { MAX_ATTEMPTS, readRecord, type OutboxRecord } from '../../netlify/functions/_shared/outbox';
import { store } from '../../netlify/functions/_shared/store';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startLocalBlobs, type LocalBlobs } from './helpers/blobs';
import { call, jsonRequest, malformedRequests } from './helpers/requests';

let fake: HubSpotFake;
let blobs: LocalBlobs;
let keySeq = 0;

const message = (overrides: Record<string, unknown> = {}) => ({
  idempotencyKey: `key-${Date.now()}-${++keySeq}`,
  parentEmail: 'ana@example.org',
  to: 'head@oakwood.edu',
  subject: 'How Oakwood can unlock mastery learning for every student',
  body: 'Dear Dr. Patel,\n\nMy name is Ana Lopez.',
  ...overrides,
});
const send = (body: unknown) => call(sendEmail, jsonRequest('/api/send-email', body));
const patches = () => fake.calls.filter((c) => c.method === 'PATCH');
const searches = () => fake.calls.filter((c) => c.path.endsWith('/contacts/search'));

async function pendingMarkers(): Promise<string[]> {
  const { blobs: list } = await store('outbox', { strong: true }).list({ prefix: 'pending/' });
  return list.map((b) => b.key);
}

/** Makes a pending record due now, as if its retry time had come. */
async function makeDue(id: string): Promise<void> {
  const record = (await readRecord(id)) as OutboxRecord;
  await store('outbox', { strong: true }).setJSON(`messages/${id}`, { ...record, nextAttemptAt: new Date(Date.now() - 1000).toISOString() });
}

beforeAll(async () => {
  fake = await startHubSpotFake();
  blobs = await startLocalBlobs();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  await blobs.stop();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN', 'SEND_EMAIL_BUDGET_MS']) delete process.env[name];
});
beforeEach(() => {
  fake.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
  delete process.env.SEND_EMAIL_BUDGET_MS;
});

describe('POST /api/send-email', () => {
  test('is routed at /api/send-email and rate-limited per IP', () => {
    expect(sendEmailConfig.path).toBe('/api/send-email');
    expect(sendEmailConfig.rateLimit).toMatchObject({ aggregateBy: expect.arrayContaining(['ip']) });
  });

  test('stores the message, then sets the send choice, subject and body on the parent contact', async () => {
    const contact = fake.addContact('ana@example.org');
    const input = message();
    const { status, body } = await send(input);
    expect(status).toBe(200);
    expect(body).toEqual({ id: input.idempotencyKey, status: 'sent' });
    expect(fake.contacts.get(contact.id)?.properties).toMatchObject({
      choose_how_to_send_your_email: 'Send Via our platform',
      generated_email_subject: input.subject,
      generated_email_body: input.body,
    });
    const record = await readRecord(input.idempotencyKey);
    expect(record).toMatchObject({ status: 'sent', attempts: 1, contactId: contact.id, message: { parentEmail: 'ana@example.org' } });
    expect(await pendingMarkers()).toEqual([]);
  });

  test('the same idempotency key sends once, also when both requests arrive together', async () => {
    fake.addContact('ana@example.org');
    const input = message();
    const [first, second] = await Promise.all([send(input), send(input)]);
    const third = await send(input);
    expect([first.status, second.status].sort()).toEqual(expect.arrayContaining([200]));
    expect(third).toEqual({ status: 200, body: { id: input.idempotencyKey, status: 'sent' } });
    expect(patches()).toHaveLength(1);
  });

  describe('only for a parent who has just submitted the form', () => {
    const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

    test.each([
      ['never submitted a form', {}],
      ['submitted an hour ago', { recent_conversion_date: minutes(-60) }],
      ['submitted 40 minutes ago (epoch ms)', { recent_conversion_date: String(Date.now() - 40 * 60_000) }],
    ])('a contact who %s gets nothing set now, and the message waits for the submission', async (_label, properties) => {
      const contact = fake.addContact('ana@example.org', { recent_conversion_date: '', ...properties });
      const input = message();
      const { status, body } = await send(input);
      expect(status).toBe(202);
      expect(body.status).toBe('pending');
      expect(patches()).toHaveLength(0);
      expect(fake.contacts.get(contact.id)?.properties.choose_how_to_send_your_email).toBeUndefined();
      expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'pending', lastError: 'no_recent_submission' });
    });

    test('a submission HubSpot records a moment after the request is waited for, and the message sent', async () => {
      const contact = fake.addContact('ana@example.org', { recent_conversion_date: minutes(-90) });
      setTimeout(() => {
        contact.properties.recent_conversion_date = new Date().toISOString();
      }, 30);
      const { status, body } = await send(message());
      expect(status).toBe(200);
      expect(body.status).toBe('sent');
      expect(searches().length).toBeGreaterThan(1);
    });

    test('a submission made after the request does not count for it, and a stale one stops counting once the lag has passed', async () => {
      const later = fake.addContact('ana@example.org', { recent_conversion_date: minutes(5) });
      const first = message();
      expect(await send(first)).toMatchObject({ status: 502, body: { error: { code: 'delivery_failed' } } });
      expect(await readRecord(first.idempotencyKey)).toMatchObject({ status: 'failed', lastError: 'no_recent_submission' });

      later.properties.recent_conversion_date = minutes(-60);
      const stale = message();
      expect((await send(stale)).status).toBe(202);
      // Its retry run, more than ten minutes after the request, finds no newer submission.
      const record = (await readRecord(stale.idempotencyKey)) as OutboxRecord;
      await store('outbox', { strong: true }).setJSON(`messages/${stale.idempotencyKey}`, {
        ...record,
        createdAt: minutes(-11),
        nextAttemptAt: minutes(-1),
      });
      await outboxRetry();
      expect(await readRecord(stale.idempotencyKey)).toMatchObject({ status: 'failed', lastError: 'no_recent_submission' });
      expect(patches()).toHaveLength(0);
    });
  });

  test('waits out HubSpot search lag for a contact created a moment ago', async () => {
    fake.searchLagMs = 40;
    fake.addContact('ana@example.org');
    const { status, body } = await send(message());
    expect(status).toBe(200);
    expect(body.status).toBe('sent');
    expect(searches().length).toBeGreaterThan(1);
  });

  test.each([
    ['a 429', [429]],
    ['a 500', [500]],
    ['a 429 then two 503', [429, 503, 503]],
  ])('retries after %s and sends', async (_label, statuses) => {
    fake.addContact('ana@example.org');
    fake.failNext(...statuses);
    const { status } = await send(message());
    expect(status).toBe(200);
    expect(patches()).toHaveLength(1);
  });

  test('a HubSpot that keeps failing leaves the message queued for the retry run (202)', async () => {
    fake.addContact('ana@example.org');
    fake.failNext(...Array(20).fill(500));
    const input = message();
    const { status, body } = await send(input);
    expect(status).toBe(202);
    expect(body).toEqual({ id: input.idempotencyKey, status: 'pending' });
    expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'pending', attempts: 1, lastError: 'hubspot_500' });
    expect(await pendingMarkers()).toContain(`pending/${input.idempotencyKey}`);
  });

  test('a slow HubSpot within the budget still sends', async () => {
    fake.addContact('ana@example.org');
    fake.delayMs = 60;
    expect((await send(message())).status).toBe(200);
  });

  test('a HubSpot slower than the budget leaves the message queued', async () => {
    process.env.SEND_EMAIL_BUDGET_MS = '100';
    fake.addContact('ana@example.org');
    fake.delayMs = 400;
    const input = message();
    const started = Date.now();
    const { status } = await send(input);
    expect(Date.now() - started).toBeLessThan(400);
    expect(status).toBe(202);
    expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'pending', lastError: 'timeout' });
  });

  test('a contact that never appears stays queued as contact_not_found', async () => {
    const input = message();
    const { status } = await send(input);
    expect(status).toBe(202);
    expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'pending', lastError: 'contact_not_found' });
  });

  test('a permanent HubSpot refusal fails the message (502) so the parent can copy it instead', async () => {
    fake.addContact('ana@example.org');
    fake.failNext(400);
    const input = message();
    const { status, body } = await send(input);
    expect(status).toBe(502);
    expect(body.error.code).toBe('delivery_failed');
    expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'failed', lastError: 'hubspot_400' });
    expect(await pendingMarkers()).not.toContain(`pending/${input.idempotencyKey}`);
  });

  test('without HubSpot configured it says so and stores nothing', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const input = message();
    const { status, body } = await send(input);
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ code: 'hubspot_not_configured', message: expect.stringMatching(/not configured/) });
    expect(await readRecord(input.idempotencyKey)).toBeNull();
    expect(fake.calls).toHaveLength(0);
  });

  test.each([
    ['a bad parent email', message({ parentEmail: 'nope' })],
    ['no subject', message({ subject: '' })],
    ['a bad idempotency key', message({ idempotencyKey: '../../etc' })],
    ['an unknown field', message({ cc: 'everyone@example.org' })],
  ])('refuses %s with 400', async (_label, input) => {
    const { status, body } = await send(input);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(fake.calls).toHaveLength(0);
  });

  test.each(malformedRequests('/api/send-email'))('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    const { status, body } = await call(sendEmail, req);
    expect(status).toBe(expected);
    expect(body.error.code).toEqual(expect.any(String));
  });
});

describe('scheduled outbox retry', () => {
  test('runs on a schedule', () => {
    expect(retryConfig.schedule).toMatch(/\S+ \S+ \S+ \S+ \S+/);
  });

  test('delivers a due pending message once the contact is found', async () => {
    const input = message();
    expect((await send(input)).status).toBe(202);
    fake.addContact('ana@example.org');
    await makeDue(input.idempotencyKey);
    const summary = await (await outboxRetry()).json();
    expect(summary).toMatchObject({ sent: 1 });
    expect(await readRecord(input.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await pendingMarkers()).not.toContain(`pending/${input.idempotencyKey}`);
    expect(patches()).toHaveLength(1);
  });

  test('leaves messages whose retry time has not come', async () => {
    const input = message();
    await send(input);
    fake.addContact('ana@example.org');
    const before = fake.calls.length;
    const summary = await (await outboxRetry()).json();
    expect(summary.sent).toBe(0);
    expect(fake.calls.length).toBe(before);
    expect((await readRecord(input.idempotencyKey))?.status).toBe('pending');
  });

  test(`fails a message after ${MAX_ATTEMPTS} attempts in all`, async () => {
    const input = message();
    await send(input);
    for (let run = 2; run <= MAX_ATTEMPTS + 2; run++) {
      await makeDue(input.idempotencyKey).catch(() => undefined);
      await outboxRetry();
    }
    const record = await readRecord(input.idempotencyKey);
    expect(record).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'contact_not_found' });
    expect(await pendingMarkers()).not.toContain(`pending/${input.idempotencyKey}`);
  });

  test('without HubSpot configured it leaves everything pending', async () => {
    const input = message();
    await send(input);
    await makeDue(input.idempotencyKey);
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const summary = await (await outboxRetry()).json();
    expect(summary.notConfigured).toBe(true);
    expect((await readRecord(input.idempotencyKey))?.status).toBe('pending');
  });
});
