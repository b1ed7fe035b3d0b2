/**
 * The e2e `test`: every page runs hermetically. HubSpot's form embed is replaced by the local
 * fake (tests/fakes/form-embed.js); every other request off this machine is aborted, as it would
 * fail here anyway. Use `embed: 'fail'` to simulate an embed that cannot load. Any
 * Content-Security-Policy violation is logged as a console error.
 */
import { test as base, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const fakeEmbed = readFileSync(join(import.meta.dirname, '..', 'fakes', 'form-embed.js'), 'utf8');

export const test = base.extend<{ embed: 'fake' | 'fail'; consoleErrors: string[] }>({
  embed: ['fake', { option: true }],
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
    await page.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort('blockedbyclient'));
    await page.route('https://js.hsforms.net/**', (route) =>
      embed === 'fake' ? route.fulfill({ body: fakeEmbed, contentType: 'application/javascript' }) : route.abort('failed'),
    );
    await use(page);
  },
});

export { expect };
