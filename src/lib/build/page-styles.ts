/**
 * Each built page keeps, in its inline stylesheet, only the rules that can apply to it. Tailwind
 * writes one stylesheet for the whole site (about 50 KB, 10 KB compressed), and the build inlines
 * it in every page so that nothing but the document blocks the first paint; a page uses a fraction
 * of it, and the rest filled most of the first 14 KB round trip, pushing the page's own content
 * (its largest text) into a later one.
 *
 * A rule is dropped only when its selector needs a class that appears nowhere the page can get a
 * class from: the page's HTML (inline scripts included) and every script it can load (its module
 * scripts and islands, and what they import, statically or on demand). Rules without a class, and
 * classes inside `:not()`, `:is()` and the like, are always kept. Pages that a function fills in
 * at request time (`framePages`) keep the whole stylesheet. The Content-Security-Policy hash of a
 * changed `<style>` is replaced with the new one.
 */
import { createHash } from 'node:crypto';
import { existsSync, globSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { transform, type SelectorComponent } from 'lightningcss';

/** Built pages whose content functions fill in at request time, with any of the site's classes. */
export const framePages = ['form-response.html', 'es/form-response.html', 'search.html', 'school-page.html', 'es/school-page.html'] as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };

/** Every word a class could be spelled as in this text (HTML, or a script's string literals). */
export function classTokens(text: string, into = new Set<string>()): Set<string> {
  for (const piece of text.split(/[\s"'`\\]+/)) {
    if (piece) into.add(piece.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => ENTITIES[name] ?? _));
  }
  return into;
}

/** The scripts under `dist` a file names (`/_astro/x.js`, `./x.js`): its imports, static or not. */
function namedScripts(code: string, dist: string): string[] {
  const files = new Set<string>();
  for (const [name] of code.matchAll(/[\w.-]+\.js(?![\w.])/g)) {
    const file = join(dist, '_astro', name);
    if (existsSync(file)) files.add(file);
  }
  return [...files];
}

/** The scripts a page can load: what it names, and what those name, transitively. */
export function pageScripts(html: string, dist: string): string[] {
  const seen = new Set<string>();
  const queue = namedScripts(html, dist);
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...namedScripts(readFileSync(file, 'utf8'), dist));
  }
  return [...seen];
}

/** The classes a selector needs at its own level (not those inside a pseudo-class's arguments). */
function requiredClasses(selector: SelectorComponent[]): string[] {
  return selector.flatMap((component) => (component.type === 'class' ? [component.name] : []));
}

/**
 * The stylesheet without the rules no element of the page can match, and then without the custom
 * properties nothing left reads (the theme declares every design token the site uses anywhere).
 */
export function pruneStylesheet(css: string, tokens: ReadonlySet<string>): string {
  const rules = pruneRules(css, tokens);
  const reads = (text: string) => [...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((match) => match[1]!);
  const read = new Set(reads(rules));
  // What the page's markup and scripts read or set themselves (a style attribute, setProperty).
  for (const token of tokens) {
    if (token.startsWith('--')) read.add(token.replace(/[:;,)].*$/, ''));
    for (const name of reads(token)) read.add(name);
  }
  const { code } = transform({
    filename: 'page.css',
    code: Buffer.from(rules),
    minify: true,
    errorRecovery: true,
    visitor: {
      Declaration: {
        // lightningcss hands over as "custom" both custom properties and the properties it does not
        // model (isolation, pointer-events, object-fit, line-clamp, text-underline-offset, …): only
        // a custom property (`--*`) nothing reads may go.
        custom: (property) => (!property.name.startsWith('--') || read.has(property.name) ? undefined : []),
      },
      Rule: {
        property: (rule) => (read.has(rule.value.name) ? undefined : []),
      },
    },
  });
  return code.toString();
}

function pruneRules(css: string, tokens: ReadonlySet<string>): string {
  const { code } = transform({
    filename: 'page.css',
    code: Buffer.from(css),
    minify: true,
    errorRecovery: true,
    visitor: {
      Rule: {
        // A rule goes when none of its selectors can match; one that can stays whole (handing a
        // changed rule back to lightningcss does not survive its round trip for every selector).
        style(rule) {
          return rule.value.selectors.some((selector) => requiredClasses(selector).every((name) => tokens.has(name))) ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page with each inline stylesheet pruned for it and its policy hash updated. */
export function prunePage(html: string, tokens: ReadonlySet<string>): string {
  let out = html;
  for (const [element, attributes = '', css = ''] of html.matchAll(/<style([^>]*)>([\s\S]*?)<\/style>/g)) {
    const pruned = pruneStylesheet(css, tokens);
    if (pruned === css) continue;
    out = out.replace(element, () => `<style${attributes}>${pruned}</style>`).replace(cspHash(css), () => cspHash(pruned));
  }
  return out;
}

/** Prunes every built page under `dist` but the frames; returns the bytes saved. */
export function prunePageStyles(dist: string): number {
  let saved = 0;
  for (const file of globSync('**/*.html', { cwd: dist })) {
    if ((framePages as readonly string[]).includes(file.replace(/\\/g, '/'))) continue;
    const path = join(dist, file);
    const html = readFileSync(path, 'utf8');
    if (!html.includes('<style')) continue;
    const tokens = classTokens(html);
    for (const script of pageScripts(html, dist)) classTokens(readFileSync(script, 'utf8'), tokens);
    const pruned = prunePage(html, tokens);
    saved += html.length - pruned.length;
    if (pruned !== html) writeFileSync(path, pruned);
  }
  return saved;
}

export function pageStyles(): AstroIntegration {
  return {
    name: 'page-styles',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const saved = prunePageStyles(fileURLToPath(dir));
        logger.info(`Removed ${(saved / 1024).toFixed(0)} KB of styles no element of their page can use.`);
      },
    },
  };
}
