/**
 * The letters at build: the first one (in `order`) is the letter a page writes itself, when the
 * form is HubSpot's embed and no server draft picks one (src/lib/browser/email/flow.ts reads it from the
 * page's `data-letter`). Every letter's figures are checked against the statistics here, so a
 * letter quoting a figure the site does not have fails the build, naming the file.
 */
import { getCollection } from 'astro:content';
import { locales, defaultLocale } from '../../../config/locales';
import { missingVariants } from '../../shared/email/letter-texts';
import { withStatistics } from '../../shared/email/letter-texts';
import type { Letter } from '../../shared/email/template';

export async function firstLetter(): Promise<Letter> {
  const [all, stats, variants] = await Promise.all([getCollection('letters'), getCollection('stats'), getCollection('letterVariants')]);
  // Every letter in every language a parent may choose: a missing variant stops the build, naming its file.
  const missing = missingVariants(
    all.map((entry) => entry.id),
    variants.map((entry) => entry.id),
    locales.filter((locale) => locale !== defaultLocale),
  );
  if (missing.length) throw new Error(`Every letter needs its variant in each language: ${missing.join(', ')} is missing.`);
  const figures = stats.map((entry) => entry.data);
  const letters = all
    .sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id))
    .map(({ id, data: { introduction, body, closing } }) => withStatistics({ id, introduction, body, closing }, figures, `content/letters/${id}.yaml`));
  const [first] = letters;
  if (!first) throw new Error('content/letters has no letters: the school email needs at least one.');
  return first;
}
