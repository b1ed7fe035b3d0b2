/** Lighthouse 13, mobile preset, on every route of the production build. */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { table, withServer } from './_server.mjs';

export const title = 'Lighthouse (mobile) per route';

const routes = [
  '/',
  '/why-this-matters',
  '/how-it-works',
  '/lead-the-change',
  '/real-stories',
  '/nominate-school',
  '/partnership-form',
  '/events-webinars',
  '/blogs-insights',
  '/resources',
  '/faqs',
  '/webhook-config',
  '/thank-you',
  '/webinar-thank-you',
  '/webinar-share',
  '/form?type=newsletter',
];

const kb = (bytes) => (bytes / 1024).toFixed(1);

export async function run() {
  const only = process.env.BENCH_ROUTES?.split(',');
  await withServer(Number(process.env.BENCH_PORT || 8897), async (base) => {
    const chrome = await launch({
      chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const rows = [];
    try {
      for (const route of only ?? routes) {
        const result = await lighthouse(`${base}${route}`, { port: chrome.port, output: 'json', logLevel: 'error' });
        const lhr = result.lhr;
        const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const items = lhr.audits['network-requests']?.details?.items ?? [];
        const bytes = (type) => items.filter((i) => i.resourceType === type).reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
        const total = items.reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
        rows.push([
          route,
          score('performance'),
          score('accessibility'),
          score('best-practices'),
          score('seo'),
          `${Math.round(lhr.audits['largest-contentful-paint'].numericValue)} ms`,
          `${Math.round(lhr.audits['total-blocking-time'].numericValue)} ms`,
          lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3),
          kb(bytes('Script')),
          kb(bytes('Stylesheet')),
          kb(bytes('Document')),
          kb(total),
        ]);
        const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary');
        if (failing.length && process.env.BENCH_VERBOSE) {
          console.log(route, failing.map((a) => a.id).join(', '));
          for (const audit of failing) for (const item of audit.details?.items ?? []) console.log('  ', audit.id, JSON.stringify(item).slice(0, 300));
        }
      }
    } finally {
      await chrome.kill();
    }
    table(['route', 'perf', 'a11y', 'best', 'seo', 'LCP', 'TBT', 'CLS', 'JS KB', 'CSS KB', 'HTML KB', 'total KB'], rows);
  });
}
