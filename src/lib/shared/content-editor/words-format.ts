/**
 * The Decap format of a site words file (content/i18n/{locale}/{place}.yaml): Decap edits the
 * file's keys as one list, `words`, each item a key (`hero.title`, fixed) and its text, in the
 * file's order, so that a place's English and Spanish show item by item side by side. Saving
 * writes the nested YAML back in the same order (src/lib/shared/i18n/translator.ts reads it).
 */
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { flattenWords } from '../i18n/translator';

/** The custom Decap format name of the site words files. */
export const LOCALE_WORDS_FORMAT = 'yaml-locale-words';

/** The Decap field holding a words file's keys and texts. */
export const WORDS_FIELD = 'words';

export interface WordItem {
  key: string;
  text: string;
}

/** Plain list items as Decap hands them (an Immutable.js list is `toJS()`-ed first). */
export function wordItems(value: unknown): WordItem[] {
  const plain = value && typeof value === 'object' && 'toJS' in value && typeof value.toJS === 'function' ? value.toJS() : value;
  if (!Array.isArray(plain)) return [];
  return plain.map((item) => ({ key: String(item?.key ?? ''), text: typeof item?.text === 'string' ? item.text : '' }));
}

/** `[{ key: 'hero.title', text }]` → `{ hero: { title: text } }`, in the items' order. */
export function nestWords(items: WordItem[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { key, text } of items) {
    const parts = key.split('.');
    const last = parts.pop();
    if (!last || parts.some((part) => !part)) throw new Error(`"${key}" is not a key of a words file.`);
    let node = root;
    for (const part of parts) {
      if (typeof node[part] === 'string') throw new Error(`"${key}" is under "${part}", which holds words itself.`);
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    if (last in node) throw new Error(`"${key}" is in the file twice.`);
    node[last] = text;
  }
  return root;
}

export const wordsFormat = {
  fromFile(content: string): Record<string, unknown> {
    const words = flattenWords(load(content, { schema: CORE_SCHEMA }) ?? {}, 'this file');
    return { [WORDS_FIELD]: Object.entries(words).map(([key, text]) => ({ key, text })) };
  },
  toFile(data: Record<string, unknown>): string {
    // Quoted wherever the site's reader (js-yaml) would read something other than the text: a ": " or a leading "{".
    return dump(nestWords(wordItems(data[WORDS_FIELD])), { lineWidth: -1, noRefs: true, quotingType: '"' });
  },
};
