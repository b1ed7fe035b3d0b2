/**
 * The real `astro build` with the blog read from the HubSpot fake: an empty blog shows its empty
 * state, a single post its narrow column, and a failing HubSpot stops the build with a clear
 * message instead of publishing an empty blog. Builds a copy of the project in a scratch folder,
 * with its own `.astro/` and cache: `npm test` runs these tests beside the end-to-end tests, whose
 * embed project builds the project itself at the same time (tests/e2e/embed-build.ts), and two builds
 * of one folder write the same content modules and data store (this one's blog is HubSpot's).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { allowed } from './helpers/time';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
let fake: HubSpotFake;
let outDir: string;
/** The copy of the project that is built: what the build reads, with node_modules linked. */
let copy: string;

beforeAll(async () => {
  fake = await startHubSpotFake();
  copy = mkdtempSync(join(tmpdir(), 'blog-build-project-'));
  for (const entry of ['src', 'content', 'public', 'netlify', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  // Only the blog's pages and what they link to are built: the list, the posts, their JSON and the
  // feed in both languages, and the pages the frame needs (its 404 and search); the others' routes
  // are left out of the copy (a third of the build's time, and what the e2e build checks).
  const pages = join(copy, 'src', 'pages');
  const kept = new Set(['blogs-insights', 'api', 'rss.xml.ts', '404.astro', 'search.astro', 'blog-post-not-found.astro', 'es']);
  const keptInSpanish = new Set(['blogs-insights', '404.astro', 'search.astro', 'blog-post-not-found.astro']);
  for (const [dir, keep] of [
    [pages, kept],
    [join(pages, 'es'), keptInSpanish],
  ] as const) {
    for (const entry of readdirSync(dir)) if (!entry.startsWith('_') && !keep.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  // Astro keeps its data store in node_modules/.astro by default, the project's through the link.
  writeFileSync(
    join(copy, 'astro.blog-build.config.mjs'),
    "import config from './astro.config.mjs';\nexport default { ...config, cacheDir: './.astro-cache' };\n",
  );
});
afterAll(() => {
  fake.close();
  rmSync(copy, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  outDir = mkdtempSync(join(tmpdir(), 'blog-build-'));
  return () => rmSync(outDir, { recursive: true, force: true });
});

async function build(): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(
      join(root, 'node_modules', '.bin', 'astro'),
      ['build', '--config', 'astro.blog-build.config.mjs', '--outDir', outDir],
      {
        cwd: copy,
        env: {
          ...process.env,
          BLOG_SOURCE: 'hubspot',
          // The forms' own HubSpot source is tested in forms-loader.test.ts.
          FORMS_SOURCE: 'local',
          HUBSPOT_ACCESS_TOKEN: fake.token,
          HUBSPOT_BASE_PATH: fake.url,
          HUBSPOT_RETRY_BASE_MS: '5',
          ASTRO_TELEMETRY_DISABLED: '1',
          NO_COLOR: '1',
        },
        maxBuffer: 20 * 1024 * 1024,
      },
    );
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

const page = (path: string) => readFileSync(join(outDir, path), 'utf8');

describe('building the blog from HubSpot', () => {
  test(
    'no posts: the list shows its empty state and the JSON is empty',
    async () => {
      const result = await build();
      expect(result.ok, result.output.slice(-2000)).toBe(true);
      const html = page('blogs-insights.html');
      expect(html).toContain('Showing 0 of 0 articles');
      expect(html).toContain('No articles found');
      expect(html).toContain('Check back soon for new content');
      expect(JSON.parse(page('api/hubspot-blogs'))).toEqual({ posts: [], totalPosts: 0 });
    },
    allowed(120_000),
  );

  test(
    'one post: a single narrow column, its page and its JSON',
    async () => {
      fake.tags.set('7', 'Research');
      fake.posts = [
        {
          id: '4242',
          slug: 'blog/a-single-post',
          name: 'A single post from HubSpot',
          postBody: '<p>Only <strong>one</strong> post.</p><script>alert(1)</script>',
          postSummary: 'The only post in this blog, written in HubSpot.',
          publishDate: '2025-10-02T09:00:00Z',
          tagIds: ['7'],
          language: 'en',
        },
        // Its Spanish translation (issue 48): HubSpot's slug under its language's folder, es-mx.
        {
          id: '4343',
          slug: 'es/blog/a-single-post',
          name: 'Un solo artículo desde HubSpot',
          postBody: '<p>Solo <strong>un</strong> artículo.</p>',
          postSummary: 'El único artículo de este blog, escrito en HubSpot.',
          publishDate: '2025-10-03T09:00:00Z',
          tagIds: [],
          language: 'es-mx',
          translatedFromId: '4242',
        },
      ];
      const result = await build();
      expect(result.ok, result.output.slice(-2000)).toBe(true);
      const list = page('blogs-insights.html');
      expect(list).toContain('Showing 1 of 1 articles');
      expect(list).toMatch(/class="[^"]*mx-auto max-w-xl grid-cols-1[^"]*"[^>]*data-blog-grid/);
      const post = page('blogs-insights/a-single-post.html');
      expect(post).toContain('October 2, 2025');
      expect(post).toContain('1 min read');
      expect(post).not.toContain('alert(1)');
      expect(JSON.parse(page('api/hubspot-blog/a-single-post'))).toMatchObject({ id: '4242', tags: ['Research'], category: 'Research' });

      // The English list, the feed and the JSON are English only.
      expect(list).not.toContain('Un solo artículo');
      expect(page('rss.xml')).not.toContain('Un solo artículo');
      expect(JSON.parse(page('api/hubspot-blogs'))).toMatchObject({ totalPosts: 1, posts: [{ id: '4242' }] });
      // The Spanish list: its post, then the English one below, marked as English.
      const es = page('es/blogs-insights.html');
      expect(es).toContain('<html lang="es"');
      expect(es).toContain('Mostrando 1 de 1 artículos');
      expect(es).toMatch(/<a href="\/es\/blogs-insights\/a-single-post"[^>]*>Un solo artículo desde HubSpot/);
      expect(es).toContain('Más artículos en inglés');
      expect(es).toMatch(/<h3[^>]*lang="en"[^>]*><a href="\/blogs-insights\/a-single-post" hreflang="en"/);
      // The post and its translation: alternates to each other, the switch between them.
      const esPost = page('es/blogs-insights/a-single-post.html');
      expect(esPost).toContain('<html lang="es"');
      expect(esPost).toContain('3 de octubre de 2025');
      expect(esPost).toContain('1 min de lectura');
      for (const html of [post, esPost]) {
        expect(html).toMatch(/<link rel="alternate" hreflang="en" href="[^"]*\/blogs-insights\/a-single-post">/);
        expect(html).toMatch(/<link rel="alternate" hreflang="es" href="[^"]*\/es\/blogs-insights\/a-single-post">/);
      }
      expect(post).toMatch(/<a href="\/es\/blogs-insights\/a-single-post" lang="es" hreflang="es"[^>]*data-language-switch/);
      expect(esPost).toMatch(/<a href="\/blogs-insights\/a-single-post" lang="en" hreflang="en"[^>]*data-language-switch/);
      expect(page('sitemap-0.xml')).toMatch(/<loc>[^<]*\/es\/blogs-insights\/a-single-post<\/loc><xhtml:link rel="alternate" hreflang="en"/);
    },
    allowed(120_000),
  );

  test(
    'a failing HubSpot fails the build with a clear message',
    async () => {
      fake.failNext(500, 500, 500, 500, 500, 500, 500, 500);
      const result = await build();
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/Could not load the blog from HubSpot: HubSpot answered HTTP 500/);
      expect(result.output).not.toContain(fake.token);
    },
    allowed(120_000),
  );
});
