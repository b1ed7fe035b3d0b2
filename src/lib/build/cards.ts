/**
 * The small cards of the content pages (content/cards.yaml, the `cards` collection): icon, title,
 * one paragraph, in English and beside it in Spanish (docs/spanish.md); `group` says which band shows it.
 */
import { z } from 'zod';
import { iconPaths, type IconName } from '../shared/icons';
import { spanishText } from '../shared/stats';

export const cardSchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "how-it-works"'),
  group: z.enum(['home-how-it-works', 'home-toolkit', 'nominate-benefits', 'partnership-benefits', 'resources']),
  /** A name of src/lib/shared/icons.ts, e.g. "book". */
  icon: z.enum(Object.keys(iconPaths) as [IconName, ...IconName[]]),
  title: z.string().min(3).max(60),
  /** The title in Spanish: every card has one. */
  titleEs: spanishText('title', 3, 70),
  body: z.string().min(10).max(280),
  /** The paragraph in Spanish, the same figures and claims. */
  bodyEs: spanishText('body', 10, 320),
  order: z.number().int().positive(),
});
