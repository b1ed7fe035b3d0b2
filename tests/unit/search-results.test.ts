/**
 * The site search: reading built pages into sections, ranking, excerpts with their <mark>s, paging,
 * and the `search` function (GET /search and /api/search) called as Netlify calls it, on an index
 * built the way the build builds it from pages of the same shape.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import search from '../../netlify/functions/search.mts';
import { regionMarkers } from '../../src/lib/shared/forms/render';
import { pageUrl, readPage, writeSiteIndex } from '../../src/lib/build/search/build-index';
import { cleanQuery, INDEX_FILE } from '../../src/lib/shared/search/query';
import { searchRowHtml } from '../../src/lib/shared/search/row-html';
import { excerpt, loadSiteIndex, pageOf, SEARCH_REGION, searchSite, SECTIONS_REGION, type SiteIndex } from '../../src/lib/shared/search/site-index';
import { isSearchShortcut } from '../../src/lib/browser/search/trigger';

// A page's <title> names it as its <h1> does, as the site's pages do (the home page aside).
const frame = (main: string, title = /<h1[^>]*>([^<]*)</.exec(main)?.[1] ?? 'Page') =>
  `<!doctype html><html lang="en"><head><title>${title} | Mastery Parents</title><style>h1{color:red}</style></head><body><header><nav>Why This Matters How It Works</nav></header>${main}<footer data-pagefind-ignore>Newsletter footerword</footer></body></html>`;

/** Built pages of the shapes the site has: the FAQ page, a content page, a blog post, pages left out. */
const pages: Record<string, string> = {
  'faqs.html': frame(
    `<main data-pagefind-body><h1 id="page-title">Frequently Asked Questions</h1><p>Everything parents ask.</p><form role="search"><label>Search FAQs formword</label><button>Search</button></form>
      <details><summary><h3 id="what-is-the-mastery-threshold">What score counts as mastery?</h3></summary><div><p>The mastery threshold is usually <strong>90%</strong>.</p><p>A student shows that accuracy before moving on.</p></div></details>
      <details><summary><h3 id="what-about-afternoons">What happens in the afternoons?</h3></summary><div><p>Afternoons are for workshops, sport and clubs.</p></div></details>
      <details><summary><h3 id="is-it-mastery-learning">Is this mastery learning?</h3></summary><div><p>Yes: students move on at mastery.</p></div></details></main>`,
  ),
  'how-it-works.html': frame(
    `<main data-pagefind-body><h1>How It Works</h1><p>Two focused hours of mastery learning each morning.</p><p>Tom &amp; Jerry's school <em>tried</em> it.</p></main>`,
  ),
  'blogs-insights/what-mastery-really-means.html': frame(
    `<main data-pagefind-body><a data-pagefind-ignore href="/blogs-insights">All articles ignoredword</a><h1 id="post-title" data-pagefind-meta="title">What mastery really means</h1><p data-pagefind-ignore>5 min read</p><p>Mastery is about the threshold of 90% on every skill, not a grade.</p></main>`,
  ),
  'thank-you.html': frame('<main><h1>Thank you</h1><p>A mastery page that is not indexed.</p></main>'),
};
// Twelve pages that mention "lantern", for paging.
for (let n = 1; n <= 12; n++)
  pages[`lantern-${n}.html`] = frame(`<main data-pagefind-body><h1>Lantern page ${n}</h1><p>${'lantern '.repeat(13 - n)}story ${n}.</p></main>`);

const shell = () => {
  const region = regionMarkers(SEARCH_REGION);
  const sections = regionMarkers(SECTIONS_REGION);
  return frame(
    `<main data-pagefind-body><h1>Search</h1><form action="/search"><input id="search-page-query" name="q" data-search-page-input></form>${region.start}<p data-search-page-status>Type a word or two.</p>${region.end}${sections.start}<div data-search-page-sections><a href="/faqs">FAQs</a></div>${sections.end}</main>`,
    'Search',
  );
};

