/** `GET /api/hubspot-blog/{slug}`: one post (served by netlify/functions/content-api.mts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getBlogPosts, toBlogPost, type BlogEntry } from '../../../lib/build/blog/posts';
import { jsonFile } from '../../../lib/build/api';

export const getStaticPaths = (async () => {
  const posts = await getBlogPosts();
  return posts.map((post) => ({ params: { slug: post.id }, props: { post } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ post: BlogEntry }> = ({ props }) => jsonFile(toBlogPost(props.post));
