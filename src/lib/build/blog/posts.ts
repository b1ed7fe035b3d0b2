/** The blog as pages and endpoints read it: newest first, in the spec's JSON shape when asked. */
import { getCollection, type CollectionEntry } from 'astro:content';
import { defaultLocale, type Locale } from '../../../config/locales';
import type { BlogPost } from './schema';

export type BlogEntry = CollectionEntry<'blog'>;

/** Every post, in every language, newest first. */
export async function getAllBlogPosts(): Promise<BlogEntry[]> {
  const posts = await getCollection('blog');
  return posts.sort((a, b) => b.data.publishedAt.getTime() - a.data.publishedAt.getTime() || a.id.localeCompare(b.id));
}

export function toBlogPost(entry: BlogEntry): BlogPost {
  const { data } = entry;
  return {
    id: data.sourceId ?? entry.id,
    slug: entry.id,
    title: data.title,
    excerpt: data.excerpt,
    content: data.content,
    publishedAt: data.publishedAt.toISOString(),
    readTime: data.readTime ?? 1,
    tags: data.tags,
    featuredImage: data.featuredImage ?? null,
    category: data.category,
  };
}

/**
 * The posts in `locale`, newest first: English by default (the English list, the RSS feed and the
 * JSON endpoints are English only; docs/spanish.md).
 */
export async function getBlogPosts(locale: Locale = defaultLocale): Promise<BlogEntry[]> {
  return (await getAllBlogPosts()).filter((post) => post.data.language === locale);
}

/** Every tag in use, most used first, for the list's filter. */
export function tagsOf(posts: BlogEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const tag of post.data.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

export function tagSlug(tag: string): string {
  return tag
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
