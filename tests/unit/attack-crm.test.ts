/**
 * Issue 21, part 5, as a stranger tries it: pulling the send trigger through update-contact,
 * asking search-contact about someone's address (with no booking, or with someone else's booking),
 * and naming someone else's email in a nomination or a Calendly booking to rewrite their contact.
 * Each of these worked before the change.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import receiver from '../../netlify/functions/calendly-webhook.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import searchContact from '../../netlify/functions/hubspot-search-contact.mts';
import updateContact from '../../netlify/functions/hubspot-update-contact.mts';
import nominations from '../../netlify/functions/nominations.mts';
import schoolNominations from '../../netlify/functions/school-nominations.mts';
import { BOOKING_LOOKUP_WINDOW_MS, findBookingDelivery, signPayload } from '../../src/server/calendly-webhook';
import { FAKE_CALENDLY_ORGANIZATION } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { call, ORIGIN, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { jsonRequest, call as callJson } from './helpers/requests';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const KEY = 'attack-crm-signing-key-0123456789';

let database: TestDatabase;
let hubspot: HubSpotFake;
let sequence = 0;

beforeAll(async () => {
  database = await startTestDatabase();
  hubspot = await startHubSpotFake();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
  process.env.BOOKING_LOOKUP_WAIT_MS = '1200';
  const cookie = await signIn();
  const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', {
    method: 'POST',
    cookie,
    body: {
      name: 'Bookings',
      description: '',
      calendlyWebhookUrl: 'https://example.org/api/calendly/webhook',
      events: ['invitee.created', 'invitee.canceled'],
      scope: 'organization',
      organization: FAKE_CALENDLY_ORGANIZATION,
      signingKey: KEY,
      isActive: true,
    },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await Promise.all([database.stop(), hubspot.close()]);
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN', 'BOOKING_LOOKUP_WAIT_MS']) delete process.env[name];
});
beforeEach(() => {
  hubspot.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
});

/** A Calendly v2 `invitee.created` delivery for `email`, and the invitee uuid its redirect carries. */
function booking(email: string, extra: Record<string, unknown> = {}) {
  sequence += 1;
  const inviteeUuid = `INVITEE-${Date.now()}-${sequence}`;
  const eventUri = `https://api.calendly.com/scheduled_events/EVENT-${sequence}`;
  const body = {
    event: 'invitee.created',
    created_at: new Date().toISOString(),
    payload: {
      uri: `${eventUri}/invitees/${inviteeUuid}`,
      email,
      name: 'Mallory Stranger',
      first_name: 'Mallory',
      last_name: 'Stranger',
      scheduled_event: {
        uri: eventUri,
        start_time: '2026-02-03T15:00:00.000000Z',
        location: { type: 'zoom', join_url: `https://us02web.zoom.us/j/${sequence}` },
        event_memberships: [{ user_name: 'Alex Host' }],
      },
      ...extra,
    },
  };
  return { body, inviteeUuid, joinUrl: body.payload.scheduled_event.location.join_url };
}

async function deliver(body: object) {
  const raw = JSON.stringify(body);
  const t = Math.floor(Date.now() / 1000);
  const response = await (receiver as Handler)(
    new Request(`${ORIGIN}/api/calendly/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${signPayload(KEY, t, raw)}` },
      body: raw,
    }),
    {},
  );
  expect(response.status).toBe(200);
}

const search = (body: unknown) => callJson(searchContact as Handler, jsonRequest('/api/hubspot/search-contact', body));
const update = (body: unknown) => callJson(updateContact as Handler, jsonRequest('/api/hubspot/update-contact', body));

describe('update-contact cannot pull the send trigger', () => {
  test.each([
    ['the send choice', 'choose_how_to_send_your_email', 'Send Via our platform'],
    ['the send choice spelled differently', ' Choose_How_To_Send_Your_Email ', 'send via our platform'],
    ['the send choice next to nothing else', 'choose_how_to_send_your_email', 'I will send it myself'],
  ])('%s is refused with 403, HubSpot untouched', async (_label, field, value) => {
    const victim = hubspot.addContact('parent@example.org');
    const answer = await update({ contactId: victim.id, updates: [{ field, value }] });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toEqual({ code: 'send_choice_not_allowed', message: expect.stringContaining('confirms it from the link in their inbox') });
    expect(hubspot.calls).toEqual([]);
    expect(hubspot.contacts.get(victim.id)?.properties.choose_how_to_send_your_email).toBeUndefined();
  });
});

