/** Dates and numbers as a page of `locale` shows them (Intl with the page's language). */
import { defaultLocale, localeTags, type Locale } from '../../../config/locales';

/** The year of `date`, e.g. "2026" (never grouped: Spanish would write 2.026 as a number). */
export function formatYear(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(localeTags[locale].lang, { year: 'numeric' }).format(date);
}

/** A count as the page's language writes it: 1,234 in English, 1234 and 12.345 in Spanish. */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(localeTags[locale].lang).format(value);
}

/** A published day, as the cards show it, in UTC: "Sep 25, 2025", "25 sept 2025". */
export function formatShortDate(iso: string | Date, locale: Locale): string {
  return new Intl.DateTimeFormat(localeTags[locale].lang, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(iso));
}

/**
 * An event's day in its own time zone: "Sept 25" in English (the site's abbreviation, as the
 * specification writes it: Intl's "Sep" is lengthened), "25 de septiembre" in Spanish.
 */
export function formatEventDay(iso: string | Date, locale: Locale, timeZone: string): string {
  const date = new Date(iso);
  if (locale === defaultLocale) {
    return new Intl.DateTimeFormat(localeTags[locale].lang, { month: 'short', day: 'numeric', timeZone })
      .formatToParts(date)
      .map((part) => (part.type === 'month' && part.value === 'Sep' ? 'Sept' : part.value))
      .join('');
  }
  return new Intl.DateTimeFormat(localeTags[locale].lang, { month: 'long', day: 'numeric', timeZone }).format(date);
}

/** An event's hour in its own time zone: "12:00 PM", "12:00". */
export function formatEventTime(iso: string | Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(localeTags[locale].lang, { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
}

/**
 * A count the content writes short ("2.3k", "1.8k", "950"), in `locale`: English keeps the content's
 * own text; another language gets Intl's short form of the same number ("2,3 mil"). Text that is
 * not such a count is shown as written.
 */
export function formatShortCount(text: string, locale: Locale): string {
  if (locale === defaultLocale) return text;
  const match = /^(\d+(?:\.\d+)?)\s*([kKmM]?)$/.exec(text.trim());
  if (!match) return text;
  const scale = { '': 1, k: 1e3, m: 1e6 }[(match[2] ?? '').toLowerCase() as '' | 'k' | 'm'];
  return new Intl.NumberFormat(localeTags[locale].lang, { notation: 'compact', maximumFractionDigits: 1 }).format(Number(match[1]) * scale);
}

/** A post's day, in UTC: "October 2, 2025" in English, "2 de octubre de 2025" in Spanish. */
export function formatLongDate(date: Date, locale: Locale): string {
  const tag = locale === defaultLocale ? 'en-US' : localeTags[locale].lang;
  return new Intl.DateTimeFormat(tag, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
