/**
 * The letters (bodies of the school email) and their rotation per school. The letters are the
 * committed `content/letters/*.yaml` the build checked (the `letters` collection; the functions
 * carry the folder, see netlify.toml), read once per function instance.
 *
 * Parents writing to one school get the letters in turn: the school, keyed by the hash of its
 * canonical contact address, remembers the letter it was last given, and the next parent gets the
 * one after it in `order`. The choice is one statement (an upsert that reads the row it replaces),
 * so two parents drafting at the same moment get different letters.
 *
 * Table `letter_rotations` (migration 0007): one row per school key.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { defaultLocale, type Locale } from '../../config/locales';
import { letterSchema, STAT_PLACEHOLDER, withStatistics } from '../../lib/shared/email/letter-texts';
import { statSchema, type Stat } from '../../lib/shared/stats';
import type { Letter } from '../../lib/shared/email/template';
import { queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress } from '../identity';

/** Where the letters live, relative to the project (the function's working folder). */
export const LETTERS_DIR = 'content/letters';

let cache: { dir: string; letters: Partial<Record<Locale, Promise<Letter[]>>> } | undefined;

/** The statistics the letters quote (content/stats.yaml, beside the letters' folder). */
async function readStatistics(dir: string): Promise<Stat[]> {
  return statSchema.array().parse(yaml.load(await readFile(join(dir, '..', 'stats.yaml'), 'utf8')));
}

/** Where a language's letters are: English in the folder itself, another language in its subfolder (content/letters/es). */
const folderOf = (language: Locale) => (language === defaultLocale ? '' : language);

async function read(root: string, language: Locale): Promise<Letter[]> {
  const dir = join(root, folderOf(language));
  const shown = folderOf(language) ? `${LETTERS_DIR}/${folderOf(language)}` : LETTERS_DIR;
  const files = (await readdir(dir)).filter((name) => name.endsWith('.yaml')).sort();
  let stats: Promise<Stat[]> | undefined;
  // Read once, when the first letter that quotes a figure asks.
  const readStatisticsOnce = () => {
    stats ??= readStatistics(root);
    return stats;
  };
  const letters = await Promise.all(
    files.map(async (name) => {
      const parsed = letterSchema.safeParse(yaml.load(await readFile(join(dir, name), 'utf8')));
      if (!parsed.success) throw new Error(`${shown}/${name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      const { order, introduction, body, closing } = parsed.data;
      const letter: Letter = { id: name.replace(/\.yaml$/, ''), introduction, body, closing, ...(language === defaultLocale ? {} : { language }) };
      // A figure is quoted as the site shows it (one source; src/lib/shared/stats.ts).
      const quotes = [introduction, body, closing].some((text) => new RegExp(STAT_PLACEHOLDER.source).test(text));
      return { order, letter: quotes ? withStatistics(letter, await readStatisticsOnce(), `${shown}/${name}`) : letter };
    }),
  );
  if (letters.length === 0) throw new Error(`${shown} has no letters.`);
  return letters.sort((a, b) => a.order - b.order || a.letter.id.localeCompare(b.letter.id)).map((entry) => entry.letter);
}

/**
 * Every letter in `language`, in rotation order. Throws when the folder is missing or a letter is
 * not valid; another language's folder must have every English letter, by the same file name, and
 * no other (the rotation is the English letters'; a parent's letter is its variant).
 */
export function letters(language: Locale = defaultLocale): Promise<Letter[]> {
  const dir = serverEnv.lettersDir ?? join(process.cwd(), LETTERS_DIR);
  if (cache?.dir !== dir) cache = { dir, letters: {} };
  const held = cache;
  const existing = held.letters[language];
  if (existing) return existing;
  const loaded = language === defaultLocale ? read(dir, language) : readVariants(dir, language);
  held.letters[language] = loaded;
  // A failed read is not cached: the next call tries again.
  loaded.catch(() => {
    if (held.letters[language] === loaded) delete held.letters[language];
  });
  return loaded;
}

async function readVariants(dir: string, language: Locale): Promise<Letter[]> {
  const [english, variants] = await Promise.all([letters(defaultLocale), read(dir, language)]);
  const ids = new Set(variants.map((letter) => letter.id));
  const missing = english.filter((letter) => !ids.has(letter.id)).map((letter) => `${LETTERS_DIR}/${language}/${letter.id}.yaml`);
  if (missing.length) throw new Error(`Every letter needs its ${language} variant: ${missing.join(', ')} is missing.`);
  const extra = variants.filter((letter) => !english.some((each) => each.id === letter.id)).map((letter) => `${LETTERS_DIR}/${language}/${letter.id}.yaml`);
  if (extra.length) throw new Error(`${extra.join(', ')} has no English letter of the same name in ${LETTERS_DIR}.`);
  return english.map((letter) => variants.find((variant) => variant.id === letter.id)!);
}

/** The same letter in `language` (its variant of the same id). */
export async function letterIn(letter: Letter, language: Locale): Promise<Letter> {
  if ((letter.language ?? defaultLocale) === language) return letter;
  const found = (await letters(language)).find((each) => each.id === letter.id);
  if (!found) throw new Error(`${LETTERS_DIR}/${folderOf(language)}/${letter.id}.yaml is missing.`);
  return found;
}

/** The letter with this id, or the first one when it is no longer there. */
export async function letterById(id: string | undefined): Promise<Letter> {
  const all = await letters();
  return all.find((letter) => letter.id === id) ?? all[0]!;
}

/**
 * The key a school's rotation is kept under: its canonical contact address, hashed; without an
 * address, the school's name as written (lower case, spaces collapsed); undefined with neither.
 */
export function rotationKey(school: { address?: string; name?: string }): string | undefined {
  const address = canonicalAddress(school.address ?? '');
  const name = (school.name ?? '').normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  const identity = address.includes('@') ? `address:${address}` : name ? `name:${name}` : undefined;
  return identity && createHash('sha256').update(identity).digest('hex').slice(0, 32);
}

/**
 * The next letter for this school: the one after the letter it was last given (the first for a
 * school nobody wrote to, or whose last letter was removed). One statement, so concurrent picks
 * for one school each get the next turn.
 */
export async function pickLetter(school: { address?: string; name?: string }, now = new Date()): Promise<Letter> {
  const all = await letters();
  const key = rotationKey(school);
  if (!key || all.length === 1) return all[0]!;
  const ids = JSON.stringify(all.map((letter) => letter.id));
  const row = await queryOne<{ letter_id: string }>(sql`
    WITH turn AS (
      SELECT ARRAY(SELECT id FROM jsonb_array_elements_text(${ids}::jsonb) WITH ORDINALITY AS t(id, n) ORDER BY n) AS ids
    )
    INSERT INTO letter_rotations AS r (school, letter_id, picks, updated_at)
    SELECT ${key}, ids[1], 1, ${now} FROM turn
    ON CONFLICT (school) DO UPDATE SET
      letter_id = (SELECT ids[coalesce(array_position(ids, r.letter_id), 0) % cardinality(ids) + 1] FROM turn),
      picks = r.picks + 1,
      updated_at = excluded.updated_at
    RETURNING letter_id`);
  return all.find((letter) => letter.id === row?.letter_id) ?? all[0]!;
}
