/** The FAQ content and the search box's texts: counts per category, and what a query finds. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { matches, statusText } from '../../src/lib/browser/faq-search';
import { markdownToText } from '../../src/lib/build/blog/text';

const dir = join(import.meta.dirname, '..', '..', 'content', 'faqs');
const faqs = readdirSync(dir)
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const [, front = '', body = ''] = source.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/) ?? [];
    const field = (name: string) => front.match(new RegExp(`^${name}: "?(.*?)"?$`, 'm'))?.[1] ?? '';
    return {
      id: file.replace(/\.mdx$/, ''),
      question: field('question'),
      category: field('category'),
      order: Number(field('order')),
      text: markdownToText(body),
    };
  });

/** What the page's script matches: the question and the answer. */
const found = (query: string) => faqs.filter((faq) => matches(`${faq.question} ${faq.text}`, query));

describe('FAQ content', () => {
  test('44 questions in total', () => {
    expect(faqs).toHaveLength(44);
  });

  test.each([
    ['how-it-works', 11],
    ['personalization-curriculum', 13],
    ['support-motivation', 9],
    ['outcomes-research', 6],
    ['advocacy', 5],
  ])('%s holds %i questions, ordered 1..n without gaps', (category, count) => {
    const orders = faqs
      .filter((faq) => faq.category === category)
      .map((faq) => faq.order)
      .sort((a, b) => a - b);
    expect(orders).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });

  test.each([
    ['25-minute', /25-minute/],
    ['90%', /90%/],
    ['80-90 days', /80-90 days/],
    ['three times a year', /three times a year/],
    ['1470+', /1470\+/],
  ])('the spec figure "%s" is stated in an answer', (query, pattern) => {
    expect(found(query).length).toBeGreaterThan(0);
    expect(found(query).every((faq) => pattern.test(`${faq.question} ${faq.text}`))).toBe(true);
  });
});

describe('FAQ search texts', () => {
  test.each([
    ['', 44],
    ['   ', 44],
    ['MASTERY', found('mastery').length],
    ['zzzz-no-such-thing', 0],
  ])('"%s" matches %i questions', (query, count) => {
    expect(found(query)).toHaveLength(count);
  });

  test('matching is a case-insensitive substring over question and answer', () => {
    expect(matches('What score counts as Mastery?', 'mastery')).toBe(true);
    expect(matches('What score counts as Mastery?', 'SCORE COUNTS')).toBe(true);
    expect(matches('What score counts as Mastery?', 'score  counts')).toBe(true);
    expect(matches('What score counts as Mastery?', 'masteries')).toBe(false);
  });

  test.each([
    [5, 'mastery', 'Found 5 results'],
    [1, 'SAT', 'Found 1 results'],
    [0, '  quantum  ', 'No results found for "quantum"'],
    [44, '', ''],
    [44, '   ', ''],
  ])('status for %i hits of "%s"', (count, query, text) => {
    expect(statusText(count, query)).toBe(text);
  });
});

describe('FAQ search in Spanish (/es/faqs)', () => {
  const spanishDir = join(import.meta.dirname, '..', '..', 'content', 'faqs-es');
  const spanish = readdirSync(spanishDir)
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => {
      const source = readFileSync(join(spanishDir, file), 'utf8');
      const [, front = '', body = ''] = source.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/) ?? [];
      return `${front.match(/^question: "?(.*?)"?$/m)?.[1] ?? ''} ${markdownToText(body)}`;
    });
  const foundEs = (query: string) => spanish.filter((text) => matches(text, query));

  test('accents and case do not matter: "matematicas" finds what "Matemáticas" finds', () => {
    expect(matches('¿Qué calificación cuenta como dominio?', 'CALIFICACION')).toBe(true);
    expect(foundEs('matematicas').length).toBeGreaterThan(0);
    expect(foundEs('matematicas')).toEqual(foundEs('Matemáticas'));
    expect(foundEs('pantalla').length).toBeLessThan(spanish.length);
    expect(foundEs('zzzz-nada')).toEqual([]);
  });

  test.each([
    [5, 'dominio', '5 resultados encontrados'],
    [0, '  cuántica ', 'No hay resultados para «cuántica»'],
    [44, ' ', ''],
  ])('status for %i hits of "%s" in the page’s words', (count, query, text) => {
    expect(statusText(count, query, { found: '{count} resultados encontrados', none: 'No hay resultados para «{query}»' })).toBe(text);
  });
});
