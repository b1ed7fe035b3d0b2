/** Lighthouse 13, mobile preset, on every route of the production build. */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumFlags, chromiumPath } from '../chromium.mjs';
import { startEmbedStandIn } from './_embed.mjs';
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
  // As a visitor arrives from the scheduler: the details fill in after the first paint.
  '/thank-you?invitee_first_name=Ana&event_type_name=Intro%20Call&event_start_time=2026-01-15T16%3A00%3A00Z',
  '/webinar-thank-you',
  '/webinar-share',
  '/form?type=newsletter',
];

const kb = (bytes) => (bytes / 1024).toFixed(1);

export async function run() {
  const only = process.env.BENCH_ROUTES?.split(',');
  await withServer(Number(process.env.BENCH_PORT || 8897), async (base) => {
    const embed = await startEmbedStandIn();
    const chrome = await launch({
      chromePath: chromiumPath,
      // Lighthouse wants the new headless mode.
      chromeFlags: [...chromiumFlags.map((flag) => (flag === '--headless' ? '--headless=new' : flag)), ...embed.flags],
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
      await embed.close();
    }
    table(['route', 'perf', 'a11y', 'best', 'seo', 'LCP', 'TBT', 'CLS', 'JS KB', 'CSS KB', 'HTML KB', 'total KB'], rows);
  });
}
