/**
 * netlify.toml leaves out of every function the parts of @hubspot/api-client the functions never
 * load (its Client requires each API on first use). A function that starts using another API would
 * fail only when deployed, with "Cannot find module"; this test fails first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minimatch } from 'minimatch';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const library = 'node_modules/@hubspot/api-client/lib';

/** The negated `included_files` patterns of [functions] (paths relative to the site root). */
function excludedPatterns(): string[] {
  const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
  return [...toml.matchAll(/"!([^"]+)"/g)].map((match) => match[1]!);
}

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
function usedApis(): string[] {
  const used = new Set<string>();
  const call = new RegExp(`\\.(${areas.join('|')})\\??\\.(\\w+)`, 'g');
  for (const file of functionSources()) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(call)) used.add(`${match[1]}.${match[2]}`);
  }
  return [...used].sort();
}

/** The files an API loads: its discovery class and its generated client. */
function filesOf(api: string): string[] {
  const [area = '', sub = ''] = api.split('.');
  return [`${library}/src/discovery/${area}/${sub}/Discovery.js`, `${library}/codegen/${snake(area)}/${snake(sub)}/index.js`];
}

const excluded = (file: string) => excludedPatterns().some((pattern) => minimatch(file, pattern));

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
    for (const file of [`${library}/index.js`, `${library}/src/client.js`, `${library}/src/discovery/crm/CrmDiscovery.js`, `${library}/src/discovery/marketing/MarketingDiscovery.js`]) {
      expect(excluded(file), file).toBe(false);
    }
  });
});
