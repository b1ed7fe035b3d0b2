/**
 * The build-time JSON answers under /api. They are written as static files; their Content-Type
 * and 5-minute Cache-Control come from netlify.toml, since a CDN serves them, not Astro.
 */
export const JSON_CACHE_CONTROL = 'public, max-age=300';

export function jsonFile(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': JSON_CACHE_CONTROL },
  });
}
