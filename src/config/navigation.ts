/** The header's eight links, in order, with the labels of the specification. */
export const mainNavigation = [
  { href: '/why-this-matters', label: 'Why This Matters' },
  { href: '/how-it-works', label: 'How It Works' },
  { href: '/lead-the-change', label: 'Lead the Change' },
  { href: '/real-stories', label: 'Real Stories' },
  { href: '/events-webinars', label: 'Events & Webinars' },
  { href: '/nominate-school', label: 'Nominate School' },
  { href: '/blogs-insights', label: 'Blogs & Insights' },
  { href: '/faqs', label: 'FAQs' },
] as const;

/** The footer's Quick Links. */
export const quickLinks = [
  { href: '/why-this-matters', label: 'Why This Matters' },
  { href: '/how-it-works', label: 'How It Works' },
  { href: '/lead-the-change', label: 'Lead the Change' },
  { href: '/real-stories', label: 'Real Stories' },
  { href: '/nominate-school', label: 'Nominate School' },
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
