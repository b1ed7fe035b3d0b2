/**
 * The site search on the server: each language's index written at build (dist/search-index.json,
 * dist/es/search-index.json, bundled with the `search` function by netlify.toml) and the page it
 * answers with, the built page of the language (src/pages/search.astro, src/pages/es/search.astro)
 * with the query in its box and the results in its region. Its words are the language's
 * (search.yaml, read at run time).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultLocale, locales, type Locale } from '../../config/locales';
import { escapeHtml } from '../../lib/shared/forms/render';
import { localePath } from '../../lib/shared/i18n/paths';
import { fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { searchRowHtml } from '../../lib/shared/search/row-html';
import { cleanQuery, indexFileOf, MAX_QUERY_LENGTH } from '../../lib/shared/search/query';
import {
  loadSiteIndex,
  PAGE_SIZE,
  pageOf,
  SEARCH_REGION,
  searchSite,
  SECTIONS_REGION,
  type SearchRow,
  type SiteIndex,
} from '../../lib/shared/search/site-index';
import { serverWordsOf } from '../words';
import { builtPage, pageHeaders, replaceRegion, siteDir } from './frame';

/** Longest `q` read at all; anything past MAX_QUERY_LENGTH is cut before searching anyway. */
const MAX_RAW_QUERY = 4096;

/**
 * The CDN keeps each answer per query, result page and language (other parameters, e.g. utm_*,
 * share it) until the next deploy replaces the function and its index; browsers always ask again.
 */
export const searchCacheHeaders = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=3600, stale-while-revalidate=86400',
  'Netlify-Vary': 'query=q|page|lang',
};

/** The English messages are search.yaml's `problems` (the JSON answer names the parameter). */
export const searchParamsSchema = z.object({
  q: z.string().max(MAX_RAW_QUERY, 'The search is too long.').nullable(),
  page: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'The result page must be a whole number from 1.')
    .nullable()
    .transform((page) => (page ? Number(page) : 1)),
});

export type SearchParams = z.infer<typeof searchParamsSchema>;

/** The language of a `lang` parameter (the dialog's on a page of another language): none is English, an unknown one undefined. */
export function searchLocaleOf(value: string | null): Locale | undefined {
  if (value === null || value === '') return defaultLocale;
  return locales.find((locale) => locale === value);
}

/** A refused parameter in the visitor's words, by the parameter it is about. */
export function problemText(error: z.ZodError, t: Translate): string {
  return error.issues[0]?.path[0] === 'q' ? t('search.problems.tooLong') : t('search.problems.badPage');
}

const loaded = new Map<Locale, { dir: string; index: Promise<SiteIndex> }>();

/** The index of a language of the build being served, read once per function instance. */
export function siteIndex(locale: Locale = defaultLocale): Promise<SiteIndex> {
  const dir = siteDir();
  let entry = loaded.get(locale);
  if (entry?.dir !== dir) {
    const index = readFile(join(dir, indexFileOf(locale)), 'utf8').then((text) => loadSiteIndex(JSON.parse(text)));
    entry = { dir, index };
    loaded.set(locale, entry);
    // A failed read is tried again by the next request.
    index.catch(() => {
      if (loaded.get(locale)?.index === index) loaded.delete(locale);
    });
  }
  return entry.index;
}

