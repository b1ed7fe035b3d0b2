/**
 * The places an experiment can test (`content/experiments/{place}.yaml`, the `experiments`
 * collection): the words a place can show, each a variant with a short id. Staff start an
 * experiment on a place from the Insights tab; the first variant is the control. "{school}" in a
 * text stands for the school's name where the place has one.
 */
import { z } from 'zod';

export const experimentVariantSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9-]{1,20}$/, 'a short id: lower-case letters, digits and -, e.g. "control"')
    .describe('Short id, e.g. "control"; carried in share links as ?v={experiment}.{id}'),
  text: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((value) => !/[<>]/.test(value), 'plain text: no markup')
    .describe('The words shown, at most 200 characters, e.g. "Add your voice: write to {school} in two minutes."'),
});

export const experimentPlaceSchema = z
  .object({
    label: z.string().min(1).max(120).describe('What the place is, for staff: "The call to action above a school page’s form"'),
    pages: z
      .array(z.string().regex(/^\/[a-z0-9/_-]*$/, 'a path prefix such as /schools/'))
      .min(1)
      .describe('The pages the place is on, as path prefixes: a visit there is a visit to the experiment'),
    goal: z
      .enum(['confirmed', 'share'])
      .default('confirmed')
      .describe('What a variant is measured by: "confirmed" (a parent confirmed their send) or "share" (the parent who saw it shared)'),
    variants: z
      .array(experimentVariantSchema)
      .min(2, 'a place needs at least two variants to test')
      .max(6)
      .refine((variants) => new Set(variants.map((variant) => variant.id)).size === variants.length, 'variant ids must differ'),
  })
  .strict();
export type ExperimentPlace = z.infer<typeof experimentPlaceSchema> & { id: string };

const count = z.number().int().nonnegative();

export const variantResultSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** Visitors served this variant by the draw (one per visitor-day). */
  visitors: count,
  /** Of them, those who reached the goal. */
  conversions: count,
  rate: z.number(),
  /** The 95% credible interval of the rate (Beta posterior, uniform prior): descriptive. */
  interval: z.tuple([z.number(), z.number()]),
  /** The rate given up, on average, by choosing this variant over the best. */
  expectedLoss: z.number(),
  /** The always-valid interval of this variant's rate minus the control's (null for the control, or before the minimum sample). */
  difference: z.tuple([z.number(), z.number()]).nullable(),
  /** Against the control, once the sequential test has decided: better, worse, or the same so far. */
  against: z.enum(['better', 'worse', 'same_so_far']).nullable(),
  /** A share experiment's links: the visits they brought and the drafts of those parents. */
  linkVisits: count.optional(),
  linkDrafts: count.optional(),
});
export type VariantResult = z.infer<typeof variantResultSchema>;

export const verdictSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('collecting'), unitsNeeded: count, conversionsNeeded: count }),
  z.object({ kind: z.literal('sample_ratio_mismatch'), p: z.number() }),
  z.object({ kind: z.literal('no_difference_yet') }),
  z.object({ kind: z.literal('winner'), winner: z.string(), day: z.string() }),
]);
export type ExperimentVerdict = z.infer<typeof verdictSchema>;

export const experimentResultSchema = z.object({
  id: z.string(),
  place: z.string(),
  placeLabel: z.string(),
  goal: z.enum(['confirmed', 'share']),
  name: z.string(),
  state: z.enum(['running', 'ended']),
  winner: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  verdict: verdictSchema,
  sampleRatio: z.object({ p: z.number(), mismatch: z.boolean() }),
  minimum: z.object({ units: count, conversions: count }),
  variants: z.array(variantResultSchema),
});
export type ExperimentResult = z.infer<typeof experimentResultSchema>;

export const newExperimentSchema = z
  .object({
    place: z.string().regex(/^[a-z0-9-]{1,40}$/, 'place is not one of the site’s places'),
    name: z.string().trim().min(1, 'name is required').max(120),
    variants: z
      .array(z.string().regex(/^[a-z0-9-]{1,20}$/))
      .max(6)
      .optional(),
  })
  .strict();

export const endExperimentSchema = z.object({ winner: z.string().regex(/^[a-z0-9-]{1,20}$/, 'choose the winning variant') }).strict();
