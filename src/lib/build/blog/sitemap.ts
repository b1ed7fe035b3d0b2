/**
 * The sitemap's language alternates of a blog post are the post's own (its translation, named in
 * its page's `<link rel="alternate" hreflang>`), not the sitemap integration's guess by path: a
 * Spanish post may translate an English one of another slug, and two posts of one slug in two
 * languages need not be translations of each other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitLocale } from '../../shared/i18n/paths';

interface SitemapLink {
  lang: string;
  url: string;
}

/** Whether `pathname` is a blog post's page, in any language. */
export function isPostPath(pathname: string): boolean {
  return /^\/blogs-insights\/[^/]+$/.test(splitLocale(pathname).path);
}

/** The language alternates a built page names (without x-default), from its HTML. */
export function alternatesInHtml(html: string): SitemapLink[] {
  const links: SitemapLink[] = [];
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (!/\brel="alternate"/.test(tag)) continue;
    const lang = /\bhreflang="([^"]+)"/.exec(tag)?.[1];
    const url = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (lang && url && lang !== 'x-default') links.push({ lang, url });
  }
  return links;
}

/** A sitemap item with a blog post's alternates read from its built page under `outDir`. */
export function withPostAlternates<T extends { url: string; links?: SitemapLink[] | undefined }>(item: T, outDir: string): T {
  const { pathname } = new URL(item.url);
  if (!isPostPath(pathname)) return item;
  const file = join(outDir, `${pathname.replace(/^\/+/, '')}.html`);
  const links = existsSync(file) ? alternatesInHtml(readFileSync(file, 'utf8')) : [];
  const { links: _guessed, ...rest } = item;
  return (links.length ? { ...rest, links } : rest) as T;
}
