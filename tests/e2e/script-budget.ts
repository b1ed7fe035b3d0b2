/**
 * Issue 31: each page loads only the JavaScript of what it has. A page without an island loads at
 * most 25 KB of script (raw, as the browser runs it: the module files it fetches and its inline
 * scripts), the home page at most 14 KB compressed. Checked on every route by frame.spec.ts's
 * route test, in the same load of the page; the forms' enhancement, which comes only when a
 * visitor turns to a form, by bytes.spec.ts.
 */
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { splitLocale } from '../../src/lib/shared/i18n/paths';

export const KB = 1024;

/** The scripts a page has fetched so far (by URL, their bodies) and its inline scripts' text. Call before the page loads. */
export function watchScripts(page: Page) {
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

/**
 * Whether a route is held to the budget: only the admin's page, a React island, may load more, in
 * every language. /thank-you as its route is visited, without a booking, is held too: its island
 * (React, 75 KB) starts only for a booking (src/pages/_thank-you/ThankYou.astro).
 */
export const heldToScriptBudget = (path: string) => !['/webhook-config'].includes(splitLocale(path).path);

/** Expects the page, loaded and quiet and not yet scrolled, to have loaded at most 25 KB of script (the home page 14 KB compressed). */
export async function expectWithinScriptBudget(page: Page, path: string, scripts: ReturnType<typeof watchScripts>): Promise<void> {
  await page.waitForLoadState('networkidle');
  // No island has started (Astro takes `ssr` off an island once it has): /thank-you's waits for a booking.
  await expect(page.locator('astro-island:not([ssr])')).toHaveCount(0);
  const inline = await scripts.inline();
  const raw = sum(scripts.fetched.values()) + Buffer.byteLength(inline);
  expect(raw, [...scripts.fetched.keys()].map((url) => new URL(url).pathname).join('\n')).toBeLessThanOrEqual(25 * KB);
  if (path === '/') {
    const compressed = [...scripts.fetched.values()].reduce((total, body) => total + gzipSync(body, { level: 9 }).length, 0) + gzipSync(inline).length;
    expect(compressed).toBeLessThanOrEqual(14 * KB);
  }
}
