/** The FAQ collection grouped by category, in the accordion's order, in a language. */
import { getCollection, type CollectionEntry } from 'astro:content';
import type { Locale } from '../../config/locales';
import { markdownToText } from './blog/text';
import { assertFaqTwins, FAQS_DIR, FAQS_ES_DIR } from './faq-twins';

/** One question as the page shows it: its anchor (the English file's name), its question and the entry whose body is the answer. */
export interface FaqItem {
  id: string;
  question: string;
  entry: CollectionEntry<'faqs'> | CollectionEntry<'faqsEs'>;
}

export interface FaqGroup {
  id: string;
  name: string;
  faqs: FaqItem[];
}

export async function getFaqGroups(locale: Locale = 'en'): Promise<FaqGroup[]> {
  const [categories, faqs, spanish] = await Promise.all([getCollection('faqCategories'), getCollection('faqs'), getCollection('faqsEs')]);
  const ordered = [...categories].sort((a, b) => a.data.order - b.data.order);
  const known = new Set(ordered.map((category) => category.id));
  const stray = faqs.find((faq) => !known.has(faq.data.category.id));
  if (stray) throw new Error(`content/faqs/${stray.id}.mdx names an unknown category "${stray.data.category.id}".`);
  // Both pages fail to build while one FAQ lacks its Spanish (or a Spanish FAQ its English).
  assertFaqTwins(
    faqs.map((faq) => faq.id),
    spanish.map((entry) => entry.id),
  );
  const spanishById = new Map(spanish.map((entry) => [entry.id, entry]));
  const itemOf = (faq: CollectionEntry<'faqs'>): FaqItem => {
    if (locale === 'en') return { id: faq.id, question: faq.data.question, entry: faq };
    // assertFaqTwins has checked every FAQ has its Spanish; this only keeps the types honest.
    const twin = spanishById.get(faq.id);
    if (!twin) throw new Error(`${FAQS_ES_DIR}/${faq.id}.mdx is missing (the Spanish of ${FAQS_DIR}/${faq.id}.mdx)`);
    return { id: faq.id, question: twin.data.question, entry: twin };
  };
  return ordered.map((category) => ({
    id: category.id,
    name: locale === 'en' ? category.data.name : category.data.nameEs,
    faqs: faqs
      .filter((faq) => faq.data.category.id === category.id)
      .sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id))
      .map(itemOf),
  }));
}

/** The answer as plain text, for structured data. */
export function answerText(faq: FaqItem): string {
  return markdownToText(faq.entry.body ?? '');
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
        name: faq.question,
        url: `${pageUrl}#${faq.id}`,
        acceptedAnswer: { '@type': 'Answer', text: answerText(faq) },
      })),
    ),
  };
}
