/**
 * The site's pages, in one list: every page a visitor can open, by its path. What reads it:
 * - the figures (src/server/analytics/counted-pages.ts): each page is counted as itself, any other path as
 *   "other" (staff pages are not counted at all);
 * - the metadata (src/lib/shared/seo.ts `routeMetadata`): the title and description the specification's
 *   metadata table gives a page;
 * - the Lighthouse bench (scripts/bench/lighthouse.mjs): the built pages;
 * - the e2e route table (tests/e2e/routes.ts), which keeps each page's heading, is checked
 *   against it (tests/unit/site-pages.test.ts), as are the pages of src/pages and the functions'
 *   paths.
 * A new page is added here; a translated page is made by its English path in
 * `translatedPaths` (src/config/locales.ts) and is listed here by itself.
 */
import { defaultLocale, locales, translatedPaths, type Locale } from './locales';

export interface SitePage {
  path: string;
  /** Built with the site (src/pages), or drawn by a function on request (netlify/functions). */
  made: 'built' | 'drawn';
  /** A staff page: its visits are not counted. */
  staff?: true;
  /** The language of a translated page (none: English). */
  locale?: Locale;
  /** The title and description of the specification's metadata table, for the pages it names. */
  metadata?: { title: string; description: string };
}

const englishPages: readonly SitePage[] = [
  {
    path: '/',
    made: 'built',
    metadata: {
      title: 'Mastery Parents | Bring 2-Hour Mastery Learning to Your School',
      description:
        'Join parents bringing personalised, AI-assisted, mastery-based learning to their private schools: core academics in two focused hours a day.',
    },
  },
  {
    path: '/why-this-matters',
    made: 'built',
    metadata: {
      title: 'Why This Matters | The Case for Mastery Learning',
      description: 'Classrooms move at one pace. Learn why 1 in 5 students feel lessons miss their needs and how mastery learning closes the gap.',
    },
  },
  {
    path: '/how-it-works',
    made: 'built',
    metadata: {
      title: 'How It Works | Mastery Learning in 2 Hours a Day',
      description: 'See how mastery-based learning, adaptive AI tutoring and teachers as mentors fit core academics into two focused hours a day.',
    },
  },
  {
    path: '/lead-the-change',
    made: 'built',
    metadata: {
      title: 'Lead the Change | Email Your School in Two Minutes',
      description: "Generate a ready-to-send email to your school's leadership and share the case for mastery learning with your community.",
    },
  },
  {
    path: '/real-stories',
    made: 'built',
    metadata: {
      title: 'Real Stories | Parents and Students on Mastery Learning',
      description: 'Watch parents and students describe what changed when learning moved at their own pace in two focused hours a day.',
    },
  },
  {
    path: '/nominate-school',
    made: 'built',
    metadata: {
      title: 'Nominate Your School | Start the Conversation',
      description: 'Nominate your private school or book a call with our team to bring personalised, mastery-based learning to its classrooms.',
    },
  },
  { path: '/partnership-form', made: 'built' },
  {
    path: '/events-webinars',
    made: 'built',
    metadata: {
      title: 'Events & Webinars | Learn From Families and Educators',
      description: 'Watch recorded webinars on demand and join the next live conversation about bringing mastery learning to your school.',
    },
  },
  {
    path: '/blogs-insights',
    made: 'built',
    metadata: {
      title: 'Blogs & Insights | Mastery Learning Research and Advice',
      description: 'Articles for parents and school leaders on mastery learning, AI tutoring, school advocacy and what the results show.',
    },
  },
  { path: '/resources', made: 'built' },
  {
    path: '/faqs',
    made: 'built',
    metadata: {
      title: 'FAQs | Your Questions About Mastery Learning Answered',
      description: 'Answers on two-hour learning blocks, mastery thresholds, student support, outcomes and how to advocate at your school.',
    },
  },
  { path: '/webhook-config', made: 'built', staff: true },
  { path: '/thank-you', made: 'built' },
  { path: '/webinar-thank-you', made: 'built' },
  { path: '/webinar-share', made: 'built' },
  { path: '/form', made: 'built' },
  // Not in the specification: the results page of the header's search form.
  { path: '/search', made: 'built' },
  { path: '/form-response', made: 'built' },
  { path: '/404', made: 'built' },
  { path: '/find-school', made: 'drawn' },
  { path: '/confirm-send', made: 'drawn' },
  { path: '/letter-address', made: 'drawn' },
  { path: '/your-email', made: 'drawn' },
  { path: '/your-data', made: 'drawn' },
  { path: '/school-answer', made: 'drawn' },
  { path: '/school-updates/stop', made: 'drawn' },
  { path: '/ambassador', made: 'drawn' },
];

/** A translated page's path: `/es` for the home, `/es/faqs`. */
const translatedPath = (path: string, locale: Locale) => (path === '/' ? `/${locale}` : `/${locale}${path}`);

/**
 * Pages a language has that the language switch does not offer as a translation: the answer a
 * form sent without JavaScript from a Spanish page comes back on (src/pages/es/form-response.astro).
 */
const untranslatedLocalePages: readonly SitePage[] = [{ path: '/es/form-response', made: 'built', locale: 'es' }];

/** Every page of the site: the English pages, then each translated one in every other language, then the rest of theirs. */
export const sitePages: readonly SitePage[] = [
  ...englishPages,
  ...locales
    .filter((locale) => locale !== defaultLocale)
    .flatMap((locale) =>
      englishPages
        .filter((page) => translatedPaths.includes(page.path))
        .map((page): SitePage => ({ path: translatedPath(page.path, locale), made: page.made, locale, ...(page.staff ? { staff: page.staff } : {}) })),
    ),
  ...untranslatedLocalePages,
];
