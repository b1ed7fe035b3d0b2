/**
 * The blog post of the specification (§3), whichever source it comes from. Editors write the
 * front-matter fields in `content/blog/*.mdx`; the loader adds the derived ones (slug, content
 * HTML, read time) and maps HubSpot posts onto the same shape.
 */
import { z } from 'astro/zod';
import { locales } from '../../../config/locales';

export const blogEntrySchema = z.object({
  /** HubSpot's post id; local posts use their slug. */
  sourceId: z.string().optional(),
  /** e.g. "Why two focused hours can beat a full school day" */
  title: z.string().min(5).max(200),
  /** One or two sentences for cards and the meta description. */
  excerpt: z.string().min(20).max(300),
  publishedAt: z.coerce.date(),
  /** e.g. [Mastery Learning, Research]; at most 8. */
  tags: z.array(z.string().min(2).max(40)).max(8).default([]),
  /** An absolute https URL or a path under /media. */
  featuredImage: z
    .string()
    .regex(/^(\/|https:\/\/)/, 'must start with / or https://')
    .optional(),
  category: z.string().max(40).default('Insights'),
  /** Derived by the loader: the post as sanitised HTML. */
  content: z.string().default(''),
  /** Derived by the loader: minutes to read at 200 words a minute. */
  readTime: z.number().int().positive().optional(),
  /** The post's language, one of the site's (`es` in a local post's front matter; HubSpot's normalised). */
  language: z.enum(locales).default('en'),
  /**
   * The id (slug) of the post this one translates, or of its translation group's primary post:
   * a local post's front matter names the English post's slug; HubSpot's `translatedFromId` is
   * resolved to that post's slug by the loader.
   */
  translationOf: z.string().min(1).optional(),
});

export type BlogEntryData = z.infer<typeof blogEntrySchema>;

/** The JSON shape of `/api/hubspot-blog/{slug}` and of each item of `/api/hubspot-blogs`. */
export const blogPostSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  content: z.string(),
  publishedAt: z.string(),
  readTime: z.number().int().positive(),
  tags: z.array(z.string()),
  featuredImage: z.string().nullable(),
  category: z.string(),
});

export type BlogPost = z.infer<typeof blogPostSchema>;
