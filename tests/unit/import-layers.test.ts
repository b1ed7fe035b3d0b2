/**
 * Imports run one way (STYLE.md, habit 14): what the browser and the build share (`src/lib`, the
 * components, stores and config) never reaches up into `src/server` or the build-time loaders;
 * the loaders (`src/content-loaders`) may import both, and only the content config imports them.
 * Within `src/lib`, `browser/` and `build/` lean on `shared/` alone, and the functions on `shared/`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|astro|mjs|mts)$/.test(file))
    .map((file) => join(folder, file));
}

/** The project folders a file's relative imports (static, dynamic and `export … from`) land in. */
function importedPaths(file: string): string[] {
  const code = readFileSync(join(root, file), 'utf8');
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)));
}

describe.each([
  ['src/lib', ['src/server', 'src/content-loaders', 'src/components', 'src/stores']],
  // src/lib in tiers (issue 47): what runs in the browser, what runs at build, and what both and the
  // functions share; a tier leans only on the shared one, so the shared tier leans on neither.
  ['src/lib/shared', ['src/lib/browser', 'src/lib/build']],
  ['src/lib/browser', ['src/lib/build']],
  ['src/lib/build', ['src/lib/browser']],
  // The functions take their TypeScript from the shared tier only.
  ['src/server', ['src/lib/browser', 'src/lib/build']],
  ['netlify', ['src/lib/browser', 'src/lib/build']],
  ['src/components', ['src/server', 'src/content-loaders']],
  ['src/stores', ['src/server', 'src/content-loaders']],
  ['src/config', ['src/server', 'src/content-loaders']],
  ['src/server', ['src/content-loaders']],
])('%s', (folder, forbidden) => {
  test(`imports nothing from ${forbidden.join(' or ')}`, () => {
    const upward = sources(folder).flatMap((file) =>
      importedPaths(file)
        .filter((target) => forbidden.some((layer) => target === layer || target.startsWith(`${layer}/`)))
        .map((target) => `${file} → ${target}`),
    );
    expect(upward).toEqual([]);
  });
});

test('the build-time loaders are imported by the content config alone', () => {
  const importers = [...sources('src'), ...sources('netlify'), ...sources('scripts')].filter((file) =>
    importedPaths(file).some((target) => target.startsWith('src/content-loaders/')),
  );
  expect(importers.filter((file) => !file.startsWith('src/content-loaders/'))).toEqual(['src/content.config.ts']);
});

test('the check sees an import that reaches up', () => {
  // The test above would pass on a folder it cannot read; the loaders themselves do import src/server.
  expect(
    sources('src/content-loaders')
      .flatMap(importedPaths)
      .some((target) => target.startsWith('src/server/')),
  ).toBe(true);
});

test('a letter’s status changes in one module: only src/server/letter/life.ts imports the moves of outbox.ts', () => {
  // outbox.ts's `updateMessage` refuses a change of status; these are the only ways to make one.
  const moves = ['moveMessage', 'saveMessage', 'replaceWaitingRequests', 'expireUnconfirmed'];
  const importers = [...sources('src'), ...sources('netlify')].filter((file) => {
    const code = readFileSync(join(root, file), 'utf8');
    return [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)].some(
      ([, names, from]) => /(^|\/)outbox$/.test(from!) && moves.some((name) => new RegExp(`\\b${name}\\b`).test(names!)),
    );
  });
  expect(importers).toEqual(['src/server/letter/life.ts']);
  // And no statement outside outbox.ts sets a letter's status.
  const writers = [...sources('src'), ...sources('netlify/functions')].filter(
    (file) => file !== 'src/server/letter/outbox.ts' && /UPDATE outbox_messages[^;`]*\bSET\s+status\b/i.test(readFileSync(join(root, file), 'utf8')),
  );
  expect(writers).toEqual([]);
});
