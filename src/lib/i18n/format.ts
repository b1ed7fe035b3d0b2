/** Dates and numbers as a page of `locale` shows them (Intl with the page's language). */
import { localeTags, type Locale } from '../../config/locales';

/** The year of `date`, e.g. "2026" (never grouped: Spanish would write 2.026 as a number). */
export function formatYear(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(localeTags[locale].lang, { year: 'numeric' }).format(date);
}

/** A count as the page's language writes it: 1,234 in English, 1234 and 12.345 in Spanish. */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(localeTags[locale].lang).format(value);
}
