import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, describe, expect, test } from 'vitest';
import { I18N_DIR, i18nLoader, readLocaleWords } from '../../src/content-loaders/i18n';
import { locales } from '../../src/config/locales';
import { assertSameKeys, flattenWords, MissingWordsError, translator } from '../../src/lib/shared/i18n/translator';

const made: string[] = [];
afterAll(() => Promise.all(made.map((root) => rm(root, { recursive: true, force: true }))));

/** A project folder whose content/i18n holds these files ('es/home.yaml'); removed after the file's tests. */
async function projectWith(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'i18n-words-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, I18N_DIR, name)), { recursive: true });
    await writeFile(join(root, I18N_DIR, name), text);
  }
  return root;
}

describe('the real word files', () => {
  test('every language has exactly the keys of every other', async () => {
    const words = await readLocaleWords();
    const [first = [], ...others] = locales.map((locale) => Object.keys(words[locale] ?? {}).sort());
    for (const keys of others) expect(keys).toEqual(first);
    expect(first.length).toBeGreaterThan(50);
  });

  test('the figures of a claim are the same in every language', async () => {
    const { en = {}, es = {} } = await readLocaleWords();
    const figures = (text = '') => (text.match(/\d+/g) ?? []).join(' ');
    for (const key of Object.keys(en)) expect(figures(es[key]), key).toBe(figures(en[key]));
  });
});

describe('a key missing in one language', () => {
  test.each([
    ['a key only English has', 'a: A\nb: B\n', 'a: A\n', '"home.b" is missing in content/i18n/es/home.yaml'],
    ['a key only Spanish has', 'a: A\n', 'a: A\nnested:\n  c: C\n', '"home.nested.c" is missing in content/i18n/en/home.yaml'],
  ])('%s fails, naming the key and the file', async (_, en, es, message) => {
    const root = await projectWith({ 'en/home.yaml': en, 'es/home.yaml': es });
    await expect(readLocaleWords(root)).rejects.toThrow(message);
  });

  test('stops the collection loader, so the build fails', async () => {
    const root = await projectWith({ 'en/frame.yaml': 'menu: Menu\nskipLink: Skip\n', 'es/frame.yaml': 'menu: Menú\n' });
    const context = { store: { clear() {}, set() {} }, parseData: async ({ data }: { data: unknown }) => data } as unknown as LoaderContext;
    await expect(i18nLoader({ root }).load(context)).rejects.toThrow(/"frame\.skipLink" is missing in content\/i18n\/es\/frame\.yaml/);
  });

  test.each([
    ['a place one language has no file for', { 'en/home.yaml': 'a: A\n', 'es/frame.yaml': 'menu: Menú\n', 'en/frame.yaml': 'menu: Menu\n' }],
    ['a language with no folder', { 'en/home.yaml': 'a: A\n' }],
  ])('%s fails too, naming the file', async (_, files) => {
    const root = await projectWith(files);
    await expect(readLocaleWords(root)).rejects.toThrow('"home.a" is missing in content/i18n/es/home.yaml');
  });

  test('the places of a language are merged, each under its file name', async () => {
    const root = await projectWith({ 'en/home.yaml': 'a: A\n', 'en/frame.yaml': 'm: M\n', 'es/home.yaml': 'a: Á\n', 'es/frame.yaml': 'm: Ḿ\n' });
    expect(await readLocaleWords(root)).toEqual({ en: { 'frame.m': 'M', 'home.a': 'A' }, es: { 'frame.m': 'Ḿ', 'home.a': 'Á' } });
  });
});

describe('flattenWords', () => {
  test('nested maps become dotted keys', () => {
    expect(flattenWords({ home: { hero: { title: 'T' } }, menu: 'M' }, 'x.yaml')).toEqual({ 'home.hero.title': 'T', menu: 'M' });
  });

  test.each([
    ['an empty text', { a: '  ' }, '"a" is empty'],
    ['a list', { a: ['x'] }, 'a must be a map'],
    ['a number', { a: { b: 3 } }, 'a.b must be a map'],
  ])('%s is refused, naming the file', (_, value, message) => {
    expect(() => flattenWords(value, 'content/i18n/es.yaml')).toThrow(`content/i18n/es.yaml: ${message}`);
  });
});

test('assertSameKeys names every missing key with its file', () => {
  expect(() => assertSameKeys({ 'en.yaml': { a: 'A', b: 'B' }, 'es.yaml': { a: 'A', c: 'C' } })).toThrow(
    /"c" is missing in en\.yaml; "b" is missing in es\.yaml/,
  );
});

test('a page asking for a key no file has stops the build instead of showing the key', () => {
  const t = translator({ 'frame.menu': 'Menú' }, 'content/i18n/es');
  expect(t('frame.menu')).toBe('Menú');
  expect(() => t('frame.nope')).toThrow(MissingWordsError);
  expect(() => t('frame.nope')).toThrow('"frame.nope" is missing in content/i18n/es/frame.yaml');
});
