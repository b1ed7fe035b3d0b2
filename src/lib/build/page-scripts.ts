/**
 * A built page's module scripts start loading after its first paint. Nothing on a page needs
 * JavaScript to be read (the frame, the forms and the searches work without it), but a browser
 * fetches every `<script type="module" src>` it finds while the document is still arriving, so on
 * a slow network those requests share the bandwidth the document needs, and Lighthouse counts
 * each one finished before the largest paint as part of that paint (its LCP then trailed FCP by
 * 50-430 ms with 6-9 KB of scripts). One inline loader at the end of the body imports the same
 * files once the first paint is on screen (./first-paint.ts; at once in a hidden tab); its
 * Content-Security-Policy hash joins the page's policy. The scripts never depended on running in
 * document order or before DOMContentLoaded; the one that must run before the first paint (the
 * `js` class and the scroll position) is inline in the head.
 */
import { createHash } from 'node:crypto';
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { afterFirstPaint } from './first-paint';

const MODULE_SCRIPT = /<script type="module" src="(\/_astro\/[\w.-]+\.js)"><\/script>/g;

/**
 * The loader for these scripts: once the first paint is on the screen (./first-paint.ts), or at once in a hidden tab.
 * Once they have all run, `<html data-scripts="ready">` says so (the tests wait for it before they
 * act faster than a person could).
 */
export function loaderCode(sources: readonly string[]): string {
  return `const load=()=>Promise.all(${JSON.stringify(sources)}.map((src)=>import(src))).finally(()=>{document.documentElement.dataset.scripts='ready'});${afterFirstPaint('load')};`;
}

/**
 * Whether the page's scripts have run, or it has none to wait for (no JavaScript, no loader). For
 * tests, which run it in the page: self-contained.
 */
export function scriptsReady(): boolean {
  const root = document.documentElement;
  return root.classList.contains('no-js') || !document.querySelector('script[data-page-scripts]') || root.dataset.scripts === 'ready';
}

const cspHash = (code: string) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`;

/** The page with its module scripts loaded by the loader; unchanged when it has none. */
export function deferPageScripts(html: string): string {
  const sources = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  if (sources.length === 0 || !html.includes('</body>')) return html;
  const code = loaderCode([...new Set(sources)]);
  return html
    .replace(MODULE_SCRIPT, '')
    .replace('</body>', () => `<script type="module" data-page-scripts>${code}</script></body>`)
    .replace(
      /(<meta http-equiv="content-security-policy" content="[^"]*?script-src)( )/,
      (_all, start: string, space: string) => `${start}${space}${cspHash(code)}${space}`,
    );
}

export function deferScriptsInPages(dist: string): number {
  let changed = 0;
  for (const file of globSync('**/*.html', { cwd: dist })) {
    const path = join(dist, file);
    const html = readFileSync(path, 'utf8');
    const deferred = deferPageScripts(html);
    if (deferred === html) continue;
    writeFileSync(path, deferred);
    changed++;
  }
  return changed;
}

export function pageScriptsAfterFirstPaint(): AstroIntegration {
  return {
    name: 'page-scripts',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const pages = deferScriptsInPages(fileURLToPath(dir));
        logger.info(`${pages} pages load their scripts after their first paint.`);
      },
    },
  };
}