let dir: string;
let index: SiteIndex;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'site-search-'));
  for (const [file, html] of Object.entries(pages)) {
    if (file.includes('/')) mkdirSync(join(dir, file.split('/')[0]!), { recursive: true });
    writeFileSync(join(dir, file), html);
  }
  writeFileSync(join(dir, 'search.html'), shell());
  writeSiteIndex(dir, '{faqs,how-it-works,thank-you,lantern-*,blogs-insights/*}.html');
  index = loadSiteIndex(JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')));
  process.env.SITE_DIR = dir;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.SITE_DIR;
});

describe('reading a built page', () => {
  test.each([
    ['faqs.html', '/faqs'],
    ['index.html', '/'],
    ['blogs-insights/why-two-hours-is-enough.html', '/blogs-insights/why-two-hours-is-enough'],
    ['blogs-insights/index.html', '/blogs-insights'],
  ])('%s is the page %s', (file, url) => {
    expect(pageUrl(file)).toBe(url);
  });

  test('a page is cut into sections at its headings with an id; only <main data-pagefind-body> counts, without ignored parts, forms and buttons', () => {
    const faqs = readPage(pages['faqs.html']!, '/faqs')!;
    expect(faqs.page).toEqual({ url: '/faqs', title: 'Frequently Asked Questions' });
    expect(faqs.sections.map((section) => [section.anchor, section.title])).toEqual([
      // The title is the page's own; the text before the first question is its first section.
      [undefined, 'Frequently Asked Questions'],
      ['what-is-the-mastery-threshold', 'What score counts as mastery?'],
      ['what-about-afternoons', 'What happens in the afternoons?'],
      ['is-it-mastery-learning', 'Is this mastery learning?'],
    ]);
    expect(faqs.sections[1]!.text).toBe('The mastery threshold is usually 90%. A student shows that accuracy before moving on.');
    const all = JSON.stringify(faqs);
    for (const word of ['formword', 'footerword', 'Why This Matters', 'color:red']) expect(all).not.toContain(word);

    const post = readPage(pages['blogs-insights/what-mastery-really-means.html']!, '/blogs-insights/what-mastery-really-means')!;
    expect(post.page.title).toBe('What mastery really means');
    expect(JSON.stringify(post)).not.toMatch(/ignoredword|5 min read/);
    // Words either side of an element boundary stay apart.
    expect(readPage(pages['how-it-works.html']!, '/how-it-works')!.sections[0]!.text).toBe(
      "Two focused hours of mastery learning each morning. Tom & Jerry's school tried it.",
    );
    expect(readPage(pages['thank-you.html']!, '/thank-you')).toBeUndefined();
  });

  // Issue 32: results showed hidden text ("the video tag.", "(opens in a new tab)") and the home
  // page's slogan as its title.
  test('only the text a reader sees is indexed, and a page is named by its <title>, without the site name', () => {
    const home = readPage(
      frame(
        `<main data-pagefind-body><h1>Transform Learning. Empower your Child.</h1><p>Two focused hours <span class="sr-only">(opens in a new tab)</span>a day.</p><video><source src="/a.mp4">Your browser does not support the video tag.</video><p hidden>Hidden words</p><p class="text-sm sr-only">Reader words</p><p aria-hidden="true">85%</p></main>`,
        'Mastery Parents | Bring 2-Hour Mastery Learning to Your School',
      ),
      '/',
    )!;
    expect(home.page.title).toBe('Bring 2-Hour Mastery Learning to Your School');
    expect(home.sections[0]!.text).toBe('Two focused hours a day. 85%');
    expect(
      readPage(frame('<main data-pagefind-body><h1>Frequently Asked Questions</h1><p>All of them.</p></main>', 'FAQs | Your Questions Answered'), '/faqs')!.page
        .title,
    ).toBe('FAQs');
  });
});

