import type { Config } from '@netlify/functions';
import { defaultLocale } from '../../src/config/locales';
import { splitLocale } from '../../src/lib/shared/i18n/paths';
import { allowMethods, describeIssues, json, jsonError } from '../../src/server/http';
import {
  answerSearch,
  badParamsPage,
  problemText,
  searchCacheHeaders,
  searchLocaleOf,
  searchPage,
  searchParamsSchema,
  unavailableText,
} from '../../src/server/pages/search';
import { pageHeaders } from '../../src/server/pages/frame';
import { serverWordsOf } from '../../src/server/words';

/**
 * GET /search?q=…&page=… (and /es/search, in Spanish from the Spanish index): the results page,
 * rendered here so that it works without JavaScript and its results come with the first paint.
 * GET /api/search?q=…&page=…[&lang=es]: the same answer as JSON, for the search dialog, from the
 * index of `lang` (English without it). All are cached at the CDN per query, result page and language.
 */
export default async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const api = url.pathname.startsWith('/api/');
  const wrongMethod = allowMethods(req, ['GET', 'HEAD']);
  if (wrongMethod) return wrongMethod;

  const locale = api ? searchLocaleOf(url.searchParams.get('lang')) : splitLocale(url.pathname).locale;
  if (!locale) return jsonError(400, 'invalid_locale', 'lang must be en or es, or absent.', searchCacheHeaders);

  const parsed = searchParamsSchema.safeParse({ q: url.searchParams.get('q'), page: url.searchParams.get('page') });
  try {
    if (!parsed.success) {
      if (api) return jsonError(400, 'invalid_request', describeIssues(parsed.error), searchCacheHeaders);
      // The English page names the parameter as it always has; another language says it in its words.
      const message = locale === defaultLocale ? describeIssues(parsed.error) : problemText(parsed.error, await serverWordsOf(locale));
      return await badParamsPage(message, url.searchParams.get('q') ?? '', locale);
    }
    const answer = await answerSearch(parsed.data, locale);
    if (!api) return await searchPage(answer);
    if (answer.status === 404) return jsonError(404, 'no_such_page', answer.message, searchCacheHeaders);
    const { query, page, pages, total, rows, message } = answer;
    return json({ query, page, pages, total, rows, message }, 200, searchCacheHeaders);
  } catch (error) {
    console.error('[search]', error instanceof Error ? error.message : 'unknown error');
    const text = await unavailableText(locale);
    if (api) return jsonError(503, 'search_unavailable', text);
    return new Response(text, {
      status: 503,
      headers: { ...pageHeaders, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale },
    });
  }
};

export const config: Config = {
  path: ['/search', '/es/search', '/api/search'],
};
