#!/usr/bin/env node
/**
 * `npm test`: the type check, the unit and function tests (Vitest) and the end-to-end tests
 * (Playwright in Debian's Chromium, and tests/engines in Firefox and WebKitGTK, against the production build). Prints each runner's summary
 * and ends with one line "N passed, N failed" over all of them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NETLIFY_TELEMETRY_DISABLED: '1' };

function run(command, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const summaries = [];

// 1. Type check: astro check (Astro files and content) and tsc (everything else).
console.log('\n=== Type check (astro check + tsc) ===');
const checkCode = await run('npm', ['run', '--silent', 'check']);
if (checkCode === 0) totals.passed += 1;
else totals.failed += 1;
summaries.push(`typecheck: ${checkCode === 0 ? 'passed' : 'FAILED'}`);

// 2. Unit and function tests.
console.log('\n=== Unit and function tests (Vitest) ===');
const vitestReport = join(reports, 'vitest.json');
const vitestCode = await run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  const failed = report.numFailedTests + (vitestCode !== 0 && report.numFailedTests === 0 ? 1 : 0);
  totals.passed += report.numPassedTests;
  totals.failed += failed;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  summaries.push(`vitest: ${report.numPassedTests} passed, ${failed} failed`);
} else {
  totals.failed += 1;
  summaries.push('vitest: did not report (crashed)');
}

// 3. End-to-end tests against `npm start` (Playwright starts and stops it).
console.log('\n=== End-to-end tests (Playwright: Chromium; Firefox and WebKitGTK in tests/engines, alongside) ===');
const playwrightReport = join(reports, 'playwright.json');
// Every run starts from an empty local database, so that tests see the states a new site has.
rmSync(join(root, '.netlify', 'db'), { recursive: true, force: true });
const playwrightCode = await run(bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport });
if (existsSync(playwrightReport)) {
  const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  const failed = stats.unexpected + stats.flaky + (playwrightCode !== 0 && stats.unexpected === 0 ? 1 : 0);
  totals.passed += stats.expected;
  totals.failed += failed;
  totals.skipped += stats.skipped;
  summaries.push(`playwright: ${stats.expected} passed, ${failed} failed, ${stats.skipped} skipped`);
  summaries.push(...perEngine(JSON.parse(readFileSync(playwrightReport, 'utf8'))));
} else {
  totals.failed += 1;
  summaries.push('playwright: did not report (crashed)');
}

/** The Playwright report's results per browser: "  firefox: N passed, N failed" (tests/engines runs in Firefox and WebKitGTK). */
function perEngine(report) {
  const counts = {};
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const engine = ['firefox', 'webkit'].includes(t.projectName) ? t.projectName : 'chromium';
        counts[engine] ??= { passed: 0, failed: 0 };
        if (t.status === 'expected') counts[engine].passed += 1;
        else if (t.status !== 'skipped') counts[engine].failed += 1;
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return Object.entries(counts).map(([engine, { passed, failed }]) => `  ${engine}: ${passed} passed, ${failed} failed`);
}

console.log('\n=== Summary ===');
for (const line of summaries) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 ? 0 : 1);
