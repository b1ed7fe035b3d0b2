/**
 * Every content collection, its schema and its loader. Editors change the files under
 * `content/`; a mistake fails the build with the file and the field named.
 */
import { defineCollection, reference } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { blogLoader } from './content-loaders/blog';
import { blogEntrySchema } from './lib/build/blog/schema';
import { formPurposes } from './config/forms';
import { letterSchema } from './lib/shared/email/letter-texts';
import { mailWordsSchema } from './lib/shared/email/mail-words';
import { experimentPlaceSchema } from './lib/shared/analytics/experiment-places';
import { spanishText, statSchema } from './lib/shared/stats';
import { cardSchema } from './lib/build/cards';
import { formDefinitionSchema } from './lib/shared/forms/definition';
import { formsLoader } from './content-loaders/forms';
import { i18nLoader } from './content-loaders/i18n';

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lower-case words joined by hyphens, e.g. "how-it-works"');

/** The five FAQ categories, in the order the accordion shows them. */
const faqCategories = defineCollection({
  loader: file('content/faq-categories.yaml'),
  schema: z.object({
    id: slug,
    /** Shown as the accordion heading, e.g. "How It Works". */
    name: z.string().min(2).max(80),
    /** The heading on /es/faqs, e.g. "Cómo funciona". */
    nameEs: spanishText('name', 2, 90),
    /** Position in the accordion, 1 first. */
    order: z.number().int().positive(),
  }),
});

/** One MDX file per question: the front matter holds the question, the body is the answer. */
const faqs = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './content/faqs' }),
  schema: z.object({
    /** The question as a parent would ask it, e.g. "What does a school day look like?" */
    question: z.string().min(8).max(200),
    /** The id of an entry of content/faq-categories.yaml, e.g. "how-it-works". */
    category: reference('faqCategories'),
    /** Position within its category, 1 first. */
    order: z.number().int().positive(),
  }),
});

/**
 * The Spanish of each FAQ, content/faqs-es/<name>.mdx at the English file's name: its question in
 * the front matter, the answer as the body; the category and order are the English file's. An FAQ
 * without its Spanish stops the build naming the file (src/lib/build/faq-twins.ts).
 */
const faqsEs = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './content/faqs-es' }),
  schema: z.strictObject({
    /** The question as a parent reading Spanish would ask it. */
    question: z.string().min(8).max(220),
  }),
});

/** Statistics shown as counters and quoted by the letters (src/lib/shared/stats.ts). */
const stats = defineCollection({
  loader: file('content/stats.yaml'),
  schema: statSchema,
});

/** Recorded webinars shown on /events-webinars. */
const webinars = defineCollection({
  loader: file('content/webinars.yaml'),
  schema: z.object({
    id: slug,
    title: z.string().min(5).max(120),
    /** Length in minutes, e.g. 48. */
    duration: z.number().int().positive(),
    /** As shown on the card, e.g. "2.3k". */
    views: z.string().max(10),
    category: z.string().max(40),
    description: z.string().max(300),
    /** The category and description on /es/events-webinars (the title stays as recorded). */
    categoryEs: z.string().max(40),
    descriptionEs: z.string().max(300),
    /** An mp4 under /media or an absolute https URL. */
    videoUrl: z.string().regex(/^(\/|https:\/\/)/, 'must start with / or https://'),
    thumbnail: z.string().regex(/^(\/|https:\/\/)/, 'must start with / or https://'),
    publishedDate: z.coerce.date(),
    featured: z.boolean().default(false),
  }),
});

