/** Debian's Chromium and the flags it needs on this kind of machine (tests, bench, screenshots). */
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

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
