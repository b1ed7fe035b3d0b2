/**
 * Checks the local posts' front matter (`content/blog/**\/*.mdx`) for what the schema alone cannot
 * say well: `language` is one of the site's, `translationOf` names another local post in another
 * language, and a post under a language's folder (`content/blog/es/`) says that language. A wrong
 * one stops the build naming the file and the field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from 'js-yaml';
import { defaultLocale, locales, type Locale } from '../config/locales';

export class LocalPostError extends Error {
  override name = 'LocalPostError';
}

function mdxFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return mdxFiles(path);
    return item.isFile() && item.name.endsWith('.mdx') ? [path] : [];
  });
}

function frontMatterOf(text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return {};
  const data = yaml.load(match[1] ?? '');
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/** Each local post's id (its path without `.mdx`, as Astro's glob loader gives it) and language. */
export function checkLocalPosts(base: string): Map<string, Locale> {
  const posts = mdxFiles(base).map((file) => {
    const name = relative(base, file).split('\\').join('/');
    return { file: relative(process.cwd(), file) || file, id: name.replace(/\.mdx$/, ''), data: frontMatterOf(readFileSync(file, 'utf8')) };
  });
  const languages = new Map<string, Locale>();
  for (const post of posts) {
    const raw = post.data.language ?? defaultLocale;
    if (typeof raw !== 'string' || !(locales as readonly string[]).includes(raw)) {
      throw new LocalPostError(`${post.file}: the field "language" is ${JSON.stringify(raw)}; it must be one of ${locales.join(', ')}.`);
    }
    const folder = post.id.includes('/') ? post.id.split('/')[0] : undefined;
    if (folder && (locales as readonly string[]).includes(folder) && folder !== raw) {
      throw new LocalPostError(`${post.file}: the field "language" is "${raw}", but the post is in the "${folder}" folder.`);
    }
    languages.set(post.id, raw as Locale);
  }
  for (const post of posts) {
    const target = post.data.translationOf;
    if (target === undefined) continue;
    const language = languages.get(post.id);
    if (typeof target !== 'string' || !languages.has(target)) {
      throw new LocalPostError(`${post.file}: the field "translationOf" is ${JSON.stringify(target)}, which is not a post in content/blog.`);
    }
    if (languages.get(target) === language) {
      throw new LocalPostError(`${post.file}: the field "translationOf" names "${target}", a post in the same language (${language}).`);
    }
  }
  return languages;
}
