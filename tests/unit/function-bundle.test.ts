/**
 * netlify.toml ships with every function the parts of @hubspot/api-client the functions load, and
 * leaves out the rest (its Client requires each API on first use). src/server/hubspot.ts loads the
 * client under a name the packager does not trace, so these patterns are all that ships it: a file
 * they miss, or a function that starts using another API, would fail only when deployed, with
 * "Cannot find module"; these tests fail first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFileTrace } from '@vercel/nft';
import { minimatch } from 'minimatch';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const library = 'node_modules/@hubspot/api-client/lib';

/** Computed once: nft asks about every file it traces. */
function once<T>(compute: () => T): () => T {
  let value: { result: T } | undefined;
  return () => (value ??= { result: compute() }).result;
}

/** The `included_files` patterns of [functions] (paths relative to the site root), kept and left out. */
const includedFiles = once((): { kept: string[]; left: string[] } => {
  const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
  const list = /included_files = \[([\s\S]*?)\n {2}\]/.exec(toml)?.[1] ?? '';
  const patterns = [...list.replace(/#.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
  return {
    kept: patterns.filter((pattern) => !pattern.startsWith('!')),
    left: patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1)),
  };
});

/** Every .ts/.mts file a function can bundle: the endpoints and the server layer. */
function functionSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : /\.m?ts$/.test(entry.name) ? [join(dir, entry.name)] : [],
    );
  return [...walk('netlify/functions'), ...walk('src/server')];
}

const areas = ['automation', 'cms', 'communicationPreferences', 'conversations', 'crm', 'events', 'files', 'marketing', 'oauth', 'settings', 'webhooks'];
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The APIs of the HubSpot client the function code calls: "crm.contacts", "marketing.transactional". */
const usedApis = once((): string[] => {
  const used = new Set<string>();
  const call = new RegExp(`\\.(${areas.join('|')})\\??\\.(\\w+)`, 'g');
  for (const file of functionSources()) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(call)) used.add(`${match[1]}.${match[2]}`);
  }
  return [...used].sort();
});

/** The files an API loads: its discovery class and its generated client. */
function filesOf(api: string): string[] {
  const [area = '', sub = ''] = api.split('.');
  return [`${library}/src/discovery/${area}/${sub}/Discovery.js`, `${library}/codegen/${snake(area)}/${snake(sub)}/index.js`];
}

const packaged = (file: string) => {
  const { kept, left } = includedFiles();
  return kept.some((pattern) => minimatch(file, pattern)) && !left.some((pattern) => minimatch(file, pattern));
};
const excluded = (file: string) => !packaged(file);

/**
 * A file of an API no function calls: an area of the client (`lib/codegen/events/…`,
 * `lib/src/discovery/cms/…`) or an API of a used area (`lib/codegen/crm/objects/…`). The area's own
 * file (`lib/src/discovery/crm/CrmDiscovery.js`) is not one: the client loads it for every API in it.
 */
function unusedApiFolder(path: string): boolean {
  const match = /^node_modules\/@hubspot\/api-client\/lib\/(?:codegen|src\/discovery)\/([^/]+)\/(?:([^/]+)\/)?/.exec(path);
  if (!match) return false;
  const [, area, api] = match;
  const same = (name: string, written: string | undefined) => written === name || written === snake(name);
  const used = usedApis().map((entry) => entry.split('.') as [string, string]);
  if (!used.some(([usedArea]) => same(usedArea, area))) return true;
  return api !== undefined && !used.some(([usedArea, usedApi]) => same(usedArea, area) && same(usedApi, api));
}

describe('the HubSpot client in the functions', () => {
  test('the functions call the APIs this list expects (update it, and netlify.toml, when they change)', () => {
    expect(usedApis()).toEqual(['crm.contacts', 'marketing.transactional']);
  });

  test.each(usedApis())('%s is packaged with the functions', (api) => {
    for (const file of filesOf(api)) expect(excluded(file), file).toBe(false);
  });

  test.each(['cms.blogs', 'crm.objects', 'crm.properties', 'marketing.forms', 'automation.actions'])('%s, which no function loads, is left out', (api) => {
    for (const file of filesOf(api)) expect(excluded(file), file).toBe(true);
  });

  test('the core the client always loads is packaged', () => {
    for (const file of [
      `${library}/index.js`,
      `${library}/src/client.js`,
      `${library}/src/discovery/crm/CrmDiscovery.js`,
      `${library}/src/discovery/marketing/MarketingDiscovery.js`,
    ]) {
      expect(excluded(file), file).toBe(false);
    }
  });

  test('every file the client loads for those APIs is packaged, with the packages it requires', async () => {
    const { fileList } = await nodeFileTrace([`${library}/index.js`], { base: root, ignore: unusedApiFolder });
    const files = [...fileList].filter((file) => file.startsWith('node_modules/'));
    expect(files.length).toBeGreaterThan(150);
    expect(files.filter((file) => !packaged(file))).toEqual([]);
  });

  test('the functions load the client only through src/server/hubspot.ts, where the packager does not follow it', () => {
    const valueImports = functionSources().filter((file) => /^import (?!type )[^;]*from '@hubspot\/api-client'/m.test(readFileSync(join(root, file), 'utf8')));
    expect(valueImports).toEqual([]);
    expect(readFileSync(join(root, 'src/server/hubspot.ts'), 'utf8')).toContain("createRequire(import.meta.url)(['@hubspot', 'api-client'].join('/'))");
  });
});
