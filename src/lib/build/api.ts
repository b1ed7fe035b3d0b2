/**
 * The build-time JSON answers under /api. Astro writes them to dist/api; the content-api
 * function serves them with their type and 5-minute cache (netlify/functions/content-api.mts).
 */
export function jsonFile(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
