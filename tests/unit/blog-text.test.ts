import { describe, expect, test } from 'vitest';
import { formatLongDate, htmlToText, markdownToText, readTimeMinutes, slugify, truncate } from '../../src/lib/build/blog/text';
import { countText } from '../../src/lib/browser/blog/list';
import { isPublished } from '../../src/content-loaders/blog-hubspot';

describe('blog text helpers', () => {
  test.each([
    ['', 1],
    ['word', 1],
    ['word '.repeat(200), 1],
    ['word '.repeat(201), 2],
    ['word '.repeat(1000), 5],
    [`— – … ${'word '.repeat(10)}`, 1],
  ])('read time of %#', (text, minutes) => {
    expect(readTimeMinutes(text)).toBe(minutes);
  });

  test.each([
    ['<p>Hello <strong>world</strong></p><p>Next</p>', 'Hello world Next'],
    ['Fish &amp; chips &lt;3 &#8212; &quot;yes&quot; &#x27;ok&#x27;', 'Fish & chips <3 — "yes" \'ok\''],
    ['<script>bad()</script>Good', 'Good'],
  ])('text of HTML %#', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  test.each([
    ['**Bold** and [a link](/x) and `code`', 'Bold and a link and code'],
    ['## Heading\n\n- item one\n- item two', 'Heading item one item two'],
  ])('text of Markdown %#', (markdown, text) => {
    expect(markdownToText(markdown)).toBe(text);
  });

  test.each([
    ['blog/My First Post', 'my-first-post'],
    ['/blog/2025/why-mastery/', 'why-mastery'],
    ['Ça marche très bien', 'ca-marche-tres-bien'],
    ['!!!', ''],
  ])('slug of %s', (value, slug) => {
    expect(slugify(value)).toBe(slug);
  });

  test.each([
    ['2025-10-02T00:00:00Z', 'October 2, 2025'],
    ['2025-09-25T23:30:00Z', 'September 25, 2025'],
  ])('long US date of %s', (iso, text) => {
    expect(formatLongDate(new Date(iso))).toBe(text);
  });

  test('truncates at a word with an ellipsis', () => {
    expect(truncate('one two three four five', 16)).toBe('one two three…');
    expect(truncate('short', 12)).toBe('short');
  });

  test.each([
    [3, 8, 'Showing 3 of 8 articles'],
    [0, 0, 'Showing 0 of 0 articles'],
  ])('count line %i of %i', (shown, total, text) => {
    expect(countText(shown, total)).toBe(text);
  });

  test('the count line in the page’s words (the Spanish list hands them in data-count-words)', () => {
    expect(countText(1, 4, 'Mostrando {shown} de {total} artículos')).toBe('Mostrando 1 de 4 artículos');
  });

  test.each([
    [{ id: '1', state: 'PUBLISHED' }, true],
    [{ id: '1', currentState: 'PUBLISHED', publishDate: '2020-01-01T00:00:00Z' }, true],
    [{ id: '1', state: 'DRAFT' }, false],
    [{ id: '1', currentState: 'SCHEDULED', publishDate: '2999-01-01T00:00:00Z' }, false],
    [{ id: '1', state: 'PUBLISHED', publishDate: '2999-01-01T00:00:00Z' }, false],
  ])('published: %j', (post, expected) => {
    expect(isPublished(post)).toBe(expected);
  });
});
