/**
 * The blog collection's loader. With the HubSpot source (see `serverEnv.blogSource`) it pulls
 * every published post from the HubSpot CMS at build; otherwise it reads `content/blog/*.mdx`.
 * Both end in the same entry: sanitised content HTML, read time and slug derived here.
 * A HubSpot failure throws, so the build stops instead of publishing an empty blog.
 */
import { glob, type Loader, type LoaderContext } from 'astro/loaders';
import { serverEnv } from '../server/env';
import { hubspotClient, statusOf } from '../server/hubspot';
import { fetchPosts, fetchTagNames, isPublished, mapHubSpotPost, type HubSpotPost } from './blog-hubspot';
import { htmlToText, readTimeMinutes } from '../lib/build/blog/text';
import { entryIdOf } from '../lib/build/blog/languages';
import { checkLocalPosts } from './blog-local';
import { defaultLocale } from '../config/locales';

export class BlogSourceError extends Error {
  override name = 'BlogSourceError';
}

/** Why a HubSpot call failed, without echoing anything secret. */
function reasonOf(error: unknown): string {
  const status = statusOf(error);
  if (status === 401 || status === 403) return `HubSpot refused the access token (HTTP ${status})`;
  if (status) return `HubSpot answered HTTP ${status}`;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/Bearer\s+\S+/gi, 'Bearer ***').slice(0, 300);
}

export async function loadFromHubSpot(context: LoaderContext, now = new Date()): Promise<number> {
  let posts: HubSpotPost[];
  let tagNames: Map<string, string>;
  try {
    const client = hubspotClient();
    [tagNames, posts] = await Promise.all([fetchTagNames(client), fetchPosts(client)]);
  } catch (error) {
    throw new BlogSourceError(
      `Could not load the blog from HubSpot: ${reasonOf(error)}. The build stops so that the site is not ` +
        'published with an empty blog. Check HUBSPOT_ACCESS_TOKEN, or set BLOG_SOURCE=local to build from content/blog.',
    );
  }

  context.store.clear();
  // English first, so that an English post keeps its URL whatever a later post claims.
  const mapped = posts
    .filter((candidate) => isPublished(candidate, now))
    .map((post) => ({ post, mapped: mapHubSpotPost(post, tagNames) }))
    .sort((a, b) => Number(a.mapped.data.language !== defaultLocale) - Number(b.mapped.data.language !== defaultLocale));
  const seen = new Set<string>();
  const loaded: Array<{ id: string; post: HubSpotPost; translatedFromId?: string; data: Record<string, unknown>; digestOf: Record<string, unknown> }> = [];
  for (const { post, mapped: one } of mapped) {
    // A post's id is its slug, under its language's folder when not English (`es/why-two-hours`):
    // the same slug in two languages is two URLs, /blogs-insights/… and /es/blogs-insights/….
    const base = entryIdOf(one.slug, one.data.language);
    const id = seen.has(base) ? `${base}-${post.id}` : base;
    let data: Record<string, unknown>;
    try {
      data = await context.parseData({ id, data: one.data });
    } catch (error) {
      context.logger.warn(`Skipped HubSpot post ${post.id} ("${one.data.title}"): ${error instanceof Error ? error.message : error}`);
      continue;
    }
    seen.add(id);
    loaded.push({ id, post, ...(one.translatedFromId ? { translatedFromId: one.translatedFromId } : {}), data, digestOf: one.data });
  }

  // A translation names its group's primary post by HubSpot id; here it names that post's entry id.
  const byHubSpotId = new Map(loaded.map((entry) => [String(entry.post.id), entry]));
  for (const entry of loaded) {
    if (!entry.translatedFromId) continue;
    const primary = byHubSpotId.get(entry.translatedFromId);
    if (!primary) {
      context.logger.warn(
        `HubSpot post ${entry.post.id} translates post ${entry.translatedFromId}, which is not published; it is shown without its translation.`,
      );
    } else if (primary.data.language === entry.data.language) {
      context.logger.warn(`HubSpot post ${entry.post.id} translates post ${entry.translatedFromId}, in the same language; the link is ignored.`);
    } else {
      entry.data.translationOf = primary.id;
    }
  }

  let count = 0;
  for (const entry of loaded) {
    const translationOf = entry.data.translationOf;
    context.store.set({
      id: entry.id,
      data: entry.data,
      digest: context.generateDigest({ ...entry.digestOf, translationOf, publishedAt: (entry.digestOf.publishedAt as Date).toISOString() }),
      rendered: { html: String(entry.data.content ?? '') },
    });
    count++;
  }
  context.logger.info(`Loaded ${count} published post${count === 1 ? '' : 's'} from HubSpot.`);
  return count;
}

/** Reads the MDX posts with Astro's own glob loader, then derives content HTML, read time and id. */
export async function loadLocal(context: LoaderContext, base: string): Promise<void> {
  // The front matter's language and translation are checked first, naming the file and the field.
  checkLocalPosts(base);
  await glob({ pattern: '**/*.mdx', base }).load(context);
  for (const [id, entry] of context.store.entries()) {
    if (entry.data.sourceId === id && typeof entry.data.readTime === 'number') continue;
    const rendered = await context.renderMarkdown(entry.body ?? '');
    const data = await context.parseData({
      id,
      data: { ...entry.data, sourceId: id, content: rendered.html, readTime: readTimeMinutes(htmlToText(rendered.html)) },
      ...(entry.filePath ? { filePath: entry.filePath } : {}),
    });
    context.store.set({
      ...entry,
      data,
      rendered,
      deferredRender: false,
      digest: context.generateDigest(`${entry.digest ?? ''}:derived`),
    });
  }
}

export function blogLoader(options: { base?: string } = {}): Loader {
  const base = options.base ?? './content/blog';
  return {
    name: 'blog-loader',
    load: async (context) => {
      if (serverEnv.blogSource === 'hubspot') await loadFromHubSpot(context);
      else await loadLocal(context, base);
    },
  };
}
