/**
 * The abuse watch's payloads (GET/POST /api/admin/abuse…), shared by its function and the admin
 * tab: the view of the last hour and day, the block lists, and voiding a set.
 */
import { z } from 'zod';
import { FREE_MAIL } from '../answer-kinds';

const count = z.number().int().nonnegative();

export const watchDimensionNames = { network: 'Network', email_domain: 'Email domain', school: 'School', form: 'Form' } as const;
export type WatchDimensionName = keyof typeof watchDimensionNames;

export const watchRowSchema = z.object({
  dimension: z.enum(['network', 'email_domain', 'school', 'form']),
  key: z.string(),
  hour: count,
  day: count,
  usualPerHour: z.number().nonnegative(),
  ratio: z.number().nonnegative(),
  trending: z.boolean(),
});
export type WatchRowView = z.infer<typeof watchRowSchema>;

export const blockKinds = ['network', 'domain', 'address'] as const;
export type BlockKind = (typeof blockKinds)[number];
export const blockKindNames: Record<BlockKind, string> = { network: 'Network', domain: 'Email domain', address: 'Email address' };

export const blockViewSchema = z.object({
  id: z.string(),
  kind: z.enum(blockKinds),
  value: z.string(),
  reason: z.string(),
  expiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type BlockView = z.infer<typeof blockViewSchema>;

export const abuseViewSchema = z.object({
  generatedAt: z.string(),
  totals: z.object({ hour: count, day: count }),
  trending: z.array(watchRowSchema),
  byDimension: z.object({
    network: z.array(watchRowSchema),
    email_domain: z.array(watchRowSchema),
    school: z.array(watchRowSchema),
    form: z.array(watchRowSchema),
  }),
  blocks: z.array(blockViewSchema),
  thresholds: z.object({ factor: z.number(), minRequests: count, usualDays: count }),
});
export type AbuseView = z.infer<typeof abuseViewSchema>;

/** POST /api/admin/abuse/blocks: a block, with why and (optionally) until when. */
export const addBlockSchema = z
  .object({
    kind: z.enum(blockKinds),
    /** A network as an IP address or its prefix ("203.0.113.0/24"), a domain ("example.org"), or one address. */
    value: z.string().trim().min(1).max(320),
    reason: z.string().trim().min(3, 'say why (at least 3 characters)').max(500),
    /** When the block ends by itself (ISO date and time); none for a block staff lift by hand. */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type AddBlock = z.infer<typeof addBlockSchema>;

/** POST /api/admin/abuse/blocks/remove. */
export const removeBlockSchema = z.object({ id: z.string().regex(/^[1-9]\d{0,17}$/, 'not a block id') }).strict();

const voidWindow = {
  dimension: z.enum(['network', 'email_domain', 'school']),
  key: z.string().trim().min(1).max(300),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
};
const inOrder = (value: { from: string; to: string }) => Date.parse(value.from) < Date.parse(value.to);
const withinWatch = (value: { from: string; to: string }) => Date.parse(value.to) - Date.parse(value.from) <= 8 * 24 * 3600_000;
const WITHIN = 'a window of at most 8 days (the watch keeps no older requests)';

/** GET /api/admin/abuse/void?dimension=&key=&from=&to=: what voiding this window would take. */
export const voidPreviewSchema = z
  .object(voidWindow)
  .strict()
  .refine(inOrder, { message: 'from must be before to', path: ['from'] })
  .refine(withinWatch, { message: WITHIN, path: ['from'] });

/** POST /api/admin/abuse/void: the requests of one key in a time window, and why. */
export const voidSchema = z
  .object({ ...voidWindow, reason: z.string().trim().min(3, 'say why (at least 3 characters)').max(500) })
  .strict()
  .refine(inOrder, { message: 'from must be before to', path: ['from'] })
  .refine(withinWatch, { message: WITHIN, path: ['from'] });
export type VoidSelection = z.infer<typeof voidSchema>;

export const voidAnswerSchema = z.object({ letters: count, selfReports: count, uncounted: count, events: count });
export const voidPreviewAnswerSchema = z.object({ letters: count, selfReports: count, events: count });

/** Domains shared by very many people: blocking one refuses everyone there, so the tab warns first. */
export const isSharedDomain = (domain: string) => FREE_MAIL.has(domain.trim().toLowerCase().replace(/^@/, ''));
