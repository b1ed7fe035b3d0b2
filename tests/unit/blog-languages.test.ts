/**
 * The blog's languages (issue 48): HubSpot's `language` normalised to the site's locales, its
 * `translatedFromId` resolved to a translation group, the local front matter's `language` and
 * `translationOf` checked naming the file and the field, and the sitemap's alternates of a post.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadFromHubSpot } from '../../src/content-loaders/blog';
import { normaliseLanguage } from '../../src/content-loaders/blog-hubspot';
import { checkLocalPosts, LocalPostError } from '../../src/content-loaders/blog-local';
import { entryIdOf, postPath, postSlug, translationIn } from '../../src/lib/build/blog/languages';
import { blogEntrySchema } from '../../src/lib/build/blog/schema';
import { alternatesInHtml, withPostAlternates } from '../../src/lib/build/blog/sitemap';
import type { Locale } from '../../src/config/locales';
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

type Stored = { id: string; data: { language: Locale; translationOf?: string; publishedAt: Date; title: string } };

async function load(posts: FakeBlogPost[]) {
  fake.posts = posts;
  const entries = new Map<string, Stored>();
  const warnings: string[] = [];
  const ctx = {
    collection: 'blog',
    store: {
      set: (entry: Stored) => (entries.set(entry.id, entry), true),
      clear: () => entries.clear(),
    },
    logger: { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {}, debug: () => {} },
    parseData: async ({ data }: { data: Record<string, unknown> }) => blogEntrySchema.parseAsync(data),
    generateDigest: (data: unknown) => JSON.stringify(data).length.toString(36),
  } as unknown as LoaderContext;
  await loadFromHubSpot(ctx);
  return { entries, warnings };
}

function post(id: string, slug: string, extra: Partial<FakeBlogPost> = {}): FakeBlogPost {
  return {
    id,
    slug,
    name: `Post ${id} about mastery learning`,
    postBody: '<p>Two focused hours a day.</p>',
    postSummary: '<p>A summary long enough for a card.</p>',
    publishDate: '2025-10-02T09:00:00Z',
    tagIds: [],
    ...extra,
  };
}

describe("HubSpot's language, normalised to the site's locales", () => {
  test.each([
    ['es', 'es'],
    ['es-mx', 'es'],
    ['ES_419', 'es'],
    [' es-es ', 'es'],
    ['en', 'en'],
    ['en-gb', 'en'],
    // A language the site has no pages for, or none at all, counts as English.
    ['xx', 'en'],
    ['fr-ca', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [null, 'en'],
    [42, 'en'],
  ] as const)('%o is %s', (tag, expected) => {
    expect(normaliseLanguage(tag)).toBe(expected);
  });
});

describe('the HubSpot loader keeps each post’s language and translation group', () => {
  test('a Spanish translation (es-mx) of an English post: its own id, and the English post as its group', async () => {
    const { entries, warnings } = await load([
      post('200', 'es/blog/why-two-hours', { language: 'es-mx', translatedFromId: '100', name: 'Por qué bastan dos horas de concentración' }),
      post('100', 'blog/why-two-hours', { language: 'en' }),
    ]);
    expect(warnings).toEqual([]);
    expect([...entries.keys()]).toEqual(['why-two-hours', 'es/why-two-hours']);
    const english = entries.get('why-two-hours')!;
    const spanish = entries.get('es/why-two-hours')!;
    expect(english.data).toMatchObject({ language: 'en' });
    expect(english.data.translationOf).toBeUndefined();
    expect(spanish.data).toMatchObject({ language: 'es', translationOf: 'why-two-hours' });
    // Both at the same slug, each in its language's URLs, each the other's translation.
    expect(postPath(english)).toBe('/blogs-insights/why-two-hours');
    expect(postPath(spanish)).toBe('/es/blogs-insights/why-two-hours');
    const all = [...entries.values()];
    expect(translationIn(english, 'es', all)?.id).toBe('es/why-two-hours');
    expect(translationIn(spanish, 'en', all)?.id).toBe('why-two-hours');
  });

  test('language "xx" is English', async () => {
    const { entries } = await load([post('300', 'blog/unknown-language', { language: 'xx' })]);
    expect(entries.get('unknown-language')?.data.language).toBe('en');
  });

  test('a translatedFromId that points nowhere (unpublished, deleted) leaves the post on its own, with a warning', async () => {
    const { entries, warnings } = await load([
      post('400', 'blog/orphan', { language: 'es', translatedFromId: '999' }),
      post('999', 'blog/draft-original', { language: 'en', currentState: 'DRAFT', state: 'DRAFT' }),
    ]);
    expect([...entries.keys()]).toEqual(['es/orphan']);
    expect(entries.get('es/orphan')?.data.translationOf).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/HubSpot post 400 translates post 999, which is not published/);
  });

  test('a translation of a post in its own language is no translation', async () => {
    const { entries, warnings } = await load([
      post('500', 'blog/a', { language: 'en' }),
      post('501', 'blog/b', { language: 'en-us', translatedFromId: '500' }),
    ]);
    expect(entries.get('b')?.data.translationOf).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/same language/);
  });

  test('two posts claiming one slug in two languages, not translations: two URLs, no link between them', async () => {
    const { entries } = await load([post('601', 'es/same-slug', { language: 'es' }), post('600', 'same-slug', { language: 'en' })]);
    const all = [...entries.values()];
    expect(all.map((entry) => [entry.id, postPath(entry)])).toEqual([
      ['same-slug', '/blogs-insights/same-slug'],
      ['es/same-slug', '/es/blogs-insights/same-slug'],
    ]);
    expect(all.map((entry) => translationIn(entry, entry.data.language === 'en' ? 'es' : 'en', all))).toEqual([undefined, undefined]);
  });

  test('two Spanish posts of one slug: the second gets its HubSpot id, the English keeps its URL whatever the order', async () => {
    const { entries } = await load([post('701', 'dup', { language: 'es' }), post('702', 'dup', { language: 'es' }), post('700', 'dup', { language: 'en' })]);
    expect([...entries.keys()]).toEqual(['dup', 'es/dup', 'es/dup-702']);
    expect(postSlug(entries.get('es/dup-702')!)).toBe('dup-702');
  });
});

describe('the local posts’ front matter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-local-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, front: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), `---\ntitle: A post\n${front}---\n\nBody.\n`);
  };

  test('the repository’s posts pass, the Spanish one a translation of an English one', () => {
    const languages = checkLocalPosts('content/blog');
    expect(languages.get('es/why-two-hours-is-enough')).toBe('es');
    expect(languages.get('why-two-hours-is-enough')).toBe('en');
    expect(entryIdOf('why-two-hours-is-enough', 'es')).toBe('es/why-two-hours-is-enough');
  });

  test('a bad language stops the build naming the file and the field', () => {
    write('english.mdx', '');
    write('bad.mdx', 'language: xx\n');
    expect(() => checkLocalPosts(dir)).toThrow(LocalPostError);
    expect(() => checkLocalPosts(dir)).toThrow(/bad\.mdx: the field "language" is "xx"; it must be one of en, es/);
  });

  test('language es-mx is refused in front matter (editors write the site’s own code)', () => {
    write('mx.mdx', 'language: es-mx\n');
    expect(() => checkLocalPosts(dir)).toThrow(/mx\.mdx: the field "language" is "es-mx"/);
  });

  test('a translationOf that names no post, or a post in the same language, stops the build naming the file and the field', () => {
    write('english.mdx', '');
    write('es/nowhere.mdx', 'language: es\ntranslationOf: no-such-post\n');
    expect(() => checkLocalPosts(dir)).toThrow(/nowhere\.mdx: the field "translationOf" is "no-such-post", which is not a post/);
    rmSync(join(dir, 'es'), { recursive: true });
    write('other.mdx', 'translationOf: english\n');
    expect(() => checkLocalPosts(dir)).toThrow(/other\.mdx: the field "translationOf" names "english", a post in the same language/);
  });

  test('a post in the es folder that says another language stops the build', () => {
    write('es/wrong.mdx', 'language: en\n');
    expect(() => checkLocalPosts(dir)).toThrow(/wrong\.mdx: the field "language" is "en", but the post is in the "es" folder/);
  });

  test('the schema itself refuses a language the site has not', () => {
    const base = { title: 'A post title', excerpt: 'An excerpt long enough to pass.', publishedAt: '2025-10-02' };
    expect(blogEntrySchema.parse(base).language).toBe('en');
    expect(() => blogEntrySchema.parse({ ...base, language: 'xx' })).toThrow();
  });
});

describe('the sitemap’s alternates of a post are the ones its page names', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blog-sitemap-'));
    mkdirSync(join(dir, 'es', 'blogs-insights'), { recursive: true });
    mkdirSync(join(dir, 'blogs-insights'), { recursive: true });
    return () => rmSync(dir, { recursive: true, force: true });
  });

  test('a post with a translation of another slug gets it; a same-slug post that is no translation gets none', () => {
    writeFileSync(
      join(dir, 'es', 'blogs-insights', 'dos-horas.html'),
      '<link rel="alternate" hreflang="en" href="https://x.org/blogs-insights/two-hours"><link rel="alternate" hreflang="es" href="https://x.org/es/blogs-insights/dos-horas"><link rel="alternate" hreflang="x-default" href="https://x.org/blogs-insights/two-hours">',
    );
    writeFileSync(join(dir, 'blogs-insights', 'same.html'), '<link rel="alternate" type="application/rss+xml" href="/rss.xml">');
    expect(
      withPostAlternates<{ url: string; links?: Array<{ lang: string; url: string }> }>({ url: 'https://x.org/es/blogs-insights/dos-horas' }, dir).links,
    ).toEqual([
      { lang: 'en', url: 'https://x.org/blogs-insights/two-hours' },
      { lang: 'es', url: 'https://x.org/es/blogs-insights/dos-horas' },
    ]);
    const guessed = [{ lang: 'es', url: 'https://x.org/es/blogs-insights/same' }];
    expect(withPostAlternates({ url: 'https://x.org/blogs-insights/same', links: guessed }, dir)).toEqual({ url: 'https://x.org/blogs-insights/same' });
    // Other pages keep the integration's alternates.
    expect(withPostAlternates({ url: 'https://x.org/faqs', links: guessed }, dir).links).toBe(guessed);
    expect(alternatesInHtml('<link rel="canonical" href="https://x.org/">')).toEqual([]);
  });
});
