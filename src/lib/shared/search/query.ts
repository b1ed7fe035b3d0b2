/** The search query as the box, the dialog and the `search` function all read it. */
import { defaultLocale, type Locale } from '../../../config/locales';

/** The index file the build writes into dist/ and the `search` function reads (English's). */
export const INDEX_FILE = 'search-index.json';

/** A language's index file under dist/: English's at the top, another's in its folder (es/search-index.json). */
export function indexFileOf(locale: Locale): string {
  return locale === defaultLocale ? INDEX_FILE : `${locale}/${INDEX_FILE}`;
}

/** What the search box accepts; a longer query (typed into the URL) is cut to this. */
export const MAX_QUERY_LENGTH = 200;

/** The query as searched: whitespace collapsed, at most MAX_QUERY_LENGTH characters. */
export function cleanQuery(query: string | null | undefined): string {
  return (query ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_LENGTH).trim();
}
