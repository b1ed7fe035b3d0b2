/**
 * `dist/api/deploy-context.json`: the Netlify deploy context this build was made for (CONTEXT at
 * build time), which a function cannot read from its own environment. The functions carry it
 * (netlify.toml includes dist/api/**) and src/server/env.ts reads preview secrets by it.
 */
import type { APIRoute } from 'astro';
import { jsonFile } from '../../lib/build/api';

export const GET: APIRoute = () => jsonFile({ context: process.env.CONTEXT?.trim() || 'dev' });
