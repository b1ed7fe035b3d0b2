/**
 * A letter arrives, or its parent knows why (issue 45), on `npm start`:
 * - a parents' evening: forty parents on one school Wi-Fi (one network: their requests leave from one
 *   loopback address, 127.0.45.1) write to their school, and every one gets their confirmation email;
 *   those who confirm have their letter sent within the school's daily cap, and the others are told
 *   so on their page, never left in silence;
 * - a stranger's newer request for the same parent and school replaces nothing: the parent's own
 *   link still sends the parent's own words, and the stranger's words never reach the school.
 */
import { baseURL } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { runMark } from './helpers';
import { from, sendEmailForm } from './networks';
import { emailsTo, linkTo, runMail, waitForEmail } from './mail';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

/** The email form and "Send via our platform", from one network: the request's id. */
async function ask(network: string, parent: string, school: { name: string; email: string }, note = ''): Promise<string> {
  const form = await sendEmailForm(network, parent, school, note);
  expect(form.status, form.text).toBe(201);
  const draft = (JSON.parse(form.text) as { draft: { id: string; token: string } }).draft;
  const asked = await from(network, 'POST', '/api/send-email', JSON.stringify({ submissionId: draft.id, token: draft.token }), 'application/json');
  expect(asked.status, asked.text).toBe(202);
  return (JSON.parse(asked.text) as { id: string }).id;
}

/** The parent confirms from the link in their inbox; the page they see, as text. */
async function confirmFromInbox(parent: string, network: string): Promise<{ status: number; text: string }> {
  const link = linkTo(await waitForEmail(parent, { subject: /^Please confirm your email to / }), '/confirm-send');
  const token = new URL(link, baseURL).searchParams.get('token')!;
  const page = await from(network, 'POST', '/confirm-send', new URLSearchParams({ token, tz: '' }).toString(), 'application/x-www-form-urlencoded');
  return { status: page.status, text: page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ') };
}

// The full run's (`npm run test:full`, `@full`): no browser, the requests as one network sends them to
// `npm start`. The gate proves the same in tests/unit/send-email.test.ts ("a network past its bound
// of waiting requests is told so plainly…(a parents’ evening)", "at most 5 a day to one school
// contact…", "exact under 15 parents confirming at once…") and races-postgres.test.ts; a real
// client address reaching the watch under `npm start` in abuse-watch.spec.ts.
test('a parents’ evening: forty parents on one Wi-Fi each get their confirmation, and each who confirms is sent or told why', { tag: '@full' }, async () => {
  const run = runMark();
  const wifi = '127.0.45.1';
  const school = { name: 'Evening Academy', email: `head@evening-${run}.edu` };
  const parents = Array.from({ length: 40 }, (_, n) => `evening-${n}-${run}@example.org`);
  // They write at about the same time, eight at once.
  for (let n = 0; n < parents.length; n += 8) await Promise.all(parents.slice(n, n + 8).map((parent) => ask(wifi, parent, school)));
  // Every parent has their confirmation email: nobody is told "check your inbox" and gets nothing.
  await Promise.all(parents.map((parent) => waitForEmail(parent, { subject: /^Please confirm your email to / })));

  // Seven confirm: the school's daily cap (5) sends five; the other two are told plainly on their page.
  const pages = [];
  for (const parent of parents.slice(0, 7)) pages.push(await confirmFromInbox(parent, wifi));
  const sent = pages.filter((page) => /Your email has been sent|Your email is confirmed/.test(page.text));
  const told = pages.filter((page) => /We did not send this email/.test(page.text));
  expect(sent).toHaveLength(5);
  expect(told).toHaveLength(2);
  for (const page of told) expect(page.text).toMatch(/today|tomorrow|limit|letters a day/i);
  await runMail();
  await expect.poll(async () => (await emailsTo(school.email)).length).toBe(5);
});

// The full run's: the same scenario and assertions are tests/unit/send-email.test.ts's "a stranger’s
// request for the same parent and school replaces nothing…".
test('a stranger’s newer request for the same parent and school replaces nothing: the parent’s own link sends the parent’s own words', {
  tag: '@full',
}, async () => {
  const run = runMark();
  const parent = `own-words-${run}@example.org`;
  const school = { name: 'Hawthorn School', email: `head@hawthorn-${run}.edu` };
  const mine = await ask('127.0.46.1', parent, school, 'We met at the spring fair.');
  await waitForEmail(parent, { subject: /^Please confirm your email to / });
  // The stranger, from another network, asks in the parent's name with words of their own.
  const theirs = await ask('127.0.47.1', parent, school, 'Our family is moving away, please ignore my letter.');
  expect(theirs).not.toBe(mine);
  await expect.poll(async () => (await emailsTo(parent)).filter((email) => /^Please confirm your email to /.test(email.subject)).length).toBe(2);

  // The parent opens the first email (their own request): its page previews their own words, and
  // confirming it sends them.
  const [first] = (await emailsTo(parent)).filter((email) => /^Please confirm your email to /.test(email.subject));
  const token = new URL(linkTo(first!, '/confirm-send'), baseURL).searchParams.get('token')!;
  const preview = await from('127.0.46.1', 'GET', `/confirm-send?token=${encodeURIComponent(token)}`, '', 'text/plain');
  expect(preview.text).toContain('spring fair');
  expect(preview.text).not.toContain('moving away');
  const page = await from('127.0.46.1', 'POST', '/confirm-send', new URLSearchParams({ token, tz: '' }).toString(), 'application/x-www-form-urlencoded');
  expect(page.status).toBe(200);
  expect(page.text).toMatch(/Your email has been sent|Your email is confirmed/);
  const letter = await waitForEmail(school.email, { runs: true });
  expect(letter.text).toContain('We met at the spring fair.');
  expect(letter.text).not.toContain('moving away');
  await runMail();
  expect(await emailsTo(school.email)).toHaveLength(1);
});
