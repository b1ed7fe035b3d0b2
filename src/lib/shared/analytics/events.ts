/**
 * What the site counts (issue 30), shared by the beacon endpoint, the server's own steps and the
 * Insights tab: the event names, the beacon's payload, the funnel's steps and the tab's answer.
 * Nothing here names a person: an event carries a page, where the visit came from, and the step.
 */
import { z } from 'zod';

/** Events a browser may send (the beacon); everything else is counted by the server itself. */
export const beaconEvents = ['page_view', 'form_start', 'share'] as const;
/** Steps only the server counts: a browser cannot claim them. */
export const serverEvents = ['form_sent', 'draft', 'send_request', 'confirmed', 'delivered', 'answer'] as const;
export const eventNames = [...beaconEvents, ...serverEvents] as const;
export type EventName = (typeof eventNames)[number];

/** How a parent shared a school's page. */
export const shareChannels = ['copy', 'native', 'whatsapp', 'sms', 'email', 'other'] as const;

/** The beacon's limit: a few hundred bytes are enough for any honest page view. */
export const BEACON_MAX_BYTES = 2048;

const text = (max: number) => z.string().max(max);

/**
 * The beacon's body (`navigator.sendBeacon`, text/plain JSON): `n` the event, `p` the page's path,
 * `q` its query string (UTM, ambassador, variant), `r` the referring page, `k` the event's kind (the
 * form's purpose, the share channel). Unknown names and oversized values are refused whole.
 */
export const beaconSchema = z
  .object({
    n: z.enum(beaconEvents),
    p: text(200).regex(/^\/[^\s]*$/, 'must be a path on this site'),
    q: text(600).optional(),
    r: text(600).optional(),
    k: z
      .string()
      .regex(/^[A-Za-z_]{1,40}$/)
      .optional(),
  })
  .strict();
export type Beacon = z.infer<typeof beaconSchema>;

/** The funnel, in order: each step with the event it counts and what it is called. */
export const funnelSteps = [
  { key: 'visit', event: 'page_view', label: 'Visited' },
  { key: 'form_start', event: 'form_start', label: 'Started the form' },
  { key: 'form_sent', event: 'draft', label: 'Sent the form' },
  { key: 'send_request', event: 'send_request', label: 'Asked us to send' },
  { key: 'confirmed', event: 'confirmed', label: 'Confirmed from their inbox' },
  { key: 'delivered', event: 'delivered', label: 'Delivered to the school' },
  { key: 'answered', event: 'answer', label: 'Told us the answer' },
] as const satisfies ReadonlyArray<{ key: string; event: EventName; label: string }>;

/**
 * The breakdowns the tab draws, each a dimension of the daily roll-up. Experiment variants are read
 * in the Experiments section, from the exposures the server recorded, not from page views.
 */
export const breakdowns = [
  { dimension: 'page', label: 'Page' },
  { dimension: 'source', label: 'Source' },
  { dimension: 'campaign', label: 'Campaign' },
  { dimension: 'letter', label: 'Letter' },
  { dimension: 'ambassador', label: 'Ambassador' },
  { dimension: 'school', label: 'School page' },
  { dimension: 'language', label: 'Language' },
] as const;
export type BreakdownDimension = (typeof breakdowns)[number]['dimension'];

const count = z.number().int().nonnegative();

export const insightsSchema = z.object({
  from: z.string(),
  to: z.string(),
  funnel: z.array(z.object({ key: z.string(), label: z.string(), count, rate: z.number().nullable() })),
  days: z.array(z.object({ day: z.string(), visitors: count, drafts: count, confirmed: count, delivered: count, answers: count })),
  shares: z.array(z.object({ channel: z.string(), count })),
  answers: z.array(z.object({ kind: z.string(), count })),
  breakdowns: z.array(
    z.object({
      dimension: z.string(),
      label: z.string(),
      rows: z.array(z.object({ value: z.string(), label: z.string(), visitors: count, drafts: count, confirmed: count, delivered: count, answers: count })),
    }),
  ),
});
export type Insights = z.infer<typeof insightsSchema>;

/** A period as the tab asks for it: YYYY-MM-DD days, both included. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const daySchema = z
  .string()
  .regex(DAY, 'must be a date as YYYY-MM-DD')
  .refine((value) => !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()), 'must be a real date');
export const insightsQuerySchema = z
  .object({
    from: daySchema.optional(),
    to: daySchema.optional(),
    format: z.enum(['json', 'csv']).optional(),
  })
  .strict()
  .refine((value) => !value.from || !value.to || value.from <= value.to, { message: 'from must not be after to', path: ['from'] });
