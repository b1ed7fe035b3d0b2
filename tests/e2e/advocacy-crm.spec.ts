/**
 * The flows that reach the CRM through the functions, against the HubSpot fake (a separate
 * process shared by the whole run). Serial: failures injected into the fake are consumed by the
 * next call, so no other test of this file may run meanwhile.
 */
import type { Page } from '@playwright/test';
import { fakeUrls } from '../../playwright.config';
import { expect, test } from './fixtures';

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
  return contacts.find((c) => c.properties.email === email);
};
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

async function fillEmailForm(page: Page, scope: string, values: { email: string; choice: 'I will send it myself' | 'Send via our platform' }) {
  const form = page.locator(`${scope} form`);
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel('Full name', { exact: true }).fill('Ana Lopez');
  await form.getByLabel('Email', { exact: true }).fill(values.email);
  await form.getByLabel("Child's full name").fill('Maya Lopez');
  await form.getByLabel("Child's grade").fill('5th grade');
  await form.getByLabel('School name').fill('Oakwood Academy');
  await form.getByLabel('School contact name').fill('Dr. Patel');
  await form.getByLabel('School contact email').fill('head@oakwood.edu');
  await form.getByLabel('Choose how to send your email').selectOption(values.choice);
  await form.getByRole('button', { name: 'Submit' }).or(form.locator('input[type=submit]')).click();
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Your Email is Ready' });
const toast = (page: Page) => page.locator('[data-toast]');
/** The first call of a function under `netlify serve` bundles it, which is slow on a busy machine. */
const SEND_TIMEOUT = { timeout: 20_000 };

test.beforeEach(async () => {
  await fake('config', { delayMs: 0, searchLagMs: 0 });
});

test.describe('/lead-the-change email flow', () => {
  test('manual path: preview, copy, compose links, then "Send via our platform" closes with the success toast', async ({ page, context, consoleErrors }) => {
    const email = unique('manual');
    await fake('contacts', { email });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: 'I will send it myself' });

    const box = dialog(page);
    await expect(box).toBeVisible();
    await expect(box.getByTestId('email-to')).toHaveText('Dr. Patel <head@oakwood.edu>');
    await expect(box.getByTestId('email-subject')).toHaveText('How Oakwood Academy can unlock mastery learning for every student');
    await expect(box.getByTestId('email-body')).toContainText('My name is Ana Lopez, and my child, Maya Lopez, is in 5th grade at Oakwood Academy.');
    await expect(box.getByTestId('email-body')).toContainText('Parent of Maya Lopez, 5th grade');

    await box.getByRole('button', { name: 'Copy' }).click();
    await expect(toast(page)).toContainText('Copied!');
    await expect(toast(page)).toContainText('Email content copied to clipboard.');
    await expect(box.getByRole('button', { name: 'Copied!' })).toBeVisible();
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip).toContain('Subject: How Oakwood Academy can unlock mastery learning for every student');

    const mailto = await box.getByRole('link', { name: 'Open in my email app' }).getAttribute('href');
    expect(mailto).toMatch(/^mailto:head@oakwood\.edu\?subject=How%20Oakwood%20Academy/);
    await expect(box.getByRole('link', { name: /Gmail/ })).toHaveAttribute('href', /^https:\/\/mail\.google\.com\/mail\/\?view=cm/);
    await expect(box.getByRole('link', { name: /Outlook/ })).toHaveAttribute('target', '_blank');

    await box.getByRole('button', { name: 'Send via our platform' }).click();
    await expect(box).toBeHidden(SEND_TIMEOUT);
    await expect(toast(page)).toContainText('Email Sent Successfully!');
    await expect(toast(page)).toContainText("Your email has been sent via our platform. We'll handle the follow-up process.");
    const contact = await contactOf(email);
    expect(contact?.properties).toMatchObject({
      choose_how_to_send_your_email: 'Send Via our platform',
      generated_email_subject: 'How Oakwood Academy can unlock mastery learning for every student',
    });
    expect(contact?.properties.generated_email_body).toContain('Dear Dr. Patel,');

    // The email can be reopened; it is sent, so the send options are gone.
    await page.getByRole('button', { name: 'View your email' }).click();
    await expect(box.getByTestId('send-options')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('automatic path: "Send via our platform" in the form sends by itself', async ({ page }) => {
    const email = unique('auto');
    await fake('contacts', { email });
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: 'Send via our platform' });

    await expect(dialog(page)).toBeVisible();
    await expect(toast(page)).toContainText('Email Sent Successfully!', SEND_TIMEOUT);
    await expect(dialog(page).getByRole('status').filter({ hasText: 'Sent via our platform' })).toBeVisible();
    await expect(dialog(page).getByTestId('send-options')).toHaveCount(0);
    expect((await contactOf(email))?.properties.choose_how_to_send_your_email).toBe('Send Via our platform');
  });

  test('failure path: a HubSpot refusal keeps the dialog open with the destructive toast', async ({ page }) => {
    const email = unique('fail');
    await fake('contacts', { email });
    await page.goto('/lead-the-change');
    await fillEmailForm(page, '#email-form', { email, choice: 'I will send it myself' });
    await expect(dialog(page)).toBeVisible();

    await fake('fail', { statuses: [400] });
    const send = dialog(page).getByRole('button', { name: 'Send via our platform' });
    await send.click();
    await expect(toast(page)).toContainText('Error', SEND_TIMEOUT);
    await expect(toast(page)).toContainText('Failed to send email via platform. Please try copying the content instead.');
    await expect(page.locator('[data-toast="destructive"]')).toBeVisible();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('alert')).toHaveText('Failed to send email via platform. Please try copying the content instead.');
    await expect(dialog(page).getByRole('button', { name: 'Send via our platform' })).toBeEnabled();
    expect((await contactOf(email))?.properties.choose_how_to_send_your_email).toBeUndefined();
    // The toast is above the modal (not under its backdrop), reachable and dismissible there.
    await page.locator('[data-toast="destructive"]').getByRole('button', { name: 'Dismiss notification' }).click();
    await expect(toast(page)).toHaveCount(0);
    await expect(dialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();
    await expect(page.locator('toast-region')).toHaveCount(1);
    expect(await page.locator('toast-region').evaluate((region) => region.closest('dialog'))).toBeNull();
  });
});

