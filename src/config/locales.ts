/**
 * The site's languages. English is the default and keeps its URLs at `/`; every other language
 * lives under `/{locale}/` (Astro's i18n routing, astro.config.mjs). Words per language live in
 * `content/i18n/{locale}/{place}.yaml` (docs/spanish.md).
 */
export const locales = ['en', 'es'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** What `lang`, `hreflang` and `Intl` are given, and Open Graph's `og:locale`. */
export const localeTags: Record<Locale, { lang: string; og: string; name: string }> = {
  en: { lang: 'en', og: 'en_US', name: 'English' },
  es: { lang: 'es', og: 'es_US', name: 'Español' },
};

/**
 * The English paths that also exist in every other language, at the same path under its prefix.
 * Add a path here when its translated page is built (docs/spanish.md, "Adding a page").
 */
export const translatedPaths: readonly string[] = [
  '/',
  '/why-this-matters',
  '/how-it-works',
  '/lead-the-change',
  '/faqs',
  '/real-stories',
  '/nominate-school',
  '/partnership-form',
  '/thank-you',
  '/events-webinars',
  '/webinar-thank-you',
  '/webinar-share',
  '/resources',
  '/search',
  // Drawn by a function in each language (the list of schools without JavaScript).
  '/find-school',
  // The list; each post has its own alternates (its translation, src/lib/build/blog/languages.ts).
  '/blogs-insights',
];
