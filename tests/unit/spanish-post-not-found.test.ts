/**
 * "Post not found" in Spanish (issue 48): an unknown /es/blogs-insights/{slug} answers the Spanish
 * "Artículo no encontrado" (/es/blog-post-not-found, postNotFound.yaml) with status 404, as an
 * unknown English slug answers the English one; other unknown /es/ paths keep the Spanish "page not
 * found". Read from netlify.toml's rules as Netlify applies them: the first rule whose `from`
 * matches wins, a file that exists wins over a rule that is not forced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readLocaleWords } from '../../src/server/words';

const root = join(import.meta.dirname, '..', '..');

interface Rule {
  from: string;
  to: string;
  status: number;
  force: boolean;
}

/** netlify.toml's [[redirects]], in order. */
function redirects(): Rule[] {
  const toml = readFileSync(join(root, 'netlify.toml'), 'utf8').replace(/#.*$/gm, '');
  return toml
    .split(/^\[\[redirects\]\]$/m)
    .slice(1)
    .map((block) => {
      const value = (name: string) => new RegExp(`^\\s*${name}\\s*=\\s*(.+)$`, 'm').exec(block.split(/^\[/m)[0]!)?.[1]?.trim();
      return {
        from: JSON.parse(value('from') ?? '""') as string,
        to: JSON.parse(value('to') ?? '""') as string,
        status: Number(value('status') ?? 301),
        force: value('force') === 'true',
      };
    });
}

/** What a request for `path` gets when no file is there (or a forced rule overrides it). */
function answer(path: string, fileExists = false): { to: string; status: number } | undefined {
  const rule = redirects().find((each) => {
    if (fileExists && !each.force) return false;
    const pattern = new RegExp(`^${each.from.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    return pattern.test(path);
  });
  return rule && { to: rule.to, status: rule.status };
}

describe('a post that does not exist', () => {
  test.each([
    ['a Spanish slug', '/es/blogs-insights/no-existe', { to: '/es/blog-post-not-found', status: 404 }],
    ['a Spanish slug with markup', '/es/blogs-insights/%3Cscript%3E', { to: '/es/blog-post-not-found', status: 404 }],
    ['an English slug', '/blogs-insights/no-such-article', { to: '/blog-post-not-found', status: 404 }],
    ['another unknown Spanish path', '/es/no-existe', { to: '/es/404', status: 404 }],
  ])('%s: the “not found” of its language, with 404', (_name, path, expected) => {
    expect(answer(path)).toEqual(expected);
  });

  test('the Spanish “not found” opened by its own address is a 404 too, as the English one is', () => {
    expect(answer('/es/blog-post-not-found', true)).toEqual({ to: '/es/blog-post-not-found', status: 404 });
    expect(answer('/blog-post-not-found', true)).toEqual({ to: '/blog-post-not-found', status: 404 });
  });

  test('a Spanish post that exists is served as it is', () => {
    expect(answer('/es/blogs-insights/why-two-hours-is-enough', true)).toBeUndefined();
  });

  test('its words are Spanish, with the English page’s meaning, and none of the English', async () => {
    const { en = {}, es = {} } = await readLocaleWords();
    expect(es['postNotFound.heading']).toBe('Artículo no encontrado');
    expect(es['postNotFound.back']).toBe('Volver al blog');
    expect(en['postNotFound.heading']).toBe('Blog post not found');
    for (const key of Object.keys(en).filter((each) => each.startsWith('postNotFound.'))) expect(es[key], key).not.toBe(en[key]);
  });
});
