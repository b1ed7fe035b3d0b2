/**
 * Mail on this machine (scripts/local-mail.mjs, scripts/local-schedule.mjs): MailDev starts unless
 * another sender is configured, the site's own SMTP sender delivers to it, a port given and taken
 * stops the start by name, and the ticker runs each scheduled function at its schedule.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { configuredSender, localMailFrom, startLocalMail } from '../../scripts/local-mail.mjs';
import { chosenFunctions, cronDue, scheduledFunctions } from '../../scripts/local-schedule.mjs';
import { smtpSender } from '../../src/server/mail/senders';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

describe('which sender the environment configures', () => {
  test.each([
    [{}, null],
    [{ MAIL_SENDER: 'smtp' }, null],
    [{ MAIL_SENDER: 'auto' }, null],
    [{ SMTP_URL: 'smtps://u:p@smtp.example.com:465' }, 'SMTP (SMTP_URL)'],
    [{ SMTP_HOST: 'smtp.example.com' }, 'SMTP (SMTP_HOST)'],
    [{ MAIL_SENDER: 'hubspot' }, 'HubSpot single-send (MAIL_SENDER=hubspot)'],
    [{ SCHOOL_EMAIL_SENDER: 'HubSpot' }, 'HubSpot single-send (MAIL_SENDER=hubspot)'],
    [{ HUBSPOT_TRANSACTIONAL_EMAIL_ID: '123' }, 'HubSpot single-send (HUBSPOT_TRANSACTIONAL_EMAIL_ID)'],
    [{ HUBSPOT_TRANSACTIONAL_EMAIL_ID: '123', MAIL_SENDER: 'smtp' }, null],
  ] as Array<[Record<string, string>, string | null]>)('%o → %s', (env, sender) => {
    expect(configuredSender(env)).toBe(sender);
  });
});

test('MailDev catches what the site’s SMTP sender sends, and its REST API lists it by recipient', async () => {
  const [smtp, web] = [await freePort(), await freePort()];
  // Its own inbox, not the checkout's (.netlify/maildev).
  const inbox = mkdtempSync(join(tmpdir(), 'maildev-test-'));
  stops.push(async () => rmSync(inbox, { recursive: true, force: true }));
  const mail = await startLocalMail({ MAILDEV_SMTP_PORT: String(smtp), MAILDEV_WEB_PORT: String(web), MAILDEV_MAIL_DIRECTORY: inbox });
  stops.push(mail.stop);
  expect(mail.env).toEqual({ SMTP_URL: `smtp://127.0.0.1:${smtp}`, MAIL_SENDER: 'smtp', MAIL_FROM_ADDRESS: localMailFrom });
  expect(mail.webUrl).toBe(`http://localhost:${web}`);

  const to = `school-${Date.now()}@example.org`;
  const sent = await smtpSender({ smtp: { url: mail.env.SMTP_URL! } }).send({
    id: `local-${Date.now()}`,
    to,
    from: { name: 'Ana Lopez via Mastery Parents', address: localMailFrom },
    replyTo: { name: 'Ana Lopez', address: 'ana@example.org' },
    subject: 'A letter',
    text: 'Dear Dr. Patel,\n',
  });
  expect(sent.outcome).toBe('sent');
  const listed = (await (await fetch(`http://127.0.0.1:${web}/api/email?envelope.to.address=${encodeURIComponent(to)}`)).json()) as Array<{
    id: string;
    subject: string;
  }>;
  expect(listed.map((email) => email.subject)).toEqual(['A letter']);
  const source = await (await fetch(`http://127.0.0.1:${web}/api/email/${listed[0]!.id}/source`)).text();
  expect(source).toMatch(/^Reply-To: Ana Lopez <ana@example\.org>$/m);
});

test('another sender configured: MailDev does not start and the environment is left alone', async () => {
  const mail = await startLocalMail({ SMTP_URL: 'smtp://smtp.example.com:587', MAILDEV_SMTP_PORT: '1', MAILDEV_WEB_PORT: '1' });
  expect(mail).toMatchObject({ env: {}, webUrl: undefined, sender: 'SMTP (SMTP_URL)' });
});

test('a port given that is taken stops the start, naming the variable', async () => {
  const taken: Server = await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
  stops.push(() => new Promise((resolve) => taken.close(resolve)));
  const port = (taken.address() as { port: number }).port;
  await expect(startLocalMail({ MAILDEV_SMTP_PORT: String(port), MAILDEV_WEB_PORT: String(await freePort()) })).rejects.toThrow(
    `MAILDEV_SMTP_PORT=${port} is taken`,
  );
  await expect(startLocalMail({ MAILDEV_WEB_PORT: 'x' })).rejects.toThrow('MAILDEV_WEB_PORT must be a port number');
});

describe('the local schedule', () => {
  test.each([
    ['* * * * *', '2026-11-27T10:07:00Z', true],
    ['*/15 * * * *', '2026-11-27T10:30:00Z', true],
    ['*/15 * * * *', '2026-11-27T10:31:00Z', false],
    ['*/5 * * * *', '2026-11-27T10:55:00Z', true],
    ['@hourly', '2026-11-27T10:00:00Z', true],
    ['@hourly', '2026-11-27T10:01:00Z', false],
    ['@daily', '2026-11-27T00:00:00Z', true],
    ['@daily', '2026-11-27T10:00:00Z', false],
    ['0 9-17 * * 1-5', '2026-11-27T12:00:00Z', true],
    ['0 9-17 * * 1-5', '2026-11-28T12:00:00Z', false],
    ['not a schedule', '2026-11-27T10:00:00Z', false],
  ] as const)('%s at %s: %s', (schedule, at, due) => {
    expect(cronDue(schedule, new Date(at))).toBe(due);
  });

  test('every scheduled function is found with its schedule; LOCAL_SCHEDULE chooses among them', () => {
    const all = scheduledFunctions();
    expect(all).toContainEqual({ name: 'mail-deliver', schedule: '* * * * *' });
    expect(all).toContainEqual({ name: 'school-followup', schedule: '@hourly' });
    expect(chosenFunctions('all')).toEqual(all);
    expect(chosenFunctions('off')).toEqual([]);
    expect(chosenFunctions('mail-deliver, school-updates').map((fn) => fn.name)).toEqual(['mail-deliver', 'school-updates']);
    expect(() => chosenFunctions('mail-deliver,nope')).toThrow('LOCAL_SCHEDULE names no scheduled function: nope');
  });
});
