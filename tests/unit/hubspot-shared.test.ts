import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { hubspotClient, searchContactsByEmail, updateContact, upsertContactByEmail, withRetry } from '../../src/server/hubspot';
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

  test('upsert creates, then updates the same contact', async () => {
    const client = hubspotClient(fake.token);
    const id = await upsertContactByEmail(client, 'new@example.org', { firstname: 'Ana' });
    const again = await upsertContactByEmail(client, 'new@example.org', { firstname: 'Ana Maria' });
    expect(again).toBe(id);
    expect(fake.contacts.size).toBe(1);
    expect(fake.findContact('new@example.org')?.properties.firstname).toBe('Ana Maria');
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
