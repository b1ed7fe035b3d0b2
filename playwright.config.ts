import { defineConfig, devices } from '@playwright/test';
import type { EngineName } from './tests/engines/driver';
import { chromiumFlags, testChromiumPath } from './scripts/chromium.mjs';
import { localMailFrom } from './scripts/local-mail.mjs';

/** The e2e suite runs in Debian's Chromium against the production build served by `npm start`. */
const port = Number(process.env.E2E_PORT || 8899);
export const baseURL = process.env.E2E_BASE_URL || `http://localhost:${port}`;

/** Local fakes of the services outside this machine, on ports next to the site's. */
export const fakePorts = { hubspot: port + 12, calendly: port + 13 };
export const fakeUrls = {
  hubspot: `http://127.0.0.1:${fakePorts.hubspot}`,
  calendly: `http://127.0.0.1:${fakePorts.calendly}`,
};
/**
 * MailDev, started by `npm start` as for anyone with no sender configured: every email the site
 * sends arrives there over SMTP; its REST API (tests/e2e/mail.ts) is on the web port.
 */
export const mailDevPorts = { smtp: port + 14, web: port + 15 };
export const mailDevUrl = `http://127.0.0.1:${mailDevPorts.web}`;
/** The From address of every email in the e2e run: `npm start`'s local default. */
export const e2eMailFrom = localMailFrom;
/** `npm run edit` (dev server and decap-server) for tests/e2e/content-editor.spec.ts, in a copy of the project. */
export const editorPorts = { dev: port + 50, backend: port + 51 };
export const e2eAdminPassword = process.env.ADMIN_PASSWORD || 'e2e-admin-password';

/**
 * Every request for another host goes to a proxy that is not there and fails, as it would on this
 * machine anyway, and no page reaches anything outside it (loopback is never proxied). The browser
 * does this itself; a `page.route` catch-all did it before, at the cost of every request of every
 * page making a round trip through the test runner (tests/e2e/fixtures.ts). tests/e2e/offline.spec.ts
 * fails without it.
 */
const offlineProxy = '--proxy-server=http://127.0.0.1:9';
// The headless shell (scripts/chromium.mjs) refuses navigator.clipboard.writeText unless it is
// granted, where a person's browser allows it after their click; the copy buttons are tested as a
// person meets them. Tests of a refused clipboard replace navigator.clipboard themselves.
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, permissions: ['clipboard-write'] };
const embedSpecs = /hubspot-forms\.spec\.ts$/;
// The content editor's serial spec (`npm run edit` in a copy, two builds of it: about 130 s on one
// worker; all `@full`, so in `npm run test:full` only) is a project of its own, listed first so that
// it starts at once beside the desktop tests; within the desktop project Playwright gave it a worker
// of its own last, alone for its time. Its production page is content-editor-page.spec.ts, a desktop spec.
const editorSpecs = /content-editor\.spec\.ts$/;
// Provokes the per-username sign-in lock; runs alone, after the desktop tests (see the spec).
const lockoutSpecs = /sign-in-lockout\.spec\.ts$/;
// Registers the site's first owner, after which the admin password is refused: every other spec
// and engine that signs in with the password must have run (see the spec and the README).
const passkeySpecs = /staff-passkeys\.spec\.ts$/;

/**
 * `npm test` is the gate every change passes, meant to take at most 12 minutes on two cores (7.3
 * on 2026-12-01, docs/testing.md): every behaviour once. A test tagged `@full` repeats what the gate proves already, at another width, in another
 * engine, on more routes of a kind, or through a path a Vitest test walks (each says which);
 * `npm run test:full` (E2E_FULL=1) runs them too (docs/testing.md, "The gate and the full run").
 * Set here rather than as `--grep-invert` on the command line, which Playwright does not apply to
 * the projects others depend on (desktop, firefox, webkit).
 */
const fullRun = process.env.E2E_FULL === '1';

