/**
 * The words per language and place (content/i18n/{locale}/{place}.yaml), read the same way by the
 * build (the `i18n` collection's loader) and by the functions that answer with pages or emails in
 * the visitor's language (netlify.toml includes the folder). Every language has every key of every
 * other: a missing one throws, naming the key and the file that lacks it (src/lib/shared/i18n/translator.ts).
 */
import yaml from 'js-yaml';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultLocale, locales, type Locale } from '../config/locales';
import { assertSameKeys, flattenWords, translator, type Translate, type Words } from '../lib/shared/i18n/translator';

export const I18N_DIR = 'content/i18n';

/** Every language's words, checked against each other, keyed by locale. `root` is the project folder. */
export async function readLocaleWords(root = process.cwd(), names: readonly string[] = locales): Promise<Record<string, Words>> {
  const places: Record<string, Record<string, Words>> = {};
  for (const locale of names) {
    places[locale] = {};
    for (const name of await placesOf(root, locale)) {
      const file = wordsFile(locale, name);
      const path = join(root, file);
      places[locale][name] = flattenWords(yaml.load(await readFile(path, 'utf8'), { filename: path }), file, name);
    }
  }
  // Place by place, so that a missing key is named with the file it belongs in.
  for (const name of new Set(Object.values(places).flatMap((byPlace) => Object.keys(byPlace)))) {
    assertSameKeys(Object.fromEntries(names.map((locale) => [wordsFile(locale, name), places[locale]?.[name] ?? {}])));
  }
  return Object.fromEntries(names.map((locale) => [locale, Object.assign({}, ...Object.values(places[locale] ?? {}))]));
}

/** Where a place's words are in one language: content/i18n/es/home.yaml. */
export function wordsFile(locale: string, place: string): string {
  return `${I18N_DIR}/${locale}/${place}.yaml`;
}

/** The places a language has files for; a language without a folder has none (every key is then missing). */
async function placesOf(root: string, locale: string): Promise<string[]> {
  const files = await readdir(join(root, I18N_DIR, locale)).catch(() => [] as string[]);
  return files
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
}

let cache: Promise<Record<string, Words>> | undefined;

/**
 * One language's words for a function's answer: a lookup that throws on an unknown key (a visitor
 * never sees a key). Read once per function instance; a failed read is tried again next time.
 */
export async function serverWordsOf(locale: Locale): Promise<Translate> {
  if (!cache) {
    const loaded = readLocaleWords();
    cache = loaded;
    loaded.catch(() => {
      if (cache === loaded) cache = undefined;
    });
  }
  return translator((await cache)[locale] ?? {}, `${I18N_DIR}/${locale}`);
}

/**
 * The language a link or form hints at (`lang=es`) for a page that names no letter, draft or
 * parent whose language is kept: one the site has, else English, never an error. Only a
 * preference: it changes the words and nothing else.
 */
export const hintedLocale = (given: string | null | undefined): Locale => locales.find((locale) => locale === given) ?? defaultLocale;
