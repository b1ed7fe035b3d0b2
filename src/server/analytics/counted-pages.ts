/**
 * The pages the figures know (issue 46): every page of the site by its path, a school page as
 * "/schools/*" with its key, a blog post by its slug, and each page in another language under
 * its prefix (`/es`, `/es/faqs`, a Spanish school page "/es/schools/*" with its key; issue 48); any
 * other path, as a script may send, is counted as "other" and never becomes a row of its own.
 */
import { defaultLocale } from '../../config/locales';
import { sitePages } from '../../config/pages';
import { splitLocale } from '../../lib/shared/i18n/paths';

/**
 * The site's own English pages (src/config/pages.ts): the built routes and the pages functions
 * draw, staff pages aside. A translated page is counted by its English twin (`countedPage`).
 */
export const knownPages: ReadonlySet<string> = new Set(sitePages.filter((page) => !page.staff && !page.locale).map((page) => page.path));

/** What a path is counted as. */
export const OTHER_PAGE = 'other';
export const SCHOOL_PAGES = '/schools/*';

const SCHOOL_SEGMENT = /^\/schools\/(?:[a-z0-9-]{1,120}-)?([0-9a-f]{32})$/;
const BLOG_POST = /^\/blogs-insights\/[a-z0-9][a-z0-9-]{0,99}$/;

/** A page as the figures name it: a known path, school pages as one (bare key or named), else "other". */
export function countedPage(path: string): { page: string; school?: string } {
  const clean = path.split(/[?#]/)[0]!.toLowerCase().replace(/\/+$/, '') || '/';
  const { locale, path: english } = splitLocale(clean);
  // A school page counts for its school, in its language (/es/schools/* in Spanish).
  const school = SCHOOL_SEGMENT.exec(english)?.[1];
  if (school) return { page: locale === defaultLocale ? SCHOOL_PAGES : `/${locale}${SCHOOL_PAGES}`, school };
  // A Spanish page is its English twin under the prefix, a Spanish post its slug under it (issue 48).
  if (locale !== defaultLocale)
    return knownPages.has(english) || BLOG_POST.test(english) ? { page: clean === `/${locale}` ? `/${locale}` : `/${locale}${english}` } : { page: OTHER_PAGE };
  if (knownPages.has(clean) || BLOG_POST.test(clean)) return { page: clean };
  return { page: OTHER_PAGE };
}
