/**
 * Issue 31: each page loads only the JavaScript of what it has. A page without an island loads at
 * most 25 KB of script (raw, as the browser runs it: the module files it fetches and its inline
 * scripts), the home page at most 14 KB compressed; the forms' enhancement comes when a visitor
 * turns to a form, and the email form's own checks only with the email form.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { routes } from './routes';
import { splitLocale } from '../../src/lib/i18n/paths';

const KB = 1024;

/** The scripts a page has fetched so far (by URL, their bodies) and its inline scripts' text. */
function watchScripts(page: Page) {
  const fetched = new Map<string, Buffer>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => undefined);
    if (body) fetched.set(response.url(), body);
  });
  const inline = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('script:not([src])')]
        .filter((script) => !/json/.test(script.getAttribute('type') ?? ''))
        .map((script) => script.textContent ?? '')
        .join(''),
    );
  return { fetched, inline };
}

const sum = (buffers: Iterable<Buffer>) => [...buffers].reduce((total, body) => total + body.length, 0);

// In every language: /es/thank-you has the booking island too.
for (const { path } of routes.filter((route) => !['/thank-you', '/webhook-config'].includes(splitLocale(route.path).path))) {
  test(`${path} loads at most 25 KB of script`, async ({ page }) => {
    const scripts = watchScripts(page);
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Only the pages with a React island may load more (/thank-you, /webhook-config).
    await expect(page.locator('astro-island')).toHaveCount(0);
    const inline = await scripts.inline();
    const raw = sum(scripts.fetched.values()) + Buffer.byteLength(inline);
    expect(raw, [...scripts.fetched.keys()].map((url) => new URL(url).pathname).join('\n')).toBeLessThanOrEqual(25 * KB);
    if (path === '/') {
      const compressed = [...scripts.fetched.values()].reduce((total, body) => total + gzipSync(body, { level: 9 }).length, 0) + gzipSync(inline).length;
      expect(compressed).toBeLessThanOrEqual(14 * KB);
    }
  });
}

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
