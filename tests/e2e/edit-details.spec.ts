/**
 * Issue 32.1, "Fix what you typed": after the email is made, Edit details brings the form back
 * filled in, with JavaScript (the dialog, and after a reload on the same device) and without it
 * (from /your-email); an edit is checked like the first try.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fillEmailForm } from './helpers';

// Each send goes through a function and the database: slower than a page on this machine.
test.describe.configure({ timeout: 90_000 });
const SENT = { timeout: 20_000 };

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Your Email is Ready' });
const emailForm = (page: Page) => page.locator('#email-form form[data-native-form]');

/** Sends the email form, to a school address of its own (its letter is the first in rotation). */
const sendForm = (page: Page, values: { email: string; school?: string }) =>
  fillEmailForm(page, '#email-form', {
    ...values,
    choice: "I'll send it myself",
    grade: '3rd grade',
    school: values.school ?? 'Lakeside School',
    schoolEmail: `head@${values.email.split('@')[0]}.example`,
  });

test.describe('with JavaScript', () => {
  test('Edit details brings the form back filled in and focused; sending it again makes the corrected email', async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, { email: unique('edit'), school: 'Lakesdie School' });
    await expect(dialog(page).getByTestId('email-body')).toContainText('Lakesdie School', SENT);

    await dialog(page).getByRole('button', { name: 'Edit details' }).click();
    await expect(dialog(page)).toBeHidden();
    await expect(emailForm(page)).toBeVisible();
    await expect(emailForm(page).getByLabel(/Your full name/)).toBeFocused();
    await expect(emailForm(page).getByLabel(/^School name/)).toHaveValue('Lakesdie School');
    await expect(emailForm(page).getByLabel(/Child's grade/)).toHaveValue('3rd grade');
    // No stale "ready" panel is left beside the form.
    await expect(page.getByRole('button', { name: 'View your email' })).toHaveCount(0);

    await emailForm(page)
      .getByLabel(/^School name/)
      .fill('Lakeside School');
    await emailForm(page).locator('[data-submit]').click();
    await expect(dialog(page).getByTestId('email-body')).toContainText('Lakeside School', SENT);
    await expect(dialog(page).getByTestId('email-body')).not.toContainText('Lakesdie');
    await expect(dialog(page).getByTestId('email-subject')).toHaveText('How Lakeside School can unlock mastery learning for every student');
  });

  test('the panel under the form offers Edit details too', async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, { email: unique('panel') });
    await expect(dialog(page)).toBeVisible(SENT);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Edit details' }).click();
    await expect(emailForm(page).getByLabel(/^School name/)).toHaveValue('Lakeside School');
  });

  // The full run's: the same form and check as native-forms.spec.ts's "the email form: a link or an
  // address in a name is shown next to its field", in the gate; the test above proves the edit is that form.
  test('an edit is checked like the first try: a link in a name is refused, naming the field', { tag: '@full' }, async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, { email: unique('checked') });
    await dialog(page).getByRole('button', { name: 'Edit details' }).click(SENT);
    await emailForm(page)
      .getByLabel(/^School name/)
      .fill('Lakeside goo.gl/x');
    await emailForm(page).locator('[data-submit]').click();
    const school = emailForm(page).getByLabel(/^School name/);
    await expect(school).toHaveAttribute('aria-invalid', 'true');
    await expect(school).toBeFocused();
    await expect(emailForm(page).locator('[data-field="school_name"] [data-field-error]')).toContainText('without a web address');
    await expect(dialog(page)).toBeHidden();
  });

  test('after a reload on the same device the form is filled in again, until the parent clears it; no id or token is kept', async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, { email: unique('reload'), school: 'Oakwood Academy' });
    await expect(dialog(page)).toBeVisible(SENT);
    const kept = await page.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
    expect(JSON.stringify(kept)).toContain('Oakwood Academy');
    for (const value of Object.values(kept)) {
      const names = Object.keys(JSON.parse(value) as Record<string, unknown>);
      expect(names.filter((name) => name.startsWith('_') && !['_note', '_own_words'].includes(name))).toEqual([]);
      expect(names).not.toContain('referral_source');
    }
    expect(JSON.stringify(kept)).not.toMatch(/token|"id"/);

    await page.reload();
    await expect(emailForm(page).getByLabel(/^School name/)).toHaveValue('Oakwood Academy');
    await expect(emailForm(page).getByLabel("I'll send it myself")).toBeChecked();
    const notice = page.getByText('We filled in the details you typed before');
    await expect(notice).toBeVisible();
    await page.getByRole('button', { name: 'Clear them' }).click();
    await expect(emailForm(page).getByLabel(/^School name/)).toHaveValue('');
    await expect(notice).toHaveCount(0);
    await page.reload();
    await expect(emailForm(page).getByLabel(/^School name/)).toHaveValue('');
  });
});

async function withoutJavaScript(browser: Browser, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

test.describe('without JavaScript', () => {
  test('Edit details on /your-email leads to the form filled in; sending it makes the corrected email', async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto('/lead-the-change');
      await sendForm(page, { email: unique('nojs-edit'), school: 'Lakesdie School' });
      await expect(page).toHaveURL(/\/your-email\?id=.+&t=.+/, SENT);
      await expect(page.locator('[data-email-text]')).toContainText('Lakesdie School');

      await page.getByRole('link', { name: 'Edit details' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit your details');
      const form = page.locator('#form-response-form form');
      await expect(form.getByLabel(/^School name/)).toHaveValue('Lakesdie School');
      await expect(form.getByLabel(/^Your email/)).toHaveValue(/nojs-edit/);
      await expect(form.getByLabel("I'll send it myself")).toBeChecked();
      await form.getByLabel(/^School name/).fill('Lakeside School');
      await form.locator('[data-submit]').click();
      await expect(page).toHaveURL(/\/your-email\?id=.+&t=.+/, SENT);
      await expect(page.locator('[data-email-text]')).toContainText('Lakeside School');
      await expect(page.locator('[data-email-text]')).not.toContainText('Lakesdie');
    });
  });

  test('an edit with a link in a name is refused like the first try, naming the field', async ({ browser }) => {
    await withoutJavaScript(browser, async (page) => {
      await page.goto('/lead-the-change');
      await sendForm(page, { email: unique('nojs-refused') });
      await page.getByRole('link', { name: 'Edit details' }).click(SENT);
      const form = page.locator('#form-response-form form');
      await form.getByLabel(/Your full name/).fill('Ana https://evil.example');
      await form.locator('[data-submit]').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check your answers', SENT);
      await expect(page.locator('[data-field="full_name"] [data-field-error]')).toContainText('without a web address');
    });
  });
});
