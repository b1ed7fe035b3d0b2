/**
 * Deploy previews and branch deploys never read production's secrets (issue 28.5): under their
 * production names the secrets are not there; a preview reads its own `PREVIEW_<NAME>`, so a
 * variable scoped to every context cannot hand a preview production's HubSpot token or keys, and
 * production's ADMIN_PASSWORD cannot make an owner on a preview's empty database.
 */
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import sessionFunction from '../../netlify/functions/admin-session.mts';
import { deployContext, PREVIEW_SECRETS, serverEnv } from '../../src/server/env';
import { startTestDatabase } from './helpers/database';
import { allowed } from './helpers/time';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

function production(context: string) {
  process.env.CONTEXT = context;
  process.env.HUBSPOT_ACCESS_TOKEN = 'pat-production-token';
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
  process.env.ADMIN_PASSWORD = 'production-bootstrap-password';
}

describe('secrets by deploy context', () => {
  test.each(['deploy-preview', 'branch-deploy'])('a %s reads none of production’s secrets', (context) => {
    production(context);
    expect(deployContext()).toBe(context);
    expect(serverEnv.hubspotAccessToken).toBeUndefined();
    expect(serverEnv.configEncryptionKey).toBeUndefined();
    expect(serverEnv.adminPassword).toBeUndefined();
    process.env.PREVIEW_HUBSPOT_ACCESS_TOKEN = 'pat-preview-token';
    expect(serverEnv.hubspotAccessToken).toBe('pat-preview-token');
    // Settings that are not secrets read the same everywhere.
    process.env.SCHOOL_TIME_ZONE = 'Europe/London';
    expect(serverEnv.schoolTimeZone).toBe('Europe/London');
  });

  test('production reads its own names, and never a PREVIEW_ one', () => {
    production('production');
    process.env.PREVIEW_HUBSPOT_ACCESS_TOKEN = 'pat-preview-token';
    expect(serverEnv.hubspotAccessToken).toBe('pat-production-token');
    expect(serverEnv.adminPassword).toBe('production-bootstrap-password');
  });

  test('the list covers every token, key and password the site reads', () => {
    for (const name of [
      'HUBSPOT_ACCESS_TOKEN',
      'CONFIG_ENCRYPTION_KEY',
      'ADMIN_PASSWORD',
      'ADMIN_PASSWORD_HASH',
      'CALENDLY_ACCESS_TOKEN',
      'SMTP_URL',
      'SMTP_PASS',
      'DKIM_PRIVATE_KEY',
      'MAILGUN_WEBHOOK_SIGNING_KEY',
    ]) {
      expect(PREVIEW_SECRETS.has(name), name).toBe(true);
    }
  });

  test(
    "on a preview, production's admin password signs nobody in (no owner made on an empty database)",
    async () => {
      const database = await startTestDatabase();
      onTestFinished(() => database.stop());
      production('deploy-preview');
      const answer = await (sessionFunction as (req: Request, context: unknown) => Promise<Response>)(
        new Request('https://localhost:8888/api/admin/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://localhost:8888' },
          body: JSON.stringify({ username: 'admin', password: 'production-bootstrap-password' }),
        }),
        { ip: '192.0.2.1' },
      );
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('admin_not_configured');
    },
    allowed(90_000),
  );
});