export interface SearchAnswer {
  status: number;
  locale: Locale;
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

/** The search for validated parameters in a language's index: the rows of one result page and what to say about them. */
export async function answerSearch(params: SearchParams, locale: Locale = defaultLocale): Promise<SearchAnswer> {
  const t = await serverWordsOf(locale);
  const query = cleanQuery(params.q);
  const shortened = (params.q ?? '').replace(/\s+/g, ' ').trim().length > MAX_QUERY_LENGTH;
  const base = { locale, query, shortened, page: params.page, pages: 1, total: 0, rows: [] };
  if (!query) return { ...base, status: 200, page: 1, message: t('search.prompt') };
  const all = searchSite(await siteIndex(locale), query);
  const { items, pages } = pageOf(all, params.page);
  const cut = shortened ? fillWords(t('search.shortened'), { max: MAX_QUERY_LENGTH }) : '';
  if (!all.length) return { ...base, status: 200, page: 1, message: fillWords(t('search.none'), { query, shortened: cut }) };
  if (!items.length)
    return {
      ...base,
      status: 404,
      pages,
      total: all.length,
      message: fillWords(t('search.noSuchPage'), { page: params.page, query, pages }),
    };
  return { ...base, status: 200, pages, total: all.length, rows: items, message: fillWords(t('search.found'), { count: all.length, query, shortened: cut }) };
}

const ROW_LINK = 'border border-line bg-white px-4 py-3 hover:border-brand-200 hover:bg-brand-50';
const pageLink = (locale: Locale, query: string, page: number) =>
  `${localePath('/search', locale)}?q=${encodeURIComponent(query)}${page > 1 ? `&page=${page}` : ''}`;
const PAGER_LINK =
  'inline-flex min-h-11 items-center rounded-pill border border-line bg-white px-5 font-semibold text-brand-700 hover:border-brand-200 hover:bg-brand-50';

/** The region's HTML: the status line, the results and the links to the other result pages. */
export async function resultsHtml(answer: SearchAnswer): Promise<string> {
  const t = await serverWordsOf(answer.locale);
  const say = (key: string) => escapeHtml(t(`search.${key}`));
  const link = (page: number) => escapeHtml(pageLink(answer.locale, answer.query, page));
  const status = `<p id="search-page-status" class="mt-4 break-words font-medium text-ink-soft" data-search-page-status>${escapeHtml(answer.message)}</p>`;
  if (answer.status === 404) return `${status}<p class="mt-4"><a class="${PAGER_LINK}" href="${link(1)}">${say('firstPage')}</a></p>`;
  if (!answer.rows.length) return status;
  const first = (answer.page - 1) * PAGE_SIZE + 1;
  const list = `<ol${first > 1 ? ` start="${first}"` : ''} class="mt-4 space-y-2" aria-label="${say('resultsLabel')}" data-search-page-results>${answer.rows.map((row) => searchRowHtml(ROW_LINK, row)).join('')}</ol>`;
  if (answer.pages <= 1) return status + list;
  const more = `<span class="sr-only">${say('moreResults')}</span>`;
  const previous = answer.page > 1 ? `<a class="${PAGER_LINK}" rel="prev" href="${link(answer.page - 1)}">${say('previous')}${more}</a>` : '<span></span>';
  const next = answer.page < answer.pages ? `<a class="${PAGER_LINK}" rel="next" href="${link(answer.page + 1)}">${say('next')}${more}</a>` : '<span></span>';
  const position = escapeHtml(fillWords(t('search.pageOf'), { page: answer.page, pages: answer.pages }));
  const pager = `<nav aria-label="${say('pagesLabel')}" class="mt-8 flex items-center justify-between gap-4">${previous}<p class="text-sm text-muted">${position}</p>${next}</nav>`;
  return status + list + pager;
}

/** The form pages' headers but X-Robots-Tag: /search is crawlable as every public page is (it is only left out of the sitemap). */
const frameHeaders = Object.fromEntries(Object.entries(pageHeaders).filter(([name]) => name !== 'X-Robots-Tag'));

/** The built search page of the answer's language filled in for `answer`. */
export async function searchPage(answer: SearchAnswer, headers: Record<string, string> = searchCacheHeaders): Promise<Response> {
  const path = localePath('/search', answer.locale);
  const shell = await builtPage(path);
  if (!shell) throw new Error(`dist${path}.html is missing: build the site before serving it.`);
  let html = replaceRegion(shell, SEARCH_REGION, await resultsHtml(answer));
  // The site's sections help when there is nothing else to follow.
  if (html && answer.rows.length) html = replaceRegion(html, SECTIONS_REGION, '');
  if (!html) throw new Error(`dist${path}.html has no results region.`);
  html = html.replace('data-search-page-input', `data-search-page-input value="${escapeHtml(answer.query)}"`);
  // The language switch and suggestion (links to this page in another language, with `hreflang`)
  // search for the same words there.
  if (answer.query) {
    const again = escapeHtml(`?q=${encodeURIComponent(answer.query)}`);
    html = html.replace(/(<a href="(?:\/[a-z]{2})?\/search)(" (?:lang="[a-z]{2}" )?hreflang=)/g, `$1${again}$2`);
  }
  const t = await serverWordsOf(answer.locale);
  const shown = answer.query.length > 60 ? `${answer.query.slice(0, 60)}…` : answer.query;
  const title = answer.query ? fillWords(t('search.resultsTitle'), { query: shown }) : t('search.title');
  html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)} | Mastery Parents</title>`);
  return new Response(html, { status: answer.status, headers: { ...frameHeaders, ...headers } });
}

/** A parameter that is not one: the page says what is wrong, with the status 400. */
export function badParamsPage(message: string, query: string, locale: Locale = defaultLocale): Promise<Response> {
  return searchPage({ status: 400, locale, query: cleanQuery(query), shortened: false, page: 1, pages: 1, total: 0, rows: [], message });
}

/** The words a failed search says, as plain text, in the language. */
export async function unavailableText(locale: Locale): Promise<string> {
  try {
    return (await serverWordsOf(locale))('search.unavailable');
  } catch {
    // The words themselves could not be read: the English sentence.
    return 'Search is unavailable right now. Please try again later.';
  }
}