export default defineConfig<{ embed: 'none' | 'fake' | 'fail' }, { engineName: EngineName }>({
  testDir: 'tests/e2e',
  ...(fullRun ? {} : { grepInvert: /@full/ }),
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME }]] : [['list']],
  use: {
    baseURL,
    trace: 'off',
    // A step that waits (a click, a navigation, a screenshot's fonts) fails on its own, naming the
    // step, instead of running into the test's timeout without saying where it stood.
    actionTimeout: 30_000,
    navigationTimeout: 45_000,
    launchOptions: { executablePath: testChromiumPath, args: [...chromiumFlags, offlineProxy] },
  },
  projects: [
    // The projects that need nothing before them come first, so that each starts as soon as a worker
    // is free instead of waiting for the desktop tests to drain the queue (they ran after them, and
    // the run ended with a worker idle): the editor, the other engines, the embed spec.
    { name: 'editor', use: desktop, testMatch: editorSpecs },
    // The main flows in Firefox and WebKitGTK (tests/engines/driver.ts), one browser per worker;
    // a file's tests run in order so that a worker launches its engine once. The gate walks the
    // parent's flows there; the pages, the frame's controls and the admin are `@full`.
    ...(['firefox', 'webkit'] as const).map((engineName) => ({
      name: engineName,
      testDir: 'tests/engines',
      fullyParallel: false,
      timeout: 60_000,
      // WebKitGTK's files run one after another: two MiniBrowsers at once (each under its own
      // xvfb-run) were slower, not faster, on two cores.
      ...(engineName === 'webkit' ? { workers: 1 } : {}),
      use: { engineName },
    })),
    // The embed spec runs against a second build with every form embedded (tests/e2e/embed-build.ts),
    // which it makes itself in its beforeAll: its tests run in order in one worker, so once per run
    // and only when it runs. (As a setup project the spec depended on, the build put the spec in a
    // later phase, after every desktop test, with a worker idle beside it.)
    { name: 'embed', use: { ...desktop, embed: 'fake' }, testMatch: embedSpecs, fullyParallel: false },
    { name: 'desktop', use: desktop, testIgnore: [editorSpecs, embedSpecs, lockoutSpecs, passkeySpecs] },
    // After every project that signs in with the admin password (the desktop specs and the engines'
    // admin flow), which would meet the lock it provokes.
    { name: 'lockout', use: desktop, testMatch: lockoutSpecs, dependencies: ['desktop', 'firefox', 'webkit'] },
    // Last of all: after the desktop specs, the lockout, and the Firefox and WebKitGTK flows.
    { name: 'passkeys', use: desktop, testMatch: passkeySpecs, dependencies: ['lockout', 'firefox', 'webkit'] },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : [
        {
          // The forms the build writes are the forms HubSpot has (FORMS_SOURCE=local below).
          command: `node tests/fakes/hubspot.ts --port ${fakePorts.hubspot} --forms-file dist/api/form-definitions.json`,
          url: `${fakeUrls.hubspot}/__fake/calls`,
          reuseExistingServer: !process.env.CI,
          timeout: 30_000,
          stdout: 'ignore',
        },
        {
          command: `node tests/fakes/calendly.ts --port ${fakePorts.calendly}`,
          url: `${fakeUrls.calendly}/__fake/calls`,
          reuseExistingServer: !process.env.CI,
          timeout: 30_000,
          stdout: 'ignore',
        },
        {
          command: 'node scripts/start.mjs',
          url: `${baseURL}/api/health`,
          env: {
            PORT: String(port),
            ADMIN_PASSWORD: e2eAdminPassword,
            HUBSPOT_ACCESS_TOKEN: 'fake-hubspot-token',
            HUBSPOT_BASE_PATH: fakeUrls.hubspot,
            HUBSPOT_FORMS_BASE_PATH: fakeUrls.hubspot,
            HUBSPOT_RETRY_BASE_MS: '50',
            CALENDLY_BASE_URL: fakeUrls.calendly,
            // No sender is configured: npm start catches every email in MailDev, on these ports (the
            // HubSpot single-send and real SMTP servers have their unit tests).
            MAILDEV_SMTP_PORT: String(mailDevPorts.smtp),
            MAILDEV_WEB_PORT: String(mailDevPorts.web),
            // Letters go at the next run whatever the hour; the runs are the tests' to start
            // (tests/e2e/mail.ts runMail), not a clock's, so that what a test sees is what it caused.
            SCHOOL_DELIVERY_HOURS: 'off',
            LOCAL_SCHEDULE: 'off',
            // /content-editor boots Decap with the GitHub backend (nothing is fetched before sign-in).
            DECAP_REPO: 'masteryparents/site',
            // The e2e build reads the committed sample posts and form definitions; the HubSpot
            // loaders have their own tests.
            BLOG_SOURCE: 'local',
            FORMS_SOURCE: 'local',
            // Tests fill forms faster than a person and from one address; both guards have
            // their own function tests.
            FORMS_MIN_FILL_MS: '0',
            FORMS_RATE_LIMIT: '100000',
            // A submission HubSpot did not take is due again after a second, not five minutes.
            FORMS_RETRY_BASE_MS: '1000',
            // The follow-up is due at once, so its whole path can be walked.
            FOLLOWUP_AFTER_DAYS: '0',
          },
          // npm test starts it before the type check and Vitest, so that its packaging overlaps them.
          reuseExistingServer: !process.env.CI || process.env.E2E_SITE_STARTED === '1',
          timeout: 240_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      ],
});
