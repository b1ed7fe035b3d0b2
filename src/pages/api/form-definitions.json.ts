/**
 * `dist/api/form-definitions.json`: every form definition the build used, keyed by HubSpot form id,
 * so that POST /api/forms/{formId} validates against exactly what the page shows
 * (src/server/forms/definitions.ts reads it).
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { jsonFile } from '../../lib/build/api';

export const GET: APIRoute = async () => {
  const entries = await getCollection('forms');
  return jsonFile(Object.fromEntries(entries.map(({ data }) => [data.id, data])));
};
