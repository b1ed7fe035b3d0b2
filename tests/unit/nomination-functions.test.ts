import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import nominations, { config as nominationsConfig } from '../../netlify/functions/nominations.mts';
import schoolNominations, { config as schoolConfig } from '../../netlify/functions/school-nominations.mts';
import subscribe, { config as subscribeConfig } from '../../netlify/functions/subscribe.mts';
import type { NominationRecord } from '../../src/server/schools/nominations';
import { query, queryOne, sql } from '../../src/server/db';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { call, jsonRequest, malformedRequests } from './helpers/requests';

let fake: HubSpotFake;
let database: TestDatabase;

const nomination = {
  schoolName: 'Oakwood Academy',
  city: 'Austin',
  yourName: 'Ana Maria Lopez',
  email: 'ana@example.org',
  childGrade: '5th',
  sendTo: 'Principal',
};

async function stored(id: string): Promise<NominationRecord> {
  return (await queryOne<{ record: NominationRecord }>(sql`SELECT record FROM nominations WHERE id = ${id}`))!.record;
}

beforeAll(async () => {
  fake = await startHubSpotFake();
  database = await startTestDatabase();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  await database.stop();
  for (const name of ['HUBSPOT_BASE_PATH', 'HUBSPOT_FORMS_BASE_PATH', 'HUBSPOT_RETRY_BASE_MS', 'HUBSPOT_ACCESS_TOKEN']) delete process.env[name];
});
beforeEach(() => {
  fake.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
});

describe('POST /api/nominations', () => {
  const post = (body: unknown) => call(nominations, jsonRequest('/api/nominations', body));

  test('is routed at /api/nominations and rate-limited', () => {
    expect(nominationsConfig.path).toBe('/api/nominations');
    expect(nominationsConfig.rateLimit).toBeDefined();
  });

  test('answers 201 with an id, keeps one blob and creates the HubSpot contact', async () => {
    const { status, body } = await post(nomination);
    expect(status).toBe(201);
    expect(body).toEqual({ id: expect.any(String) });
    expect(await stored(body.id)).toMatchObject({ id: body.id, kind: 'nomination', data: nomination, hubspot: 'synced' });
    expect(fake.findContact('ana@example.org')?.properties).toMatchObject({
      firstname: 'Ana',
      lastname: 'Maria Lopez',
      city: 'Austin',
      school_name: 'Oakwood Academy',
      child_grade: '5th',
      nomination_send_to: 'Principal',
    });
  });

  // Issue 21: the second nomination names an existing contact, whose school it must not rewrite.
  test('two nominations are two records and one contact, which keeps its first school', async () => {
    const first = await post(nomination);
    const second = await post({ ...nomination, schoolName: 'Pine Ridge School' });
    expect(first.body.id).not.toBe(second.body.id);
    const list = await query<{ id: string }>(sql`SELECT id FROM nominations`);
    expect(list.map((row) => row.id)).toEqual(expect.arrayContaining([first.body.id, second.body.id]));
    expect(fake.contacts.size).toBe(1);
    expect(fake.findContact('ana@example.org')?.properties.school_name).toBe(nomination.schoolName);
  });

  test('a HubSpot outage does not lose the nomination', async () => {
    fake.failNext(...Array(10).fill(500));
    const { status, body } = await post(nomination);
    expect(status).toBe(201);
    expect((await stored(body.id)).hubspot).toBe('failed');
  });

  test('without HubSpot configured the nomination is still kept', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const { status, body } = await post(nomination);
    expect(status).toBe(201);
    expect((await stored(body.id)).hubspot).toBe('not_configured');
    expect(fake.calls).toHaveLength(0);
  });

  test.each([
    ['a bad email', { ...nomination, email: 'nope' }],
    ['a missing field', { ...nomination, sendTo: undefined }],
    ['an empty field', { ...nomination, city: '' }],
    ['a number', { ...nomination, childGrade: 5 }],
  ])('refuses %s with 400', async (_label, payload) => {
    const { status, body } = await post(payload);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
  });

  test.each(
    malformedRequests('/api/nominations').map(([label, req, status]): [string, Request, number] =>
      req.method === 'GET' ? ['GET without an admin session', req, 401] : [label, req, status],
    ),
  )('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    expect((await call(nominations, req)).status).toBe(expected);
  });
});