describe('ranking', () => {
  test.each([
    // Anchored sections link straight to the question; the one with every word comes first.
    ['mastery threshold', ['/faqs#what-is-the-mastery-threshold', '/faqs#is-it-mastery-learning', '/blogs-insights/what-mastery-really-means']],
    ['MASTERY   Threshold', ['/faqs#what-is-the-mastery-threshold', '/faqs#is-it-mastery-learning', '/blogs-insights/what-mastery-really-means']],
    // A page without anchored matches is one row; at most three rows per page.
    ['mastery', ['/faqs#is-it-mastery-learning', '/faqs#what-is-the-mastery-threshold', '/blogs-insights/what-mastery-really-means', '/how-it-works']],
    // The start of a word finds it; a long word one letter off too.
    ['afterno', ['/faqs#what-about-afternoons']],
    ['workshps', ['/faqs#what-about-afternoons']],
    // Every word must be in the page.
    ['mastery zzqxj', []],
    ['zzqxj', []],
    // Ignored parts, forms and pages outside the list are not searched.
    ['ignoredword', []],
    ['formword', []],
    ['footerword', []],
    ['<script>alert(1)</script>', []],
    ['', []],
    ['   ', []],
  ])('%j finds %j', (query, urls) => {
    const rows = searchSite(index, query);
    expect(rows.map((row) => row.url).sort()).toEqual([...urls].sort());
    if (urls[0]) expect(rows[0]!.url).toBe(urls[0]);
  });

  test('a section row names its page; a page row does not', () => {
    const section = searchSite(index, 'threshold').find((row) => row.url.startsWith('/faqs'));
    expect(section).toMatchObject({
      title: 'What score counts as mastery?',
      context: 'Frequently Asked Questions',
      url: '/faqs#what-is-the-mastery-threshold',
    });
    const [page] = searchSite(index, 'focused');
    expect(page).toEqual({
      title: 'How It Works',
      url: '/how-it-works',
      excerpt: 'Two <mark>focused</mark> hours of mastery learning each morning. Tom &amp; Jerry&#39;s school tried it.',
    });
  });

  test('pages with more of the words rank first', () => {
    expect(searchSite(index, 'lantern').map((row) => row.url)).toEqual(Array.from({ length: 12 }, (_, n) => `/lantern-${n + 1}`));
  });
});

describe('excerpts', () => {
  const words = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => `w${from + n}`).join(' ');
  test.each([
    ['The mastery threshold is usually 90%.', ['mastery', 'threshold'], 'The <mark>mastery</mark> <mark>threshold</mark> is usually 90%.'],
    ['Mastery, then MASTERY.', ['mastery'], '<mark>Mastery</mark>, then <mark>MASTERY</mark>.'],
    // Everything but the <mark>s is escaped.
    ['<img src=x onerror=alert(1)> mastery & "more"', ['mastery'], 'onerror=alert(1)&gt; <mark>mastery</mark> &amp; &quot;more&quot;'],
    ["Tom & Jerry's <mastery>", ['mastery', 's'], 'Tom &amp; Jerry&#39;<mark>s</mark> &lt;mastery&gt;'],
    // A match far in: a few words before it, 24 words in all.
    [`${words(1, 50)} target ${words(52, 100)}`, ['target'], `${words(48, 50)} <mark>target</mark> ${words(52, 71)}`],
    // The window with the most matches wins over the first match.
    [
      `alpha ${words(2, 40)} alpha beta alpha ${words(44, 90)}`,
      ['alpha', 'beta'],
      `${words(38, 40)} <mark>alpha</mark> <mark>beta</mark> <mark>alpha</mark> ${words(44, 61)}`,
    ],
    // No match in the text (the title matched): the start of it.
    [words(1, 30), ['mastery'], words(1, 24)],
    ['', ['mastery'], ''],
  ])('%j with %j', (text, matched, expected) => {
    expect(excerpt(text, matched)).toBe(expected);
  });

  test('a row keeps only its <mark>s, whatever the excerpt holds', () => {
    const html = searchRowHtml('x', { title: '<b>T</b>', url: '/faqs#a"b', excerpt: 'a <mark>b</mark> <script>c</script>' });
    expect(html).toContain('href="/faqs#a&quot;b"');
    expect(html).toContain('&lt;b&gt;T&lt;/b&gt;');
    expect(html).toContain('a <mark>b</mark> &lt;script&gt;c&lt;/script&gt;');
    expect(html).toMatch(/data-row-context hidden>/);
  });
});

