/** The FAQ collection grouped by category, in the accordion's order. */
import { getCollection, type CollectionEntry } from 'astro:content';
import { markdownToText } from './blog/text';

export type FaqEntry = CollectionEntry<'faqs'>;

export interface FaqGroup {
  id: string;
  name: string;
  faqs: FaqEntry[];
}

export async function getFaqGroups(): Promise<FaqGroup[]> {
  const [categories, faqs] = await Promise.all([getCollection('faqCategories'), getCollection('faqs')]);
  const ordered = [...categories].sort((a, b) => a.data.order - b.data.order);
  const known = new Set(ordered.map((category) => category.id));
  const stray = faqs.find((faq) => !known.has(faq.data.category.id));
  if (stray) throw new Error(`content/faqs/${stray.id}.mdx names an unknown category "${stray.data.category.id}".`);
  return ordered.map((category) => ({
    id: category.id,
    name: category.data.name,
    faqs: faqs.filter((faq) => faq.data.category.id === category.id).sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id)),
  }));
}

/** The answer as plain text, for structured data. */
export function answerText(faq: FaqEntry): string {
  return markdownToText(faq.body ?? '');
}

/** schema.org FAQPage with every question and its answer. */
export function faqPageJsonLd(groups: FaqGroup[], pageUrl: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    url: pageUrl,
    mainEntity: groups.flatMap((group) =>
      group.faqs.map((faq) => ({
        '@type': 'Question',
        name: faq.data.question,
        url: `${pageUrl}#${faq.id}`,
        acceptedAnswer: { '@type': 'Answer', text: answerText(faq) },
      })),
    ),
  };
}
