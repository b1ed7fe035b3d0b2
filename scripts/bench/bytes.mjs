/**
 * Bytes per route, read from the production build: HTML, and the JavaScript a route can load
 * (its module scripts and, transitively, their static imports; islands' component and renderer
 * code counted separately), gzip-compressed as a CDN serves them. Also says whether the React
 * runtime is on the page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, table } from './_server.mjs';

export const title = 'Bytes per route (gzip, from dist/)';

// BENCH_STATIC=<dir>: another build's files (e.g. a copy of main's, for a before and after).
const dist = process.env.BENCH_STATIC ? resolve(root, process.env.BENCH_STATIC) : join(root, 'dist');
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

function htmlFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'pagefind' || entry === '_astro' ? [] : htmlFiles(full);
    return entry.endsWith('.html') ? [full] : [];
  });
}

/** A JS file and everything it imports statically (what the browser fetches before running it). */
function closure(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return seen;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(/(?:import|export)\s*(?:[^'"()]*?from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    closure(join(file, '..', match[1]), seen);
  }
  return seen;
}

export async function run() {
  if (!existsSync(dist)) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
  const rows = [];
  for (const file of htmlFiles(dist).sort()) {
    const html = readFileSync(file, 'utf8');
    const route = `/${relative(dist, file)
      .replace(/\.html$/, '')
      .replace(/(^|\/)index$/, '')}`;
    // Module scripts, and those the page's loader imports after the first paint (src/lib/build/page-scripts.ts).
    const loader = /<script type="module" data-page-scripts>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const frameScripts = [
      ...[...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1]),
      ...[...loader.matchAll(/"(\/_astro\/[\w.-]+\.js)"/g)].map((m) => m[1]),
    ];
    const islandUrls = [...html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)].map((m) => m[1]);
    const inline = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('');
    const files = (urls) => {
      const set = new Set();
      for (const url of urls) closure(join(dist, url.replace(/^\//, '')), set);
      return set;
    };
    const frame = files(frameScripts);
    const islands = files(islandUrls);
    for (const f of frame) islands.delete(f);
    const size = (set) => [...set].reduce((sum, f) => sum + gz(readFileSync(f)), 0);
    const react = [...islands].some(
      (f) => /react|jsx-runtime|client\.[\w-]+\.js$/.test(readFileSync(f, 'utf8').slice(0, 4000)) || /client\.[\w-]+\.js$/.test(f),
    );
    rows.push([
      route || '/',
      kb(gz(Buffer.from(html))),
      kb(size(frame) + gz(Buffer.from(inline))),
      islandUrls.length ? kb(size(islands)) : '0.0',
      islandUrls.length / 2,
      islandUrls.length ? (react ? 'yes' : 'no') : 'no',
    ]);
  }
  table(['route', 'HTML KB', 'frame JS KB', 'island JS KB', 'islands', 'React'], rows);
}
