import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { hubspotClient, searchContactsByEmail, updateContact, createOrFillContactByEmail, withRetry } from '../../src/server/hubspot';
import { HttpError } from '../../src/server/http';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';

let fake: HubSpotFake;

beforeAll(async () => {
  fake = await startHubSpotFake();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  delete process.env.HUBSPOT_BASE_PATH;
  delete process.env.HUBSPOT_RETRY_BASE_MS;
});
beforeEach(() => fake.reset());

describe('HubSpot wrapper against the fake', () => {
  test('without a token it says HubSpot is not configured', () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    expect(() => hubspotClient()).toThrow(HttpError);
    expect(() => hubspotClient()).toThrow(/not configured/);
  });

  test('finds a contact by email and updates it', async () => {
    const contact = fake.addContact('parent@example.org', { meeting_link: 'https://meet.example.org/x' });
    const client = hubspotClient(fake.token);
    const found = await searchContactsByEmail(client, 'Parent@Example.org', ['meeting_link']);
    expect(found.total).toBe(1);
    expect(found.results[0]?.properties.meeting_link).toBe('https://meet.example.org/x');
    await updateContact(client, contact.id, { choose_how_to_send_your_email: 'Send Via our platform' });
    expect(fake.contacts.get(contact.id)?.properties.choose_how_to_send_your_email).toBe('Send Via our platform');
  });

  test.each([
    [[429], 1],
    [[500, 502], 1],
    [[429, 500, 503], 1],
  ])('retries %j and then succeeds', async (statuses, total) => {
    fake.addContact('a@example.org');
    fake.failNext(...statuses);
    const found = await searchContactsByEmail(hubspotClient(fake.token), 'a@example.org', []);
    expect(found.total).toBe(total);
    expect(fake.calls.length).toBe(statuses.length + 1);
  });

  test('gives up after four attempts', async () => {
    fake.failNext(500, 500, 500, 500, 500);
    await expect(searchContactsByEmail(hubspotClient(fake.token), 'a@example.org', [])).rejects.toMatchObject({ code: 500 });
    expect(fake.calls.length).toBe(4);
  });

  test('does not retry a 401 (a wrong token)', async () => {
    await expect(searchContactsByEmail(hubspotClient('wrong'), 'a@example.org', [])).rejects.toMatchObject({ code: 401 });
    expect(fake.calls.length).toBe(1);
  });

  // Issue 21: an unverified email only creates a contact or fills what it lacks (was: an upsert).
  test('createOrFill creates, then only fills the empty properties of the same contact', async () => {
    const client = hubspotClient(fake.token);
    const id = await createOrFillContactByEmail(client, 'new@example.org', { fill: { firstname: 'Ana' } });
    const again = await createOrFillContactByEmail(client, 'new@example.org', {
      fill: { firstname: 'Ana Maria', city: 'Denver' },
      always: { meeting_status: 'scheduled' },
    });
    expect(again).toBe(id);
    expect(fake.contacts.size).toBe(1);
    expect(fake.findContact('new@example.org')?.properties).toMatchObject({ firstname: 'Ana', city: 'Denver', meeting_status: 'scheduled' });
  });

  test('createOrFill a contact the search does not see yet: the 409 names it, and it is filled, not duplicated', async () => {
    const client = hubspotClient(fake.token);
    const hidden = fake.addContact('fresh@example.org', { firstname: 'Bea' });
    hidden.searchableAt = Date.now() + 60_000;
    const id = await createOrFillContactByEmail(client, 'fresh@example.org', { fill: { firstname: 'Mallory', lastname: 'Jones' } });
    expect(id).toBe(hidden.id);
    expect(fake.contacts.size).toBe(1);
    expect(fake.findContact('fresh@example.org')?.properties).toMatchObject({ firstname: 'Bea', lastname: 'Jones' });
  });

  test('withRetry passes a non-retryable error straight through', async () => {
    let calls = 0;
    await expect(
      withRetry(async () => {
        calls++;
        throw Object.assign(new Error('bad'), { code: 400 });
      }),
    ).rejects.toThrow('bad');
    expect(calls).toBe(1);
  });
});
