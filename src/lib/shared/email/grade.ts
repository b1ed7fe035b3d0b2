/**
 * A child's grade as parents type it ("5", "5th", "Grade 5", "fifth grade", "K", "Pre-K",
 * "freshman") made into the words the school email uses after "is in …": "5th grade",
 * "kindergarten", "pre-K", "9th grade". Anything else is kept as typed ("Year 7", "middle school"),
 * which reads well after "is in"; nothing at all gives the placeholder.
 */
import type { Locale } from '../../../config/locales';

export const GRADE_PLACEHOLDER = "[Child's Grade]";
/** The longest grade a parent may type ("transitional kindergarten" fits). */
export const GRADE_MAX = 40;
export const gradeMessage = 'Please give a grade from pre-K and kindergarten to 12th grade, e.g. "5th grade" or "K".';
/** `gradeMessage` in each language of the site. */
export const gradeMessages: Record<Locale, string> = {
  en: gradeMessage,
  es: 'Por favor, indique un grado de prekínder y kínder a 12.º grado, por ejemplo "5" o "K".',
};

const cardinals = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth'];
const highSchoolYears: Record<string, number> = { freshman: 9, sophomore: 10, junior: 11, senior: 12 };

/** 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

/** The grade number a word or numeral names ("5", "5th", "five", "fifth"), if any. */
function gradeNumber(word: string): number | undefined {
  const numeral = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
  if (numeral) {
    const n = Number(numeral[1]);
    return n >= 1 && n <= 12 ? n : undefined;
  }
  const index = Math.max(cardinals.indexOf(word), ordinals.indexOf(word));
  return index >= 0 ? index + 1 : undefined;
}

/** The grade as compared: lower case, without full stops at the end or "in"/"the" before it. */
const gradeKey = (typed: string) =>
  typed
    .toLowerCase()
    .replace(/[.,;:!]+$/, '')
    .replace(/^(in|the)\s+/, '')
    .trim();

/**
 * What is wrong with a typed grade, or undefined: a grade that names a number (`61`, `grade 13`,
 * `0th`) must name one from 1 to 12; words ("Year 7", "middle school") are kept as typed.
 */
export function gradeProblem(input: string, locale: Locale = 'en'): string | undefined {
  const key = gradeKey(input.replace(/\s+/g, ' ').trim());
  const numbered = /^(?:(?:grade|gr)\s*)?(\d+)(?:st|nd|rd|th)?(?:\s*(?:grade|gr))?$/.exec(key);
  if (!numbered) return undefined;
  const n = Number(numbered[1]);
  return n >= 1 && n <= 12 && numbered[1]!.length <= 2 ? undefined : gradeMessages[locale];
}

/**
 * A grade as `normaliseGrade` writes it, in the language of the letter: "5th grade" is "5.º grado"
 * in Spanish, "kindergarten" "kínder", "pre-K" "prekínder"; anything kept as typed stays so.
 */
export function gradeIn(grade: string, language: Locale): string {
  if (language === 'en') return grade;
  if (grade === GRADE_PLACEHOLDER) return '[Grado]';
  const numbered = /^(\d{1,2})(?:st|nd|rd|th) grade$/.exec(grade);
  if (numbered) return `${numbered[1]}.º grado`;
  const named: Record<string, string> = { kindergarten: 'kínder', 'pre-K': 'prekínder', 'transitional kindergarten': 'kínder de transición' };
  return named[grade] ?? grade;
}

export function normaliseGrade(input: string | undefined | null): string {
  const typed = (input ?? '').replace(/\s+/g, ' ').trim();
  if (!typed) return GRADE_PLACEHOLDER;
  // Compared without case, full stops or the words around the grade itself.
  const key = gradeKey(typed);

  if (/^(k|kg|kinder|kindergarten|kindergartner|kindergartener)$/.test(key)) return 'kindergarten';
  if (/^(pre-?k|pre-?kindergarten|pre-?school|tk|transitional kindergarten)$/.test(key)) return key.startsWith('t') ? 'transitional kindergarten' : 'pre-K';

  const year = /^(freshman|sophomore|junior|senior)( year)?$/.exec(key);
  if (year) return `${ordinal(highSchoolYears[year[1]!]!)} grade`;

  // "5", "5th", "five", "fifth", each with "grade" (or "gr") before or after, or neither.
  const grade = /^(?:(?:grade|gr)\s*)?([a-z0-9]+)(?:\s*(?:grade|gr))?$/.exec(key);
  const n = grade ? gradeNumber(grade[1]!) : undefined;
  if (n !== undefined) return `${ordinal(n)} grade`;

  return typed;
}
