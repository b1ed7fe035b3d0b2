/**
 * The statistics the site shows (content/stats.yaml, the `stats` collection) and the one way a
 * figure is written: the bands show it, and the letters of the school email quote it by id
 * (`{stat:improvement-8-weeks}`), so a figure is typed once.
 */
import { z } from 'zod';
import type { Locale } from '../../config/locales';
import { decimalsOf, formatCount } from './counter';

/** A Spanish field every entry must have: its absence names the field and says what it is for. */
export function spanishText(of: string, min: number, max: number) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `the Spanish of "${of}" is missing: every entry needs it beside the English (docs/spanish.md)` : undefined,
    })
    .min(min)
    .max(max);
}

const statId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "how-it-works"');

/**
 * One statistic. A `target` counts up from 0; a `text` value ("1-2") is shown as is. `group` says
 * which band shows it.
 */
export const statSchema = z
  .object({
    id: statId,
    group: z.enum(['home-stats', 'home-results', 'why-results']),
    target: z.number().nonnegative().optional(),
    text: z.string().max(12).optional(),
    prefix: z.string().max(8).default(''),
    suffix: z.string().max(6).default(''),
    /** One line under the number, e.g. "of 8th graders are proficient in math". */
    label: z.string().min(3).max(120),
    /** The same line in Spanish, the same figures: "de los alumnos de 8.º grado domina las matemáticas". */
    labelEs: spanishText('label', 3, 140),
    /** The Spanish of `prefix` when it has words ("1 in " → "1 de cada "); else the English one is shown. */
    prefixEs: z.string().max(16).optional(),
    /** The Spanish of `suffix` when it has words; else the English one is shown. */
    suffixEs: z.string().max(8).optional(),
    /** Where the figure comes from, shown in small print. */
    source: z.string().max(160).optional(),
    order: z.number().int().positive(),
  })
  .refine((stat) => (stat.target === undefined) !== (stat.text === undefined), {
    message: 'give exactly one of "target" (a number to count up to) or "text"',
    path: ['target'],
  });

export type Stat = z.infer<typeof statSchema>;

/** What a band shows of a statistic in a language: its figure's words and its line. */
export type ShownStat = Pick<Stat, 'id' | 'target' | 'text' | 'prefix' | 'suffix' | 'label' | 'source'>;

/** The statistic in `locale`: the same figure, its prefix, suffix and line in that language. */
export function statIn(stat: Stat, locale: Locale): ShownStat {
  const { id, target, text, prefix, suffix, label, source } = stat;
  if (locale === 'en') return { id, target, text, prefix, suffix, label, source };
  return { id, target, text, prefix: stat.prefixEs ?? prefix, suffix: stat.suffixEs ?? suffix, label: stat.labelEs, source };
}

/** The figure as the site shows it once counted: "85%", "Top 1-2%", "1 in 5". */
export function statDisplay(stat: Pick<Stat, 'target' | 'text' | 'prefix' | 'suffix'>): string {
  return stat.target === undefined ? `${stat.prefix}${stat.text}${stat.suffix}` : formatCount(stat.target, stat.prefix, stat.suffix, decimalsOf(stat.target));
}
