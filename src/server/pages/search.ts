/**
 * The site search on the server: the index written at build (dist/search-index.json, bundled with
 * the `search` function by netlify.toml) and the /search page it answers with, the built page
 * (src/pages/search.astro) with the query in its box and the results in its region.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { escapeHtml } from '../../lib/forms/render';
import { searchRowHtml } from '../../lib/search/row-html';
import { cleanQuery, INDEX_FILE, MAX_QUERY_LENGTH } from '../../lib/search/query';
import { loadSiteIndex, PAGE_SIZE, pageOf, SEARCH_REGION, searchSite, SECTIONS_REGION, type SearchRow, type SiteIndex } from '../../lib/search/site-index';
import { builtPage, pageHeaders, replaceRegion, siteDir } from './frame';

/** Longest `q` read at all; anything past MAX_QUERY_LENGTH is cut before searching anyway. */
const MAX_RAW_QUERY = 4096;

/**
 * The CDN keeps each answer per query and result page (other parameters, e.g. utm_*, share it) until
 * the next deploy replaces the function and its index; browsers always ask again.
 */
export const searchCacheHeaders = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=3600, stale-while-revalidate=86400',
  'Netlify-Vary': 'query=q|page',
};

export const searchParamsSchema = z.object({
  q: z.string().max(MAX_RAW_QUERY, 'The search is too long.').nullable(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'The result page must be a whole number from 1.')
    .nullable()
    .transform((page) => (page ? Number(page) : 1)),
});

export type SearchParams = z.infer<typeof searchParamsSchema>;

let loaded: { dir: string; index: Promise<SiteIndex> } | undefined;

/** The index of the build being served, read once per function instance. */
export function siteIndex(): Promise<SiteIndex> {
  const dir = siteDir();
  if (loaded?.dir !== dir) {
    const index = readFile(join(dir, INDEX_FILE), 'utf8').then((text) => loadSiteIndex(JSON.parse(text)));
    loaded = { dir, index };
    // A failed read is tried again by the next request.
    index.catch(() => {
      if (loaded?.index === index) loaded = undefined;
    });
  }
  return loaded.index;
}

export interface SearchAnswer {
  status: number;
  query: string;
  /** The query was cut to MAX_QUERY_LENGTH. */
  shortened: boolean;
  page: number;
  pages: number;
  total: number;
  rows: SearchRow[];
  /** What the page says above the results, as text. */
  message: string;
}

/** The search for validated parameters: the rows of one result page and what to say about them. */
export async function answerSearch(params: SearchParams): Promise<SearchAnswer> {
  const query = cleanQuery(params.q);
  const shortened = (params.q ?? '').replace(/\s+/g, ' ').trim().length > MAX_QUERY_LENGTH;
  const base = { query, shortened, page: params.page, pages: 1, total: 0, rows: [] };
  if (!query) return { ...base, status: 200, page: 1, message: 'Type a word or two to search the FAQs, articles and pages.' };
  const all = searchSite(await siteIndex(), query);
  const { items, pages } = pageOf(all, params.page);
  const cut = shortened ? ` (the search used its first ${MAX_QUERY_LENGTH} characters)` : '';
  if (!all.length)
    return { ...base, status: 200, page: 1, message: `No results found for "${query}"${cut}. Try fewer or other words, or browse the site's sections below.` };
  if (!items.length)
    return {
      ...base,
      status: 404,
      pages,
      total: all.length,
      message: `There is no page ${params.page} of the results for "${query}": they end at page ${pages}.`,
    };
  return { ...base, status: 200, pages, total: all.length, rows: items, message: `Found ${all.length} results for "${query}"${cut}` };
}

const ROW_LINK = 'border border-line bg-white px-4 py-3 hover:border-brand-200 hover:bg-brand-50';
const pageLink = (query: string, page: number) => `/search?q=${encodeURIComponent(query)}${page > 1 ? `&page=${page}` : ''}`;
const PAGER_LINK =
  'inline-flex min-h-11 items-center rounded-pill border border-line bg-white px-5 font-semibold text-brand-700 hover:border-brand-200 hover:bg-brand-50';

/** The region's HTML: the status line, the results and the links to the other result pages. */
export function resultsHtml(answer: SearchAnswer): string {
  const status = `<p id="search-page-status" class="mt-4 break-words font-medium text-ink-soft" data-search-page-status>${escapeHtml(answer.message)}</p>`;
  if (answer.status === 404)
    return `${status}<p class="mt-4"><a class="${PAGER_LINK}" href="${escapeHtml(pageLink(answer.query, 1))}">The first page of results</a></p>`;
  if (!answer.rows.length) return status;
  const first = (answer.page - 1) * PAGE_SIZE + 1;
  const list = `<ol${first > 1 ? ` start="${first}"` : ''} class="mt-4 space-y-2" aria-label="Search results" data-search-page-results>${answer.rows.map((row) => searchRowHtml(ROW_LINK, row)).join('')}</ol>`;
  if (answer.pages <= 1) return status + list;
  const previous =
    answer.page > 1
      ? `<a class="${PAGER_LINK}" rel="prev" href="${escapeHtml(pageLink(answer.query, answer.page - 1))}">Previous<span class="sr-only"> results</span></a>`
      : '<span></span>';
  const next =
    answer.page < answer.pages
      ? `<a class="${PAGER_LINK}" rel="next" href="${escapeHtml(pageLink(answer.query, answer.page + 1))}">Next<span class="sr-only"> results</span></a>`
      : '<span></span>';
  const pager = `<nav aria-label="Result pages" class="mt-8 flex items-center justify-between gap-4">${previous}<p class="text-sm text-muted">Page ${answer.page} of ${answer.pages}</p>${next}</nav>`;
  return status + list + pager;
}

/** The form pages' headers but X-Robots-Tag: /search is crawlable as every public page is (it is only left out of the sitemap). */
const frameHeaders = Object.fromEntries(Object.entries(pageHeaders).filter(([name]) => name !== 'X-Robots-Tag'));

/** The built /search page filled in for `answer`. */
export async function searchPage(answer: SearchAnswer, headers: Record<string, string> = searchCacheHeaders): Promise<Response> {
  const shell = await builtPage('/search');
  if (!shell) throw new Error('dist/search.html is missing: build the site before serving it.');
  let html = replaceRegion(shell, SEARCH_REGION, resultsHtml(answer));
  // The site's sections help when there is nothing else to follow.
  if (html && answer.rows.length) html = replaceRegion(html, SECTIONS_REGION, '');
  if (!html) throw new Error('dist/search.html has no results region.');
  html = html.replace('data-search-page-input', `data-search-page-input value="${escapeHtml(answer.query)}"`);
  const title = answer.query ? `Results for "${answer.query.length > 60 ? `${answer.query.slice(0, 60)}…` : answer.query}"` : 'Search';
  html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)} | Mastery Parents</title>`);
  return new Response(html, { status: answer.status, headers: { ...frameHeaders, ...headers } });
}

/** A parameter that is not one: the page says what is wrong, with the status 400. */
export function badParamsPage(message: string, query: string): Promise<Response> {
  return searchPage({ status: 400, query: cleanQuery(query), shortened: false, page: 1, pages: 1, total: 0, rows: [], message });
}
