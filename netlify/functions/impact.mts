import type { Config } from '@netlify/functions';
import { allowMethods, handle, json } from '../../src/server/http';
import { computeImpact } from '../../src/server/schools/impact';

/** How long an answer may be reused by browsers and the CDN (the specification's 5 minutes). */
export const CACHE_CONTROL = 'public, max-age=300';
/**
 * The CDN keeps one answer for everyone (durable: shared across edge nodes). It reads no query
 * parameter, so the cache key names none: `?x=random` cannot skip the cache (Netlify-Vary lists the
 * only parameters that make a different answer; one that is never sent stands for "none").
 */
export const CDN_HEADERS = {
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=300, stale-while-revalidate=60',
  'Netlify-Vary': 'query=__none',
};

/**
 * GET /api/impact: schools reached, schools that answered, meetings and parents who wrote, counted
 * by distinct school domain; a figure below 5 reads "fewer than 5". Never a name.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  return json(await computeImpact(), 200, { 'Cache-Control': CACHE_CONTROL, ...CDN_HEADERS });
});

export const config: Config = { path: '/api/impact', method: 'GET' };
