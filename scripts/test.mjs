#!/usr/bin/env node
/**
 * `npm test`: the lint and format check (Biome, biome.jsonc), the type check, the unit and function tests (Vitest) and the end-to-end tests
 * (Playwright in Debian's Chromium, and tests/engines in Firefox and WebKitGTK, against the production build). Prints each runner's summary
 * and ends with one line "N passed, N failed" over all of them.
 *
 * The site the end-to-end tests use is started first: `netlify serve` packaging the functions takes
 * about two minutes of mostly one core, and the type check runs meanwhile. Vitest starts next and
 * runs beside Playwright at idle priority (below, step 2); Playwright finds the site running
 * (E2E_SITE_STARTED) and starts only the fakes. (The type check beside Vitest instead of before it
 * gained nothing: 295 s for both against 55 + 236 s, the two cores already full with the packaging.)
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const startedAt = Date.now();
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

/** Commands running at idle priority, stopped with npm test. */
const background = new Set();

/**
 * Runs a command at idle priority, its output written to a file: in a session of its own (so in an
 * autogroup of its own: Linux shares the CPU between sessions first, and the browsers Playwright
 * starts are sessions of their own, beside which a `nice` inside npm test's session counted for
 * nothing), with that autogroup's niceness at 19 (weight 15 against 1,024) and its processes' too.
 * It takes the CPU that the sessions at normal priority leave idle. Stopped with npm test.
 */
function runAtIdlePriority(file, command, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const out = createWriteStream(file);
    const child = spawn('nice', ['-n', '19', command, ...args], { cwd: root, env: { ...env, ...extraEnv }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      writeFileSync(`/proc/${child.pid}/autogroup`, '19');
    } catch {
      // No autogroups on this kernel: `nice` alone, which then weighs against every process.
    }
    background.add(child);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', (error) => {
      out.end(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => {
      background.delete(child);
      out.end(() => resolve(code ?? 1));
    });
  });
}
const totals = { passed: 0, failed: 0, skipped: 0 };
const summaries = [];

/** Each phase's wall time and the machine's load average at its start and end (reports/phases.json, `npm run test:slowest`). */
const phases = [];
const load = () => loadavg()[0].toFixed(1);
async function phase(name, work) {
  const started = Date.now();
  const startLoad = load();
  try {
    return await work();
  } finally {
    phases.push({ name, ms: Date.now() - started, load: [startLoad, load()] });
  }
}

// 0. The site for the end-to-end tests, as playwright.config.ts would start it, from an empty local
// database so that tests see the states a new site has.
rmSync(join(root, '.netlify', 'db'), { recursive: true, force: true });
console.log('\n=== Starting the site for the end-to-end tests (build now, functions packaged alongside the next steps) ===');
const site = await phase('Astro build of the e2e site', startSite);

