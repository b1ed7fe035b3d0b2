/**
 * Writes the site search's index of each language at the end of `astro build` (English's
 * dist/search-index.json, Spanish's dist/es/search-index.json, bundled with the `search` function
 * by netlify.toml), from the built pages src/config/search.ts names for the language, read the
 * way Pagefind read them: only <main data-pagefind-body>, without what is marked
 * data-pagefind-ignore, and a new section at every heading with an id. Only what a reader sees
 * counts: not what is there for screen readers alone (`sr-only`), hidden, or a media element's
 * fallback text. The title is data-pagefind-meta="title"'s, else the page's <title> (without the
 * site's name), else its first <h1>: the home page's <h1> is a slogan, not a name for the page.
 */
import { globSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { locales } from '../../../config/locales';
import { indexedPages, indexedPagesIn } from '../../../config/search';
import { site } from '../../../config/site';
import { INDEX_FILE, indexFileOf } from '../../shared/search/query';
import { buildSiteIndex, type IndexedPage, type IndexedSection } from '../../shared/search/site-index';

/** Elements whose text is not content (a <video>'s is for browsers that cannot play it). */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'form', 'dialog', 'iframe', 'button', 'video', 'audio', 'canvas', 'object']);
const HEADING = /^h[1-6]$/;
/** Elements that separate words (text on either side of them is not one word). */
const BLOCK =
  /^(?:p|div|li|ul|ol|dl|dt|dd|h[1-6]|section|article|aside|header|footer|nav|main|summary|details|blockquote|figure|figcaption|table|tr|td|th|br|hr|pre)$/;

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const isElement = (node: Node): node is Element => 'tagName' in node;
const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;
const children = (node: Node): Node[] => ('childNodes' in node ? node.childNodes : []);

function find(node: Node, test: (element: Element) => boolean): Element | undefined {
  for (const child of children(node)) {
    if (isElement(child) && test(child)) return child;
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

/** Text no reader sees: hidden, or for screen readers only (`sr-only`). */
function unseen(element: Element): boolean {
  return SKIPPED.has(element.tagName) || attr(element, 'hidden') !== undefined || (attr(element, 'class') ?? '').split(/\s+/).includes('sr-only');
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (isElement(node) && unseen(node)) return '';
  return children(node)
    .map((child) => (isElement(child) && BLOCK.test(child.tagName) ? ` ${textOf(child)} ` : textOf(child)))
    .join('');
}

/** A page's name from its <title>: "FAQs | Your Questions…" is "FAQs"; the site's own name is skipped. */
export function pageTitle(documentTitle: string): string {
  const parts = documentTitle.split(' | ').map(squash).filter(Boolean);
  return parts.find((part) => part !== site.name && part !== site.legalName) ?? parts[0] ?? '';
}

/** The site's URL of a built file: "faqs.html" → "/faqs", "index.html" → "/". */
export function pageUrl(file: string): string {
  const path = `/${file.replace(/\\/g, '/').replace(/\.html$/, '')}`;
  return path === '/index' ? '/' : path.replace(/\/index$/, '');
}

/** The page's title and sections, or undefined when it has no data-pagefind-body. */
export function readPage(html: string, url: string): { page: IndexedPage; sections: Omit<IndexedSection, 'page'>[] } | undefined {
  const document = parse(html);
  const body = find(document, (element) => attr(element, 'data-pagefind-body') !== undefined);
  if (!body) return undefined;
  const meta = find(body, (element) => attr(element, 'data-pagefind-meta') === 'title');
  const documentTitle = find(document, (element) => element.tagName === 'title');
  const h1 = find(body, (element) => element.tagName === 'h1');
  const title = (meta && squash(textOf(meta))) || (documentTitle && pageTitle(textOf(documentTitle))) || (h1 && squash(textOf(h1))) || url;
  // The heading that names the page is the first section's title already, not its text.
  const titled = meta ?? h1;
  const sections: Array<Omit<IndexedSection, 'page'> & { parts: string[] }> = [{ title, parts: [], text: '' }];

  const walk = (node: Node) => {
    if (node.nodeName === '#text') {
      sections.at(-1)!.parts.push((node as DefaultTreeAdapterMap['textNode']).value);
      return;
    }
    if (!isElement(node) || node === titled || unseen(node) || attr(node, 'data-pagefind-ignore') !== undefined) return;
    const id = attr(node, 'id');
    if (HEADING.test(node.tagName) && id) {
      sections.push({ anchor: id, title: squash(textOf(node)), parts: [], text: '' });
      return;
    }
    const block = BLOCK.test(node.tagName);
    if (block) sections.at(-1)!.parts.push(' ');
    for (const child of node.childNodes) walk(child);
    if (block) sections.at(-1)!.parts.push(' ');
  };
  for (const child of body.childNodes) walk(child);

  return {
    page: { url, title },
    sections: sections.map(({ parts, ...section }) => ({ ...section, text: squash(parts.join('')) })).filter((section) => section.text || section.anchor),
  };
}

/** Reads the built pages under `dist` and writes the index file (`file`, under `dist`); returns the page count. */
export function writeSiteIndex(dist: string, glob = indexedPages, file = INDEX_FILE): number {
  const pages: IndexedPage[] = [];
  const sections: IndexedSection[] = [];
  for (const built of globSync(glob, { cwd: dist }).sort()) {
    const read = readPage(readFileSync(join(dist, built), 'utf8'), pageUrl(built));
    if (!read) continue;
    const page = pages.push(read.page) - 1;
    for (const section of read.sections) sections.push({ page, ...section });
  }
  if (!pages.length) throw new Error(`No page matching ${glob} has a data-pagefind-body: the search index would be empty.`);
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  writeFileSync(join(dist, file), JSON.stringify(buildSiteIndex(pages, sections)));
  return pages.length;
}

export function siteSearchIndex(): AstroIntegration {
  return {
    name: 'site-search-index',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        for (const locale of locales) {
          const file = indexFileOf(locale);
          const count = writeSiteIndex(fileURLToPath(dir), indexedPagesIn(locale), file);
          logger.info(`Indexed ${count} pages for the site search (${file}).`);
        }
      },
    },
  };
}
