/**
 * Nothing a page asks for leaves this machine: every request for another host goes to a proxy that
 * is not there (playwright.config.ts, `offlineProxy`), and loopback is never proxied. Without the
 * rule the request would be tried, and fail otherwise (no such name here) or reach the host.
 */
import { expect, test } from './fixtures';

test('a request for another host fails at the proxy; the site on loopback is reached', async ({ page, context }) => {
  // A blank page (no Content-Security-Policy of the site's to refuse it first).
  const blank = await context.newPage();
  await blank.goto('about:blank');
  const failed = blank.waitForEvent('requestfailed');
  await blank.evaluate(() => {
    new Image().src = 'https://example.org/pixel.png';
  });
  expect((await failed).failure()?.errorText).toBe('net::ERR_PROXY_CONNECTION_FAILED');
  await expect(blank.goto('https://example.org/')).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
