/** The body netlify.toml serves, with status 404, for `/api/hubspot-blog/{unknown slug}`. */
import type { APIRoute } from 'astro';
import { jsonFile } from '../../lib/api';

export const GET: APIRoute = () =>
  jsonFile({ error: { code: 'not_found', message: 'Blog post not found' } });
