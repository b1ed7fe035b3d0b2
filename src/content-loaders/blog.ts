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
import { htmlToText, readTimeMinutes } from '../lib/blog/text';

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
  const seen = new Set<string>();
  let count = 0;
  for (const post of posts.filter((candidate) => isPublished(candidate, now))) {
    const mapped = mapHubSpotPost(post, tagNames);
    const id = seen.has(mapped.slug) ? `${mapped.slug}-${post.id}` : mapped.slug;
    seen.add(id);
    let data: Record<string, unknown>;
    try {
      data = await context.parseData({ id, data: mapped.data });
    } catch (error) {
      context.logger.warn(`Skipped HubSpot post ${post.id} ("${mapped.data.title}"): ${error instanceof Error ? error.message : error}`);
      continue;
    }
    context.store.set({
      id,
      data,
      digest: context.generateDigest({ ...mapped.data, publishedAt: mapped.data.publishedAt.toISOString() }),
      rendered: { html: mapped.data.content },
    });
    count++;
  }
  context.logger.info(`Loaded ${count} published post${count === 1 ? '' : 's'} from HubSpot.`);
  return count;
}

/** Reads the MDX posts with Astro's own glob loader, then derives content HTML, read time and id. */
export async function loadLocal(context: LoaderContext, base: string): Promise<void> {
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
