/**
 * In Firefox and WebKitGTK: the school email, as a parent writes it. The form on /lead-the-change
 * opens "Your Email is Ready" (copy, the mail-app link, "I've sent it myself", confirmed from the
 * inbox), the follow-up email's link to /school-answer; a parent picks a school the site knows from
 * the school field's suggestions, and "Send via our platform" leads, by the confirmation email in
 * MailDev, to /confirm-send and the letter at the record's address; without JavaScript the form
 * answers with its own page.
 */
import { request } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { runMark } from '../e2e/helpers';
import { followUpLink, linkTo, waitForEmail } from '../e2e/mail';
import { knownSchool } from '../e2e/school-campaign-helpers';
import type { EnginePage } from './driver';
import { expect, named, seen, sendEmailForm, test } from './fixtures';

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

/**
 * Types the email form of /lead-the-change as a person does and sends it. Each test writes to a
 * school address of its own: a school takes 5 platform emails a day, and the Chromium suite writes
 * to the same site.
 */
async function writeEmail(site: EnginePage, parent: string, school: string, schoolEmail: string) {
  await site.goto('/lead-the-change');
  await sendEmailForm(site, parent, { name: school, email: schoolEmail });
}

const readyDialog = (site: EnginePage) =>
  site.evaluate(() => {
    const dialog = Array.from(document.querySelectorAll('dialog')).find(
      (candidate) => candidate.open && candidate.textContent?.includes('Your Email is Ready'),
    );
    return dialog ? { focused: dialog.contains(document.activeElement), modal: dialog.matches(':modal') } : null;
  });

test('"Your Email is Ready": the email, copy, the mail-app link and "I\'ve sent it myself", then the school-answer page', async ({ site }) => {
  const parent = unique('engines-self');
  const schoolEmail = `head-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@oakwood.edu`;
  await writeEmail(site, parent, 'Oakwood Academy', schoolEmail);
  await expect.poll(() => readyDialog(site), { timeout: 20_000 }).toEqual({ focused: true, modal: true });
  expect(await seen(site, '[data-testid="email-to"]')).toBe(`Dr. Patel <${schoolEmail}>`);
  expect(await seen(site, '[data-testid="email-subject"]')).toBe('How Oakwood Academy can unlock mastery learning for every student');
  // Parents writing to one school get its letters in turn: what every letter says of them.
  const body = await seen(site, '[data-testid="email-body"]');
  for (const part of ['Dear Dr. Patel,', 'Ana Lopez', 'Maya Lopez', '5th grade', 'Oakwood Academy']) expect(body).toContain(part);

  await site.click(await named(site, 'dialog[open] button', 'Copy'));
  await expect.poll(() => seen(site, '[data-toast]')).toContain('Email content copied to clipboard.');
  const mailto = await site.evaluate(() =>
    Array.from(document.querySelectorAll('dialog[open] a'))
      .find((a) => a.textContent?.includes('Open in my email app'))
      ?.getAttribute('href'),
  );
  expect(mailto!.startsWith(`mailto:${schoolEmail}?subject=How%20Oakwood%20Academy`)).toBe(true);
  expect(decodeURIComponent(mailto!)).toContain('Ana Lopez');

  await site.click(await named(site, 'dialog[open] button', "I've sent it myself"));
  // Recorded only once the parent confirms it from their own inbox.
  await expect.poll(() => seen(site, '[data-testid="self-check-inbox"]')).toContain('Check your inbox.');
  await site.goto(linkTo(await waitForEmail(parent, { subject: /^Did you send your letter/ }), '/confirm-send'));
  await expect.poll(() => seen(site, 'h1')).toBe('Did you send your letter to Dr. Patel?');
  await site.click(await named(site, 'button', 'Yes, I sent it'));
  await expect.poll(() => seen(site, 'h1'), { timeout: 20_000 }).toBe('Thank you for writing to your school');

  // The follow-up email (due at once here, read from MailDev): one tap answers it.
  await site.goto(await followUpLink(parent));
  await expect.poll(() => seen(site, 'h1')).toBe('Did Oakwood Academy answer?');
  await site.click(await named(site, 'label', 'They replied'));
  await site.click(await named(site, 'button', 'Save my answer'));
  await expect.poll(() => seen(site, 'h1')).toBe('Great news: they replied!');
});

