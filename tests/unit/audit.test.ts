/**
 * The audit log (issue 24, part 3): every sign-in, failed sign-in, settings change, export, retry,
 * release, deletion and view of parents' data is one row — who, what, when, from where (a keyed
 * hash of the network) — the table refuses changes, and owners read it with filters, pages and CSV.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import adminPurge from '../../netlify/functions/admin-purge.mts';
import auditAdmin from '../../netlify/functions/audit-admin.mts';
import receiver from '../../netlify/functions/calendly-webhook.mts';
import calendlyWebhooks from '../../netlify/functions/calendly-webhooks.mts';
import dataDeletionsAdmin from '../../netlify/functions/data-deletions-admin.mts';
import formsAdmin from '../../netlify/functions/form-submissions-admin.mts';
import hubspotConfig from '../../netlify/functions/hubspot-config.mts';
import impactAdmin from '../../netlify/functions/impact-admin.mts';
import outboxAdmin from '../../netlify/functions/outbox.mts';
import sessionFunction from '../../netlify/functions/admin-session.mts';
import webhookLogs from '../../netlify/functions/webhook-logs.mts';
import { forms as formConfig } from '../../src/config/forms';
import { addressHash, listAudit, recordAudit } from '../../src/server/staff/audit';
import { signPayload } from '../../src/server/calendly-webhook';
import { DatabaseError, query, sql } from '../../src/server/db';
import { newSubmissionId, storeSubmission, type StoredSubmission } from '../../src/server/forms/submissions';
import { FAKE_CALENDLY_ORGANIZATION } from '../fakes/calendly';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { ADMIN_PASSWORD, call, ORIGIN, request, setAdminEnv, signIn } from './helpers/admin';
import { startTestDatabase, type TestDatabase } from './helpers/database';

type Handler = (req: Request, context: unknown) => Promise<Response>;
const IP = '203.0.113.7';
const KEY = 'audit-test-signing-key-0123456789abcdef';

let database: TestDatabase;
let hubspot: HubSpotFake;
let cookie: string;

interface Row {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  address_hash: string | null;
  at: Date;
}

const lastId = async () => (await query<{ id: string }>(sql`SELECT coalesce(max(id), 0)::text AS id FROM audit_log`))[0]!.id;
const rowsAfter = (id: string) => query<Row>(sql`SELECT id::text AS id, actor, action, target, address_hash, at FROM audit_log WHERE id > ${id} ORDER BY id`);

/** Runs `act` and expects exactly one new audit row, with these fields. */
async function expectOneEntry<T>(
  act: () => Promise<T>,
  expected: { action: string; actor?: string; target?: string | null | RegExp; ip?: string },
): Promise<T> {
  const before = await lastId();
  const started = Date.now();
  const result = await act();
  const rows = await rowsAfter(before);
  expect(rows.map((row) => row.action)).toEqual([expected.action]);
  const row = rows[0]!;
  expect(row.actor).toBe(expected.actor ?? 'admin');
  if (expected.target instanceof RegExp) expect(row.target).toMatch(expected.target);
  else if (expected.target !== undefined) expect(row.target).toBe(expected.target);
  expect(row.address_hash).toBe(addressHash(expected.ip ?? IP));
  expect(row.address_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(row.at.getTime()).toBeGreaterThanOrEqual(started - 5000);
  return result;
}

/** A GET whose answer is not JSON (a CSV download). */
async function download(handler: unknown, path: string) {
  const response = await (handler as Handler)(request(path, { cookie }), { ip: IP });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function submission(state: 'held' | 'failed'): StoredSubmission {
  const now = new Date();
  return {
    id: newSubmissionId(now),
    purpose: 'newsletter',
    formId: formConfig.newsletter.formId,
    formName: 'Newsletter',
    createdAt: now.toISOString(),
    submittedAt: now.getTime(),
    values: { email: `audit-${state}@example.org` },
    labels: { email: 'Email' },
    context: { pageUri: 'https://example.org/faqs', pageName: 'FAQs' },
    delivery:
      state === 'held'
        ? { state, attempts: 0, nextAttemptAt: now.toISOString(), heldReason: 'honeypot' }
        : { state, attempts: 5, nextAttemptAt: now.toISOString(), failedAt: now.toISOString(), lastError: 'hubspot_400' },
  };
}

beforeAll(async () => {
  database = await startTestDatabase();
  hubspot = await startHubSpotFake();
  setAdminEnv();
  process.env.HUBSPOT_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_FORMS_BASE_PATH = hubspot.url;
  process.env.HUBSPOT_ACCESS_TOKEN = hubspot.token;
  cookie = await signIn();
});
afterAll(async () => {
  await Promise.all([database.stop(), hubspot.close()]);
  delete process.env.HUBSPOT_BASE_PATH;
  delete process.env.HUBSPOT_FORMS_BASE_PATH;
  delete process.env.HUBSPOT_ACCESS_TOKEN;
});
beforeEach(() => hubspot.reset());

describe('each audited action writes exactly one row: who, what, when, from where', () => {
  test('a sign-in, a failed one, one refused for too many attempts, signing out', async () => {
    const session = sessionFunction as Handler;
    const signedIn = await expectOneEntry(
      () => call(session, '/api/admin/session', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD } }, '192.0.2.10'),
      {
        action: 'sign_in.succeeded',
        ip: '192.0.2.10',
        target: null,
      },
    );
    expect(signedIn.status).toBe(200);
    const failed = await expectOneEntry(
      () => call(session, '/api/admin/session', { method: 'POST', body: { username: 'mallory', password: 'guess' } }, '192.0.2.11'),
      {
        action: 'sign_in.failed',
        actor: 'unknown',
        ip: '192.0.2.11',
      },
    );
    expect(failed.status).toBe(401);
    // The rest of the window's failures write nothing: they add to the first row's count.
    const beforeFlood = await lastId();
    for (let i = 0; i < 4; i++) await call(session, '/api/admin/session', { method: 'POST', body: { username: 'mallory', password: 'guess' } }, '192.0.2.11');
    expect(await rowsAfter(beforeFlood)).toEqual([]);
    const refused = await expectOneEntry(
      () => call(session, '/api/admin/session', { method: 'POST', body: { username: 'mallory', password: 'guess' } }, '192.0.2.11'),
      {
        action: 'sign_in.refused',
        actor: 'unknown',
        ip: '192.0.2.11',
      },
    );
    expect(refused.status).toBe(429);
    const listed = await listAudit({ action: 'sign_in.failed' }, 10);
    expect(listed.entries[0]).toMatchObject({ actor: 'unknown', typedName: 'mallory', count: 5 });
    const ownCookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    await expectOneEntry(() => call(session, '/api/admin/session', { method: 'DELETE', cookie: ownCookie }, '192.0.2.10'), {
      action: 'session.signed_out',
      ip: '192.0.2.10',
    });
  });

  test('the address is a keyed hash of the network: not the address, the same for one IPv6 /64', () => {
    const hash = addressHash('2001:db8:1:2::5');
    expect(hash).toBe(addressHash('2001:db8:1:2:ffff::9'));
    expect(hash).not.toBe(addressHash('2001:db8:1:3::5'));
    expect(hash).not.toContain('2001');
    const key = process.env.CONFIG_ENCRYPTION_KEY;
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
    try {
      expect(addressHash('2001:db8:1:2::5')).not.toBe(hash);
    } finally {
      process.env.CONFIG_ENCRYPTION_KEY = key;
    }
  });

  test('settings: the HubSpot configuration, a webhook added, turned off and deleted', async () => {
    const saved = await expectOneEntry(
      () =>
        call(hubspotConfig as Handler, '/api/hubspot-config', {
          method: 'POST',
          body: { name: 'Main', accessToken: hubspot.token, refreshToken: '', isActive: false },
          cookie,
        }),
      { action: 'hubspot_config.saved' },
    );
    expect(saved.status).toBe(201);
    const created = await expectOneEntry(
      () =>
        call(calendlyWebhooks as Handler, '/api/calendly-webhooks', {
          method: 'POST',
          cookie,
          body: {
            name: 'Audit',
            calendlyWebhookUrl: 'https://example.org/api/calendly/webhook',
            events: ['invitee.created'],
            scope: 'organization',
            organization: FAKE_CALENDLY_ORGANIZATION,
            signingKey: KEY,
          },
        }),
      { action: 'webhook.created', target: /^\d{13}-/ },
    );
    expect(created.status).toBe(201);
    const id = created.body.webhook.id as string;
    await expectOneEntry(() => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${id}`, { method: 'PATCH', body: { isActive: false }, cookie }), {
      action: 'webhook.updated',
      target: `${id} off`,
    });
    await expectOneEntry(() => call(calendlyWebhooks as Handler, `/api/calendly-webhooks/${id}`, { method: 'DELETE', cookie }), {
      action: 'webhook.deleted',
      target: id,
    });
  });

  test('a refused change writes nothing', async () => {
    const before = await lastId();
    expect((await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', { method: 'POST', body: { name: '' }, cookie })).status).toBe(400);
    expect(
      (
        await call(formsAdmin as Handler, '/api/admin/form-submissions/newsletter/0000000000001-00000000-0000-0000-0000-000000000000', {
          method: 'DELETE',
          cookie,
        })
      ).status,
    ).toBe(404);
    expect(await rowsAfter(before)).toEqual([]);
  });

  test('submissions: viewed, released, retried, deleted', async () => {
    const held = await storeSubmission(submission('held'));
    const failed = await storeSubmission(submission('failed'));
    const listed = await expectOneEntry(() => call(formsAdmin as Handler, '/api/admin/form-submissions?form=newsletter', { cookie }), {
      action: 'submission.viewed',
      target: 'newsletter',
    });
    expect(listed.status).toBe(200);
    const released = await expectOneEntry(
      () => call(formsAdmin as Handler, `/api/admin/form-submissions/newsletter/${held.record.id}/release`, { method: 'POST', cookie }),
      {
        action: 'submission.released',
        target: `newsletter/${held.record.id}`,
      },
    );
    expect(released.status).toBe(200);
    const retried = await expectOneEntry(
      () => call(formsAdmin as Handler, `/api/admin/form-submissions/newsletter/${failed.record.id}/retry`, { method: 'POST', cookie }),
      {
        action: 'submission.retried',
        target: `newsletter/${failed.record.id}`,
      },
    );
    expect(retried.status).toBe(200);
    const deleted = await expectOneEntry(
      () => call(formsAdmin as Handler, `/api/admin/form-submissions/newsletter/${failed.record.id}`, { method: 'DELETE', cookie }),
      {
        action: 'submission.deleted',
        target: `newsletter/${failed.record.id}`,
      },
    );
    expect(deleted.status).toBe(200);
  });

  test('the outbox, the data deletions and the Calendly logs viewed; a Calendly sync retried', async () => {
    await expectOneEntry(() => call(outboxAdmin as Handler, '/api/admin/outbox', { cookie }), { action: 'outbox.viewed', target: null });
    await expectOneEntry(() => call(dataDeletionsAdmin as Handler, '/api/admin/data-deletions', { cookie }), { action: 'data_deletion.viewed' });
    await expectOneEntry(() => call(webhookLogs as Handler, '/api/webhook-logs', { cookie }), { action: 'webhook_log.viewed' });

    const created = await call(calendlyWebhooks as Handler, '/api/calendly-webhooks', {
      method: 'POST',
      cookie,
      body: {
        name: 'Retry',
        calendlyWebhookUrl: 'https://example.org/api/calendly/webhook-retry',
        events: ['invitee.created'],
        scope: 'organization',
        organization: FAKE_CALENDLY_ORGANIZATION,
        signingKey: KEY,
      },
    });
    expect(created.status).toBe(201);
    hubspot.addContact('audit-retry@example.org');
    hubspot.failNext(500, 500, 500, 500);
    const body = JSON.stringify({
      event: 'invitee.created',
      created_at: new Date().toISOString(),
      payload: {
        uri: 'https://api.calendly.com/scheduled_events/AUDIT/invitees/AUDIT1',
        email: 'audit-retry@example.org',
        name: 'Dana Parent',
        scheduled_event: { uri: 'https://api.calendly.com/scheduled_events/AUDIT', start_time: '2026-02-03T15:00:00.000000Z' },
      },
    });
    const t = Math.floor(Date.now() / 1000);
    const delivered = await (receiver as Handler)(
      new Request(`${ORIGIN}/api/calendly/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${signPayload(KEY, t, body)}` },
        body,
      }),
      { ip: '192.0.2.50' },
    );
    const { logId } = (await delivered.json()) as { logId: string };
    expect(logId).toBeTruthy();
    const retried = await expectOneEntry(() => call(webhookLogs as Handler, `/api/webhook-logs/${logId}/retry`, { method: 'POST', cookie }), {
      action: 'webhook_log.retried',
      target: logId,
    });
    expect(retried.status).toBe(200);
  });

  test('exports: the impact CSV and the audit CSV', async () => {
    const impact = await expectOneEntry(() => download(impactAdmin, '/api/admin/impact?from=2026-01-01&to=2026-12-31&format=csv'), {
      action: 'impact.exported',
      target: 'impact-2026-01-01-to-2026-12-31.csv',
    });
    expect(impact.status).toBe(200);
    const audit = await expectOneEntry(() => download(auditAdmin, '/api/admin/audit?format=csv&action=impact.exported'), {
      action: 'audit.exported',
      target: 'action=impact.exported',
    });
    expect(audit.status).toBe(200);
    expect(audit.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = audit.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,target,address_hash,typed_name,count');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',admin,impact.exported,impact-2026-01-01-to-2026-12-31.csv,');
  });
});

describe('append-only', () => {
  test('the table refuses UPDATE and DELETE, even of one row, and TRUNCATE is not what the code does', async () => {
    await recordAudit({ actor: 'admin', action: 'outbox.viewed', ip: IP });
    const id = await lastId();
    await expect(query(sql`UPDATE audit_log SET actor = 'someone-else' WHERE id = ${id}`)).rejects.toBeInstanceOf(DatabaseError);
    await expect(query(sql`UPDATE audit_log SET at = now() - interval '2 years' WHERE id = ${id}`)).rejects.toThrow(/append-only/);
    await expect(query(sql`DELETE FROM audit_log WHERE id = ${id}`)).rejects.toThrow(/append-only/);
    await expect(query(sql`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    const [row] = await query<Row>(sql`SELECT actor FROM audit_log WHERE id = ${id}`);
    expect(row?.actor).toBe('admin');
  });

  test('the scheduled purge deletes entries older than a year, and only those', async () => {
    await database.db.query(
      `INSERT INTO audit_log (at, actor, action) VALUES (now() - interval '1 year 1 day', 'admin', 'outbox.viewed'), (now() - interval '364 days', 'admin', 'outbox.viewed')`,
    );
    const before = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`);
    const answer = await adminPurge();
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { audit: number }).audit).toBe(1);
    const after = await query<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`);
    expect(after[0]!.n).toBe(before[0]!.n - 1);
    expect(await query(sql`SELECT 1 FROM audit_log WHERE at < now() - interval '1 year'`)).toEqual([]);
  });
});

