/** `GET /api/hubspot-blogs`: every English post, newest first (the spec's shape has no language; docs/spanish.md), written at build from the blog collection. */
import type { APIRoute } from 'astro';
import { getBlogPosts, toBlogPost } from '../../lib/build/blog/posts';
import { jsonFile } from '../../lib/build/api';

export const GET: APIRoute = async () => {
  const posts = (await getBlogPosts()).map(toBlogPost);
  return jsonFile({ posts, totalPosts: posts.length });
};
