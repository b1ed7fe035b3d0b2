/**
 * The `i18n` collection's loader: one entry per language of src/config/locales.ts, its words read
 * from content/i18n/{locale}.yaml. A file that is missing, or lacks a key another has, stops the
 * build naming the key and the file (src/lib/i18n/words.ts).
 */
import type { Loader } from 'astro/loaders';
import yaml from 'js-yaml';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locales } from '../config/locales';
import { assertSameKeys, flattenWords, type Words } from '../lib/i18n/words';

export const I18N_DIR = 'content/i18n';

/** Every language's words, checked against each other, keyed by locale. `root` is the project folder. */
export async function readLocaleWords(root = process.cwd(), names: readonly string[] = locales): Promise<Record<string, Words>> {
  const byFile: Record<string, Words> = {};
  const byLocale: Record<string, Words> = {};
  for (const locale of names) {
    const file = `${I18N_DIR}/${locale}.yaml`;
    const path = join(root, file);
    byLocale[locale] = byFile[file] = flattenWords(yaml.load(await readFile(path, 'utf8'), { filename: path }), file);
  }
  assertSameKeys(byFile);
  return byLocale;
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
