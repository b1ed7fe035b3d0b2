/** `GET /rss.xml`: every English blog post, newest first (the feed says en-us; docs/spanish.md). */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { site } from '../config/site';
import { getBlogPosts } from '../lib/build/blog/posts';

export const GET: APIRoute = async (context) => {
  const posts = await getBlogPosts();
  return rss({
    title: `${site.name}: Blogs & Insights`,
    description: 'Articles for parents and school leaders on mastery learning, AI tutoring, school advocacy and what the results show.',
    site: context.site ?? site.url,
    items: posts.map((post) => ({
      title: post.data.title,
      description: post.data.excerpt,
      pubDate: post.data.publishedAt,
      link: `/blogs-insights/${post.id}`,
      categories: post.data.tags,
      content: post.data.content,
    })),
    customData: '<language>en-us</language>',
    trailingSlash: false,
  });
};
