/** The blog as pages and endpoints read it: newest first, in the spec's JSON shape when asked. */
import { getCollection, type CollectionEntry } from 'astro:content';
import type { BlogPost } from './schema';

export type BlogEntry = CollectionEntry<'blog'>;

export async function getBlogPosts(): Promise<BlogEntry[]> {
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

/** Every tag in use, most used first, for the list's filter. */
export function tagsOf(posts: BlogEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const post of posts) for (const tag of post.data.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

export function tagSlug(tag: string): string {
  return tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
