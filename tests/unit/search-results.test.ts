import { describe, expect, test } from 'vitest';
import { cleanUrl, toRows } from '../../src/lib/search/results';
import { isSearchShortcut } from '../../src/lib/search/trigger';

describe('search results', () => {
  test.each([
    ['/faqs.html', '/faqs'],
    ['/faqs.html#what-is-the-mastery-threshold', '/faqs#what-is-the-mastery-threshold'],
    ['/index.html', '/'],
    ['/blogs-insights/why-two-hours-is-enough.html', '/blogs-insights/why-two-hours-is-enough'],
  ])('%s is listed as %s', (url, clean) => {
    expect(cleanUrl(url)).toBe(clean);
  });

  test('anchored headings (FAQ questions) become their own rows, others one row per page', () => {
    const rows = toRows([
      {
        url: '/faqs.html',
        excerpt: 'page',
        meta: { title: 'Frequently Asked Questions' },
        sub_results: [
          { title: 'Frequently Asked Questions', url: '/faqs.html', excerpt: 'top' },
          { title: 'What score counts as mastery?', url: '/faqs.html#what-is-the-mastery-threshold', excerpt: 'usually <mark>90%</mark>' },
        ],
      },
      { url: '/how-it-works.html', excerpt: 'two <mark>hours</mark>', meta: { title: 'How It Works' }, sub_results: [] },
    ]);
    expect(rows).toEqual([
      { title: 'What score counts as mastery?', context: 'Frequently Asked Questions', url: '/faqs#what-is-the-mastery-threshold', excerpt: 'usually <mark>90%</mark>' },
      { title: 'How It Works', url: '/how-it-works', excerpt: 'two <mark>hours</mark>' },
    ]);
  });

  test('the headings holding most query words come first; the page-title heading is skipped', () => {
    const sub = (title: string, excerpt: string) => ({ title, url: `/faqs.html#${title.length}`, excerpt });
    const rows = toRows(
      [
        {
          url: '/faqs.html',
          excerpt: '',
          meta: { title: 'FAQ' },
          sub_results: [
            { title: 'FAQ', url: '/faqs.html#page-title', excerpt: '<mark>mastery</mark>' },
            sub('What is mastery learning?', 'about <mark>mastery</mark>'),
            sub('Which subjects?', 'maths'),
            sub('What score counts?', 'the <mark>mastery</mark> <mark>threshold</mark> is 90%'),
          ],
        },
      ],
      'mastery threshold',
      2,
    );
    expect(rows.map((row) => row.title)).toEqual(['What score counts?', 'What is mastery learning?']);
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
});
