/**
 * The site search: one index of the site's content pages (src/lib/build/search/build-index.ts writes it
 * at build, from the built HTML), searched with MiniSearch by the `search` function
 * (netlify/functions/search.mts) for /search and for the dialog. Each page is cut into sections
 * at its headings with an id (each FAQ question, each article section), so a result can link
 * straight to the part that matches.
 *
 * Words are compared without case or accents ("matematicas" finds "matemáticas", as the Spanish
 * FAQ search does): the index holds each word folded, and the query is folded the same way.
 *
 * Ranking: a page matches when every word of the query is in it (a word may be the start of a
 * longer one, or one letter off when it is long); pages are ordered by the sum of their matching
 * sections' scores (BM25, titles counting three times); within a page, the sections that hold
 * the most of the query's words come first, at most three. Excerpts are the 24 words around the
 * most matches, with <mark> around each match and everything else escaped.
 */
import MiniSearch, { type AsPlainObject, type Options, type SearchOptions, type SearchResult } from 'minisearch';
import { z } from 'zod';

/** Results per /search page. */
export const PAGE_SIZE = 10;
/** Rows per page of the site at most (the sections that match best). */
export const ROWS_PER_PAGE = 3;
/** Words in an excerpt. */
export const EXCERPT_WORDS = 24;
/** The regions of the built /search page (src/pages/search.astro) the `search` function fills. */
export const SEARCH_REGION = 'search-results';
export const SECTIONS_REGION = 'search-sections';

export const indexedPageSchema = z.object({
  /** The site's URL of the page, e.g. "/faqs". */
  url: z.string().regex(/^\/[\w\-/]*$/),
  title: z.string(),
});

export const indexedSectionSchema = z.object({
  /** Position of its page in `pages`. */
  page: z.number().int().min(0),
  /** The heading's id; absent for the text before the first such heading. */
  anchor: z.string().min(1).optional(),
  /** The heading's text (the page's title for the text before the first heading). */
  title: z.string(),
  text: z.string(),
});

/** dist/search-index.json: the pages, their sections and MiniSearch's own index over the sections (ids are positions). */
export const siteIndexFileSchema = z
  .object({
    version: z.literal(1),
    pages: z.array(indexedPageSchema).min(1),
    sections: z.array(indexedSectionSchema),
    index: z.record(z.string(), z.unknown()),
  })
  .refine((file) => file.sections.every((section) => section.page < file.pages.length), 'A section names a page the index does not have.');

export type IndexedPage = z.infer<typeof indexedPageSchema>;
export type IndexedSection = z.infer<typeof indexedSectionSchema>;
export type SiteIndexFile = z.infer<typeof siteIndexFileSchema>;

export interface SearchRow {
  title: string;
  /** Where the hit is, e.g. the page a question belongs to. */
  context?: string;
  url: string;
  /** Text with <mark> around the matches, everything else escaped. */
  excerpt: string;
}

/** Words as the index splits them: at spaces and punctuation (MiniSearch's own rule). */
const SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;

/** A word as the index holds it: lower case, accents dropped ("Matemáticas" → "matematicas"). */
export function foldTerm(term: string): string {
  return term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const indexOptions: Options<{ id: number; title: string; text: string }> = {
  fields: ['title', 'text'],
  tokenize: (text) => text.split(SEPARATOR).filter(Boolean),
  processTerm: foldTerm,
};

const searchOptions: SearchOptions = {
  boost: { title: 3 },
  combineWith: 'OR',
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 6 ? 1 : false),
};

/** Builds the index file from the sections of the site's pages (at build). */
export function buildSiteIndex(pages: IndexedPage[], sections: IndexedSection[]): SiteIndexFile {
  const search = new MiniSearch(indexOptions);
  search.addAll(sections.map((section, id) => ({ id, title: section.title, text: section.text })));
  return { version: 1, pages, sections, index: search.toJSON() as unknown as Record<string, unknown> };
}

export interface SiteIndex {
  pages: IndexedPage[];
  sections: IndexedSection[];
  search: MiniSearch;
}

/** Loads the index file written at build; throws when it is not one. */
export function loadSiteIndex(data: unknown): SiteIndex {
  const file = siteIndexFileSchema.parse(data);
  return { pages: file.pages, sections: file.sections, search: MiniSearch.loadJS(file.index as unknown as AsPlainObject, indexOptions) };
}