describe('search-contact answers only for a booking that happened', () => {
  test('an existing contact without a booking: the same "not found" as an unknown address, HubSpot never asked', async () => {
    hubspot.addContact('parent@example.org', { meeting_link: 'https://us02web.zoom.us/j/secret', calendly_assigned_host: 'Jordan Lee' });
    const known = await search({ email: 'parent@example.org', inviteeUuid: 'INVITEE-GUESSED-0001' });
    const unknown = await search({ email: 'nobody@example.org', inviteeUuid: 'INVITEE-GUESSED-0001' });
    expect(known).toEqual({ status: 200, body: { found: false } });
    expect(unknown).toEqual(known);
    expect(hubspot.calls).toEqual([]);
  });

  test("someone else's invitee uuid, or the right uuid with another email, is not found", async () => {
    const theirs = booking('parent@example.org');
    await deliver(theirs.body);
    expect((await search({ email: 'attacker@example.org', inviteeUuid: theirs.inviteeUuid })).body).toEqual({ found: false });
    const mine = booking('attacker@example.org');
    await deliver(mine.body);
    expect((await search({ email: 'parent@example.org', inviteeUuid: mine.inviteeUuid })).body).toEqual({ found: false });
  });

  test('the invitee of the booking gets its meeting link, and only that', async () => {
    const { body, inviteeUuid, joinUrl } = booking('ana@example.org');
    await deliver(body);
    expect(await search({ email: 'ANA@example.org', inviteeUuid })).toEqual({ status: 200, body: { found: true, meetingLink: joinUrl } });
  });

  test('waits a few seconds for a webhook that comes after the redirect', async () => {
    const { body, inviteeUuid, joinUrl } = booking('late@example.org');
    process.env.BOOKING_LOOKUP_WAIT_MS = '8000';
    try {
      const answer = search({ email: 'late@example.org', inviteeUuid });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await deliver(body);
      expect((await answer).body).toEqual({ found: true, meetingLink: joinUrl });
    } finally {
      process.env.BOOKING_LOOKUP_WAIT_MS = '1200';
    }
  });

  test('findBookingDelivery: only invitee.created, only for this email and uuid, only within a day', async () => {
    const { body, inviteeUuid } = booking('dana@example.org');
    await deliver(body);
    expect((await findBookingDelivery({ email: ' Dana@Example.org ', inviteeUuid }))?.payload.payload.uri).toBe(body.payload.uri);
    expect(await findBookingDelivery({ email: 'dana@example.org', inviteeUuid: `${inviteeUuid}0` })).toBeUndefined();
    expect(await findBookingDelivery({ email: 'dana@example.org', inviteeUuid: inviteeUuid.slice(1) })).toBeUndefined();
    expect(await findBookingDelivery({ email: 'dana+x@example.org', inviteeUuid })).toBeUndefined();
    expect(await findBookingDelivery({ email: 'dana@example.org', inviteeUuid, now: Date.now() + BOOKING_LOOKUP_WINDOW_MS + 60_000 })).toBeUndefined();
    const canceled = booking('dana@example.org');
    await deliver({ ...canceled.body, event: 'invitee.canceled' });
    expect(await findBookingDelivery({ email: 'dana@example.org', inviteeUuid: canceled.inviteeUuid })).toBeUndefined();
  });
});

describe("naming someone else's email never rewrites their contact", () => {
  const victimProperties = { firstname: 'Vera', lastname: 'Victim', city: 'Boston', school_name: 'Lincoln Elementary' };

  test('a nomination fills what the contact lacks and keeps its name, city and school', async () => {
    const victim = hubspot.addContact('victim@example.org', victimProperties);
    const answer = await callJson(
      nominations as Handler,
      jsonRequest('/api/nominations', {
        schoolName: 'Evil Academy',
        city: 'Nowhere',
        yourName: 'Mallory Stranger',
        email: 'victim@example.org',
        childGrade: '5th',
        sendTo: 'Principal',
      }),
    );
    expect(answer.status).toBe(201);
    expect(hubspot.contacts.size).toBe(1);
    expect(hubspot.contacts.get(victim.id)?.properties).toMatchObject({ ...victimProperties, child_grade: '5th', nomination_send_to: 'Principal' });
  });

  test('the four-field school nomination likewise', async () => {
    const victim = hubspot.addContact('victim@example.org', victimProperties);
    const answer = await callJson(
      schoolNominations as Handler,
      jsonRequest('/api/school-nominations', { schoolName: 'Evil Academy', city: 'Nowhere', yourName: 'Mallory Stranger', email: 'victim@example.org' }),
    );
    expect(answer.status).toBe(201);
    expect(hubspot.contacts.get(victim.id)?.properties).toMatchObject(victimProperties);
  });

  test('a new address still becomes a contact with everything the nomination gave', async () => {
    await callJson(
      nominations as Handler,
      jsonRequest('/api/nominations', {
        schoolName: 'Oakwood',
        city: 'Austin',
        yourName: 'Ana Lopez',
        email: 'new@example.org',
        childGrade: '5th',
        sendTo: 'Principal',
      }),
    );
    expect(hubspot.findContact('new@example.org')?.properties).toMatchObject({ firstname: 'Ana', lastname: 'Lopez', city: 'Austin', school_name: 'Oakwood' });
  });

  test('a Calendly booking keeps the name of an existing contact and records the booking', async () => {
    const victim = hubspot.addContact('victim@example.org', victimProperties);
    const { body, joinUrl } = booking('victim@example.org');
    await deliver(body);
    expect(hubspot.contacts.get(victim.id)?.properties).toMatchObject({ ...victimProperties, meeting_link: joinUrl, calendly_meeting_status: 'scheduled' });
  });

  test('a Calendly booking fills a missing name', async () => {
    const contact = hubspot.addContact('noname@example.org');
    await deliver(booking('noname@example.org').body);
    expect(hubspot.contacts.get(contact.id)?.properties).toMatchObject({ firstname: 'Mallory', lastname: 'Stranger' });
  });
});
