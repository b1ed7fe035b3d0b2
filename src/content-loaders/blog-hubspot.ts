/**
 * Reads every published post of the HubSpot CMS blog (all pages, tags resolved to names) through
 * the shared HubSpot client, and maps each onto the blog entry of `src/lib/build/blog/schema.ts`.
 */
import type { Client } from '@hubspot/api-client';
import { withRetry } from '../server/hubspot';
import { sanitizeBlogHtml } from '../lib/build/blog/sanitize';
import { htmlToText, readTimeMinutes, slugify, truncate } from '../lib/build/blog/text';
import type { BlogEntryData } from '../lib/build/blog/schema';
import { defaultLocale, locales, type Locale } from '../config/locales';

/**
 * A HubSpot language tag as one of the site's locales: "es", "es-mx", "ES_419" are Spanish; "en",
 * "en-gb" English; anything the site has no pages for (or none) counts as English, the default.
 */
export function normaliseLanguage(tag: unknown): Locale {
  if (typeof tag !== 'string') return defaultLocale;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (locales as readonly string[]).includes(primary) ? (primary as Locale) : defaultLocale;
}

/** HubSpot's largest page size for the CMS APIs. */
export const PAGE_SIZE = 100;

/** The fields of a HubSpot blog post the site reads. */
export interface HubSpotPost {
  id: string;
  slug?: string;
  name?: string;
  htmlTitle?: string;
  postBody?: string;
  postSummary?: string;
  metaDescription?: string;
  publishDate?: Date | string;
  tagIds?: Array<string | number>;
  featuredImage?: string;
  featuredImageAltText?: string;
  state?: string;
  currentState?: string;
  /** HubSpot's language tag, e.g. "en", "es", "es-mx" (one of its own list, lower case). */
  language?: string | null;
  /** The primary post of this post's translation group (absent or empty on the primary itself). */
  translatedFromId?: string | number | null;
}

interface Page<T> {
  results: T[];
  paging?: { next?: { after?: string } };
}

/** Follows `paging.next.after` until the last page. */
async function allPages<T>(fetchPage: (after: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const answer = await withRetry(() => fetchPage(after));
    items.push(...answer.results);
    after = answer.paging?.next?.after;
    if (!after) return items;
  }
  throw new Error('HubSpot kept answering with a next page; stopped after 10,000 pages.');
}

export async function fetchTagNames(client: Client): Promise<Map<string, string>> {
  const tags = await allPages((after) =>
    client.cms.blogs.tags.blogTagsApi.getPage(undefined, undefined, undefined, undefined, undefined, undefined, undefined, after, PAGE_SIZE, false),
  );
  return new Map(tags.map((tag) => [String(tag.id), tag.name]));
}

export async function fetchPosts(client: Client): Promise<HubSpotPost[]> {
  const posts = await allPages((after) =>
    client.cms.blogs.blogPosts.basicApi.getPage(undefined, undefined, undefined, undefined, undefined, undefined, ['-publishDate'], after, PAGE_SIZE, false),
  );
  return posts as unknown as HubSpotPost[];
}

/** Published, and not scheduled for later. */
export function isPublished(post: HubSpotPost, now = new Date()): boolean {
  const state = (post.currentState ?? post.state ?? '').toUpperCase();
  if (state !== 'PUBLISHED') return false;
  const date = post.publishDate ? new Date(post.publishDate) : undefined;
  return !date || Number.isNaN(date.getTime()) || date <= now;
}

export interface MappedPost {
  slug: string;
  /** HubSpot's id of the group's primary post, when this post is a translation (resolved by the loader). */
  translatedFromId?: string;
  data: Omit<BlogEntryData, 'tags' | 'category' | 'language' | 'translationOf'> & {
    tags: string[];
    category: string;
    language: Locale;
    translationOf?: string;
  };
}

/** One HubSpot post as a blog entry: sanitised HTML, derived excerpt and read time, tag names. */
export function mapHubSpotPost(post: HubSpotPost, tagNames: Map<string, string>): MappedPost {
  const content = sanitizeBlogHtml(post.postBody ?? '');
  const text = htmlToText(content);
  const summary = htmlToText(post.postSummary ?? '') || htmlToText(post.metaDescription ?? '') || text;
  const tags = [...new Set((post.tagIds ?? []).map((id) => tagNames.get(String(id))).filter((name): name is string => !!name))]
    .filter((name) => name.length >= 2)
    .map((name) => truncate(name, 40))
    .slice(0, 8);
  const image = post.featuredImage?.trim();
  const translatedFromId = post.translatedFromId == null ? '' : String(post.translatedFromId).trim();
  return {
    slug: slugify(post.slug ?? '') || slugify(post.name ?? '') || String(post.id),
    ...(translatedFromId && translatedFromId !== String(post.id) ? { translatedFromId } : {}),
    data: {
      language: normaliseLanguage(post.language),
      sourceId: String(post.id),
      title: truncate(htmlToText(post.name || post.htmlTitle || 'Untitled post'), 200),
      excerpt: truncate(summary, 300),
      publishedAt: post.publishDate ? new Date(post.publishDate) : new Date(0),
      tags,
      featuredImage: image && /^https:\/\//.test(image) ? image : undefined,
      category: truncate(tags[0] ?? 'Insights', 40),
      content,
      readTime: readTimeMinutes(text),
    },
  };
}
