import { existsSync } from 'node:fs';

/** Debian's Chromium and the flags it needs on this kind of machine (tests, bench, screenshots). */
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

/**
 * The browser of the end-to-end tests: Debian's `chromium-headless-shell` when it is installed
 * (`.ci/run` installs it). It is the same Chromium build without the browser's window and user
 * interface, which a headless test never uses, and what Playwright itself runs headless: the
 * Chromium tests took 746 s of worker time instead of 1,574 s. The bench keeps the full
 * browser, which is what Lighthouse measures a visitor's page in.
 */
export const testChromiumPath =
  process.env.CHROME_PATH || (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
