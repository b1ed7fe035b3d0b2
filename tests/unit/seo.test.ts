import { describe, expect, test } from 'vitest';
import { buildSeo, defaultMetadata, jsonLdScript, normalisePath, robotsFor, routeMetadata } from '../../src/lib/shared/seo';

const site = 'https://masteryparents.org';

describe('robotsFor', () => {
  test.each([
    ['https://masteryparents.org', 'staging', 'index, follow'],
    ['https://staging.masteryparents.org', 'staging', 'noindex, nofollow'],
    ['https://masteryparents-staging.netlify.app', 'staging', 'noindex, nofollow'],
    ['https://STAGING.example.org', 'staging', 'noindex, nofollow'],
    ['https://preview.example.org', 'preview', 'noindex, nofollow'],
    ['https://preview.example.org', 'staging', 'index, follow'],
    ['http://localhost:8888', 'staging', 'index, follow'],
  ])('%s with marker %s is %s', (url, marker, expected) => {
    expect(robotsFor(url, marker)).toBe(expected);
  });

  test('the marker is matched in the host name only, not the path', () => {
    expect(robotsFor('https://example.org/staging/page', 'staging')).toBe('index, follow');
  });
});

describe('normalisePath', () => {
  test.each([
    ['/', '/'],
    ['', '/'],
    ['/faqs/', '/faqs'],
    ['/faqs.html', '/faqs'],
    ['/index.html', '/'],
    ['//faqs', '/faqs'],
    ['/blogs-insights/post/', '/blogs-insights/post'],
  ])('%s → %s', (input, expected) => expect(normalisePath(input)).toBe(expected));
});

describe('buildSeo', () => {
  const routes = [
    '/',
    '/how-it-works',
    '/why-this-matters',
    '/lead-the-change',
    '/real-stories',
    '/events-webinars',
    '/nominate-school',
    '/blogs-insights',
    '/faqs',
  ];

  test.each(routes)('%s takes its title and description from the metadata table', (path) => {
    const seo = buildSeo({ pathname: path, siteUrl: site });
    expect(seo.title).toBe(routeMetadata[path]?.title);
    expect(seo.description).toBe(routeMetadata[path]?.description);
    expect(seo.canonical).toBe(path === '/' ? `${site}/` : `${site}${path}`);
  });

  test('the nine routes of the metadata table all have distinct titles and descriptions of a sensible length', () => {
    expect(Object.keys(routeMetadata).sort()).toEqual([...routes].sort());
    const titles = new Set(Object.values(routeMetadata).map((m) => m.title));
    expect(titles.size).toBe(routes.length);
    for (const meta of Object.values(routeMetadata)) {
      expect(meta.title.length).toBeLessThanOrEqual(70);
      expect(meta.description.length).toBeGreaterThanOrEqual(50);
      expect(meta.description.length).toBeLessThanOrEqual(160);
    }
  });

  test.each(['/resources', '/partnership-form', '/webinar-share', '/anything-else'])('%s falls back to the default', (path) => {
    const seo = buildSeo({ pathname: path, siteUrl: site });
    expect(seo.title).toBe(defaultMetadata.title);
    expect(seo.description).toBe(defaultMetadata.description);
  });

  test('a blog post uses its own title and description and is an article', () => {
    const publishedAt = new Date('2025-10-02T00:00:00Z');
    const seo = buildSeo({
      pathname: '/blogs-insights/why-two-hours/',
      siteUrl: site,
      title: 'Why two hours',
      description: 'A post.',
      type: 'article',
      publishedAt,
    });
    expect(seo.title).toBe('Why two hours | Mastery Parents');
    expect(seo.canonical).toBe(`${site}/blogs-insights/why-two-hours`);
    expect(seo.meta).toContainEqual({ property: 'og:type', content: 'article' });
    expect(seo.meta).toContainEqual({ property: 'article:published_time', content: publishedAt.toISOString() });
  });

  test('social tags and organisation data are absolute and complete', () => {
    const seo = buildSeo({ pathname: '/faqs', siteUrl: `${site}/` });
    const byKey = Object.fromEntries(seo.meta.map((m) => [m.name ?? m.property, m.content]));
    expect(byKey['og:url']).toBe(`${site}/faqs`);
    expect(byKey['og:title']).toBe(seo.title);
    expect(byKey['og:image']).toMatch(/^https:\/\/masteryparents\.org\//);
    expect(byKey['twitter:card']).toBe('summary_large_image');
    expect(byKey['twitter:description']).toBe(seo.description);
    expect(byKey.robots).toBe('index, follow');
    expect(seo.jsonLd[0]).toMatchObject({ '@type': 'Organization', url: `${site}/` });
  });

  test.each([
    [{ siteUrl: 'https://staging.masteryparents.org' }, 'noindex, nofollow'],
    [{ siteUrl: site, noindex: true }, 'noindex, nofollow'],
    [{ siteUrl: site }, 'index, follow'],
  ])('robots for %o is %s', (input, robots) => {
    expect(buildSeo({ pathname: '/', ...input }).robots).toBe(robots);
  });
});

test('JSON-LD cannot close its script element', () => {
  expect(jsonLdScript({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
});
