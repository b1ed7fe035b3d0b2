import type { Config } from '@netlify/functions';
import { allowMethods, describeIssues, json, jsonError } from '../../src/server/http';
import { answerSearch, badParamsPage, searchCacheHeaders, searchPage, searchParamsSchema } from '../../src/server/pages/search';
import { pageHeaders } from '../../src/server/pages/frame';

/**
 * GET /search?q=…&page=…: the results page, rendered here so that it works without JavaScript and
 * its results come with the first paint. GET /api/search?q=…&page=…: the same answer as JSON, for
 * the search dialog. Both are cached at the CDN per query and result page.
 */
export default async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const api = url.pathname.startsWith('/api/');
  const wrongMethod = allowMethods(req, ['GET', 'HEAD']);
  if (wrongMethod) return wrongMethod;

  const parsed = searchParamsSchema.safeParse({ q: url.searchParams.get('q'), page: url.searchParams.get('page') });
  if (!parsed.success) {
    const message = describeIssues(parsed.error);
    return api ? jsonError(400, 'invalid_request', message, searchCacheHeaders) : badParamsPage(message, url.searchParams.get('q') ?? '');
  }
  try {
    const answer = await answerSearch(parsed.data);
    if (!api) return await searchPage(answer);
    if (answer.status === 404) return jsonError(404, 'no_such_page', answer.message, searchCacheHeaders);
    const { query, page, pages, total, rows, message } = answer;
    return json({ query, page, pages, total, rows, message }, 200, searchCacheHeaders);
  } catch (error) {
    console.error('[search]', error instanceof Error ? error.message : 'unknown error');
    if (api) return jsonError(503, 'search_unavailable', 'Search is unavailable right now. Please try again later.');
    return new Response('Search is unavailable right now. Please try again later.', {
      status: 503,
      headers: { ...pageHeaders, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
};

export const config: Config = {
  path: ['/search', '/api/search'],
};
