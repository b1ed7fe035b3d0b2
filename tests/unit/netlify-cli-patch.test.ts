/**
 * The local server runs a function once per request: `npm install` patches netlify-cli's proxy so
 * that a function's 403 or 404 is not retried as four static paths (scripts/patch-netlify-cli.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MARK, ORIGINAL, PROXY_FILE, patchProxySource } from '../../scripts/patch-netlify-cli.mjs';

describe('netlify-cli patch', () => {
  it('is applied to the installed netlify-cli (npm install runs it)', () => {
    const source = readFileSync(PROXY_FILE, 'utf8');
    expect(source).toContain(MARK);
    expect(source).not.toContain(ORIGINAL);
    // The patched line skips the static-path retries only for requests routed to a function.
    expect(source).toMatch(/options\?\.headers\?\.\[NFFunctionName\] \? \[\] : alternativePathsFor/);
  });

  it('is idempotent, and leaves a proxy it does not recognise alone', () => {
    const once = patchProxySource(`import { NFFunctionName } from './headers.js';\n${ORIGINAL}\n`);
    expect(once).toContain(MARK);
    expect(patchProxySource(once)).toBe(once);
    expect(patchProxySource('export const somethingElse = 1;')).toBeUndefined();
  });
});
