/** Which URL a page has in each language, and where the language switch goes. */
import { defaultLocale, locales, translatedPaths, type Locale } from '../../../config/locales';

/** `/faqs.html`, `/faqs/`, `//faqs` → `/faqs`; `/index.html` → `/`. */
export function normalisePath(pathname: string): string {
  const path = `/${pathname}`
    .replace(/\/{2,}/g, '/')
    .replace(/\/index(\.html)?$/, '/')
    .replace(/\.html$/, '');
  return path.length > 1 ? path.replace(/\/+$/, '') : '/';
}

/** The path of `path` (an English path, e.g. `/faqs`) in `locale`: `/es/faqs`, `/es` for the home. */
export function localePath(path: string, locale: Locale): string {
  const clean = normalisePath(path);
  if (locale === defaultLocale) return clean;
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`;
}

/** The locale a path is in and its English path: `/es/faqs` → es, `/faqs`. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const clean = normalisePath(pathname);
  for (const locale of locales) {
    if (locale === defaultLocale) continue;
    if (clean === `/${locale}`) return { locale, path: '/' };
    if (clean.startsWith(`/${locale}/`)) return { locale, path: clean.slice(locale.length + 1) };
  }
  return { locale: defaultLocale, path: clean };
}

/** Whether the page at `pathname` exists in every language. */
export function isTranslated(pathname: string): boolean {
  return translatedPaths.includes(splitLocale(pathname).path);
}

/** The page's URL in each language, when it has them all; none otherwise. */
export function alternatesOf(pathname: string): Array<{ locale: Locale; path: string }> {
  if (!isTranslated(pathname)) return [];
  const { path } = splitLocale(pathname);
  return locales.map((locale) => ({ locale, path: localePath(path, locale) }));
}

/** Where the switch to `target` goes from `pathname`: the same page when it has one, else that language's home. */
export function switchPath(pathname: string, target: Locale): string {
  const { path } = splitLocale(pathname);
  return localePath(isTranslated(pathname) ? path : '/', target);
}

/**
 * A link of a `locale` page to the English page `href`: to its translation when there is one; to
 * the English page, marked `hreflang="en"`, when not.
 */
export function linkIn(href: string, locale: Locale): { href: string; hreflang?: Locale } {
  if (locale === defaultLocale || !href.startsWith('/')) return { href };
  const [beforeHash = '/', hash = ''] = href.split('#');
  const [path = '/', query = ''] = beforeHash.split('?');
  if (translatedPaths.includes(normalisePath(path))) return { href: localePath(path, locale) + (query && `?${query}`) + (hash && `#${hash}`) };
  return { href, hreflang: defaultLocale };
}
