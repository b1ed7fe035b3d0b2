/**
 * Issue 31: each page loads only the JavaScript of what it has. The 25 KB budget of every route is
 * checked in the route's own load by frame.spec.ts ("every route", tests/e2e/script-budget.ts);
 * here, the forms' enhancement comes when a visitor turns to a form, and the email form's own
 * checks only with the email form.
 */
import { expect, test } from './fixtures';
import { watchScripts } from './script-budget';

test('a page with only the newsletter form loads its enhancement when the form is used, and never the email form’s checks', async ({ page }) => {
  const scripts = watchScripts(page);
  await page.goto('/why-this-matters');
  await page.waitForLoadState('networkidle');
  const names = () => [...scripts.fetched.keys()].map((url) => new URL(url).pathname);
  expect(names().filter((name) => /\/(enhance|form-checks)\./.test(name))).toEqual([]);

  const form = page.locator('#form-newsletter-footer form');
  await form.getByRole('textbox', { name: /email/i }).focus();
  await expect.poll(() => names().some((name) => /\/enhance\./.test(name))).toBe(true);
  // The enhancement works as before: a bad address is named beside its field, with no reload.
  await form.getByRole('textbox', { name: /email/i }).fill('not an address');
  await form.getByRole('button').click();
  await expect(form.getByRole('textbox', { name: /email/i })).toHaveAttribute('aria-invalid', 'true');
  await page.waitForLoadState('networkidle');
  expect(names().filter((name) => /\/form-checks\./.test(name))).toEqual([]);
});

test('the email form brings its own checks, and a submit before anything loaded still gets them', async ({ page }) => {
  const scripts = watchScripts(page);
  await page.goto('/lead-the-change');
  await page.waitForLoadState('networkidle');
  const names = () => [...scripts.fetched.keys()].map((url) => new URL(url).pathname);
  expect(names().filter((name) => /\/(enhance|form-checks)\./.test(name))).toEqual([]);
  const form = page.locator('#email-form form');
  await form.getByRole('textbox', { name: 'Your full name' }).fill('Ana https://evil.example');
  await form.getByRole('textbox', { name: 'Your full name' }).press('Enter');
  await expect(form.getByRole('textbox', { name: 'Your full name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('[data-field="full_name"] [data-field-error]')).toContainText('without a web address');
  expect(names().some((name) => /\/form-checks\./.test(name))).toBe(true);
});
