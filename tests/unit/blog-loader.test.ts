import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { BlogSourceError, loadFromHubSpot } from '../../src/content-loaders/blog';
import { blogEntrySchema } from '../../src/lib/build/blog/schema';
import { startHubSpotFake, type FakeBlogPost, type HubSpotFake } from '../fakes/hubspot';

let fake: HubSpotFake;

beforeAll(async () => {
  fake = await startHubSpotFake();
  process.env.HUBSPOT_BASE_PATH = fake.url;
  process.env.HUBSPOT_RETRY_BASE_MS = '5';
});
afterAll(async () => {
  await fake.close();
  delete process.env.HUBSPOT_BASE_PATH;
  delete process.env.HUBSPOT_RETRY_BASE_MS;
  delete process.env.HUBSPOT_ACCESS_TOKEN;
});
beforeEach(() => {
  fake.reset();
  process.env.HUBSPOT_ACCESS_TOKEN = fake.token;
});

/** A LoaderContext with a real in-memory store and the collection's schema, as Astro gives it. */
function context() {
  const entries = new Map<string, { id: string; data: Record<string, unknown>; rendered?: { html: string } }>();
  const warnings: string[] = [];
  const ctx = {
    collection: 'blog',
    store: {
      get: (id: string) => entries.get(id),
      set: (entry: { id: string; data: Record<string, unknown> }) => (entries.set(entry.id, entry), true),
      entries: () => [...entries.entries()],
      values: () => [...entries.values()],
      keys: () => [...entries.keys()],
      delete: (id: string) => entries.delete(id),
      clear: () => entries.clear(),
      has: (id: string) => entries.has(id),
    },
    logger: { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {}, debug: () => {} },
    parseData: async ({ data }: { data: Record<string, unknown> }) => blogEntrySchema.parseAsync(data),
    generateDigest: (data: unknown) => JSON.stringify(data).length.toString(36),
  } as unknown as LoaderContext;
  return { ctx, entries, warnings };
}

function post(n: number, extra: Partial<FakeBlogPost> = {}): FakeBlogPost {
  return {
    id: String(9000 + n),
    slug: `blog/post-number-${n}`,
    name: `Post number ${n} about mastery`,
    postBody: `<p>${'word '.repeat(450)}</p>`,
    postSummary: `<p>Summary of post ${n}, long enough for a card.</p>`,
    publishDate: new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString(),
    tagIds: ['11', '12'],
    ...extra,
  };
}

describe('the HubSpot blog loader against the fake', () => {
  test.each([0, 1, 250])('loads %i published posts, following every page', async (count) => {
    fake.tags.set('11', 'Mastery Learning');
    fake.tags.set('12', 'Parents');
    fake.posts = Array.from({ length: count }, (_, i) => post(i));
    const { ctx, entries } = context();
    expect(await loadFromHubSpot(ctx)).toBe(count);
    expect(entries.size).toBe(count);
    const pages = fake.calls.filter((call) => call.path === '/cms/v3/blogs/posts').length;
    expect(pages).toBe(Math.max(1, Math.ceil(count / 100)));
    if (count) {
      const first = entries.get('post-number-0')!;
      expect(first.data).toMatchObject({
        sourceId: '9000',
        title: 'Post number 0 about mastery',
        excerpt: 'Summary of post 0, long enough for a card.',
        tags: ['Mastery Learning', 'Parents'],
        category: 'Mastery Learning',
        readTime: 3,
      });
      expect(first.data.publishedAt).toEqual(new Date('2025-01-01T00:00:00Z'));
      expect(first.rendered?.html).toContain('<p>word');
    }
  });

  test('every call carries the token and pages with after/limit', async () => {
    fake.posts = Array.from({ length: 150 }, (_, i) => post(i));
    await loadFromHubSpot(context().ctx);
    const pages = fake.calls.filter((call) => call.path === '/cms/v3/blogs/posts');
    expect(pages.every((call) => call.authorization === `Bearer ${fake.token}`)).toBe(true);
    expect(pages).toHaveLength(2);
  });

  test('drafts and scheduled posts stay out; duplicate slugs get the id appended', async () => {
    fake.posts = [
      post(1),
      post(2, { state: 'DRAFT', currentState: 'DRAFT' }),
      post(3, { publishDate: new Date(Date.now() + 86_400_000 * 30).toISOString() }),
      post(4, { slug: 'blog/post-number-1' }),
    ];
    const { ctx, entries } = context();
    expect(await loadFromHubSpot(ctx)).toBe(2);
    expect([...entries.keys()].sort()).toEqual(['post-number-1', 'post-number-1-9004']);
  });

  test('post bodies are sanitised and unknown tag ids are dropped', async () => {
    fake.tags.set('11', 'Research');
    fake.posts = [post(1, { postBody: '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">there</a></p>', tagIds: ['11', '99'] })];
    const { ctx, entries } = context();
    await loadFromHubSpot(ctx);
    const data = entries.get('post-number-1')!.data;
    expect(data.content).toBe('<p>Hi <a>there</a></p>');
    expect(data.tags).toEqual(['Research']);
  });

  test('retries a rate limit and still loads everything', async () => {
    fake.posts = [post(1)];
    fake.failNext(429);
    expect(await loadFromHubSpot(context().ctx)).toBe(1);
  });

  test.each([
    { statuses: [500, 500, 500, 500], message: /HTTP 500/ },
    { statuses: [503, 503, 503, 503], message: /HTTP 503/ },
  ])('a failing API ($statuses) fails the build with a clear message and keeps the old entries', async ({ statuses, message }) => {
    fake.posts = [post(1)];
    const { ctx, entries } = context();
    entries.set('kept', { id: 'kept', data: {} });
    fake.failNext(...statuses, ...statuses);
    const failure = loadFromHubSpot(ctx);
    await expect(failure).rejects.toBeInstanceOf(BlogSourceError);
    await expect(failure).rejects.toThrow(message);
    await expect(failure).rejects.toThrow(/empty blog/);
    expect(entries.has('kept')).toBe(true);
  });

  test('a wrong token fails the build without echoing it', async () => {
    process.env.HUBSPOT_ACCESS_TOKEN = 'pat-secret-wrong-token';
    const failure = loadFromHubSpot(context().ctx);
    await expect(failure).rejects.toThrow(/refused the access token \(HTTP 401\)/);
    await expect(failure).rejects.not.toThrow(/pat-secret/);
  });

  test('no token at all fails the build saying HubSpot is not configured', async () => {
    delete process.env.HUBSPOT_ACCESS_TOKEN;
    await expect(loadFromHubSpot(context().ctx)).rejects.toThrow(/not configured/);
  });

  test('the fake being down fails the build', async () => {
    process.env.HUBSPOT_BASE_PATH = 'http://127.0.0.1:9';
    try {
      await expect(loadFromHubSpot(context().ctx)).rejects.toThrow(/Could not load the blog from HubSpot/);
    } finally {
      process.env.HUBSPOT_BASE_PATH = fake.url;
    }
  });
});