const videoFields = {
  id: slug,
  title: z.string().min(3).max(100),
  description: z.string().max(240),
  /** The title in Spanish, for /es pages (the spoken words stay the video's): "Por fin le gustan las matemáticas". */
  titleEs: z.string().min(3).max(100),
  /** The description in Spanish, for /es pages. */
  descriptionEs: z.string().max(240),
  /** An mp4 under /media or an absolute https URL. */
  mp4Url: z.string().regex(/^(\/|https:\/\/)/, 'must start with / or https://'),
  /** The poster shown before playing. */
  thumbnailUrl: z.string().regex(/^(\/|https:\/\/)/, 'must start with / or https://'),
  /** Optional YouTube link; when set, the card opens the modal player instead of playing inline. */
  youtubeUrl: z.url({ protocol: /^https$/ }).optional(),
  order: z.number().int().positive(),
};

const parentVideos = defineCollection({
  loader: file('content/videos/parents.yaml'),
  schema: z.object({ ...videoFields, createdAt: z.coerce.date() }),
});

const studentVideos = defineCollection({
  loader: file('content/videos/students.yaml'),
  schema: z.object(videoFields),
});

/**
 * Blog posts: from the HubSpot CMS at build when configured, else `content/blog/*.mdx`
 * (see src/content-loaders/blog.ts). The schema is the spec's blog post.
 */
const blog = defineCollection({
  loader: blogLoader(),
  schema: blogEntrySchema,
});

/** Small cards of the content pages (icon, title, one paragraph); `group` says which band shows it. */
const cards = defineCollection({
  loader: file('content/cards.yaml'),
  schema: cardSchema,
});

/**
 * The site's forms, one entry per purpose of src/config/forms.ts: from HubSpot's forms API at build
 * when configured, else content/forms/*.yaml (see src/content-loaders/forms.ts).
 */
const formsCollection = defineCollection({
  loader: formsLoader(),
  schema: formDefinitionSchema.extend({
    purpose: z.enum(formPurposes as [string, ...string[]]),
    source: z.enum(['hubspot', 'local']),
    render: z.enum(['native', 'embed']),
  }),
});

/**
 * The bodies of the school email, one YAML file each (src/lib/shared/email/letter-texts.ts): parents writing to
 * one school get them in rotation. A letter without a placeholder the template needs, or over a
 * limit, fails the build naming its file and the field.
 */
const letters = defineCollection({
  loader: glob({ pattern: '*.yaml', base: './content/letters' }),
  schema: letterSchema,
});

/**
 * The letters in the other languages a parent may choose for their letter (content/letters/es/),
 * under the same rules; each English letter needs its variant by the same file name, or the build
 * fails naming the missing file (src/lib/build/email/letters-build.ts).
 */
const letterVariants = defineCollection({
  loader: glob({ pattern: '*/*.yaml', base: './content/letters' }),
  schema: letterSchema,
});

/**
 * The words of every other email the site sends, one YAML file per kind (src/lib/shared/email/mail-words.ts):
 * a placeholder the email does not have or one it needs missing, a link or an address in the words,
 * fails the build naming the file and the field. The templates (src/emails) add the links.
 */
const emails = defineCollection({
  loader: glob({ pattern: '*.yaml', base: './content/emails' }),
  schema: mailWordsSchema,
});

/**
 * The places an experiment can test (src/lib/shared/analytics/experiment-places.ts): each a file naming the
 * pages it is on and the words it can show; staff start and end experiments on the admin page.
 */
const experiments = defineCollection({
  loader: glob({ pattern: '*.yaml', base: './content/experiments' }),
  schema: experimentPlaceSchema,
});

/**
 * The frame's and the pages' words per language, content/i18n/{locale}/{place}.yaml: a key missing in one
 * language fails the build naming the key and the file (src/lib/shared/i18n/translator.ts, docs/spanish.md).
 */
const i18n = defineCollection({
  loader: i18nLoader(),
  schema: z.object({ words: z.record(z.string(), z.string()) }),
});

export const collections = {
  faqCategories,
  faqs,
  faqsEs,
  stats,
  webinars,
  parentVideos,
  studentVideos,
  blog,
  cards,
  forms: formsCollection,
  letters,
  letterVariants,
  emails,
  experiments,
  i18n,
};
