/**
 * What a newcomer sees on `npm start` with no mail set up (the e2e site is started so: no SMTP, no
 * HubSpot single-send, no From address): every email lands in MailDev, whose view they open, and the
 * whole platform send walks from the confirmation email there to the letter arriving for the school.
 */
import { e2eMailFrom, mailDevUrl } from '../../playwright.config';
import { dialog, fillEmailForm } from './email-form';
import { expect, test } from './fixtures';
import { runMark } from './helpers';
import { emailsTo, linkTo, runMail, waitForEmail } from './mail';

test.describe.configure({ timeout: 60_000 });

// The full run's: advocacy-crm.spec.ts walks the same path through MailDev in the gate (the
// confirmation read from MailDev, the letter from the SMTP wire), and tests/unit/local-mail.test.ts
// proves MailDev's catching and listing.
test("with nothing configured, the platform send walks from the confirmation in MailDev to the letter in the school's inbox there", { tag: '@full' }, async ({
  page,
  browser,
}) => {
  const run = runMark();
  const parent = `newcomer-${run}@example.org`;
  const school = `office-${run}@rowan.edu`;

  await page.goto('/lead-the-change');
  await fillEmailForm(page, '#email-form', { email: parent, choice: 'Send via our platform', school: 'Rowan School', schoolEmail: school });
  await expect(dialog(page).getByTestId('check-inbox')).toContainText(`We sent a link to ${parent}`, { timeout: 20_000 });

  // The confirmation is in MailDev's view, as the newcomer finds it. Rowan School is typed, not a
  // school the site knows: no email the site sends carries its name in the subject.
  const confirmation = await waitForEmail(parent, { subject: 'Please confirm your email to your school' });
  const view = await browser.newPage();
  await view.goto(mailDevUrl);
  await expect(view.getByText('Please confirm your email to your school').first()).toBeVisible();
  await view.close();
  expect(confirmation.from).toEqual([{ name: 'Mastery Parents', address: e2eMailFrom }]);
  // The button of the HTML part and the link written out in the text part are the same link.
  const link = linkTo(confirmation, '/confirm-send');
  expect(confirmation.html).toContain(new URLSearchParams(link.split('?')[1]).get('token')!);
  // Nothing goes to the school before the parent confirms, whatever runs.
  await runMail();
  expect(await emailsTo(school)).toEqual([]);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email to Rowan School');
  await page.getByRole('button', { name: 'Send my email' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/, { timeout: 20_000 });

  // The scheduled run (a minute's tick on npm start; started here at once) sends the letter.
  const letter = await waitForEmail(school, { runs: true });
  expect(letter.subject).toBe('How our school can unlock mastery learning for every student');
  expect(letter.text).toContain('at Rowan School');
  expect(letter.from).toEqual([{ name: 'Ana Lopez via Mastery Parents', address: e2eMailFrom }]);
  expect(letter.replyTo).toEqual([{ name: 'Ana Lopez', address: parent }]);
  expect(letter.text).toContain('Dear Dr. Patel,');
  expect(letter.text).toContain('My name is Ana Lopez');
  // One letter, whatever runs after.
  await runMail();
  expect(await emailsTo(school)).toHaveLength(1);
});
