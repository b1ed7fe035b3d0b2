#!/usr/bin/env node
/**
 * `npm run bench`: performance figures, printed as tables. Each part lives in scripts/bench/ and
 * can be run alone (`node scripts/bench.mjs lighthouse`). Figures are measured, never asserted.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'bench');
const wanted = process.argv.slice(2);
const parts = readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && !file.startsWith('_'))
  .map((file) => file.replace(/\.mjs$/, ''))
  .sort();

for (const part of parts) {
  if (wanted.length && !wanted.includes(part)) continue;
  const module = await import(pathToFileURL(join(here, `${part}.mjs`)).href);
  console.log(`\n## ${module.title ?? part}\n`);
  await module.run();
}
