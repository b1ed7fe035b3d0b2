import { expect, test } from './fixtures';

const inView = (selector: string) => (page: import('@playwright/test').Page) =>
  page.locator(selector).evaluate((el) => {
    const rect = el.getBoundingClientRect();
    return rect.top >= -2 && rect.top < window.innerHeight / 2;
  });

test.describe('/lead-the-change', () => {
  test('has both steps, their anchors and the closing call to action', async ({ page, consoleErrors }) => {
    await page.goto('/lead-the-change');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lead the Change');
    await expect(page.getByRole('heading', { name: 'Start Here: Your First Email' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Amplify the Message Online' })).toBeVisible();
    for (const id of ['email-form', 'start-here-section', 'amplify-message-online', 'amplify-section']) {
      await expect(page.locator(`#${id}`)).toHaveCount(1);
    }
    await expect(page.locator('#email-form native-form[data-purpose="emailGenerator"]')).toHaveCount(1);
    await expect(page.locator('#amplify-section native-form[data-purpose="resources"]')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Lead The Change', exact: true })).toHaveAttribute('href', '#email-form');
    await expect(page.getByRole('link', { name: 'Get all resources' })).toHaveAttribute('href', '#amplify-section');
    expect(consoleErrors).toEqual([]);
  });

  test('scrolls to the hash target 500 ms after load', async ({ page }) => {
    await page.goto('/lead-the-change#amplify-section');
    await expect.poll(() => inView('#amplify-section')(page), { timeout: 4000 }).toBe(true);
  });

  test('smooth-scrolls to the email form on a hash change to #email-form', async ({ page }) => {
    await page.goto('/lead-the-change');
    await page.waitForTimeout(700);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.evaluate(() => {
      location.hash = 'email-form';
    });
    await expect.poll(() => inView('#email-form')(page), { timeout: 4000 }).toBe(true);
  });

  test('starts at the top without a hash', async ({ page }) => {
    await page.goto('/lead-the-change');
    await page.waitForTimeout(700);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

// Issue 13: the pages with the email form load no React and at most 25 KB of compressed
// JavaScript until the parent touches the form; the dialog's code comes then.
for (const path of ['/lead-the-change', '/form?type=referSchool']) {
  test(`${path}: at most 25 KB of compressed JavaScript on the first load, the dialog's code on first touch`, async ({ page }) => {
    const { gzipSync } = await import('node:zlib');
    const scripts = new Map<string, number>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body().catch(() => undefined);
      if (body) scripts.set(response.url(), gzipSync(body, { level: 9 }).length);
    });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const firstLoad = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    expect(scripts.size).toBeGreaterThan(0);
    expect(firstLoad, [...scripts.keys()].join('\n')).toBeLessThanOrEqual(25 * 1024);
    const before = new Set(scripts.keys());

    const form = page.locator('native-form[data-purpose] form').first();
    await form.getByRole('textbox').first().focus();
    await page.waitForLoadState('networkidle');
    await expect.poll(() => [...scripts.keys()].filter((url) => !before.has(url)).length).toBeGreaterThan(0);
  });
}
