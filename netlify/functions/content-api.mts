import type { Config } from '@netlify/functions';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { allowMethods, jsonError } from '../../src/server/http';

/**
 * Serves the JSON answers that `astro build` wrote to dist/api from the content collections
 * (src/pages/api), with the specification's 5-minute cache. A function rather than a bare static
 * file so that the type, the cache and the JSON 404 are the same locally and on Netlify.
 */
export const CACHE_CONTROL = 'public, max-age=300';

/** Where the build wrote the answers: dist/api under the site root (included_files in netlify.toml). */
export function buildDir(): string {
  return join(process.cwd(), 'dist', 'api');
}

/** The build output file for a request path, or undefined for a path that cannot be one. */
export function fileFor(pathname: string): string | undefined {
  const match = pathname.match(/^\/api\/(hubspot-blogs|parent-videos|student-videos|hubspot-blog\/([a-z0-9]+(?:-[a-z0-9]+)*))\/?$/);
  return match ? match[1] : undefined;
}

export async function serveContent(req: Request, dir = buildDir()): Promise<Response> {
  const refused = allowMethods(req, ['GET', 'HEAD']);
  if (refused) return refused;
  const pathname = new URL(req.url).pathname;
  const file = fileFor(pathname);
  const notFound = pathname.startsWith('/api/hubspot-blog/')
    ? jsonError(404, 'not_found', 'Blog post not found', { 'Cache-Control': CACHE_CONTROL })
    : jsonError(404, 'not_found', 'Not found');
  if (!file) return notFound;
  let body: string;
  try {
    body = await readFile(join(dir, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return notFound;
    throw error;
  }
  return new Response(req.method === 'HEAD' ? null : body, {
    status: 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export default async (req: Request) => {
  try {
    return await serveContent(req);
  } catch {
    return jsonError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
  }
};

export const config: Config = {
  path: ['/api/hubspot-blogs', '/api/hubspot-blog/:slug', '/api/parent-videos', '/api/student-videos'],
  method: 'GET',
};
