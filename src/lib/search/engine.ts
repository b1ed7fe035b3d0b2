/**
 * Pagefind, loaded on first use: its script (`/pagefind/pagefind.js`, written by the build) and
 * index are fetched only when a visitor searches (the dialog or the /search page).
 */
import { toRows, type PagefindResultData, type SearchRow } from './results';

interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(query: string): Promise<PagefindSearch>;
  debouncedSearch(query: string, options?: Record<string, unknown>, ms?: number): Promise<PagefindSearch | null>;
}

interface PagefindSearch {
  results: Array<{ id: string; data(): Promise<PagefindResultData> }>;
}

const PAGEFIND_URL = '/pagefind/pagefind.js';
/** What the search box accepts; a longer query (typed into the URL) is cut to this. */
export const MAX_QUERY_LENGTH = 200;

let pagefind: Promise<Pagefind> | undefined;

export function loadPagefind(): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ PAGEFIND_URL) as Promise<Pagefind>).then(async (module) => {
    // The index is small: searching on the main thread saves the worker's own 12 KB download.
    await module.options({ excerptLength: 24, noWorker: true });
    await module.init();
    return module;
  });
  pagefind.catch(() => {
    pagefind = undefined;
  });
  return pagefind;
}

/** The query as searched: whitespace collapsed, at most MAX_QUERY_LENGTH characters. */
export function cleanQuery(query: string | null | undefined): string {
  return (query ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_LENGTH).trim();
}

/**
 * Rows for a query, the best `maxPages` pages; `null` when a newer search (debounced) replaced
 * this one. Throws when Pagefind cannot load.
 */
export async function searchRows(query: string, { maxPages = 8, debounce = 0 } = {}): Promise<SearchRow[] | null> {
  const engine = await loadPagefind();
  const search = debounce ? await engine.debouncedSearch(query, {}, debounce) : await engine.search(query);
  if (!search) return null;
  const data = await Promise.all(search.results.slice(0, maxPages).map((result) => result.data()));
  return toRows(data, query);
}