describe('the Audit tab: filters, keyset pages', () => {
  test('filters by action, actor and date range, pages newest first without repeats', async () => {
    for (let i = 0; i < 7; i++) await recordAudit({ actor: 'pager', action: 'outbox.retried', target: `message-${i}`, ip: IP });
    await recordAudit({ actor: 'pager', action: 'submission.deleted', target: 'newsletter/x', ip: IP });
    await recordAudit({ actor: 'other', action: 'outbox.retried', target: 'message-other', ip: IP });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(auditAdmin as Handler, `/api/admin/audit?action=outbox.retried&actor=pager&limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie,
      });
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(3);
      // Written meanwhile: does not shift the pages.
      await recordAudit({ actor: 'pager', action: 'outbox.retried', target: 'written-while-paging', ip: IP });
      seen.push(...page.body.entries.map((entry: { target: string; actor: string; action: string }) => `${entry.actor} ${entry.action} ${entry.target}`));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `pager outbox.retried message-${i}`));

    const today = new Date().toISOString().slice(0, 10);
    const inRange = await call(auditAdmin as Handler, `/api/admin/audit?actor=other&from=${today}&to=${today}`, { cookie });
    expect(inRange.body.entries.map((entry: { target: string }) => entry.target)).toEqual(['message-other']);
    const outOfRange = await call(auditAdmin as Handler, '/api/admin/audit?actor=other&from=2020-01-01&to=2020-12-31', { cookie });
    expect(outOfRange.body.entries).toEqual([]);
  });

  test('reading the log is recorded once per reading (not per page)', async () => {
    const before = await lastId();
    const first = await call(auditAdmin as Handler, '/api/admin/audit?limit=1', { cookie });
    await call(auditAdmin as Handler, `/api/admin/audit?limit=1&cursor=${first.body.nextCursor}`, { cookie });
    expect((await rowsAfter(before)).map((row) => row.action)).toEqual(['audit.viewed']);
  });

  test.each([
    ['an unknown action', 'action=everything'],
    ['a malformed date', 'from=2026-13-45'],
    ['a date range backwards', 'from=2026-02-01&to=2026-01-01'],
    ['a malformed cursor', 'cursor=abc'],
    ['a limit too large', 'limit=100000'],
    ['an unknown parameter', 'sort=asc'],
    ['an unknown format', 'format=xml'],
  ])('%s is a 400 with {error:{code,message}}', async (_name, params) => {
    const answer = await call(auditAdmin as Handler, `/api/admin/audit?${params}`, { cookie });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
  });

  test('without a session: 401, and nothing is read', async () => {
    expect((await call(auditAdmin as Handler, '/api/admin/audit')).status).toBe(401);
    expect((await call(auditAdmin as Handler, '/api/admin/audit', { method: 'POST', cookie })).status).toBe(405);
  });
});
