/**
 * "Your data", as a parent meets it: the email form sent without JavaScript leads to /your-email,
 * whose "Your data" link shows their records, downloads them as JSON and deletes them in two
 * steps. HubSpot is asked once to delete the contact, and the admin page lists neither the
 * submission nor the address any more (only the masked HubSpot deletion, done).
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { fakeUrls } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { axeViolations, wcagTags } from './widths';
import { signInAsAdmin } from './helpers';
import { linkTo, waitForEmail } from './mail';

// Each step is a function call with a database read or two: on a busy two-core machine that is slow.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

async function fake(path: string, body?: unknown) {
  const response = await fetch(`${fakeUrls.hubspot}/__fake/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return response.json();
}

/** Fills the email form as a parent would, choosing to send it themselves. */
async function fillEmailForm(form: Locator, email: string): Promise<void> {
  for (const field of await form.locator('[data-field]').all()) {
    if (!(await field.isVisible())) continue;
    const type = await field.getAttribute('data-field-type');
    const name = await field.getAttribute('data-field');
    const control = field.locator('input:not([type=hidden]), select, textarea').first();
    if (type === 'email') await control.fill(name === 'email' ? email : 'head@willow.edu');
    else if (type === 'radio') await field.locator('input[type=radio]').last().check();
    else if (type === 'dropdown') await control.selectOption({ index: 1 });
    else if (type === 'single_checkbox') await control.check();
    else if (type === 'multi_line_text') await control.fill('');
    else
      await control.fill(name === 'child_grade' ? '5th grade' : name === 'school_name' ? 'Willow School' : name === 'full_name' ? 'Rosa Diaz' : `Test ${name}`);
  }
}

async function submissionRows(page: Page, email: string) {
  await page.getByRole('tab', { name: 'Form Submissions' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Form', { exact: true }).selectOption('emailGenerator');
  return panel.getByRole('row').filter({ hasText: email });
}

test('a parent sees, downloads and deletes their data; HubSpot is asked once; the admin lists forget them', async ({ browser, page }) => {
  const email = `rosa-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  await fake('contacts', { email });

  const context = await browser.newContext({ javaScriptEnabled: false, acceptDownloads: true });
  const parent = await context.newPage();
  try {
    await parent.goto('/lead-the-change');
    const region = parent.locator('native-form#form-emailGenerator');
    await fillEmailForm(region.locator('form'), email);
    await region.locator('[data-submit]').click();
    await expect(parent).toHaveURL(/\/your-email\?id=/);
    await expect(parent.getByRole('heading', { level: 1 })).toHaveText('Your Email is Ready');

    // A page reached by typing an address never carries the data link: it asks for one, which only
    // the address's own inbox gets.
    await parent.getByRole('main').getByRole('link', { name: 'Your data' }).click();
    await expect(parent).toHaveURL(/\/your-data$/);
    await parent.getByLabel('Your email address').fill(email);
    await parent.getByRole('button', { name: 'Email me a link' }).click();
    await parent.goto(linkTo(await waitForEmail(email, { subject: 'Your data at Mastery Parents', timeout: 20_000 }), '/your-data'));
    await expect(parent).toHaveURL(/\/your-data\?token=/);
    const dataUrl = parent.url();
    await expect(parent.getByRole('heading', { level: 1 })).toHaveText('Your data');
    await expect(parent.getByRole('main')).toContainText(email);
    await expect(parent.getByRole('heading', { name: 'Forms you sent (1)' })).toBeVisible();
    await expect(parent.getByRole('heading', { name: 'Email drafts (1)' })).toBeVisible();

    const [download] = await Promise.all([parent.waitForEvent('download'), parent.getByRole('link', { name: 'Download my data (JSON)' }).click()]);
    expect(download.suggestedFilename()).toBe('your-data.json');
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      email: string;
      formSubmissions: Array<{ values: Record<string, string> }>;
      emailDrafts: unknown[];
    };
    expect(exported.email).toBe(email);
    expect(exported.formSubmissions.map((record) => record.values.email)).toEqual([email]);
    expect(exported.formSubmissions[0]!.values.school_name).toBe('Willow School');
    expect(exported.emailDrafts).toHaveLength(1);

    // The page and its confirmation step, as a screen reader meets them: nothing axe objects to.
    const axe = () => axeViolations(page, { tags: wcagTags });
    await page.goto(dataUrl);
    await expect(page.getByRole('heading', { name: 'Forms you sent (1)' })).toBeVisible();
    expect(await axe()).toEqual([]);
    await page.goto('/your-data');
    await expect(page.getByLabel('Your email address')).toBeVisible();
    expect(await axe()).toEqual([]);

    // The owner sees the submission before.
    await signInAsAdmin(page);
    await expect(await submissionRows(page, email)).toHaveCount(1);

    await parent.getByRole('button', { name: 'Delete my data' }).click();
    await expect(parent.getByRole('heading', { level: 1 })).toHaveText('Delete your data?');
    await parent.getByRole('button', { name: 'Yes, delete my data' }).click();
    await expect(parent.getByRole('heading', { level: 1 })).toHaveText('Your data has been deleted');

    // HubSpot received the deletion of this contact once.
    await expect
      .poll(async () =>
        ((await fake('calls')) as { gdprDeletions: Array<{ objectId: string; idProperty?: string; status: number }> }).gdprDeletions.filter(
          (entry) => entry.objectId === email,
        ),
      )
      .toEqual([{ objectId: email, idProperty: 'email', status: 204 }]);

    // Nothing is left to see, and the admin lists no longer have it.
    await parent.goto(dataUrl);
    await expect(parent.getByRole('main')).toContainText('keeps nothing');
    await page.reload();
    await expect(page.getByText('Signed in as')).toBeVisible();
    await expect(await submissionRows(page, email)).toHaveCount(0);
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const deletions = page.getByRole('region', { name: 'Data deletions table' });
    await expect(deletions.getByRole('row').filter({ hasText: 'r•••@example.org' }).first()).toContainText('Deleted');
    await expect(page.getByRole('tabpanel')).not.toContainText(email);
  } finally {
    await context.close();
  }
});
