import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import searchContact, { config as searchConfig } from '../../netlify/functions/hubspot-search-contact.mts';
import updateContact, { config as updateConfig } from '../../netlify/functions/hubspot-update-contact.mts';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call, jsonRequest, malformedRequests } from './helpers/requests';

let fake: HubSpotFake;

const search = (body: unknown) => call(searchContact, jsonRequest('/api/hubspot/search-contact', body));
const update = (body: unknown) => call(updateContact, jsonRequest('/api/hubspot/update-contact', body));

beforeAll(async () => {
  fake = await startHubSpotFake();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN']) delete process.env[name];
});
beforeEach(() => {
  fake.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
});

describe('POST /api/hubspot/search-contact', () => {
  test('is routed and rate-limited per IP through the function config', () => {
    expect(searchConfig.path).toBe('/api/hubspot/search-contact');
    expect(searchConfig.rateLimit).toMatchObject({ windowLimit: expect.any(Number), windowSize: expect.any(Number), aggregateBy: expect.arrayContaining(['ip']) });
  });

  test('answers only hs_object_id, meeting_link and calendly_assigned_host', async () => {
    const contact = fake.addContact('ana@example.org', {
      meeting_link: 'https://meet.example.org/ana',
      calendly_assigned_host: 'Jordan Lee',
      firstname: 'Ana',
      phone: '+1 555 0100',
      school_name: 'Oakwood',
    });
    const { status, body } = await search({ email: 'ANA@example.org' });
    expect(status).toBe(200);
    expect(body).toEqual({
      total: 1,
      results: [{ properties: { hs_object_id: contact.id, meeting_link: 'https://meet.example.org/ana', calendly_assigned_host: 'Jordan Lee' } }],
    });
    expect(JSON.stringify(body)).not.toMatch(/555|Oakwood|firstname|email/);
  });

  test('answers total 0 for an unknown email', async () => {
    expect(await search({ email: 'nobody@example.org' })).toEqual({ status: 200, body: { total: 0, results: [] } });
  });

  test.each([
    ['a 429', [429]],
    ['a 500 then a 502', [500, 502]],
  ])('retries after %s', async (_label, statuses) => {
    fake.addContact('ana@example.org');
    fake.failNext(...statuses);
    const { status, body } = await search({ email: 'ana@example.org' });
    expect(status).toBe(200);
    expect(body.total).toBe(1);
  });

  test('a HubSpot that keeps failing answers 502 "Failed to search for contact"', async () => {
    fake.failNext(...Array(10).fill(500));
    const { status, body } = await search({ email: 'ana@example.org' });
    expect(status).toBe(502);
    expect(body.error).toEqual({ code: 'hubspot_unavailable', message: 'Failed to search for contact' });
  });

  test('a slow HubSpot answer still arrives', async () => {
    fake.delayMs = 150;
    fake.addContact('ana@example.org');
    expect((await search({ email: 'ana@example.org' })).body.total).toBe(1);
  });

  test.each([['not-an-email'], [''], ['a@b']])('400 on the bad email %j', async (email) => {
    const { status, body } = await search({ email });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(fake.calls).toHaveLength(0);
  });

  test('without HubSpot configured it says so', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const { status, body } = await search({ email: 'ana@example.org' });
    expect(status).toBe(503);
    expect(body.error.code).toBe('hubspot_not_configured');
  });

  test.each(malformedRequests('/api/hubspot/search-contact'))('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    expect((await call(searchContact, req)).status).toBe(expected);
  });
});

describe('POST /api/hubspot/update-contact', () => {
  test('is routed and rate-limited', () => {
    expect(updateConfig.path).toBe('/api/hubspot/update-contact');
    expect(updateConfig.rateLimit).toBeDefined();
  });

  test.each([
    ['Send Via our platform', 'Send Via our platform'],
    ['Send via our platform', 'Send Via our platform'],
    ['I will send it myself', 'I will send it myself'],
  ])('sets the send choice %j (stored as %j)', async (value, stored) => {
    const contact = fake.addContact('ana@example.org');
    const { status, body } = await update({ contactId: contact.id, updates: [{ field: 'choose_how_to_send_your_email', value }] });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, id: contact.id });
    expect(fake.contacts.get(contact.id)?.properties.choose_how_to_send_your_email).toBe(stored);
  });

  test.each([
    ['another field', [{ field: 'email', value: 'attacker@example.org' }]],
    ['a lifecycle change', [{ field: 'lifecyclestage', value: 'customer' }]],
    ['an unknown value', [{ field: 'choose_how_to_send_your_email', value: 'Send to everyone' }]],
    ['an allowed update next to a forbidden one', [
      { field: 'choose_how_to_send_your_email', value: 'Send Via our platform' },
      { field: 'hubspot_owner_id', value: '1' },
    ]],
    ['a prototype key', [{ field: '__proto__', value: 'Send Via our platform' }]],
  ])('refuses %s with 400 and writes nothing', async (_label, updates) => {
    const contact = fake.addContact('ana@example.org');
    const { status, body } = await update({ contactId: contact.id, updates });
    expect(status).toBe(400);
    expect(body.error.code).toBe('update_not_allowed');
    expect(fake.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(fake.contacts.get(contact.id)?.properties.email).toBe('ana@example.org');
  });

  test('an unknown contact answers 404', async () => {
    const { status, body } = await update({ contactId: '999999', updates: [{ field: 'choose_how_to_send_your_email', value: 'Send Via our platform' }] });
    expect(status).toBe(404);
    expect(body.error.code).toBe('contact_not_found');
  });

  test('retries a 429 and answers 502 "Failed to update contact" when HubSpot keeps failing', async () => {
    const contact = fake.addContact('ana@example.org');
    fake.failNext(429);
    expect((await update({ contactId: contact.id, updates: [{ field: 'choose_how_to_send_your_email', value: 'Send Via our platform' }] })).status).toBe(200);
    fake.failNext(...Array(10).fill(503));
    const { status, body } = await update({ contactId: contact.id, updates: [{ field: 'choose_how_to_send_your_email', value: 'Send Via our platform' }] });
    expect(status).toBe(502);
    expect(body.error.message).toBe('Failed to update contact');
  });

  test.each([
    ['a non-numeric id', { contactId: '../1', updates: [{ field: 'choose_how_to_send_your_email', value: 'Send Via our platform' }] }],
    ['no updates', { contactId: '1', updates: [] }],
    ['an object instead of a list', { contactId: '1', updates: { choose_how_to_send_your_email: 'x' } }],
  ])('refuses %s with 400', async (_label, payload) => {
    expect((await update(payload)).status).toBe(400);
  });

  test.each(malformedRequests('/api/hubspot/update-contact'))('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    expect((await call(updateContact, req)).status).toBe(expected);
  });
});
