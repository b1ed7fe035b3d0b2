import { describe, expect, test } from 'vitest';
import { alternatesOf, linkIn, localePath, splitLocale, switchPath } from '../../src/lib/shared/i18n/paths';
import { formatYear } from '../../src/lib/shared/i18n/format';
import { readsFirst } from '../../src/lib/browser/frame/language-suggestion';
import { buildSeo } from '../../src/lib/shared/seo';

const site = 'https://masteryparents.org';

test.each([
  ['/', 'en', '/'],
  ['/', 'es', '/es'],
  ['/faqs', 'es', '/es/faqs'],
  ['/faqs/', 'en', '/faqs'],
] as const)('localePath(%s, %s) is %s', (path, locale, expected) => {
  expect(localePath(path, locale)).toBe(expected);
});

test.each([
  ['/', 'en', '/'],
  ['/es', 'es', '/'],
  ['/es/', 'es', '/'],
  ['/es.html', 'es', '/'],
  ['/es/faqs', 'es', '/faqs'],
  ['/es/404.html', 'es', '/404'],
  ['/esports', 'en', '/esports'],
  ['/faqs', 'en', '/faqs'],
])('splitLocale(%s) is %s %s', (pathname, locale, path) => {
  expect(splitLocale(pathname)).toEqual({ locale, path });
});

describe('the language switch', () => {
  test.each([
    ['/', 'es', '/es'],
    ['/es', 'en', '/'],
    ['/index.html', 'es', '/es'],
    // A page Spanish does not have yet: that language's home.
    ['/form', 'es', '/es'],
    // A page it has: the same page.
    ['/blogs-insights', 'es', '/es/blogs-insights'],
    ['/faqs', 'es', '/es/faqs'],
    ['/es/faqs', 'en', '/faqs'],
    ['/es/404', 'en', '/'],
  ] as const)('from %s to %s goes to %s', (pathname, target, expected) => {
    expect(switchPath(pathname, target)).toBe(expected);
  });
});

test.each([
  ['/', 'es', { href: '/es' }],
  ['/form', 'es', { href: '/form', hreflang: 'en' }],
  ['/blogs-insights', 'es', { href: '/es/blogs-insights' }],
  ['/faqs#what-ages', 'es', { href: '/es/faqs#what-ages' }],
  ['/nominate-school#nominate-form', 'es', { href: '/es/nominate-school#nominate-form' }],
  ['/events-webinars#join', 'es', { href: '/es/events-webinars#join' }],
  ['/search?q=mastery', 'es', { href: '/es/search?q=mastery' }],
  ['/form?school=x#top', 'es', { href: '/form?school=x#top', hreflang: 'en' }],
  ['/blogs-insights?tag=math#latest', 'es', { href: '/es/blogs-insights?tag=math#latest' }],
  ['/lead-the-change#email-form', 'es', { href: '/es/lead-the-change#email-form' }],
  ['/faqs', 'en', { href: '/faqs' }],
  ['https://example.org/', 'es', { href: 'https://example.org/' }],
] as const)('a link to %s on a %s page is %o', (href, locale, expected) => {
  expect(linkIn(href, locale)).toEqual(expected);
});

describe('hreflang alternates', () => {
  test('a page in both languages names both, and English as x-default, from either', () => {
    const expected = [
      { hreflang: 'en', href: `${site}/` },
      { hreflang: 'es', href: `${site}/es` },
      { hreflang: 'x-default', href: `${site}/` },
    ];
    expect(buildSeo({ pathname: '/', siteUrl: site }).alternates).toEqual(expected);
    expect(buildSeo({ pathname: '/es', siteUrl: site }).alternates).toEqual(expected);
  });

  test('a page only English has names none', () => {
    expect(alternatesOf('/form')).toEqual([]);
    expect(buildSeo({ pathname: '/form', siteUrl: site }).alternates).toEqual([]);
    // A blog post is not in translatedPaths: its alternates are its own (its translation).
    expect(buildSeo({ pathname: '/blogs-insights/a-post', siteUrl: site }).alternates).toEqual([]);
  });

  test('a page that names its own alternates (a post and its translation) has those', () => {
    const alternates = [
      { locale: 'en', path: '/blogs-insights/why-two-hours' },
      { locale: 'es', path: '/es/blogs-insights/dos-horas' },
    ] as const;
    expect(buildSeo({ pathname: '/es/blogs-insights/dos-horas', siteUrl: site, alternates: [...alternates] }).alternates).toEqual([
      { hreflang: 'en', href: `${site}/blogs-insights/why-two-hours` },
      { hreflang: 'es', href: `${site}/es/blogs-insights/dos-horas` },
      { hreflang: 'x-default', href: `${site}/blogs-insights/why-two-hours` },
    ]);
  });

  test.each([
    ['/', 'en_US'],
    ['/es', 'es_US'],
  ])('%s has og:locale %s', (pathname, og) => {
    expect(buildSeo({ pathname, siteUrl: site }).meta).toContainEqual({ property: 'og:locale', content: og });
  });
});

test.each([
  [['es-ES', 'en'], true],
  [['es-419'], true],
  [['ES'], true],
  [['en-US', 'es'], false],
  [['eu'], false],
  [[], false],
])('a browser reading %j first is offered Spanish: %s', (languages, expected) => {
  expect(readsFirst(languages, 'es')).toBe(expected);
});

test.each([
  ['en', '2026'],
  ['es', '2026'],
] as const)('the footer year in %s is %s, never grouped', (locale, expected) => {
  expect(formatYear(new Date(Date.UTC(2026, 5, 1)), locale)).toBe(expected);
});
