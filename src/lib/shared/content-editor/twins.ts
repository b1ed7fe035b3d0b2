/**
 * What keeps an entry's two languages together when the content editor saves it. Decap's i18n
 * editing (src/lib/shared/content-editor/config.ts) shows the Spanish beside the English and writes both
 * files, but checks only the side shown first: these checks run on every save (Decap's `preSave`
 * event, src/components/content-editor/app.ts) and refuse it, naming the field or the key, while
 * the other language is missing or incomplete. The build names a missing file or key as well
 * (src/lib/build/faq-twins.ts, src/lib/shared/i18n/translator.ts).
 */
import { WORDS_FIELD, wordItems } from './words-format';

/** The rules of one collection's second language, as the page hands them to the browser. */
export interface TwinCheck {
  /** The Decap collection. */
  collection: string;
  /** Its second locale in Decap's i18n configuration (`faqs-es`, `es`). */
  locale: string;
  /** What an editor calls that side, e.g. "Spanish (faqs-es)". */
  side: string;
  /** The fields the second language must have, each with its pattern: [regular expression, what it asks for]. */
  fields: { name: string; label: string; pattern?: [string, string] }[];
  /** Words files: the same keys on both sides, each with its text. */
  sameWords?: boolean;
}

type Data = Record<string, unknown> | undefined;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Every reason the entry may not be saved yet; none when both languages are complete. */
export function twinProblems(check: TwinCheck, english: Data, other: Data): string[] {
  const problems: string[] = [];
  for (const field of check.fields) {
    const value = text(other?.[field.name]);
    if (!value.trim()) problems.push(`${field.label} is required on the ${check.side} side.`);
    else if (field.pattern && !new RegExp(field.pattern[0]).test(value))
      problems.push(`${field.label} on the ${check.side} side didn't match the pattern: ${field.pattern[1]}.`);
  }
  if (check.sameWords) problems.push(...wordsProblems(check.side, wordItems(english?.[WORDS_FIELD]), wordItems(other?.[WORDS_FIELD])));
  return problems;
}

function wordsProblems(side: string, english: ReturnType<typeof wordItems>, other: ReturnType<typeof wordItems>): string[] {
  const problems: string[] = [];
  const otherByKey = new Map(other.map((item) => [item.key, item.text]));
  const englishKeys = new Set(english.map((item) => item.key));
  for (const { key, text: words } of english) {
    if (!otherByKey.has(key)) problems.push(`"${key}" is missing on the ${side} side.`);
    else if (!otherByKey.get(key)?.trim()) problems.push(`"${key}" is empty on the ${side} side.`);
    if (!words.trim()) problems.push(`"${key}" is empty on the English side.`);
  }
  for (const { key } of other) if (!englishKeys.has(key)) problems.push(`"${key}" is missing on the English side.`);
  return problems;
}
