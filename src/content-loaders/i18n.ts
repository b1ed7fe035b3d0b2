/**
 * The `i18n` collection's loader: one entry per language of src/config/locales.ts, its words read
 * from content/i18n/{locale}/{place}.yaml, one file per place of the site (`frame`, `home`, …) whose
 * name is the first part of its keys (`home.yaml`'s `hero.title` is `home.hero.title`). A file
 * that one language lacks, or a key another language has, stops the build naming the key and the
 * file (src/lib/shared/i18n/translator.ts).
 */
import type { Loader } from 'astro/loaders';
import { join } from 'node:path';
import { I18N_DIR, readLocaleWords } from '../server/words';

export { I18N_DIR, readLocaleWords, wordsFile } from '../server/words';

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
