/**
 * Bytes the first site search transfers: what the browser downloads from opening the search
 * dialog on a page to showing results for a query (search UI chunk, Pagefind's script, its
 * WebAssembly, index and fragments). Budget: under 100 KB.
 */
import { chromium } from '@playwright/test';
import { table, withServer } from './_server.mjs';

export const title = 'First site search: bytes transferred';

const queries = (process.env.BENCH_SEARCH_QUERIES ?? 'mastery threshold,afternoons').split(',');

export async function run() {
  await withServer(Number(process.env.BENCH_PORT || 8896), async (base) => {
    const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    const rows = [];
    try {
      for (const query of queries) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${base}/how-it-works`);
        await page.waitForLoadState('networkidle');
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        const bytes = new Map();
        cdp.on('Network.loadingFinished', (event) => bytes.set(event.requestId, event.encodedDataLength));
        const urls = new Map();
        cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, new URL(event.request.url).pathname));
        await page.getByRole('button', { name: 'Search the site' }).click();
        await page.getByRole('dialog', { name: 'Search the site' }).getByRole('searchbox').fill(query);
        await page.getByRole('dialog').locator('[data-search-results] a').first().waitFor();
        await page.waitForLoadState('networkidle');
        const total = [...bytes.values()].reduce((sum, n) => sum + n, 0);
        const files = [...bytes.keys()].length;
        rows.push([query, files, `${(total / 1024).toFixed(1)} KB`, total < 100 * 1024 ? 'yes' : 'NO']);
        if (process.env.BENCH_VERBOSE) for (const [id, n] of bytes) console.log(urls.get(id), n);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    table(['query', 'requests', 'transferred', 'under 100 KB'], rows);
  });
}
