/**
 * Every FAQ has its Spanish: content/faqs-es/<name>.mdx beside content/faqs/<name>.mdx (the same file
 * name: the question's anchor, its category and its order are the English file's). An FAQ without its
 * Spanish, or a Spanish one without its English, stops the build of /faqs and /es/faqs naming the
 * file that is missing (docs/spanish.md). The check runs when the pages are built, after the
 * collections' schemas, so an entry's own mistake is still named first.
 */
export const FAQS_DIR = 'content/faqs';
export const FAQS_ES_DIR = 'content/faqs-es';

export class MissingSpanishFaqError extends Error {
  override name = 'MissingSpanishFaqError';
}

/** Each file one language has and the other lacks, named as the file that is missing. */
export function unmatchedFaqs(englishIds: readonly string[], spanishIds: readonly string[]): string[] {
  const english = new Set(englishIds);
  const spanish = new Set(spanishIds);
  return [
    ...[...english].filter((id) => !spanish.has(id)).map((id) => `${FAQS_ES_DIR}/${id}.mdx is missing (the Spanish of ${FAQS_DIR}/${id}.mdx)`),
    ...[...spanish].filter((id) => !english.has(id)).map((id) => `${FAQS_DIR}/${id}.mdx is missing (the English of ${FAQS_ES_DIR}/${id}.mdx)`),
  ].sort();
}

/** Throws, naming each missing file, unless every FAQ has its Spanish and every Spanish FAQ its English. */
export function assertFaqTwins(englishIds: readonly string[], spanishIds: readonly string[]): void {
  const missing = unmatchedFaqs(englishIds, spanishIds);
  if (missing.length) throw new MissingSpanishFaqError(`Every FAQ needs its Spanish, at the same file name: ${missing.join('; ')}`);
}
