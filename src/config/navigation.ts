/**
 * The header's eight links, in order; each label is the key of its words in content/i18n/{locale}/{place}.yaml
 * (`frame.nav.{key}`), the specification's labels in English.
 */
export const mainNavigation = [
  { href: '/why-this-matters', key: 'whyThisMatters' },
  { href: '/how-it-works', key: 'howItWorks' },
  { href: '/lead-the-change', key: 'leadTheChange' },
  { href: '/real-stories', key: 'realStories' },
  { href: '/events-webinars', key: 'eventsWebinars' },
  { href: '/nominate-school', key: 'nominateSchool' },
  { href: '/blogs-insights', key: 'blogsInsights' },
  { href: '/faqs', key: 'faqs' },
] as const;

/** The footer's Quick Links. */
export const quickLinks = [
  { href: '/why-this-matters', key: 'whyThisMatters' },
  { href: '/how-it-works', key: 'howItWorks' },
  { href: '/lead-the-change', key: 'leadTheChange' },
  { href: '/real-stories', key: 'realStories' },
  { href: '/nominate-school', key: 'nominateSchool' },
] as const;

/** Is `href` the current page or one of its children? */
export function isCurrent(href: string, pathname: string): boolean {
  const path =
    pathname
      .replace(/\.html$/, '')
      .replace(/\/index$/, '')
      .replace(/\/+$/, '') || '/';
  return path === href || path.startsWith(`${href}/`);
}
