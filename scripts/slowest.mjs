#!/usr/bin/env node
/**
 * `npm run test:slowest`: where the last `npm test` spent its time, read from the reports it
 * wrote (reports/vitest.json, reports/playwright.json, reports/phases.json): each phase, then the
 * slowest Vitest files, the Playwright time per project and the slowest Playwright files and tests.
 * `npm run test:slowest -- 30` lists 30 of each (15 by default).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'reports');
const count = Number(process.argv[2]) || 15;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(9);
const read = (name) => (existsSync(join(reports, name)) ? JSON.parse(readFileSync(join(reports, name), 'utf8')) : undefined);

const phases = read('phases.json');
if (phases) {
  console.log('npm test, by phase (wall time; load average of the machine at the start and the end):');
  for (const phase of phases) console.log(`${seconds(phase.ms)}  ${phase.name}  (load ${phase.load.join(' -> ')})`);
}

const vitest = read('vitest.json');
if (vitest) {
  // A file's time from the report: its tests and hooks, not its imports (Vitest prints those in its summary).
  const files = vitest.testResults
    .map((file) => ({ name: relative(root, file.name), ms: file.endTime - file.startTime, tests: file.assertionResults.length }))
    .sort((a, b) => b.ms - a.ms);
  const total = files.reduce((sum, file) => sum + file.ms, 0);
  console.log(`\nVitest: ${files.length} files, ${seconds(total).trim()} in all (on ${vitest.numTotalTests} tests); the slowest files:`);
  for (const file of files.slice(0, count)) console.log(`${seconds(file.ms)}  ${file.name} (${file.tests} tests)`);
}

const playwright = read('playwright.json');
if (playwright) {
  const byFile = new Map();
  const byProject = new Map();
  const tests = [];
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const ms = test.results.reduce((sum, result) => sum + result.duration, 0);
        const key = `[${test.projectName}] ${here}`;
        byFile.set(key, (byFile.get(key) ?? 0) + ms);
        byProject.set(test.projectName, (byProject.get(test.projectName) ?? 0) + ms);
        tests.push({ name: `[${test.projectName}] ${here} › ${spec.title}`, ms });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of playwright.suites ?? []) walk(suite);
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  console.log(`\nPlaywright: ${seconds(playwright.stats.duration).trim()} wall; worker time per project:`);
  for (const [project, ms] of sorted(byProject)) console.log(`${seconds(ms)}  ${project}`);
  console.log('\nThe slowest Playwright files (worker time):');
  for (const [file, ms] of sorted(byFile).slice(0, count)) console.log(`${seconds(ms)}  ${file}`);
  console.log('\nThe slowest Playwright tests:');
  for (const test of tests.sort((a, b) => b.ms - a.ms).slice(0, count)) console.log(`${seconds(test.ms)}  ${test.name}`);
}

if (!phases && !vitest && !playwright) console.log('No reports yet: run npm test first (it writes them to reports/).');
