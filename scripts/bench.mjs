#!/usr/bin/env node
/**
 * `npm run bench`: performance figures, printed as tables. Each part lives in scripts/bench/ and
 * can be run alone (`node scripts/bench.mjs lighthouse`). Figures are measured, never asserted.
 *
 * What each part prints is also written to docs/bench/<part>.md, with when and on what machine it
 * ran: the figures in the docs are the last run's, never typed by hand (docs/performance.md links
 * them). `BENCH_NO_WRITE=1` prints only.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { format } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'bench');
const out = join(root, 'docs', 'bench');
const wanted = process.argv.slice(2);
const parts = readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && !file.startsWith('_'))
  .map((file) => file.replace(/\.mjs$/, ''))
  .sort();

/** Runs `work`, printing as it goes, and returns what it printed with console.log. */
async function recording(work) {
  const lines = [];
  const log = console.log;
  console.log = (...args) => {
    lines.push(format(...args));
    log(...args);
  };
  try {
    await work();
  } finally {
    console.log = log;
  }
  return lines.join('\n');
}

const machine = () =>
  `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0].toFixed(1)}, Node ${process.version}`;

for (const part of parts) {
  if (wanted.length && !wanted.includes(part)) continue;
  const module = await import(pathToFileURL(join(here, `${part}.mjs`)).href);
  const title = module.title ?? part;
  console.log(`\n## ${title}\n`);
  const started = new Date();
  const before = machine();
  const printed = await recording(() => module.run());
  if (process.env.BENCH_NO_WRITE === '1') continue;
  mkdirSync(out, { recursive: true });
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`);
  writeFileSync(
    join(out, `${part}.md`),
    [
      `# ${title}`,
      '',
      `<!-- Written by \`npm run bench -- ${part}\` (scripts/bench/${part}.mjs). Do not edit: run it again. -->`,
      '',
      `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${before}${settings.length ? `, with ${settings.join(' ')}` : ''}.`,
      '',
      printed.trim(),
      '',
    ].join('\n'),
  );
}
