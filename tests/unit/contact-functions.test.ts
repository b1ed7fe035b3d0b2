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
    expect(searchConfig.rateLimit).toMatchObject({
      windowLimit: expect.any(Number),
      windowSize: expect.any(Number),
      aggregateBy: expect.arrayContaining(['ip']),
    });
  });

  // Issue 21: the lookup answers only for a booking that happened, from the site's own record of
  // Calendly's signed delivery (tests/unit/attack-crm.test.ts); HubSpot is never asked.
  test.each([['not-an-email'], [''], ['a@b']])('400 on the bad email %j', async (email) => {
    const { status, body } = await search({ email, inviteeUuid: 'INVITEE-0001' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(fake.calls).toHaveLength(0);
  });

  test.each([
    ['no invitee uuid', { email: 'ana@example.org' }],
    ['a malformed invitee uuid', { email: 'ana@example.org', inviteeUuid: '../x' }],
    ['an unknown field', { email: 'ana@example.org', inviteeUuid: 'INVITEE-0001', contactId: '1' }],
  ])('400 on %s', async (_label, payload) => {
    const { status, body } = await search(payload);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(fake.calls).toHaveLength(0);
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

  // Issue 21: the send choice starts the send workflow; the browser may no longer set it.
  test.each([['Send Via our platform'], ['Send via our platform'], ['I will send it myself']])(
    'refuses the send choice %j with 403 and writes nothing',
    async (value) => {
      const contact = fake.addContact('ana@example.org');
      const { status, body } = await update({ contactId: contact.id, updates: [{ field: 'choose_how_to_send_your_email', value }] });
      expect(status).toBe(403);
      expect(body.error.code).toBe('send_choice_not_allowed');
      expect(fake.calls).toHaveLength(0);
      expect(fake.contacts.get(contact.id)?.properties.choose_how_to_send_your_email).toBeUndefined();
    },
  );

  test.each([
    ['another field', [{ field: 'email', value: 'attacker@example.org' }]],
    ['a lifecycle change', [{ field: 'lifecyclestage', value: 'customer' }]],
    ['a contact owner', [{ field: 'hubspot_owner_id', value: '1' }]],
    ['a prototype key', [{ field: '__proto__', value: 'Send Via our platform' }]],
  ])('refuses %s with 400 and writes nothing', async (_label, updates) => {
    const contact = fake.addContact('ana@example.org');
    const { status, body } = await update({ contactId: contact.id, updates });
    expect(status).toBe(400);
    expect(body.error.code).toBe('update_not_allowed');
    expect(fake.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(fake.contacts.get(contact.id)?.properties.email).toBe('ana@example.org');
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
