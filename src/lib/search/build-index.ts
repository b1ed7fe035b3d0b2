/**
 * Writes the site search's index at the end of `astro build` (dist/search-index.json, bundled with
 * the `search` function by netlify.toml), from the built pages src/config/search.ts names, read the
 * way Pagefind read them: only <main data-pagefind-body>, without what is marked
 * data-pagefind-ignore, the title from data-pagefind-meta="title" or the first <h1>, and a new
 * section at every heading with an id.
 */
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { indexedPages } from '../../config/search';
import { INDEX_FILE } from './query';
import { buildSiteIndex, type IndexedPage, type IndexedSection } from './site-index';

/** Elements whose text is not content. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'form', 'dialog', 'iframe', 'button']);
const HEADING = /^h[1-6]$/;
/** Elements that separate words (text on either side of them is not one word). */
const BLOCK = /^(?:p|div|li|ul|ol|dl|dt|dd|h[1-6]|section|article|aside|header|footer|nav|main|summary|details|blockquote|figure|figcaption|table|tr|td|th|br|hr|pre)$/;

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

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (isElement(node) && SKIPPED.has(node.tagName)) return '';
  return children(node)
    .map((child) => (isElement(child) && BLOCK.test(child.tagName) ? ` ${textOf(child)} ` : textOf(child)))
    .join('');
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
  const titled = find(body, (element) => attr(element, 'data-pagefind-meta') === 'title') ?? find(body, (element) => element.tagName === 'h1') ?? find(document, (element) => element.tagName === 'title');
  const title = squash(titled ? textOf(titled) : url);
  const sections: Array<Omit<IndexedSection, 'page'> & { parts: string[] }> = [{ title, parts: [], text: '' }];

  const walk = (node: Node) => {
    if (node.nodeName === '#text') {
      sections.at(-1)!.parts.push((node as DefaultTreeAdapterMap['textNode']).value);
      return;
    }
    // The title is the section's title already, not its text.
    if (!isElement(node) || node === titled || SKIPPED.has(node.tagName) || attr(node, 'data-pagefind-ignore') !== undefined) return;
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
    sections: sections
      .map(({ parts, ...section }) => ({ ...section, text: squash(parts.join('')) }))
      .filter((section) => section.text || section.anchor),
  };
}

/** Reads the built pages under `dist` and writes the index file there; returns the page count. */
export function writeSiteIndex(dist: string, glob = indexedPages): number {
  const pages: IndexedPage[] = [];
  const sections: IndexedSection[] = [];
  for (const file of globSync(glob, { cwd: dist }).sort()) {
    const read = readPage(readFileSync(join(dist, file), 'utf8'), pageUrl(file));
    if (!read) continue;
    const page = pages.push(read.page) - 1;
    for (const section of read.sections) sections.push({ page, ...section });
  }
  if (!pages.length) throw new Error(`No page matching ${glob} has a data-pagefind-body: the search index would be empty.`);
  writeFileSync(join(dist, INDEX_FILE), JSON.stringify(buildSiteIndex(pages, sections)));
  return pages.length;
}

export function siteSearchIndex(): AstroIntegration {
  return {
    name: 'site-search-index',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const count = writeSiteIndex(fileURLToPath(dir));
        logger.info(`Indexed ${count} pages for the site search (${INDEX_FILE}).`);
      },
    },
  };
}
