/**
 * In Firefox and WebKitGTK: the school email, as a parent writes it. The form on /lead-the-change
 * opens "Your Email is Ready" (copy, the mail-app link, "I've sent it myself"), "Send via our
 * platform" leads, by the confirmation email in MailDev, to /confirm-send and the letter, the
 * follow-up email's link to /school-answer; without JavaScript the
 * form answers with its own page.
 */
import { followUpLink, linkTo, waitForEmail } from '../e2e/mail';
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
    const dialog = Array.from(document.querySelectorAll('dialog')).find((candidate) => candidate.open && candidate.textContent?.includes('Your Email is Ready'));
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
  const mailto = await site.evaluate(() => Array.from(document.querySelectorAll('dialog[open] a')).find((a) => a.textContent?.includes('Open in my email app'))?.getAttribute('href'));
  expect(mailto!.startsWith(`mailto:${schoolEmail}?subject=How%20Oakwood%20Academy`)).toBe(true);
  expect(decodeURIComponent(mailto!)).toContain('Ana Lopez');

  await site.click(await named(site, 'dialog[open] button', "I've sent it myself"));
  await expect.poll(() => seen(site, '[data-testid="sent-myself"]')).toContain('In about ten days');

  // The follow-up email (due at once here, read from MailDev): one tap answers it.
  await site.goto(await followUpLink(parent));
  await expect.poll(() => seen(site, 'h1')).toBe('Did Oakwood Academy answer?');
  await site.click(await named(site, 'label', 'They replied'));
  await site.click(await named(site, 'button', 'Save my answer'));
  await expect.poll(() => seen(site, 'h1')).toBe('Great news: they replied!');
});

test('"Send via our platform" asks to confirm from the inbox; /confirm-send sends it', async ({ site }) => {
  const parent = unique('engines-platform');
  const schoolEmail = `head-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@birchhill.edu`;
  await writeEmail(site, parent, 'Birch Hill School', schoolEmail);
  await expect.poll(() => readyDialog(site), { timeout: 20_000 }).toEqual({ focused: true, modal: true });
  await site.click(await named(site, 'dialog[open] button', 'Send via our platform'));
  await expect.poll(() => seen(site, '[data-testid="check-inbox"]'), { timeout: 20_000 }).toContain(`We sent a link to ${parent}`);

  await site.goto(linkTo(await waitForEmail(parent, { subject: 'Please confirm your email to Birch Hill School' }), '/confirm-send'));
  await expect.poll(() => seen(site, 'h1')).toBe('Confirm your email to Birch Hill School');
  await site.click(await named(site, 'button', 'Send my email'));
  await expect.poll(() => seen(site, 'h1'), { timeout: 20_000 }).toMatch(/Your email has been sent|Your email is confirmed/);
  // The mail run sends the letter to the school, Reply-To the parent.
  expect((await waitForEmail(schoolEmail, { runs: true })).replyTo.map((box) => box.address)).toEqual([parent]);
});

test('without JavaScript the email form answers with "Your Email is Ready" as a page', async ({ noScript }) => {
  const parent = unique('engines-nojs');
  await writeEmail(noScript, parent, 'Cedar Academy', `head-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@cedar.edu`);
  await expect.poll(() => noScript.path(), { timeout: 20_000 }).toMatch(/^\/your-email\?id=/);
  await expect.poll(() => seen(noScript, 'h1')).toBe('Your Email is Ready');
  expect(await noScript.evaluate(() => document.querySelector('[data-email-text]')?.textContent ?? '')).toContain('Cedar Academy');
});
