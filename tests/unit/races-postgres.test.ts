/**
 * The races of the mail layer and the limits, proven on a real multi-connection Postgres
 * (helpers/postgres.ts: Netlify Database is Postgres; the local emulator runs one session, where
 * no race can happen). Each race is run as it happens on Netlify — several runs or requests at
 * once, each statement on a connection of its own — and holds; then run again with the lock or the
 * constraint that holds it taken away, where it must break, so that the test is seen to be able
 * to fail:
 *
 * - claiming an email: one send, however many runs claim it at once (the claim's row lock);
 * - the hourly maximum of a school under two workers (the CHECK on `school_delivery_hours`);
 * - a digest gathered by two runs at once: one digest, each letter in it once (the locking claim and
 *   the hour's digest id), where the gathering of before (read, write, mark) sent two;
 * - reminders: one per request, whatever runs at once (its own id), where the old one sent two;
 * - the caps at confirmation: a school's day under thirty confirmations at once (their CHECKs).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { query, queryOne, sql } from '../../src/server/db';
import { exactAddressKey, schoolGroupKey } from '../../src/server/identity';
import { gatherDigests, sendReminders } from '../../src/server/letter/delivery';
import { claimEmail, deliverEmail, dueEmailIds, enqueueEmail, newEmailId, readEmail } from '../../src/server/mail/queue';
import { composeDigest, organisationSender } from '../../src/server/mail/compose';
import { mailSender } from '../../src/server/mail/senders';
import { createMessage, newMessageId, type OutboxMessage } from '../../src/server/letter/outbox';
import { claimLimits, pairSchoolOf } from '../../src/server/letter/send-limits';
import { MAIL_FROM, useMail, type MailCatcher } from './helpers/mail';
import { startRealPostgres, type RealPostgres } from './helpers/postgres';
import { verifiedSchool } from './helpers/schools';
import { allowed } from './helpers/time';

let db: RealPostgres;
let mail: MailCatcher;
let seq = 0;

beforeAll(async () => {
  db = await startRealPostgres();
  mail = await useMail();
}, allowed(60_000));
afterAll(async () => {
  await mail?.close();
  await db?.stop();
  for (const name of ['SCHOOL_DELIVERY', 'SCHOOL_HOURLY_LIMIT', 'PLATFORM_SEND_SCHOOL_DAILY_LIMIT']) delete process.env[name];
});
beforeEach(async () => {
  await db.truncate();
  mail.reset();
  process.env.MAIL_FROM_ADDRESS = MAIL_FROM;
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
  process.env.SCHOOL_DELIVERY_HOURS = 'off';
  delete process.env.SCHOOL_DELIVERY;
});

/** The connections the site's pool has open to the server now (several: the statements interleave). */
const backends = async () =>
  Number(
    (await db.admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'site' AND backend_type = 'client backend'`)).rows[0]!
      .n,
  );

/**
 * Runs the site with a statement changed, as if a lock were not in it: every query the site's pool
 * sends has `from` taken out of its text (the mutation the test must be able to catch).
 */
async function without<T>(from: RegExp, work: () => Promise<T>): Promise<T> {
  const original = pg.Pool.prototype.query;
  const spy = vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, text: unknown, ...rest: unknown[]) {
    const changed = typeof text === 'string' ? text.replace(from, '') : text;
    return (original as (...args: unknown[]) => unknown).call(this, changed, ...rest) as never;
  });
  try {
    return await work();
  } finally {
    spy.mockRestore();
  }
}

/**
 * Runs a race with its lock or constraint taken away until it breaks (`broke`), at most five
 * times: a race is a matter of timing, and one quiet run proves nothing either way.
 */
async function breaksWithin<T>(attempt: () => Promise<T>, broke: (outcome: T) => boolean): Promise<T> {
  let outcome = await attempt();
  for (let tries = 1; tries < 5 && !broke(outcome); tries++) {
    await db.truncate();
    mail.reset();
    outcome = await attempt();
  }
  return outcome;
}

/** A data-link email due now, to an address of its own. */
async function dueEmail(): Promise<string> {
  const written = await enqueueEmail({
    kind: 'data_link',
    to: `race${++seq}@example.org`,
    content: { subject: `Your data ${seq}`, text: 'Your data', from: { address: MAIL_FROM } },
  });
  return written.id;
}

describe('claiming an email', () => {
  /** Six runs claim and send each of twenty due emails at once; how many emails arrived. */
  async function race(): Promise<number> {
    const sender = mailSender()!;
    const ids = await Promise.all(Array.from({ length: 20 }, dueEmail));
    await Promise.all(ids.flatMap((id) => Array.from({ length: 6 }, () => deliverEmail(id, sender))));
    return mail.sink.messages.length;
  }

  test('six runs at once send each email once', async () => {
    expect(await race()).toBe(20);
    expect(await backends()).toBeGreaterThan(1);
    expect(await query(sql`SELECT state, count(*)::int AS n FROM emails GROUP BY state`)).toEqual([{ state: 'sent', n: 20 }]);
  });

  test('without the claim’s row lock the same race sends emails twice (the test can fail)', async () => {
    const sent = await breaksWithin(
      () => without(/FOR UPDATE SKIP LOCKED/g, race),
      (n) => n > 20,
    );
    expect(sent).toBeGreaterThan(20);
  });
});

describe('the hourly maximum of a school under two workers', () => {
  /** Ten letters due now to one school, open all day; two workers send what is due at once. */
  async function race(): Promise<number> {
    process.env.SCHOOL_DELIVERY_HOURS = 'on';
    process.env.SCHOOL_HOURLY_LIMIT = '3';
    const school = `hourly${++seq}@school.example`;
    const window = { timeZone: 'UTC', days: [0, 1, 2, 3, 4, 5, 6], opens: 0, closes: 1440, holidays: [] };
    for (let n = 0; n < 10; n++) {
      await enqueueEmail({
        kind: 'school_letter',
        to: school,
        ref: `letter-${seq}-${n}`,
        school: { key: exactAddressKey(school), window },
        content: { subject: `Letter ${n}`, text: 'Dear head', from: { address: MAIL_FROM } },
      });
    }
    const sender = mailSender()!;
    const worker = async () => {
      for (const id of await dueEmailIds()) await deliverEmail(id, sender);
    };
    await Promise.all([worker(), worker()]);
    return mail.to(school).length;
  }

  test('at most SCHOOL_HOURLY_LIMIT letters go in one hour; the rest wait for the next hour with a place', async () => {
    expect(await race()).toBe(3);
    const waiting = await query<{ n: number; next: Date }>(sql`SELECT count(*)::int AS n, min(next_attempt_at) AS next FROM emails WHERE state = 'scheduled'`);
    expect(waiting[0]!.n).toBe(7);
    expect(waiting[0]!.next.getTime()).toBeGreaterThan(Date.now());
  });

  test('without the CHECK on the hour’s count, two workers send more than the maximum (the test can fail)', async () => {
    await db.admin.query('ALTER TABLE school_delivery_hours DROP CONSTRAINT school_delivery_hours_within_cap');
    try {
      expect(await breaksWithin(race, (n) => n > 3)).toBeGreaterThan(3);
    } finally {
      await db.admin.query('DELETE FROM school_delivery_hours');
      await db.admin.query('ALTER TABLE school_delivery_hours ADD CONSTRAINT school_delivery_hours_within_cap CHECK (letters <= cap)');
    }
  });
});

describe('a digest gathered by two runs at once', () => {
  /** Four confirmed letters to one verified school, waiting for its window. */
  async function waitingLetters(): Promise<{ school: string; letters: string[] }> {
    process.env.SCHOOL_DELIVERY = 'digest';
    const school = `digest${++seq}@school.example`;
    const record = await verifiedSchool(school, `Digest School ${seq}`);
    const key = schoolGroupKey({ schoolId: record.id, onRecord: true, to: school });
    const window = { timeZone: 'UTC', days: [0, 1, 2, 3, 4, 5, 6], opens: 0, closes: 1440, holidays: [] };
    const letters: string[] = [];
    for (let n = 0; n < 4; n++) {
      const now = new Date();
      const message: OutboxMessage = {
        id: newMessageId(now),
        draftId: `d-${seq}-${n}`,
        channel: 'platform',
        status: 'queued',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        parentEmail: `parent${n}-${seq}@example.org`,
        parentName: `Parent ${n}`,
        schoolName: record.name,
        schoolId: record.id,
        to: school,
        toName: 'Head',
        subject: `How ${record.name} can unlock mastery learning for every student`,
        body: `Dear Head, letter ${n}.`,
        note: '',
        attempts: 0,
        nextAttemptAt: now.toISOString(),
        confirmation: { expiresAt: now.toISOString(), confirmedAt: now.toISOString() },
        delivery: { at: now.toISOString(), timeZone: 'UTC', state: 'scheduled' },
      };
      await createMessage(message);
      await enqueueEmail({
        id: message.id,
        kind: 'school_letter',
        to: school,
        ref: message.id,
        school: { key, window },
        content: { subject: message.subject, text: message.body, from: { address: MAIL_FROM } },
      });
      letters.push(message.id);
    }
    return { school, letters };
  }

  /** The gathering of before issue 45, kept as the counterexample: read, write the digest, mark its letters, three statements. */
  async function gatherUnlocked(now = new Date()): Promise<number> {
    const groups = await query<{ recipient_key: string; ids: string[] }>(sql`
      SELECT recipient_key, array_agg(id ORDER BY id) AS ids FROM emails
      WHERE kind = 'school_letter' AND state = 'scheduled' AND next_attempt_at <= ${now} AND erased_at IS NULL
      GROUP BY recipient_key HAVING count(*) >= 2 LIMIT 50`);
    let made = 0;
    for (const group of groups) {
      const letters = (await Promise.all(group.ids.map(readEmail))).filter((email) => email?.content && email.recipient);
      const rendered = await composeDigest({
        school: 'The school',
        change: 'More parents wrote.',
        letters: letters.map((email) => ({
          parentName: 'A parent',
          subject: email!.content!.subject,
          body: email!.content!.text,
          replyUrl: 'mailto:a@example.org',
        })),
      });
      const digestId = newEmailId(now);
      const written = await enqueueEmail(
        {
          id: digestId,
          kind: 'school_digest',
          to: letters[0]!.recipient!,
          content: { subject: rendered.subject, text: rendered.text, from: organisationSender() },
        },
        now,
      );
      if (written.state !== 'scheduled') continue;
      await query(
        sql`UPDATE emails SET state = 'digested', digest_id = ${digestId}, updated_at = ${now} WHERE id = ANY(${letters.map((email) => email!.id)}::text[]) AND state = 'scheduled'`,
      );
      made++;
    }
    return made;
  }

  test('two runs at once make one digest, with every letter in it once', async () => {
    const { letters } = await waitingLetters();
    const made = await Promise.all([gatherDigests(), gatherDigests(), gatherDigests()]);
    expect(made.reduce((sum, n) => sum + n, 0)).toBe(1);
    const digests = await query<{ id: string; state: string }>(sql`SELECT id, state FROM emails WHERE kind = 'school_digest' AND state <> 'withdrawn'`);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.state).toBe('scheduled');
    const digested = await query<{ digest_id: string }>(sql`SELECT digest_id FROM emails WHERE id = ANY(${letters}::text[])`);
    expect(new Set(digested.map((row) => row.digest_id))).toEqual(new Set([digests[0]!.id]));
  });

  test('the gathering without the lock (the old read, write, mark) makes two digests of the same letters (the test can fail)', async () => {
    await waitingLetters();
    let made = 0;
    for (let attempt = 0; attempt < 10 && made < 2; attempt++) {
      await db.admin.query(`UPDATE emails SET state = 'scheduled', digest_id = NULL WHERE kind = 'school_letter'`);
      await db.admin.query(`DELETE FROM emails WHERE kind = 'school_digest'`);
      made = (await Promise.all([gatherUnlocked(), gatherUnlocked(), gatherUnlocked()])).reduce((sum, n) => sum + n, 0);
    }
    expect(made).toBeGreaterThan(1);
  });
});

describe('reminders', () => {
  async function waitingRequest(): Promise<OutboxMessage> {
    const created = new Date(Date.now() - 25 * 3600_000);
    const message: OutboxMessage = {
      id: newMessageId(created),
      draftId: `d-rem-${++seq}`,
      channel: 'platform',
      status: 'awaiting_confirmation',
      createdAt: created.toISOString(),
      updatedAt: created.toISOString(),
      parentEmail: `remind${seq}@example.org`,
      parentName: 'Ana Lopez',
      schoolName: 'Oak',
      to: `head${seq}@oak.example`,
      toName: 'Head',
      subject: 'S',
      body: 'B',
      note: '',
      attempts: 0,
      nextAttemptAt: created.toISOString(),
      confirmation: { expiresAt: new Date(Date.now() + 48 * 3600_000).toISOString(), email: 'queued', network: 'a'.repeat(32) },
    };
    await createMessage(message);
    return message;
  }

  test('three runs at once write one reminder per request', async () => {
    const requests = await Promise.all(Array.from({ length: 5 }, waitingRequest));
    await Promise.all([sendReminders(), sendReminders(), sendReminders()]);
    for (const request of requests) expect(await query(sql`SELECT id FROM emails WHERE ref = ${request.id} AND kind = 'reminder'`)).toHaveLength(1);
  });

  test('reminders written under ids of their own each time (as before) are written twice by runs at once (the test can fail)', async () => {
    const attempt = async () => {
      const requests = await Promise.all(Array.from({ length: 5 }, waitingRequest));
      // The mutation: the reminder's id is new each time it is written, as it was before issue 45.
      const original = pg.Pool.prototype.query;
      const spy = vi.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (this: pg.Pool, text: unknown, values?: unknown) {
        const changed = Array.isArray(values)
          ? values.map((value) => (typeof value === 'string' && value.endsWith('.reminder') ? `${value.slice(0, -9)}.r-${randomUUID()}` : value))
          : values;
        return (original as (...args: unknown[]) => unknown).call(this, text, changed) as never;
      });
      try {
        await Promise.all([sendReminders(), sendReminders(), sendReminders()]);
      } finally {
        spy.mockRestore();
      }
      const written = await Promise.all(
        requests.map(async (request) => (await query(sql`SELECT id FROM emails WHERE ref = ${request.id} AND kind = 'reminder'`)).length),
      );
      return Math.max(...written);
    };
    expect(await breaksWithin(attempt, (most) => most > 1)).toBeGreaterThan(1);
  });
});

describe('the caps at confirmation', () => {
  /** Thirty parents' confirmations for one school at once; how many took a place of its day. */
  async function race(): Promise<number> {
    process.env.PLATFORM_SEND_SCHOOL_DAILY_LIMIT = '5';
    const school = `capped${++seq}@school.example`;
    const located = { to: school };
    const requests = await Promise.all(
      Array.from({ length: 30 }, async (_, n) => {
        const now = new Date();
        const message: OutboxMessage = {
          id: newMessageId(now),
          draftId: `d-cap-${seq}-${n}`,
          channel: 'platform',
          status: 'awaiting_confirmation',
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          parentEmail: `cap-parent${n}-${seq}@example.org`,
          parentName: 'Ana Lopez',
          schoolName: 'Capped',
          to: school,
          toName: 'Head',
          subject: 'S',
          body: 'B',
          note: '',
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          confirmation: { expiresAt: new Date(Date.now() + 48 * 3600_000).toISOString() },
        };
        await createMessage(message);
        return message;
      }),
    );
    const refusals = await Promise.all(
      requests.map((request) => claimLimits(request.parentEmail, { day: schoolGroupKey(located), pair: pairSchoolOf(located) }, request.id)),
    );
    return refusals.filter((refusal) => refusal === undefined).length;
  }

  test('thirty at once: exactly the day’s cap takes a place, the others are told the limit', async () => {
    expect(await race()).toBe(5);
    expect(await queryOne(sql`SELECT sends FROM school_daily_sends`)).toEqual({ sends: 5 });
  });

  test('without the CHECK on the school’s day, thirty at once all take a place (the test can fail)', async () => {
    await db.admin.query('ALTER TABLE school_daily_sends DROP CONSTRAINT school_daily_sends_within_cap');
    try {
      expect(await breaksWithin(race, (n) => n > 5)).toBeGreaterThan(5);
    } finally {
      await db.admin.query('DELETE FROM school_daily_sends');
      await db.admin.query('ALTER TABLE school_daily_sends ADD CONSTRAINT school_daily_sends_within_cap CHECK (sends <= cap)');
    }
  });
});

test('the server is a real Postgres with a backend per connection (not the one-session emulator)', async () => {
  const version = await queryOne<{ version: string }>(sql`SELECT version()`);
  expect(version!.version).toMatch(/^PostgreSQL \d+/);
  const [a, b] = await Promise.all([
    queryOne<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`),
    queryOne<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`),
  ]);
  expect(a!.pid).not.toBe(b!.pid);
  expect(claimEmail).toBeTypeOf('function');
});