test.describe('/thank-you contact lookup', () => {
  test('a found meeting_link replaces the meeting URL; "Loading contact information..." shows meanwhile', async ({ page }) => {
    const email = unique('booked');
    await fake('contacts', { email, properties: { meeting_link: 'https://meet.example.org/from-crm' } });
    await fake('config', { delayMs: 700 });
    await page.goto(`/thank-you?invitee_email=${encodeURIComponent(email)}&invitee_full_name=Ana%20Lopez&meeting_url=https%3A%2F%2Fmeet.example.org%2Ffrom-query`);
    await expect(page.getByText('Loading contact information...')).toBeVisible();
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveAttribute('href', 'https://meet.example.org/from-crm');
    await expect(page.getByText('Loading contact information...')).toBeHidden();
  });

  test('without a match the meeting URL of the query string stays', async ({ page }) => {
    await page.goto(`/thank-you?invitee_email=${encodeURIComponent(unique('nobody'))}&meeting_url=https%3A%2F%2Fmeet.example.org%2Ffrom-query`);
    await page.waitForTimeout(800);
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveAttribute('href', 'https://meet.example.org/from-query');
  });

  test('a CRM meeting_link that is not http(s) is ignored', async ({ page }) => {
    const email = unique('hostile');
    await fake('contacts', { email, properties: { meeting_link: 'javascript:alert(1)' } });
    await page.goto(`/thank-you?invitee_email=${encodeURIComponent(email)}&meeting_url=https%3A%2F%2Fmeet.example.org%2Fsafe`);
    await page.waitForTimeout(800);
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveAttribute('href', 'https://meet.example.org/safe');
  });
});

test.describe('/form referSchool', () => {
  test('"Send via our platform" sends and opens the dialog without send options', async ({ page }) => {
    const email = unique('refer');
    await fake('contacts', { email });
    await page.goto('/form?type=referSchool&ambassadorId=amb-7');
    await fillEmailForm(page, '[data-form-type="referSchool"]', { email, choice: 'Send via our platform' });
    await expect(dialog(page)).toBeVisible();
    await expect(toast(page)).toContainText('Email Sent Successfully!', SEND_TIMEOUT);
    await expect(dialog(page).getByTestId('send-options')).toHaveCount(0);
  });
});
