/**
 * The e2e `test`: every page runs hermetically. Nothing leaves this machine: the browser sends
 * every request for another host to a proxy that is not there (playwright.config.ts,
 * `offlineProxy`), so it fails as it would here anyway, without routing, which would pass every
 * request of every page through the test runner (a third of a run's CPU went to the browser and the
 * runner). Only the embed specs route: HubSpot's form embeds are replaced by the local stand-ins,
 * the legacy v2 script (`/forms/embed/v2.js`) by tests/fakes/form-embed.js, the v4 script of a
 * portal (`/forms/embed/{portalId}.js`, on js.hsforms.net or a region's js-{region}.hsforms.net) by
 * tests/fakes/form-embed-v4.js (`embed: 'fake'`, the embed project's); `embed: 'fail'` simulates
 * embeds that cannot load. Any Content-Security-Policy violation is logged as a console error.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptsReady } from '../../src/lib/build/page-scripts';

const fakeEmbed = readFileSync(join(import.meta.dirname, '..', 'fakes', 'form-embed.js'), 'utf8');
const fakeEmbedV4 = readFileSync(join(import.meta.dirname, '..', 'fakes', 'form-embed-v4.js'), 'utf8');

/** The stand-in for a URL of HubSpot's embed hosts, if it is one of the two embed scripts. */
function standInFor(url: string): string | undefined {
  const { pathname } = new URL(url);
  if (pathname === '/forms/embed/v2.js') return fakeEmbed;
  if (/^\/forms\/embed\/\d+\.js$/.test(pathname)) return fakeEmbedV4;
  return undefined;
}

export const test = base.extend<{ embed: 'none' | 'fake' | 'fail'; consoleErrors: string[] }>({
  embed: ['none', { option: true }],
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await use(errors);
  },
  page: async ({ page, embed }, use) => {
    // Playwright runs the most recently registered matching route first.
    // Chrome reports some Content-Security-Policy violations (an eval probe, say) only as DevTools
    // issues; make every one a console error, which the tests treat as a failure.
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content-Security-Policy violation: ${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`),
      ),
    );
    // The page-view beacon stays quiet, as for a visitor who sends Global Privacy Control (the
    // beacon's own opt-out): each beacon is a function run that packs a fresh worker on the local
    // server, and half of the suite's function runs were page views nobody read. The beacon and its
    // counting are proven in tests/e2e/insights.spec.ts (its own contexts) and tests/unit.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { configurable: true, get: () => true }));
    // A page's scripts load just after its first paint (src/lib/build/page-scripts.ts): a test, faster than
    // any person, acts once they have run.
    for (const name of ['goto', 'reload'] as const) {
      const navigate = page[name].bind(page) as Page['reload'];
      page[name] = (async (...args: unknown[]) => {
        const response = await (navigate as (...rest: unknown[]) => ReturnType<Page['reload']>)(...args);
        await page.waitForFunction(scriptsReady, null, { timeout: 15_000 });
        return response;
      }) as never;
    }
    if (embed !== 'none') {
      await page.route(/^https:\/\/js(-[a-z]{2,3}\d{1,2})?\.hsforms\.net\//, (route) => {
        const body = embed === 'fake' ? standInFor(route.request().url()) : undefined;
        return body ? route.fulfill({ body, contentType: 'application/javascript' }) : route.abort('failed');
      });
    }
    await use(page);
  },
});

export { expect };