describe('POST /api/school-nominations', () => {
  const four = { schoolName: 'Oakwood Academy', city: 'Austin', yourName: 'Ana', email: 'ana@example.org' };
  const post = (body: unknown) => call(schoolNominations, jsonRequest('/api/school-nominations', body));

  test('is routed at /api/school-nominations', () => {
    expect(schoolConfig.path).toBe('/api/school-nominations');
  });

  test('answers 201 with an id for the four-field variant', async () => {
    const { status, body } = await post(four);
    expect(status).toBe(201);
    expect(await stored(body.id)).toMatchObject({ kind: 'school-nomination', data: four, hubspot: 'synced' });
  });

  test.each([
    ['six fields', nomination],
    ['no email', { ...four, email: undefined }],
  ])('refuses %s with 400', async (_label, payload) => {
    expect((await post(payload)).status).toBe(400);
  });

  test.each(malformedRequests('/api/school-nominations'))('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    expect((await call(schoolNominations, req)).status).toBe(expected);
  });
});

describe('POST /api/subscribe', () => {
  const post = (body: unknown) => call(subscribe, jsonRequest('/api/subscribe', body));

  test('is routed at /api/subscribe', () => {
    expect(subscribeConfig.path).toBe('/api/subscribe');
  });

  test('submits the email to the newsletter form of the configured portal', async () => {
    const { status, body } = await post({ email: 'ana@example.org' });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(fake.formSubmissions).toHaveLength(1);
    expect(fake.formSubmissions[0]).toMatchObject({
      portalId: '48526151',
      formGuid: 'c4c2f6a4-3a1e-4d67-9a1c-5b8f1e2d7a01',
      body: { fields: [{ name: 'email', value: 'ana@example.org' }] },
    });
  });

  test('retries a 429 from the Forms API', async () => {
    fake.failNext(429);
    expect((await post({ email: 'ana@example.org' })).status).toBe(200);
    expect(fake.formSubmissions).toHaveLength(1);
  });

  test('a Forms API that keeps failing gives a clear 502', async () => {
    fake.failNext(...Array(10).fill(500));
    const { status, body } = await post({ email: 'ana@example.org' });
    expect(status).toBe(502);
    expect(body.error).toEqual({ code: 'subscribe_failed', message: expect.stringMatching(/try again/) });
  });

  test('a bad email is refused before HubSpot is called', async () => {
    const { status, body } = await post({ email: 'nope' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(fake.calls).toHaveLength(0);
  });

  test('without HubSpot configured it answers 503 hubspot_not_configured', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    const { status, body } = await post({ email: 'ana@example.org' });
    expect(status).toBe(503);
    expect(body.error.code).toBe('hubspot_not_configured');
    expect(fake.calls).toHaveLength(0);
  });

  test.each(malformedRequests('/api/subscribe'))('answers %s with a 4xx, never 500', async (_label, req, expected) => {
    expect((await call(subscribe, req)).status).toBe(expected);
  });
});

test('a NUL in any field is a 400 naming it, never a 5xx', async () => {
  for (const field of ['schoolName', 'yourName', 'city', 'sendTo']) {
    const answer = await call(nominations, jsonRequest('/api/nominations', { ...nomination, [field]: `Oak\u0000wood` }));
    expect(answer.status, field).toBe(400);
    expect(answer.body.error.message).toMatch(/NUL/);
  }
});

describe('GET /api/nominations (admin only)', () => {
  test('answers 401 without a session and lists newest first with one', async () => {
    const refused = await nominations(new Request('http://localhost/api/nominations'), {});
    expect(refused.status).toBe(401);
    const { createSession, SESSION_COOKIE } = await import('../../src/server/staff/auth');
    const first = await call(nominations, jsonRequest('/api/nominations', { ...nomination, schoolName: 'First School' }));
    const second = await call(nominations, jsonRequest('/api/nominations', { ...nomination, schoolName: 'Second School' }));
    expect([first.status, second.status]).toEqual([201, 201]);
    const { cookie } = await createSession('admin');
    const id = cookie.split(';')[0]!.split('=')[1]!;
    const answer = await nominations(new Request('https://localhost/api/nominations?limit=1', { headers: { cookie: `${SESSION_COOKIE}=${id}` } }), {});
    expect(answer.status).toBe(200);
    const page = (await answer.json()) as { nominations: NominationRecord[]; nextCursor?: string };
    expect(page.nominations).toHaveLength(1);
    expect(page.nominations[0]?.data.schoolName).toBe('Second School');
    expect(page.nextCursor).toBeTruthy();
    expect(await query(sql`SELECT actor, target FROM audit_log WHERE action = 'nomination.viewed'`)).toEqual([{ actor: 'admin', target: '1 nominations' }]);
    const bad = await nominations(new Request('https://localhost/api/nominations?limit=0', { headers: { cookie: `${SESSION_COOKIE}=${id}` } }), {});
    expect(bad.status).toBe(400);
  });
});
