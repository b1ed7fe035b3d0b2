/**
 * The README is the front door (issue 47): its code map names every folder of `src/` (and the
 * folders inside `src/server` and `src/lib`), every file of `docs/` is linked from it, and every
 * link between the README and `docs/` reaches a file and a heading that exist.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const map = /## The code map\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const folders = (folder: string) => readdirSync(join(root, folder)).filter((name) => statSync(join(root, folder, name)).isDirectory());
const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (text: string) => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!)));

describe('the code map', () => {
  test('is near the top of a README of about 200 lines at most', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(220);
    expect(readme.indexOf('## The code map')).toBeGreaterThan(0);
    expect(readme.indexOf('## The code map')).toBeLessThan(readme.length / 2);
  });

  test.each([
    ...folders('src').map((name) => ['src', name]),
    ...folders('src/server').map((name) => ['src/server', name]),
    ...folders('src/lib').map((name) => ['src/lib', name]),
  ])('%s/%s/ is on the map', (_parent, name) => {
    expect(map).toMatch(new RegExp(`(^|[\\s(])${name.replace(/[.-]/g, (c) => `\\${c}`)}/`, 'm'));
  });

  test('the check sees a folder that is missing', () => {
    expect(map).not.toMatch(/(^|[\s(])no-such-folder\//m);
    expect(map.length).toBeGreaterThan(1000);
  });
});

describe('links', () => {
  test.each(docs)('docs/%s is linked from the README', (name) => {
    expect(readme).toContain(`](docs/${name}`);
  });

  const files = ['README.md', ...docs.map((name) => `docs/${name}`)];
  test.each(files)('every local link of %s reaches a file, and a heading there', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith('/')) continue;
      const [path, hash] = target!.split('#') as [string, string | undefined];
      const destination = path ? resolve(dirname(join(root, file)), path) : join(root, file);
      if (!existsSync(destination)) {
        broken.push(target!);
        continue;
      }
      if (hash && destination.endsWith('.md') && !anchorsOf(readFileSync(destination, 'utf8')).has(hash)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});
