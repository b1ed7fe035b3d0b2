/**
 * The statistics the site shows (content/stats.yaml, the `stats` collection) and the one way a
 * figure is written: the bands show it, and the letters of the school email quote it by id
 * (`{stat:improvement-8-weeks}`), so a figure is typed once.
 */
import { z } from 'zod';
import { decimalsOf, formatCount } from './counter';

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
    /** Where the figure comes from, shown in small print. */
    source: z.string().max(160).optional(),
    order: z.number().int().positive(),
  })
  .refine((stat) => (stat.target === undefined) !== (stat.text === undefined), {
    message: 'give exactly one of "target" (a number to count up to) or "text"',
    path: ['target'],
  });

export type Stat = z.infer<typeof statSchema>;

/** The figure as the site shows it once counted: "85%", "Top 1-2%", "1 in 5". */
export function statDisplay(stat: Pick<Stat, 'target' | 'text' | 'prefix' | 'suffix'>): string {
  return stat.target === undefined ? `${stat.prefix}${stat.text}${stat.suffix}` : formatCount(stat.target, stat.prefix, stat.suffix, decimalsOf(stat.target));
}
