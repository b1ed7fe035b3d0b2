/**
 * The search dialog's results come from the `search` function (GET /api/search?q=…[&lang=es], the
 * index of the page's language), the same
 * index, ranking and excerpts as the /search page: one small request per query, cached at the CDN,
 * instead of a search engine and index loaded into the phone (see docs/performance.md).
 */
import { defaultLocale, type Locale } from '../../../config/locales';
import type { SearchRow } from '../../shared/search/site-index';

export interface SearchAnswer {
  total: number;
  rows: SearchRow[];
}

/** The first page of results for a query; throws when the search cannot answer. */
export async function searchRows(query: string, signal?: AbortSignal, locale: Locale = defaultLocale): Promise<SearchAnswer> {
  const lang = locale === defaultLocale ? '' : `&lang=${locale}`;
  const response = await fetch(`/api/search?q=${encodeURIComponent(query)}${lang}`, { signal, headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`search answered ${response.status}`);
  const body = (await response.json()) as Partial<SearchAnswer>;
  if (!Array.isArray(body.rows) || typeof body.total !== 'number') throw new Error('search answered in an unexpected shape');
  return { total: body.total, rows: body.rows };
}