/** Starts `npm start` with the e2e environment; resolves once Astro's build is written (the rest runs on). */
async function startSite() {
  const { default: config, baseURL } = await import('../playwright.config.ts');
  const server = config.webServer.find((entry) => entry.command.includes('scripts/start.mjs'));
  const logFile = join(reports, 'site-server.log');
  const log = createWriteStream(logFile);
  const child = spawn('node', ['scripts/start.mjs'], { cwd: root, env: { ...env, ...server.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  const built = new Promise((resolve) => {
    const watch = (chunk) => {
      log.write(chunk);
      if (output.length < 500_000) output += chunk.toString();
      if (output.includes('build.command completed')) resolve();
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('exit', () => {
      exited = true;
      resolve();
    });
  });
  await built;
  // Interrupted: the site and what runs at idle priority go with this process (each runs in its own process group).
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      for (const pid of [child.pid, ...[...background].map((other) => other.pid)]) {
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      process.exit(130);
    });
  }
  return {
    /** Waits for the health check; false (with the log's end printed) when the site did not come up. */
    async ready(timeoutMs = 15 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!exited && Date.now() < deadline) {
        const ok = await fetch(`${baseURL}/api/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (ok) return true;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      console.log(`The site did not start (${exited ? 'it exited' : 'timed out'}); the end of ${logFile}:\n${output.slice(-3000)}`);
      return false;
    },
    stop() {
      if (exited) return Promise.resolve();
      return new Promise((resolve) => {
        child.on('exit', resolve);
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          resolve();
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
          resolve();
        }, 10_000).unref();
      });
    },
  };
}

// 0. Lint and format: Biome (biome.jsonc), a few seconds; `biome ci` fails on a lint finding or on
// a file that is not formatted as `npm run format` writes it, and changes nothing.
console.log('\n=== Lint and format (Biome) ===');
const lintCode = await phase('lint and format', () => run(bin('biome'), ['ci', '--max-diagnostics=50']));
if (lintCode === 0) totals.passed += 1;
else totals.failed += 1;
summaries.push(`lint and format: ${lintCode === 0 ? 'passed' : 'FAILED (npm run lint; npm run format)'}`);

// 1. Type check: astro check, which checks every file tsconfig.json includes (.astro and TypeScript alike;
// a separate `tsc --noEmit` found nothing more and cost about 50 s).
console.log('\n=== Type check (astro check) ===');
const checkCode = await phase('type check', () => run('npm', ['run', '--silent', 'check']));
if (checkCode === 0) totals.passed += 1;
else totals.failed += 1;
summaries.push(`typecheck: ${checkCode === 0 ? 'passed' : 'FAILED'}`);

// 2. Unit and function tests (Vitest), started now and run beside the end-to-end tests at idle
// priority (runAtIdlePriority): they need none of the site, and take what CPU the browsers leave
// (the wait for the packaging, the moments both Playwright workers wait on the site, a timer or a
// frame) instead of a phase of their own; the browsers keep the CPU whenever they want it. Measured
// on clean clones: 806-819 s in all against 858 one phase after the other (docs/testing-history.md).
// Vitest's output goes to reports/vitest.log and is printed when it ends.
console.log('\n=== Unit and function tests (Vitest): started, beside the end-to-end tests; their output follows them ===');
const vitestReport = join(reports, 'vitest.json');
const vitestLog = join(reports, 'vitest.log');
const vitestRun = phase('Vitest (at idle priority beside Playwright)', () =>
  runAtIdlePriority(vitestLog, bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], {
    // Starved while the browsers want both cores, a test may wait longer than it runs.
    VITEST_TIME_FACTOR: '6',
  }),
);

// 3. End-to-end tests against `npm start` (Playwright starts and stops it).
console.log(
  `\n=== End-to-end tests (Playwright: Chromium; Firefox and WebKitGTK in tests/engines, alongside; ${process.env.E2E_FULL === '1' ? 'the full run' : 'the gate: the @full tests are left to npm run test:full, playwright.config.ts'}) ===`,
);
const playwrightReport = join(reports, 'playwright.json');
const siteReady = await phase('waiting for the functions to be packaged', () => site.ready());
// When it did not come up here, Playwright starts it itself (and says why it cannot).
const playwrightCode = await phase('Playwright', () =>
  run(bin('playwright'), ['test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport, ...(siteReady ? { E2E_SITE_STARTED: '1' } : {}) }),
);
await site.stop();
const vitestCode = await vitestRun;
console.log('\n=== Unit and function tests (Vitest), as they ran beside the end-to-end tests ===');
console.log(readFileSync(vitestLog, 'utf8'));
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  const failed = report.numFailedTests + (vitestCode !== 0 && report.numFailedTests === 0 ? 1 : 0);
  totals.passed += report.numPassedTests;
  totals.failed += failed;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  summaries.push(`vitest: ${report.numPassedTests} passed, ${failed} failed`);
  // The failed tests by name (with the first line of their error): the summary is what a CI log keeps.
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed')
        summaries.push(
          `  FAILED ${relative(root, file.name)} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? '')
            .split('\n')[0]
            .slice(0, 300)}`,
        );
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
      summaries.push(
        `  FAILED ${relative(root, file.name)}: ${String(file.message ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
  }
} else {
  totals.failed += 1;
  summaries.push('vitest: did not report (crashed)');
}

if (existsSync(playwrightReport)) {
  const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  const failed = stats.unexpected + stats.flaky + (playwrightCode !== 0 && stats.unexpected === 0 ? 1 : 0);
  totals.passed += stats.expected;
  totals.failed += failed;
  totals.skipped += stats.skipped;
  summaries.push(`playwright: ${stats.expected} passed, ${failed} failed, ${stats.skipped} skipped`);
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  summaries.push(...perEngine(report), ...failedSpecs(report));
} else {
  totals.failed += 1;
  summaries.push('playwright: did not report (crashed)');
}

/** The Playwright tests that failed or were flaky, by project, file and title, with the first line of the error. */
function failedSpecs(report) {
  const lines = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status === 'expected' || t.status === 'skipped') continue;
        const error = t.results?.find((r) => r.error)?.error?.message ?? '';
        lines.push(
          `  ${t.status === 'flaky' ? 'FLAKY' : 'FAILED'} [${t.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${error
            .replace(/\x1b\[[0-9;]*m/g, '')
            .split('\n')[0]
            .slice(0, 300)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return lines;
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

/**
 * The versions of the browsers the end-to-end tests ran in, as Debian installed them: `.ci/run`
 * installs the current package, so a new version can change a result between two runs of the same
 * commit (Firefox ESR 140.12 refused puppeteer's waits under the site's policy, docs/testing.md).
 */
function browserVersions() {
  const packages = { Chromium: 'chromium-headless-shell', 'Firefox ESR': 'firefox-esr', WebKitGTK: 'libwebkit2gtk-4.1-0' };
  return Object.entries(packages)
    .map(([name, pkg]) => {
      try {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax, not a template.
        return `${name} ${execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })}`;
      } catch {
        return `${name} (not installed as ${pkg})`;
      }
    })
    .join(', ');
}

writeFileSync(join(reports, 'phases.json'), `${JSON.stringify(phases, null, 2)}\n`);
console.log('\n=== Where the time went (npm run test:slowest lists more) ===');
await run(process.execPath, [join(root, 'scripts', 'slowest.mjs'), '10']);
console.log('\n=== Summary ===');
for (const {
  name,
  ms,
  load: [from, to],
} of phases)
  console.log(`${name}: ${(ms / 1000).toFixed(0)} s (load ${from} -> ${to})`);
console.log(`npm test in all: ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
console.log(`browsers (Debian's packages): ${browserVersions()}`);
for (const line of summaries) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 ? 0 : 1);
