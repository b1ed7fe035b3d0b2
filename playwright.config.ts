import { defineConfig, devices } from '@playwright/test';
import type { EngineName } from './tests/engines/driver';
import { chromiumFlags, chromiumPath } from './scripts/chromium.mjs';

/** The e2e suite runs in Debian's Chromium against the production build served by `npm start`. */
const port = Number(process.env.E2E_PORT || 8899);
export const baseURL = process.env.E2E_BASE_URL || `http://localhost:${port}`;

/** Local fakes of the services outside this machine, on ports next to the site's. */
export const fakePorts = { hubspot: port + 12, calendly: port + 13, smtp: port + 14, smtpHttp: port + 15 };
export const fakeUrls = {
  hubspot: `http://127.0.0.1:${fakePorts.hubspot}`,
  calendly: `http://127.0.0.1:${fakePorts.calendly}`,
  /** The SMTP sink's HTTP side: GET /__fake/messages lists what arrived over SMTP, parsed. */
  smtp: `http://127.0.0.1:${fakePorts.smtpHttp}`,
};
/** The address confirmed school emails come from in the e2e run (sent over SMTP to the sink). */
export const e2eSchoolEmailFrom = 'schools@masteryparents.example';
/** `npm run edit` (dev server and decap-server) for tests/e2e/content-editor.spec.ts, in a copy of the project. */
export const editorPorts = { dev: port + 50, backend: port + 51 };
export const e2eAdminPassword = process.env.ADMIN_PASSWORD || 'e2e-admin-password';

const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } };
const embedSpecs = /hubspot-forms\.spec\.ts$/;
// Provokes the per-username sign-in lock; runs alone, after the desktop tests (see the spec).
const lockoutSpecs = /sign-in-lockout\.spec\.ts$/;
// Registers the site's first owner, after which the admin password is refused: every other spec
// and engine that signs in with the password must have run (see the spec and the README).
const passkeySpecs = /staff-passkeys\.spec\.ts$/;


export default defineConfig<object, { engineName: EngineName }>({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME
    ? [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME }]]
    : [['list']],
  use: {
    baseURL,
    trace: 'off',
    launchOptions: { executablePath: chromiumPath, args: chromiumFlags },
  },
  projects: [
    { name: 'desktop', use: desktop, testIgnore: [embedSpecs, lockoutSpecs, passkeySpecs] },
    { name: 'lockout', use: desktop, testMatch: lockoutSpecs, dependencies: ['desktop'] },
    // Last of all: after the desktop specs, the lockout, and the Firefox and WebKitGTK flows.
    { name: 'passkeys', use: desktop, testMatch: passkeySpecs, dependencies: ['lockout', 'firefox', 'webkit'] },
    // The embed specs run against a second build with every form embedded (tests/e2e/embed-build.ts),
    // made once per run, and only when one of them is run.
    { name: 'embed-build', testMatch: /embed-build\.setup\.ts$/ },
    { name: 'embed', use: desktop, testMatch: embedSpecs, dependencies: ['embed-build'] },
    // The main flows in Firefox and WebKitGTK (tests/engines/driver.ts), one browser per worker;
    // a file's tests run in order so that a worker launches its engine once.
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
          // A real SMTP server that keeps what it receives: the school emails the site sends.
          command: `node tests/fakes/smtp.ts --port ${fakePorts.smtp} --http-port ${fakePorts.smtpHttp}`,
          url: `${fakeUrls.smtp}/__fake/messages`,
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
            // Confirmed school emails go over SMTP to the sink (the HubSpot single-send has its unit tests).
            SCHOOL_EMAIL_SENDER: 'smtp',
            SMTP_URL: `smtp://127.0.0.1:${fakePorts.smtp}`,
            SCHOOL_EMAIL_FROM_ADDRESS: e2eSchoolEmailFrom,
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
