/**
 * The first site search in the dialog: what the browser downloads from opening the search dialog
 * on a page to showing results for a query, and how long the first result takes to appear on the
 * phone profile Lighthouse uses (slow 4G: 562.5 ms request latency, 1.6 Mbps down; 4× CPU
 * slowdown), timed from the query being typed to the first result link on screen (median of
 * BENCH_SEARCH_RUNS, default 3, each in a fresh browser context). `netlify serve` sends files
 * uncompressed, so besides the raw bytes the table gives each body gzipped, as a CDN serves it.
 */
import { chromiumFlags, chromiumPath } from '../chromium.mjs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { table, withServer } from './_server.mjs';

export const title = 'First site search: bytes transferred and time to the first result (phone profile)';

const queries = (process.env.BENCH_SEARCH_QUERIES ?? 'mastery threshold,afternoons').split(',');
const runs = Math.max(1, Number(process.env.BENCH_SEARCH_RUNS || 3));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Lighthouse's mobile preset as DevTools throttling. */
async function phoneProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1474.56 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

async function firstSearch(browser, base, query, { throttled }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${base}/how-it-works`);
  await page.waitForLoadState('networkidle');
  const bytes = new Map();
  page.on('requestfinished', async (request) => {
    const response = await request.response();
    const body = await response?.body().catch(() => undefined);
    if (body) bytes.set(`${bytes.size}:${new URL(request.url()).pathname}`, { raw: body.length, gzip: Math.min(body.length, gzipSync(body).length) });
  });
  if (throttled) await phoneProfile(page);
  await page.getByRole('button', { name: 'Search the site' }).click();
  const box = page.getByRole('dialog', { name: 'Search the site' }).getByRole('searchbox');
  await box.waitFor();
  const started = Date.now();
  await box.fill(query);
  await page.getByRole('dialog').locator('[data-search-results] a').first().waitFor({ timeout: 60_000 });
  const ms = Date.now() - started;
  await page.waitForLoadState('networkidle');
  const raw = [...bytes.values()].reduce((sum, n) => sum + n.raw, 0);
  const gzip = [...bytes.values()].reduce((sum, n) => sum + n.gzip, 0);
  if (process.env.BENCH_VERBOSE) for (const [path, n] of bytes) console.log(path, n);
  await context.close();
  return { ms, requests: bytes.size, raw, gzip };
}

export async function run() {
  await withServer(Number(process.env.BENCH_PORT || 8896), async (base) => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const rows = [];
    try {
      for (const query of queries) {
        const sized = await firstSearch(browser, base, query, { throttled: false });
        const times = [];
        for (let i = 0; i < runs; i++) times.push((await firstSearch(browser, base, query, { throttled: true })).ms);
        rows.push([
          query,
          sized.requests,
          `${(sized.raw / 1024).toFixed(1)} KB`,
          `${(sized.gzip / 1024).toFixed(1)} KB`,
          sized.gzip < 100 * 1024 ? 'yes' : 'NO',
          `${median(times)} ms`,
          `${Math.min(...times)}-${Math.max(...times)} ms`,
        ]);
      }
    } finally {
      await browser.close();
    }
    table(['query', 'requests', 'raw', 'gzipped', 'under 100 KB (gzipped)', 'first result (phone, median)', 'range'], rows);
  });
}
