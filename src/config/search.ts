/**
 * What the site search indexes (src/lib/build/search/build-index.ts, after `astro build`): content pages
 * only, the FAQs, blog posts and the public content pages; admin, booking, form, error and search
 * pages are left out. A glob of built files under dist/ per language: English's pages, and in
 * another language those of them that language has (`translatedPaths`, and that language's blog posts).
 * Within a page only <main data-pagefind-body> counts (the frame is outside it), without what is
 * marked data-pagefind-ignore: the attributes Pagefind defined, which the site kept when its
 * search moved to the server.
 */
import { defaultLocale, translatedPaths, type Locale } from './locales';

/** The content pages the search reads, by their English paths. */
const contentPages = [
  '/',
  '/why-this-matters',
  '/how-it-works',
  '/lead-the-change',
  '/real-stories',
  '/nominate-school',
  '/partnership-form',
  '/events-webinars',
  '/resources',
  '/webinar-share',
  '/faqs',
  '/blogs-insights',
];

/** The built file of a page in a language: "/" is index.html in English and es.html in Spanish, "/faqs" es/faqs.html. */
function builtFile(path: string, locale: Locale): string {
  if (locale === defaultLocale) return path === '/' ? 'index' : path.slice(1);
  return path === '/' ? locale : `${locale}${path}`;
}

/** The glob of the built pages a language's index reads. */
export function indexedPagesIn(locale: Locale): string {
  const paths = locale === defaultLocale ? contentPages : contentPages.filter((path) => translatedPaths.includes(path));
  const files = paths.map((path) => builtFile(path, locale));
  // Each language's own articles (a Spanish list's English articles are English's).
  files.push(locale === defaultLocale ? 'blogs-insights/*' : `${locale}/blogs-insights/*`);
  return `{${files.join(',')}}.html`;
}

export const indexedPages = indexedPagesIn(defaultLocale);
