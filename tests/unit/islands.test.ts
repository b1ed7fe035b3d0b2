/**
 * Every island that hydrates when the browser is idle (`client:idle`) does so within a time limit
 * as well: a browser may give a page no idle period at all (a busy phone's main thread, or the
 * headless Chromium of the e2e tests, which draws no frame unless asked and left the admin page's
 * sign-in disabled for good). Without `{ timeout }`, such an island can stay as the server drew it.
 */
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const files = globSync('src/**/*.astro', { cwd: root });

describe('client:idle islands', () => {
  it('finds the pages that use them', () => {
    const users = files.filter((file) => readFileSync(join(root, file), 'utf8').includes('client:idle'));
    // /thank-you's booking island starts when it is shown (client:visible), not when the browser is idle.
    expect(users).toEqual(expect.arrayContaining(['src/pages/webhook-config.astro']));
  });

  it('gives each one a timeout', () => {
    const untimed = files.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/client:idle(=\{\{[^}]*\}\})?/g)]
        .filter(([, options]) => !/timeout:\s*\d+/.test(options ?? ''))
        .map(([use]) => `${file}: ${use}`),
    );
    expect(untimed).toEqual([]);
  });
});
