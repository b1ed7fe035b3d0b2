import type { Config } from '@netlify/functions';
import { allowMethods, handle, json } from '../../src/server/http';
import { computeImpact } from '../../src/server/impact';

/** How long an answer may be reused by browsers and the CDN (the specification's 5 minutes). */
export const CACHE_CONTROL = 'public, max-age=300';

/**
 * GET /api/impact: schools reached, schools that answered, meetings and parents who wrote, counted
 * by distinct school domain; a figure below 5 reads "fewer than 5". Never a name.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  return json(await computeImpact(), 200, { 'Cache-Control': CACHE_CONTROL });
});

export const config: Config = { path: '/api/impact', method: 'GET' };
