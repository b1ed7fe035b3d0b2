/** schema.org Article of a blog post, for its page's structured data. */
import { site } from '../../../config/site';
import type { BlogEntry } from './posts';

export function articleJsonLd(post: BlogEntry, url: string, siteUrl: string = site.url): Record<string, unknown> {
  const { data } = post;
  const origin = siteUrl.replace(/\/+$/, '');
  const organization = {
    '@type': 'Organization',
    name: site.legalName,
    url: `${origin}/`,
    logo: { '@type': 'ImageObject', url: new URL(site.logo, `${origin}/`).href },
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: data.title,
    description: data.excerpt,
    datePublished: data.publishedAt.toISOString(),
    dateModified: data.publishedAt.toISOString(),
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    image: [new URL(data.featuredImage ?? site.socialImage, `${origin}/`).href],
    inLanguage: data.language,
    articleSection: data.category,
    keywords: data.tags.join(', '),
    timeRequired: `PT${data.readTime ?? 1}M`,
    author: organization,
    publisher: organization,
  };
}
