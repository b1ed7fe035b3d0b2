/**
 * The site's pages are one list (src/config/pages.ts), which the figures, the metadata and the
 * Lighthouse bench read. What names pages elsewhere agrees with it: the e2e route table
 * (tests/e2e/routes.ts, which keeps each page's heading), the page files of src/pages and the
 * paths the functions draw, so that a page added in any of them is added to the list too.
 */
import { globSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sitePages } from '../../src/config/pages';
import { countedPage } from '../../src/server/analytics/counted-pages';
import { routeMetadata } from '../../src/lib/shared/seo';
import { routes } from '../e2e/routes';

const root = resolve(import.meta.dirname, '../..');
const paths = sitePages.map((page) => page.path);
const built = sitePages.filter((page) => page.made === 'built');
const blogPost = /^(\/es)?\/blogs-insights\/[a-z0-9][a-z0-9-]*$/;
/** Built pages that no route of the table opens: the not-found page and a form's answer. */
const notRoutes = ['/404', '/form-response', '/es/form-response'];
/** Page files that are not pages of their own, each with why. */
const notPages: Record<string, string> = {
  '/blog-post-not-found': 'the page a function answers for a post that does not exist',
  '/es/blog-post-not-found': 'the same in Spanish, for an unknown /es/blogs-insights/{slug}',
  '/school-page': 'the template a function fills for /schools/{key}',
  '/es/school-page': 'the template a function fills for /es/schools/{key}',
  '/content-editor': 'the staff’s content editor (Decap), not a page of the site',
  '/es/404': 'the Spanish not-found page, answered for a missing /es/ path',
};

/** The path a page file of src/pages is built at: `faqs.astro` → /faqs, `es/index.astro` → /es. */
const pathOfFile = (file: string) => `/${file.replace(/\.astro$/, '').replace(/(^|\/)index$/, '')}`.replace(/(.)\/$/, '$1');

describe('the one list of the site’s pages', () => {
  test('names each page once, by a clean path', () => {
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/);
  });

  test('every route of the e2e route table is a built page of the list, or a blog post', () => {
    const known = new Set(built.map((page) => page.path));
    const strays = routes.map((route) => route.path).filter((path) => !known.has(path) && !blogPost.test(path));
    expect(strays, 'pages of tests/e2e/routes.ts missing from src/config/pages.ts').toEqual([]);
  });

  test('every built page of the list is a route of the e2e table, but the not-found page and a form’s answer', () => {
    const tested = new Set(routes.map((route) => route.path));
    const untested = built.filter((page) => !notRoutes.includes(page.path) && !tested.has(page.path)).map((page) => page.path);
    expect(untested, 'pages of src/config/pages.ts without a route (and its heading) in tests/e2e/routes.ts').toEqual([]);
  });

  test('the page files of src/pages are the built pages of the list (templates and dynamic routes aside)', () => {
    const files = globSync('**/*.astro', { cwd: join(root, 'src/pages') }).filter(
      (file) => !file.includes('[') && !file.split('/').some((part) => part.startsWith('_')),
    );
    const filed = files.map(pathOfFile).filter((path) => !(path in notPages));
    expect(filed.sort()).toEqual(built.map((page) => page.path).sort());
    for (const path of Object.keys(notPages)) expect(files.map(pathOfFile), `${path} is still a page file`).toContain(path);
  });

  test('every page the list says a function draws is a path of a function', () => {
    const functionPaths = globSync('netlify/functions/*.mts', { cwd: root }).flatMap((file) => {
      const config = /path:\s*(\[[^\]]*\]|'[^']*')/.exec(readFileSync(join(root, file), 'utf8'))?.[1] ?? '';
      return [...config.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
    });
    const drawn = sitePages.filter((page) => page.made === 'drawn').map((page) => page.path);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.filter((path) => !functionPaths.includes(path))).toEqual([]);
  });

  test('its readers: the figures count each page but the staff’s as itself, and the metadata table is the pages that carry it', () => {
    for (const page of sitePages) expect(countedPage(page.path).page, page.path).toBe(page.staff ? 'other' : page.path);
    expect(countedPage('/not-a-page').page).toBe('other');
    expect(Object.keys(routeMetadata).sort()).toEqual(
      sitePages
        .filter((page) => page.metadata)
        .map((page) => page.path)
        .sort(),
    );
  });
});
