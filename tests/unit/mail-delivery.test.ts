/**
 * Delivered when the school reads mail (issue 29.5): letters go on weekdays in the school's working
 * hours (SCHOOL_TIME_ZONE, or the parent's), at most SCHOOL_HOURLY_LIMIT an hour to one contact,
 * a letter confirmed at night goes in the morning; with SCHOOL_DELIVERY=digest the letters of one
 * night reach the school as one email, and each parent is told their letter went in it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { query, sql } from '../../src/server/db';
import { createDraft } from '../../src/server/letter/drafts';
import { mailboxKey, networkKey } from '../../src/server/identity';
import { runMail } from '../../src/server/letter/delivery';
import { mailSender } from '../../src/server/mail/senders';
import { letterTime } from '../../src/server/mail/schedule';
import { isOpen, nextOpening } from '../../src/server/mail/window';
import { confirmPlatformSend, requestPlatformSend } from '../../src/server/letter/request';
import { setAdminEnv } from './helpers/admin';
import { verifiedSchool } from './helpers/schools';
import { startTestDatabase, type TestDatabase } from './helpers/database';
import { emailFormValues } from './helpers/forms';
import { linkIn, tokenOf, useMail, type MailCatcher } from './helpers/mail';
import { useSiteShell } from './helpers/site';

let database: TestDatabase;
let mail: MailCatcher;
let shell: ReturnType<typeof useSiteShell>;
let seq = 0;

const ZONE = 'America/New_York';
// Wednesday 2 December 2026 in New York: 23:00 (office closed), and 08:00 the next morning.
const NIGHT = new Date('2026-12-03T04:00:00Z');
const MORNING = new Date('2026-12-03T13:00:00Z');

beforeAll(async () => {
  database = await startTestDatabase();
  mail = await useMail();
  shell = useSiteShell();
  setAdminEnv();
  process.env.SITE_URL = 'https://site.example';
  process.env.SCHOOL_TIME_ZONE = ZONE;
});
afterAll(async () => {
  await database.stop();
  await mail.close();
  shell.remove();
  for (const name of ['SITE_URL', 'SCHOOL_TIME_ZONE', 'SCHOOL_DELIVERY', 'SCHOOL_DELIVERY_HOURS', 'SCHOOL_HOURLY_LIMIT']) delete process.env[name];
});
beforeEach(() => {
  mail.reset();
  process.env.SCHOOL_DELIVERY_HOURS = 'on';
  delete process.env.SCHOOL_DELIVERY;
  delete process.env.SCHOOL_HOURLY_LIMIT;
});

describe("the school's hours", () => {
  test.each([
    ['a weekday at 10:00', '2026-12-02T15:00:00Z', true],
    ['a weekday at 07:59', '2026-12-02T12:59:00Z', false],
    ['a weekday at 16:00', '2026-12-02T21:00:00Z', false],
    ['a Saturday at 10:00', '2026-12-05T15:00:00Z', false],
  ])('%s in New York is %s', (_name, at, open) => expect(isOpen(new Date(at), ZONE)).toBe(open));

  test('after Friday closes, the next opening is Monday 08:00 in the school’s zone (across a clock change too)', () => {
    expect(nextOpening(new Date('2026-12-04T22:00:00Z'), ZONE).toISOString()).toBe('2026-12-07T13:00:00.000Z');
    // Friday 6 March 2026 17:00 EST → Monday 9 March 08:00 EDT (the clocks went forward on Sunday).
    expect(nextOpening(new Date('2026-03-06T22:00:00Z'), ZONE).toISOString()).toBe('2026-03-09T12:00:00.000Z');
  });

  test('at most SCHOOL_HOURLY_LIMIT letters an hour to one school contact; another contact has its own hours', async () => {
    process.env.SCHOOL_HOURLY_LIMIT = '2';
    const school = mailboxKey(`hours-${++seq}@school.edu`);
    const times = [];
    for (let n = 0; n < 5; n++) times.push((await letterTime(school, ZONE, NIGHT)).at);
    const hours = times.map((at) => at.toISOString().slice(0, 13));
    expect(hours).toEqual(['2026-12-03T13', '2026-12-03T13', '2026-12-03T14', '2026-12-03T14', '2026-12-03T15']);
    for (const at of times) expect(isOpen(at, ZONE)).toBe(true);
    expect((await letterTime(mailboxKey(`other-${seq}@school.edu`), ZONE, NIGHT)).at.toISOString().slice(0, 13)).toBe('2026-12-03T13');
  });

  test('with SCHOOL_DELIVERY_HOURS=off a letter goes at once', async () => {
    process.env.SCHOOL_DELIVERY_HOURS = 'off';
    expect((await letterTime(mailboxKey(`now-${++seq}@school.edu`), ZONE, NIGHT)).at).toEqual(NIGHT);
  });
});

/** A parent's platform send, confirmed from their inbox at `at`. */
async function confirmedLetter(school: string, at: Date) {
  const id = `sub-hours-${Date.now()}-${++seq}`;
  const parent = `parent-${seq}@example.org`;
  const made = await createDraft({
    id,
    purpose: 'emailGenerator',
    values: emailFormValues({
      email: parent,
      full_name: `Parent ${seq} Lopez`,
      school_contact_email: school,
      choose_how_to_send_your_email: 'Send via our platform',
    }),
  });
  await requestPlatformSend({ submissionId: id, token: made.token }, { network: networkKey(`198.51.100.${seq % 250}`) }, at);
  await runMail(() => at);
  const outcome = await confirmPlatformSend(tokenOf(linkIn(mail.last(parent, /confirm/i), '/confirm-send')), { timeZone: ZONE }, at);
  expect(outcome.kind).toBe('done');
  return parent;
}