test('a parent picks a school the site knows, "Send via our platform" asks to confirm from the inbox; /confirm-send sends it to the record\'s address', async ({
  site,
}) => {
  // Letters only: the school's name carries it, and a run of digits in a name reads as a phone number
  // (seven digits: a base-36 time ending in three digits and four random ones failed a run so).
  const id = runMark();
  const parent = unique('engines-platform');
  const school = { name: `Birch Hill School ${id}`, email: `head-${id}@birchhill.edu` };
  const api = await request.newContext({ baseURL });
  await knownSchool(api, school, 'Dr. Birch');
  await api.dispose();

  await site.goto('/lead-the-change');
  const form = '#email-form form[data-native-form]';
  for (const [name, value] of [
    ['full_name', 'Ana Lopez'],
    ['email', parent],
    ['child_full_name', 'Maya Lopez'],
    ['child_grade', '5th grade'],
  ] as const)
    await site.type(`${form} [name="${name}"]`, value);
  // The school field suggests the schools the site knows as the parent types; picking one fills its leader and address.
  await site.type(`${form} [name="school_name"]`, `Birch Hill School ${id}`.slice(0, 24));
  await site.click(await named(site, '[role="option"]', school.name));
  await expect
    .poll(() => site.evaluate(() => (document.querySelector('#email-form [name="school_contact_email"]') as HTMLInputElement).value))
    .toBe(school.email);
  expect(await site.evaluate(() => (document.querySelector('#email-form [name="school_contact_name"]') as HTMLInputElement).value)).toBe('Dr. Birch');
  await site.click(`${form} input[name="choose_how_to_send_your_email"][value="I will send it myself"]`);
  await site.click(`${form} [data-submit]`);
  await expect.poll(() => readyDialog(site), { timeout: 20_000 }).toEqual({ focused: true, modal: true });
  await site.click(await named(site, 'dialog[open] button', 'Send via our platform'));
  await expect.poll(() => seen(site, '[data-testid="check-inbox"]'), { timeout: 20_000 }).toContain(`We sent a link to ${parent}`);

  await site.goto(linkTo(await waitForEmail(parent, { subject: `Please confirm your email to ${school.name}` }), '/confirm-send'));
  await expect.poll(() => seen(site, 'h1')).toBe(`Confirm your email to ${school.name}`);
  await site.click(await named(site, 'button', 'Send my email'));
  await expect.poll(() => seen(site, 'h1'), { timeout: 20_000 }).toMatch(/Your email has been sent|Your email is confirmed/);
  // The mail run sends the letter to the school, Reply-To the parent, under the record's name.
  const letter = await waitForEmail(school.email, { runs: true });
  expect(letter.replyTo.map((box) => box.address)).toEqual([parent]);
  expect(letter.subject).toBe(`How ${school.name} can unlock mastery learning for every student`);
});

// The form without JavaScript is the server's answer to a plain form post, which the gate walks in
// Chromium (your-data.spec.ts, edit-details.spec.ts): in these engines in the full run (`@full`).
test('without JavaScript the email form answers with "Your Email is Ready" as a page', { tag: '@full' }, async ({ noScript }) => {
  const parent = unique('engines-nojs');
  await writeEmail(noScript, parent, 'Cedar Academy', `head-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@cedar.edu`);
  await expect.poll(() => noScript.path(), { timeout: 20_000 }).toMatch(/^\/your-email\?id=/);
  await expect.poll(() => seen(noScript, 'h1')).toBe('Your Email is Ready');
  expect(await noScript.evaluate(() => document.querySelector('[data-email-text]')?.textContent ?? '')).toContain('Cedar Academy');
});
