/**
 * The `i18n` collection's loader: one entry per language of src/config/locales.ts, its words read
 * from content/i18n/{locale}/{place}.yaml, one file per place of the site (`frame`, `home`, …) whose
 * name is the first part of its keys (`home.yaml`'s `hero.title` is `home.hero.title`). A file
 * that one language lacks, or a key another language has, stops the build naming the key and the
 * file (src/lib/i18n/words.ts).
 */
import type { Loader } from 'astro/loaders';
import yaml from 'js-yaml';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locales } from '../config/locales';
import { assertSameKeys, flattenWords, type Words } from '../lib/i18n/words';

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

export function i18nLoader(options: { root?: string } = {}): Loader {
  return {
    name: 'i18n',
    load: async ({ store, parseData, watcher }) => {
      const words = await readLocaleWords(options.root);
      store.clear();
      for (const [locale, data] of Object.entries(words)) {
        store.set({ id: locale, data: await parseData({ id: locale, data: { words: data } }) });
      }
      watcher?.add(join(options.root ?? process.cwd(), I18N_DIR));
    },
  };
}
