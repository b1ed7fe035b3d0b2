/**
 * The flows that reach the CRM through the functions, against the HubSpot fake (a separate process
 * shared by the whole run), with every email read from MailDev: the school email composed on the
 * server, confirmed from the parent's own inbox, sent once by the mail run, kept in the outbox and
 * limited (the booking page's lookup is in thank-you.spec.ts and webhook-config.spec.ts).
 * Serial: failures injected into the fake are consumed by the next call, so no other test of this
 * file may run meanwhile.
 */
import type { Page } from '@playwright/test';
import { e2eAdminPassword, e2eMailFrom, fakeUrls } from '../../playwright.config';
import { expect, test } from './fixtures';
import { dialog, fillEmailForm } from './email-form';
import { emailsTo, linkTo, runMail, waitForEmail } from './mail';

test.describe.configure({ mode: 'serial', timeout: 60_000 });

const fake = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${fakeUrls.hubspot}/__fake/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
};
const contactOf = async (email: string) => {
  const { contacts } = (await fake('contacts')) as { contacts: Array<{ id: string; properties: Record<string, string> }> };
  return contacts.find((c) => c.properties.email === email.toLowerCase());
};
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

const toast = (page: Page) => page.locator('[data-toast]');
/** The first call of a function under `netlify serve` bundles it, which is slow on a busy machine. */
const SEND_TIMEOUT = { timeout: 20_000 };

const CONFIRMATION = /^Please confirm your email to /;

/** The confirmation links the parent's inbox holds, oldest first, as paths on the site. */
const confirmationLinks = async (email: string) =>
  (await emailsTo(email)).filter((received) => CONFIRMATION.test(received.subject)).map((received) => linkTo(received, '/confirm-send'));

/** The link in the confirmation email the site sent the parent. */
async function confirmationLinkOf(email: string): Promise<string> {
  return linkTo(await waitForEmail(email, { subject: CONFIRMATION, ...SEND_TIMEOUT }), '/confirm-send');
}

test.beforeEach(async () => {
  await fake('config', { delayMs: 0, searchLagMs: 0, down: false });
});