describe('paging', () => {
  test.each([
    [0, 1, [], 1],
    [10, 1, [1, 10], 1],
    [11, 1, [1, 10], 2],
    [11, 2, [11, 11], 2],
    [25, 3, [21, 25], 3],
    [25, 4, [], 3],
  ])('%i rows, page %i: rows %j of %i pages', (count, page, range, pages) => {
    const rows = Array.from({ length: count }, (_, n) => n + 1);
    const result = pageOf(rows, page);
    expect(result.pages).toBe(pages);
    expect(result.items.length ? [result.items[0], result.items.at(-1)] : []).toEqual(range);
  });
});

describe('the search function', () => {
  const get = (path: string, init?: RequestInit) => search(new Request(`http://localhost${path}`, init));
  const status = (html: string) => html.match(/data-search-page-status>([^<]*)</)?.[1];
  const decode = (text = '') =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const long = 'mastery '.repeat(250);
  const markup = '<img src=x onerror="alert(1)"><script>alert(1)</script>';

  test.each([
    ['/search', 200, 'Type a word or two to search the FAQs, articles and pages.', true],
    ['/search?q=', 200, 'Type a word or two to search the FAQs, articles and pages.', true],
    ['/search?q=%20%20%20', 200, 'Type a word or two to search the FAQs, articles and pages.', true],
    ['/search?q=mastery+threshold', 200, 'Found 3 results for "mastery threshold"', false],
    ['/search?q=zzqxj', 200, `No results found for "zzqxj". Try fewer or other words, or browse the site's sections below.`, true],
    [`/search?q=${encodeURIComponent(markup)}`, 200, `No results found for "${markup}". Try fewer or other words, or browse the site's sections below.`, true],
    [
      `/search?q=${encodeURIComponent(long)}`,
      200,
      `Found 4 results for "${long.trim().slice(0, 200).trim()}" (the search used its first 200 characters)`,
      false,
    ],
    [`/search?q=${'x'.repeat(5000)}`, 400, 'q: The search is too long.', true],
    ['/search?q=lantern&page=2', 200, 'Found 12 results for "lantern"', false],
    ['/search?q=lantern&page=3', 404, 'There is no page 3 of the results for "lantern": they end at page 2.', true],
    ['/search?q=lantern&page=0', 400, 'page: The result page must be a whole number from 1.', true],
    ['/search?q=lantern&page=abc', 400, 'page: The result page must be a whole number from 1.', true],
    ['/search?q=lantern&page=-1', 400, 'page: The result page must be a whole number from 1.', true],
  ])('GET %s answers %i: %j', async (path, code, message, sections) => {
    const response = await get(path);
    expect(response.status).toBe(code);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('netlify-vary')).toBe('query=q|page|lang');
    expect(response.headers.get('netlify-cdn-cache-control')).toMatch(/^public, durable, max-age=\d+/);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-robots-tag')).toBeNull();
    const html = await response.text();
    expect(decode(status(html))).toBe(message);
    expect(html.includes('data-search-page-sections')).toBe(sections);
    // The query is only ever text: in the box, the status line and the title.
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert');
    const value = html.match(/data-search-page-input value="([^"]*)"/)?.[1];
    expect(decode(value)).toBe(cleanQuery(new URL(path, 'http://localhost').searchParams.get('q')));
  });

  test('results are rows with highlighted excerpts, linking to the matching part', async () => {
    const html = await (await get('/search?q=mastery+threshold')).text();
    expect(html).toContain('<title>Results for &quot;mastery threshold&quot; | Mastery Parents</title>');
    const list = html.match(/<ol[^>]*data-search-page-results>(.*?)<\/ol>/)?.[1] ?? '';
    expect([...list.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/faqs#what-is-the-mastery-threshold',
      '/faqs#is-it-mastery-learning',
      '/blogs-insights/what-mastery-really-means',
    ]);
    expect(list).toContain('The <mark>mastery</mark> <mark>threshold</mark> is usually 90%.');
    expect(html).not.toContain('rel="next"');
  });

  test('results come ten to a page, with links between the pages', async () => {
    const first = await (await get('/search?q=lantern')).text();
    expect(first.match(/data-row-title>/g)).toHaveLength(10);
    expect(first).toContain('rel="next" href="/search?q=lantern&amp;page=2"');
    expect(first).not.toContain('rel="prev"');
    expect(first).toContain('Page 1 of 2');
    const second = await (await get('/search?q=lantern&page=2&utm_source=x')).text();
    expect(second.match(/data-row-title>/g)).toHaveLength(2);
    expect(second).toContain('<ol start="11"');
    expect(second).toContain('rel="prev" href="/search?q=lantern"');
    expect(second).not.toContain('rel="next"');
  });

  test.each([
    ['/api/search?q=lantern', 200, { total: 12, page: 1, pages: 2, rows: 10 }],
    ['/api/search?q=lantern&page=2', 200, { total: 12, page: 2, pages: 2, rows: 2 }],
    ['/api/search?q=zzqxj', 200, { total: 0, page: 1, pages: 1, rows: 0 }],
    ['/api/search', 200, { total: 0, page: 1, pages: 1, rows: 0 }],
  ])('GET %s answers the dialog as JSON', async (path, code, expected) => {
    const response = await get(path);
    expect(response.status).toBe(code);
    expect(response.headers.get('netlify-vary')).toBe('query=q|page|lang');
    const body = await response.json();
    expect({ total: body.total, page: body.page, pages: body.pages, rows: body.rows.length }).toEqual(expected);
  });

  test.each([
    ['/api/search?q=lantern&page=x', 400, 'invalid_request'],
    ['/api/search?q=lantern&page=9', 404, 'no_such_page'],
    [`/api/search?q=${'y'.repeat(5000)}`, 400, 'invalid_request'],
  ])('GET %s answers %i %s', async (path, code, errorCode) => {
    const response = await get(path);
    expect(response.status).toBe(code);
    expect((await response.json()).error.code).toBe(errorCode);
  });

  test.each([['POST'], ['PUT'], ['DELETE']])('%s is refused with 405', async (method) => {
    const response = await get('/search?q=mastery', { method, body: method === 'DELETE' ? undefined : 'q=x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  test('without its index the search says so with 503, and no detail', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'site-search-empty-'));
    process.env.SITE_DIR = empty;
    try {
      const page = await get('/search?q=mastery');
      expect(page.status).toBe(503);
      expect(await page.text()).toBe('Search is unavailable right now. Please try again later.');
      const api = await get('/api/search?q=mastery');
      expect(api.status).toBe(503);
      expect((await api.json()).error.code).toBe('search_unavailable');
    } finally {
      process.env.SITE_DIR = dir;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

test.each([
  [{ key: '/', ctrlKey: false, metaKey: false, altKey: false, target: null }, true],
  [{ key: 'k', ctrlKey: true, metaKey: false, altKey: false, target: null }, true],
  [{ key: 'K', ctrlKey: false, metaKey: true, altKey: false, target: null }, true],
  [{ key: 'k', ctrlKey: false, metaKey: false, altKey: false, target: null }, false],
  [{ key: '/', ctrlKey: false, metaKey: false, altKey: false, target: { tagName: 'INPUT', isContentEditable: false } }, false],
  [{ key: '/', ctrlKey: false, metaKey: false, altKey: false, target: { tagName: 'DIV', isContentEditable: true } }, false],
  [{ key: 'k', ctrlKey: true, metaKey: false, altKey: false, target: { tagName: 'INPUT', isContentEditable: false } }, true],
])('shortcut %j → %s', (event, expected) => {
  expect(isSearchShortcut(event as unknown as KeyboardEvent)).toBe(expected);
});