describe('one email a night per school (SCHOOL_DELIVERY=digest)', () => {
  test('three letters confirmed at night reach the school as one digest in the morning; each parent is told', async () => {
    process.env.SCHOOL_DELIVERY = 'digest';
    const school = `digest-${++seq}@school.edu`;
    // Digests are for a school staff verified, in its own hours.
    await verifiedSchool(school, 'Digest Academy', { timeZone: ZONE });
    const parents = [];
    for (let n = 0; n < 3; n++) parents.push(await confirmedLetter(school, NIGHT));
    await runMail(() => NIGHT);
    expect(mail.to(school)).toHaveLength(0);
    const summary = await runMail(() => MORNING);
    expect(summary).toMatchObject({ digests: 1 });
    const received = mail.to(school);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toMatch(/3 parents|parents/i);
    for (const parent of parents) expect(received[0]!.text).toContain(parent);
    await runMail(() => new Date(MORNING.getTime() + 60_000));
    for (const parent of parents) expect(mail.last(parent, /digest|went|together/i), parent).toBeDefined();
    expect(await query(sql`SELECT count(*)::int AS n FROM emails WHERE state = 'digested' AND recipient = ${school}`)).toEqual([{ n: 3 }]);
    expect(mailSender()).not.toBeNull();
  });

  test('letters to a school the site does not know never become a digest: each goes on its own, to the address its parent typed', async () => {
    process.env.SCHOOL_DELIVERY = 'digest';
    const school = `typed-${++seq}@school.edu`;
    for (let n = 0; n < 3; n++) await confirmedLetter(school, NIGHT);
    const summary = await runMail(() => MORNING);
    expect(summary).toMatchObject({ digests: 0 });
    expect(mail.to(school)).toHaveLength(3);
    expect(mail.to(school).every((letter) => letter.subject === 'How our school can unlock mastery learning for every student')).toBe(true);
  });

  test('a single letter of the night goes on its own', async () => {
    process.env.SCHOOL_DELIVERY = 'digest';
    const school = `single-${++seq}@school.edu`;
    const parent = await confirmedLetter(school, NIGHT);
    await runMail(() => MORNING);
    const received = mail.to(school);
    expect(received).toHaveLength(1);
    expect(received[0]!.replyTo[0]!.address).toBe(parent);
  });
});
