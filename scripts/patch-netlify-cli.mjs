#!/usr/bin/env node
/**
 * `npm install` (postinstall): three edits to netlify-cli's local server (`netlify serve`, used by
 * `npm start` and the tests), each of one line; when netlify-cli's code no longer has the line an
 * edit replaces, the script says so and leaves that file alone.
 * tests/unit/netlify-cli-patch.test.ts keeps the installed copy patched.
 *
 * 1. A function's 403 or 404 is answered once, as Netlify does when deployed. netlify-cli mimics the
 *    CDN's "/path → /path.html, /path.htm, /path/index.html, /path/index.htm" lookup for every 403 or
 *    404 it proxies, including a function's own answer on a `config.path` route: the same function
 *    is then run four more times with those paths (a POST with its body), so one refused request
 *    counts five times against a limit and costs five cold starts. netlify-cli fixed this only for
 *    `/.netlify/functions/…` URLs (netlify/cli#1442); this applies the same rule to every request
 *    the proxy routes to a function.
 * 2. Warm instances: with `LOCAL_WARM_FUNCTIONS=1` (scripts/start.mjs sets it), a call of a modern
 *    function goes to an instance kept between calls (scripts/local-functions/warm-pool.mjs) instead
 *    of a new worker that imports everything again; without it, netlify-cli's own worker runs it.
 * 3. The packaged functions' zips are extracted by Debian's `unzip` when it is there
 *    (scripts/local-functions/unzip.mjs): 5 s instead of 34 before the site is up.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'node_modules', 'netlify-cli', 'dist');

export const PROXY_FILE = join(cli, 'utils', 'proxy.js');
export const ORIGINAL = 'req.alternativePaths = alternativePathsFor(requestURL.pathname).map((filePath) => filePath + requestURL.search);';
export const MARK = '/* patched by scripts/patch-netlify-cli.mjs: a function answers once */';
export const PATCHED = `${MARK} req.alternativePaths = options?.headers?.[NFFunctionName] ? [] : alternativePathsFor(requestURL.pathname).map((filePath) => filePath + requestURL.search);`;

export const ZIP_FILE = join(cli, 'utils', 'zip.js');
export const ZIP_ORIGINAL = 'export const extractZip = async (zipPath, { dir }) => {';
export const ZIP_MARK = '/* patched by scripts/patch-netlify-cli.mjs: unzip */';
export const UNZIP_URL = pathToFileURL(join(root, 'scripts', 'local-functions', 'unzip.mjs')).href;
export const ZIP_PATCHED = `${ZIP_MARK} export const extractZip = async (zipPath, options) => (await import(${JSON.stringify(UNZIP_URL)})).extractWithUnzip(zipPath, options, extractZipInJavaScript);\nconst extractZipInJavaScript = async (zipPath, { dir }) => {`;

export const RUNTIME_FILE = join(cli, 'lib', 'functions', 'runtimes', 'js', 'index.js');
export const RUNTIME_ORIGINAL = 'const worker = new Worker(workerURL, {';
export const RUNTIME_MARK = '/* patched by scripts/patch-netlify-cli.mjs: warm instances */';
export const POOL_URL = pathToFileURL(join(root, 'scripts', 'local-functions', 'warm-pool.mjs')).href;
export const RUNTIME_PATCHED = `${RUNTIME_MARK} const worker = (process.env.LOCAL_WARM_FUNCTIONS === '1' ? (await import(${JSON.stringify(POOL_URL)})).warmWorker : (url, options) => new Worker(url, options))(workerURL, {`;

/** The proxy's source with the fix applied; `undefined` when the line to edit is not there. */
export function patchProxySource(source) {
  if (source.includes(MARK)) return source;
  if (!source.includes(ORIGINAL) || !source.includes('NFFunctionName')) return undefined;
  return source.replace(ORIGINAL, PATCHED);
}

/** The JavaScript runtime's source with warm instances wired in; `undefined` when the line to edit is not there. */
export function patchRuntimeSource(source) {
  if (source.includes(RUNTIME_MARK))
    return source.replace(/^.*\/\* patched by scripts\/patch-netlify-cli\.mjs: warm instances \*\/.*$/m, `    ${RUNTIME_PATCHED}`);
  if (!source.includes(RUNTIME_ORIGINAL) || !source.includes('export const invokeFunction = async')) return undefined;
  return source.replace(RUNTIME_ORIGINAL, RUNTIME_PATCHED);
}

/** netlify-cli's zip extractor's source with `unzip` tried first; `undefined` when the line to edit is not there. */
export function patchZipSource(source) {
  if (source.includes(ZIP_MARK)) return source;
  if (!source.includes(ZIP_ORIGINAL) || source.includes('extractZipInJavaScript')) return undefined;
  return source.replace(ZIP_ORIGINAL, ZIP_PATCHED);
}

function patchFile(file, patch, what) {
  if (!existsSync(file)) {
    console.log(`patch-netlify-cli: netlify-cli is not installed; nothing to patch (${what}).`);
    return;
  }
  const source = readFileSync(file, 'utf8');
  const patched = patch(source);
  if (patched === undefined) console.warn(`patch-netlify-cli: netlify-cli changed; its ${what} was left as it is (see scripts/patch-netlify-cli.mjs).`);
  else if (patched !== source) writeFileSync(file, patched);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  patchFile(PROXY_FILE, patchProxySource, 'proxy');
  patchFile(RUNTIME_FILE, patchRuntimeSource, 'function runtime');
  patchFile(ZIP_FILE, patchZipSource, 'zip extractor');
}