test.describe('/lead-the-change email flow', () => {
  test('the email the server composed: preview with the note, copy, compose links, "I\'ve sent it myself"', async ({ page, context, consoleErrors }) => {
    const email = unique('manual');
    // A school nobody wrote to yet gets the first letter (content/letters, in rotation per school).
    const schoolEmail = unique('head');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: "I'll send it myself", note: 'We met at the spring open day.', schoolEmail });

    const box = dialog(page);
    await expect(box).toBeVisible();
    // Focus moved into the dialog.
    await expect.poll(() => box.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await expect(box.getByTestId('email-to')).toHaveText(`Dr. Patel <${schoolEmail}>`);
    await expect(box.getByTestId('email-subject')).toHaveText('How Oakwood Academy can unlock mastery learning for every student');
    await expect(box.getByTestId('email-body')).toContainText('My name is Ana Lopez, and my child, Maya Lopez, is in 5th grade at Oakwood Academy.');
    await expect(box.getByTestId('email-body')).toContainText('We met at the spring open day.');
    await expect(box.getByTestId('email-body')).toContainText('Parent of Maya Lopez, 5th grade');

    await box.getByRole('button', { name: 'Copy' }).click();
    await expect(toast(page)).toContainText('Copied!');
    await expect(toast(page)).toContainText('Email content copied to clipboard.');
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip).toContain('Subject: How Oakwood Academy can unlock mastery learning for every student');
    expect(clip).toContain('We met at the spring open day.');

    const mailto = await box.getByRole('link', { name: 'Open in my email app' }).getAttribute('href');
    expect(mailto).toMatch(new RegExp(`^mailto:${schoolEmail.replace(/[.+]/g, '\\$&')}\\?subject=How%20Oakwood%20Academy`));
    expect(decodeURIComponent(mailto!)).toContain('We met at the spring open day.');
    await expect(box.getByRole('link', { name: /Gmail/ })).toHaveAttribute('href', /^https:\/\/mail\.google\.com\/mail\/\?view=cm/);
    await expect(box.getByRole('link', { name: /Outlook/ })).toHaveAttribute('target', '_blank');

    await box.getByRole('button', { name: "I've sent it myself" }).click();
    // Nothing is recorded on a click: the parent confirms it from their own inbox.
    await expect(box.getByTestId('self-check-inbox')).toContainText('Check your inbox.');
    await expect(box.getByTestId('self-check-inbox')).toContainText('in about ten days');
    expect(consoleErrors).toEqual([]);
  });

  test('"Send via our platform": check your inbox, confirm once from the link, sent exactly once, shown in the outbox', async ({ page, browser }) => {
    // The whole walk, from the form to the admin's outbox (its first sign-in bundles that function).
    test.slow();
    const email = unique('confirm');
    await page.goto('/lead-the-change');
    const schoolEmail = `head-${Date.now()}@birch.edu`;
    await fillEmailForm(page, '#email-form', { email, choice: "I'll send it myself", school: 'Birch Hill School', schoolEmail });
    await expect(dialog(page)).toBeVisible();
    await dialog(page).getByRole('button', { name: 'Send via our platform' }).click();
    await expect(dialog(page).getByTestId('check-inbox')).toContainText(`We sent a link to ${email}`, SEND_TIMEOUT);
    // Nothing is sent before the parent confirms.
    expect(await emailsTo(schoolEmail)).toEqual([]);

    const link = await confirmationLinkOf(email);
    const inbox = await browser.newPage();
    await inbox.goto(link);
    await expect(inbox.getByRole('heading', { level: 1 })).toHaveText('Confirm your email to Birch Hill School');
    await inbox.getByRole('button', { name: 'Send my email' }).click();
    await expect(inbox.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/, SEND_TIMEOUT);
    // The mail run sends it. What the school gets, read from the SMTP wire: to the confirmed address
    // alone, Reply-To the parent, From "Parent via organisation" on the organisation's address, the
    // subject on one line.
    const received = await waitForEmail(schoolEmail, { runs: true, ...SEND_TIMEOUT });
    expect(received.to).toEqual([{ name: '', address: schoolEmail }]);
    expect(received.rcptTo).toEqual([schoolEmail]);
    expect(received.replyTo).toEqual([{ name: 'Ana Lopez', address: email }]);
    expect(received.from).toEqual([{ name: 'Ana Lopez via Mastery Parents', address: e2eMailFrom }]);
    // Birch Hill School is a school the site does not know: the letter goes to the address typed, and
    // its subject, sent from the organisation's address, carries no typed name (the letter itself does).
    expect(received.subject).toBe('How our school can unlock mastery learning for every student');
    expect(received.text).toContain('at Birch Hill School');
    expect(received.headerLines.filter((header) => header.key === 'subject')).toHaveLength(1);
    expect(received.text).toContain('Dear Dr. Patel,');
    expect(received.text).toContain('My name is Ana Lopez');
    // The send choice is no longer what sends it: nothing sets it on the contact.
    expect((await contactOf(email))?.properties.choose_how_to_send_your_email).not.toBe('Send Via our platform');

    // The link again: already sent, nothing sent twice.
    await inbox.goto(link);
    await expect(inbox.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/);
    await expect(inbox.getByRole('button', { name: 'Send my email' })).toHaveCount(0);
    await inbox.close();
    await runMail();
    expect(await emailsTo(schoolEmail)).toHaveLength(1);

    // The outbox shows it with the exact text.
    await page.goto('/webhook-config');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(e2eAdminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const row = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Birch Hill School' }).first();
    await expect(row).toContainText('Sent');
    await row.getByRole('button', { name: 'View email' }).click();
    await expect(page.getByRole('dialog', { name: 'School email' })).toContainText('How our school can unlock mastery learning for every student');
  });

  // The full run's: the request going out by itself is proven in the gate by words-consent.spec.ts,
  // spanish-letter.spec.ts and the referral test below; "already wrote" by tests/unit/send-email.test.ts.
  test('"Send via our platform" chosen in the form asks for the confirmation by itself; a second send to the same school is told only behind the parent\'s own link', {
    tag: '@full',
  }, async ({ page, browser }) => {
    const email = unique('auto');
    const school = `office-${Date.now()}@maple.edu`;
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: 'Send via our platform', school: 'Maple School', schoolEmail: school });
    await expect(dialog(page).getByTestId('check-inbox')).toBeVisible(SEND_TIMEOUT);
    const link = await confirmationLinkOf(email);
    await page.request.post(link.split('?')[0]!, { form: { token: new URLSearchParams(link.split('?')[1]).get('token')! } });
    expect((await waitForEmail(school, { runs: true, ...SEND_TIMEOUT })).replyTo.map((box) => box.address)).toEqual([email]);

    // The same parent writes to the same school again: the answer is the one anybody gets (it
    // never says what this parent did before); their own inbox's link says it.
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: "I'll send it myself", school: 'Maple School', schoolEmail: school });
    await dialog(page).getByRole('button', { name: 'Send via our platform' }).click();
    await expect(dialog(page).getByTestId('check-inbox')).toBeVisible(SEND_TIMEOUT);
    let second = '';
    await expect.poll(async () => (second = (await confirmationLinks(email)).at(-1) ?? ''), SEND_TIMEOUT).not.toBe(link);
    const inbox = await browser.newPage();
    await inbox.goto(second);
    // The limits are taken when the parent confirms: the page says so then, and sends nothing.
    await inbox.getByRole('button', { name: 'Send my email' }).click();
    await expect(inbox.getByRole('main')).toContainText(/You already wrote to Maple School on \d{1,2} [A-Z][a-z]+ \d{4}/, SEND_TIMEOUT);
    await expect(inbox.getByRole('button', { name: 'Send my email' })).toHaveCount(0);
    await runMail();
    expect(await emailsTo(school)).toHaveLength(1);
  });
});

test.describe('/form referSchool', () => {
  test('"Send via our platform" asks the parent to confirm, and the referral is tracked', async ({ page }) => {
    const email = unique('refer');
    const tracked: unknown[] = [];
    await page.route('**/api/referal-tracking', async (route) => {
      tracked.push(route.request().postDataJSON());
      await route.fulfill({ status: 200, body: '{}', contentType: 'application/json', headers: { 'access-control-allow-origin': '*' } });
    });
    await page.goto('/form?type=referSchool&ambassadorId=amb-7');
    await fillEmailForm(page, '[data-form-type="referSchool"]', { email, choice: 'Send via our platform' });
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByTestId('check-inbox')).toBeVisible(SEND_TIMEOUT);
    await expect.poll(() => tracked.length).toBe(1);
    expect(tracked[0]).toMatchObject({ ambassadorId: 'amb-7', referralType: 'referSchool', formDetails: { school_name: 'Oakwood Academy' } });
  });
});
