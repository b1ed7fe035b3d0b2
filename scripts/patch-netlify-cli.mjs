#!/usr/bin/env node
/**
 * `npm install` (postinstall): makes the local server (`netlify serve`, used by `npm start` and the
 * tests) answer a function's 403 or 404 once, as Netlify does when deployed.
 *
 * netlify-cli mimics the CDN's "/path → /path.html, /path.htm, /path/index.html, /path/index.htm"
 * lookup for every 403 or 404 it proxies, including a function's own answer on a `config.path`
 * route: the same function is then run four more times with those paths (a POST with its body), so
 * one refused request counts five times against a limit and costs five cold starts. netlify-cli
 * fixed this only for `/.netlify/functions/…` URLs (netlify/cli#1442); this applies the same rule
 * to every request the proxy routes to a function. Nothing else changes; when netlify-cli's code no
 * longer has the line this edits, the script says so and leaves the file alone.
 * tests/unit/netlify-cli-patch.test.ts keeps the installed copy patched.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROXY_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'netlify-cli', 'dist', 'utils', 'proxy.js');
export const ORIGINAL = 'req.alternativePaths = alternativePathsFor(requestURL.pathname).map((filePath) => filePath + requestURL.search);';
export const MARK = '/* patched by scripts/patch-netlify-cli.mjs: a function answers once */';
export const PATCHED = `${MARK} req.alternativePaths = options?.headers?.[NFFunctionName] ? [] : alternativePathsFor(requestURL.pathname).map((filePath) => filePath + requestURL.search);`;

/** The proxy's source with the fix applied; `undefined` when the line to edit is not there. */
export function patchProxySource(source) {
  if (source.includes(MARK)) return source;
  if (!source.includes(ORIGINAL) || !source.includes('NFFunctionName')) return undefined;
  return source.replace(ORIGINAL, PATCHED);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(PROXY_FILE)) {
    console.log('patch-netlify-cli: netlify-cli is not installed; nothing to patch.');
  } else {
    const source = readFileSync(PROXY_FILE, 'utf8');
    const patched = patchProxySource(source);
    if (patched === undefined) console.warn('patch-netlify-cli: netlify-cli changed; its proxy was left as it is (see scripts/patch-netlify-cli.mjs).');
    else if (patched !== source) writeFileSync(PROXY_FILE, patched);
  }
}