/** The query's distinct words, as the index holds them. */
export function queryTerms(query: string): string[] {
  return [...new Set(query.split(SEPARATOR).filter(Boolean).map(foldTerm).filter(Boolean))];
}

/** Every row for a query, best first (one or more per matching page). */
export function searchSite(index: SiteIndex, query: string): SearchRow[] {
  const terms = queryTerms(query);
  if (!terms.length) return [];
  const hits = index.search.search(terms.join(' '), searchOptions);
  const byPage = new Map<number, SearchResult[]>();
  for (const hit of hits) {
    const page = index.sections[hit.id as number]!.page;
    byPage.set(page, [...(byPage.get(page) ?? []), hit]);
  }

  const pages = [...byPage]
    // Every word of the query somewhere in the page.
    .filter(([, pageHits]) => {
      const found = new Set(pageHits.flatMap((hit) => hit.queryTerms));
      return terms.every((term) => found.has(term));
    })
    .map(([page, pageHits]) => ({ page, pageHits, score: pageHits.reduce((sum, hit) => sum + hit.score, 0) }))
    .sort((a, b) => b.score - a.score || a.page - b.page);

  const rows: SearchRow[] = [];
  for (const { page, pageHits } of pages) {
    const info = index.pages[page]!;
    const anchored = pageHits
      .map((hit) => ({ hit, section: index.sections[hit.id as number]! }))
      .filter(({ section }) => section.anchor && section.title !== info.title)
      .sort((a, b) => new Set(b.hit.queryTerms).size - new Set(a.hit.queryTerms).size || b.hit.score - a.hit.score);
    if (anchored.length) {
      for (const { hit, section } of anchored.slice(0, ROWS_PER_PAGE)) {
        rows.push({
          title: section.title,
          context: info.title,
          url: `${info.url}#${section.anchor}`,
          excerpt: excerpt(section.text || section.title, hit.terms),
        });
      }
    } else {
      const best = pageHits[0]!;
      rows.push({ title: info.title, url: info.url, excerpt: excerpt(index.sections[best.id as number]!.text, best.terms) });
    }
  }
  return rows;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The EXCERPT_WORDS words of `text` around the most matches of `matched` (words as the index holds
 * them), escaped, with <mark> around each match.
 */
export function excerpt(text: string, matched: string[], length = EXCERPT_WORDS): string {
  const wanted = new Set(matched.map(foldTerm));
  // Words and the separators between them, alternating: word, separator, word, …
  const parts = text.trim().split(/([\n\r\p{Z}\p{P}]+)/u);
  const words: Array<{ at: number; hit: boolean }> = [];
  parts.forEach((part, at) => {
    if (at % 2 === 0 && part) words.push({ at, hit: wanted.has(foldTerm(part)) });
  });
  if (!words.length) return '';
  let best = 0;
  let bestHits = -1;
  let hitsInWindow = 0;
  for (let end = 0; end < words.length; end++) {
    if (words[end]!.hit) hitsInWindow++;
    const start = end - length + 1;
    if (start > 0 && words[start - 1]!.hit) hitsInWindow--;
    // The first window with the most matches.
    if (hitsInWindow > bestHits) {
      bestHits = hitsInWindow;
      best = Math.max(0, start);
    }
  }
  // Within that window, a few words before the first match, keeping the last one in.
  const inWindow = words.slice(best, best + length).flatMap((word, i) => (word.hit ? [best + i] : []));
  const from = inWindow.length ? Math.max(0, inWindow.at(-1)! - length + 1, inWindow[0]! - 3) : best;
  const shown = words.slice(from, from + length);
  const startAt = shown[0]!.at;
  const endAt = shown.at(-1)!.at;
  let html = '';
  for (let at = startAt; at <= endAt; at++) {
    const part = parts[at]!;
    if (at % 2 === 0 && part && wanted.has(foldTerm(part))) html += `<mark>${escapeText(part)}</mark>`;
    else html += escapeText(part);
  }
  // What sticks to the last word ("90%.", "done)") stays with it.
  return html + escapeText((parts[endAt + 1] ?? '').match(/^[^\p{Z}\s]*/u)![0]);
}

/** One page of rows: `page` counts from 1. */
export function pageOf<T>(rows: T[], page: number, size = PAGE_SIZE): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  return { items: rows.slice((page - 1) * size, page * size), page, pages };
}
