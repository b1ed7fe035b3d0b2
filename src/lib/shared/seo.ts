import { site } from '../../config/site';
import { defaultLocale, localeTags, type Locale } from '../../config/locales';
import { sitePages } from '../../config/pages';
import { alternatesOf, normalisePath, splitLocale } from './i18n/paths';

/** Title and description of the routes named in the specification's metadata table (src/config/pages.ts). */
export const routeMetadata: Record<string, { title: string; description: string }> = Object.fromEntries(
  sitePages.flatMap((page) => (page.metadata ? [[page.path, page.metadata]] : [])),
);

export const defaultMetadata = {
  title: 'Mastery Parents | Personalised Learning for Every Child',
  description: 'A parents’ movement bringing mastery-based, AI-assisted learning to private schools: core academics in two focused hours a day.',
};

export interface SeoInput {
  /** Path of the page, e.g. `/faqs` or `/blogs-insights/why-mastery`. */
  pathname: string;
  /** The site's absolute origin. */
  siteUrl?: string;
  /** Overrides the metadata table, e.g. the title of a blog post. */
  title?: string;
  description?: string;
  image?: string;
  type?: 'website' | 'article';
  publishedAt?: Date;
  /** Forces noindex whatever the host (e.g. internal pages). */
  noindex?: boolean;
  stagingMarker?: string;
  /**
   * The page in each language when the page says so itself (a blog post and its translation,
   * whose paths differ in more than the prefix); otherwise `translatedPaths` decides.
   */
  alternates?: Array<{ locale: Locale; path: string }>;
}

export interface Seo {
  title: string;
  description: string;
  canonical: string;
  robots: string;
  meta: Array<{ name?: string; property?: string; content: string }>;
  /** The page in each language (`hreflang`), and `x-default`, when it exists in all of them. */
  alternates: Array<{ hreflang: string; href: string }>;
  jsonLd: Record<string, unknown>[];
}

/** `index, follow` unless the host name contains the staging marker. */
export function robotsFor(siteUrl: string, stagingMarker: string = site.stagingMarker): string {
  const host = new URL(siteUrl).hostname.toLowerCase();
  const marker = stagingMarker.trim().toLowerCase();
  return marker && host.includes(marker) ? 'noindex, nofollow' : 'index, follow';
}

export { normalisePath };

export function organizationJsonLd(siteUrl: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.legalName,
    alternateName: site.name,
    url: `${siteUrl}/`,
    logo: new URL(site.logo, siteUrl).href,
    email: site.email,
    sameAs: site.socials.map((social) => social.href),
  };
}

/** The one place titles, canonical URLs, social tags and structured data are decided. */
export function buildSeo(input: SeoInput): Seo {
  const siteUrl = (input.siteUrl ?? site.url).replace(/\/+$/, '');
  const path = normalisePath(input.pathname);
  const fromTable = routeMetadata[path] ?? defaultMetadata;
  const title = input.title ? `${input.title} | ${site.name}` : fromTable.title;
  const description = input.description ?? fromTable.description;
  const canonical = new URL(path, `${siteUrl}/`).href;
  const image = new URL(input.image ?? site.socialImage, `${siteUrl}/`).href;
  const robots = input.noindex ? 'noindex, nofollow' : robotsFor(siteUrl, input.stagingMarker);
  const type = input.type ?? 'website';
  const locale = splitLocale(path).locale;
  const pages = (input.alternates ?? alternatesOf(path)).map((page) => ({
    hreflang: localeTags[page.locale].lang,
    href: new URL(page.path, `${siteUrl}/`).href,
  }));
  const fallback = pages.find((page) => page.hreflang === localeTags[defaultLocale].lang);
  const alternates = fallback ? [...pages, { hreflang: 'x-default', href: fallback.href }] : [];

  const meta: Seo['meta'] = [
    { name: 'description', content: description },
    { name: 'robots', content: robots },
    { property: 'og:type', content: type },
    { property: 'og:site_name', content: site.name },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    { property: 'og:image', content: image },
    { property: 'og:locale', content: localeTags[locale].og },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
  ];
  if (input.publishedAt) {
    meta.push({ property: 'article:published_time', content: input.publishedAt.toISOString() });
  }
  return { title, description, canonical, robots, meta, alternates, jsonLd: [organizationJsonLd(siteUrl)] };
}

/** Serialises JSON-LD so that it can never close its own script element. */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
