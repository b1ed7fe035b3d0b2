/**
 * The frame's and the pages' words per language (content/i18n/{locale}/{place}.yaml). Every language
 * has every key of every other: a key missing in one fails the build naming the key and the file.
 */
export class MissingWordsError extends Error {
  override name = 'MissingWordsError';
}

export type Words = Record<string, string>;

/** `{ home: { hero: { title: 'x' } } }` → `{ 'home.hero.title': 'x' }`; anything but text or a map is refused. */
export function flattenWords(value: unknown, file: string, prefix = ''): Words {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MissingWordsError(`${file}: ${prefix || 'the file'} must be a map of keys to words`);
  }
  const words: Words = {};
  for (const [key, item] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof item === 'string') {
      if (!item.trim()) throw new MissingWordsError(`${file}: "${name}" is empty`);
      words[name] = item;
    } else Object.assign(words, flattenWords(item, file, name));
  }
  return words;
}

/** Throws, naming the key and the file that lacks it, unless every file has the same keys. */
export function assertSameKeys(files: Record<string, Words>): void {
  const all = new Set(Object.values(files).flatMap((words) => Object.keys(words)));
  const missing: string[] = [];
  for (const [file, words] of Object.entries(files)) {
    for (const key of all) if (!(key in words)) missing.push(`"${key}" is missing in ${file}`);
  }
  if (missing.length) throw new MissingWordsError(`Every language needs every key: ${missing.join('; ')}`);
}

/**
 * A lookup for one language's words; an unknown key stops the build (a visitor never sees a key),
 * naming the file it belongs in: `folder` is the language's (content/i18n/es), the file its first part's.
 */
export function translator(words: Words, folder: string): (key: string) => string {
  return (key) => {
    const text = words[key];
    if (text === undefined) throw new MissingWordsError(`"${key}" is missing in ${folder}/${key.split('.')[0]}.yaml`);
    return text;
  };
}

/** What `translator` returns: the page's words by key. */
export type Translate = ReturnType<typeof translator>;

/** The words under `prefix` for the given keys, as a component takes them: `wordsUnder(t, 'home.join', ['title'])`. */
export function wordsUnder<K extends string>(t: Translate, prefix: string, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, t(`${prefix}.${key}`)])) as Record<K, string>;
}

/**
 * Words with their placeholders filled: `fillWords('Did {school} answer?', { school: 'Oakwood' })`.
 * A placeholder without its value throws, so a visitor never sees one.
 */
export function fillWords(text: string, values: Record<string, string | number>): string {
  return fillParts(text, (name) => {
    const value = values[name];
    if (value === undefined) throw new MissingWordsError(`"{${name}}" has no value in "${text}"`);
    return String(value);
  }).join('');
}

/** `text` split at its `{name}` placeholders, each filled by `fill(name)`: for words around an element (a link, a bold address). */
export function fillParts<T>(text: string, fill: (name: string) => T): Array<string | T> {
  return text.split(/\{(\w+)\}/).map((part, index) => (index % 2 === 1 ? fill(part) : part));
}
