/**
 * The Spanish FAQs (content/faqs-es, docs/spanish.md): every English FAQ has its Spanish at the same
 * file name, and the other way round, or building /faqs and /es/faqs stops naming the file;
 * the real Spanish answers keep the English figures and links.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { assertFaqTwins, FAQS_DIR, FAQS_ES_DIR, MissingSpanishFaqError, unmatchedFaqs } from '../../src/lib/build/faq-twins';

describe('an FAQ and its Spanish', () => {
  test('every FAQ with its twin passes', () => {
    expect(unmatchedFaqs(['a', 'b'], ['b', 'a'])).toEqual([]);
    expect(() => assertFaqTwins(['a', 'b'], ['a', 'b'])).not.toThrow();
  });

  test('an FAQ without its Spanish fails, naming the missing file', () => {
    expect(() => assertFaqTwins(['a', 'what-ages'], ['a'])).toThrow(MissingSpanishFaqError);
    expect(() => assertFaqTwins(['a', 'what-ages'], ['a'])).toThrow('content/faqs-es/what-ages.mdx is missing (the Spanish of content/faqs/what-ages.mdx)');
  });

  test('a Spanish FAQ without its English fails too, naming the file', () => {
    expect(() => assertFaqTwins(['a'], ['a', 'stray'])).toThrow('content/faqs/stray.mdx is missing (the English of content/faqs-es/stray.mdx)');
  });

  test('every missing file is named at once', () => {
    expect(unmatchedFaqs(['a', 'b', 'c'], ['c', 'd'])).toEqual([
      'content/faqs-es/a.mdx is missing (the Spanish of content/faqs/a.mdx)',
      'content/faqs-es/b.mdx is missing (the Spanish of content/faqs/b.mdx)',
      'content/faqs/d.mdx is missing (the English of content/faqs-es/d.mdx)',
    ]);
  });
});

describe('the real Spanish FAQs', () => {
  const read = (dir: string) =>
    Object.fromEntries(
      readdirSync(dir)
        .filter((file) => file.endsWith('.mdx'))
        .map((file) => [file, readFileSync(join(dir, file), 'utf8')]),
    );
  const english = read(FAQS_DIR);
  const spanish = read(FAQS_ES_DIR);
  const figures = (text: string) => (text.replace(/^---[\s\S]*?---/, '').match(/\d+/g) ?? []).join(' ');
  const links = (text: string) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]);
  const question = (text: string) => text.match(/^question: "?(.*?)"?$/m)?.[1] ?? '';

  test('one for each English FAQ', () => {
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
  });

  test.each(Object.keys(english))('%s: the same figures and links, its question in Spanish', (file) => {
    const es = spanish[file] ?? '';
    expect(figures(es)).toBe(figures(english[file] ?? ''));
    expect(figures(question(es))).toBe(figures(question(english[file] ?? '')));
    expect(links(es)).toEqual(links(english[file] ?? ''));
    expect(question(es)).toMatch(/\?$/);
    expect(question(es)).not.toBe(question(english[file] ?? ''));
  });
});
