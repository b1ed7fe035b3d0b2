/**
 * Bytes the first site search transfers: what the browser downloads from opening the search
 * dialog on a page to showing results for a query (search UI chunk, Pagefind's script, its
 * WebAssembly, index and fragments). Budget: under 100 KB. `netlify serve` sends files
 * uncompressed, so besides the raw bytes the table gives each body gzipped, as a CDN serves it
 * (Pagefind's index, fragments and WebAssembly are gzipped already and barely change).
 */
import { chromiumFlags, chromiumPath } from '../chromium.mjs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { table, withServer } from './_server.mjs';

export const title = 'First site search: bytes transferred';

const queries = (process.env.BENCH_SEARCH_QUERIES ?? 'mastery threshold,afternoons').split(',');

export async function run() {
  await withServer(Number(process.env.BENCH_PORT || 8896), async (base) => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const rows = [];
    try {
      for (const query of queries) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${base}/how-it-works`);
        await page.waitForLoadState('networkidle');
        const bytes = new Map();
        page.on('requestfinished', async (request) => {
          const response = await request.response();
          const body = await response?.body().catch(() => undefined);
          if (body) bytes.set(`${bytes.size}:${new URL(request.url()).pathname}`, { raw: body.length, gzip: Math.min(body.length, gzipSync(body).length) });
        });
        await page.getByRole('button', { name: 'Search the site' }).click();
        await page.getByRole('dialog', { name: 'Search the site' }).getByRole('searchbox').fill(query);
        await page.getByRole('dialog').locator('[data-search-results] a').first().waitFor();
        await page.waitForLoadState('networkidle');
        const raw = [...bytes.values()].reduce((sum, n) => sum + n.raw, 0);
        const gzip = [...bytes.values()].reduce((sum, n) => sum + n.gzip, 0);
        rows.push([query, bytes.size, `${(raw / 1024).toFixed(1)} KB`, `${(gzip / 1024).toFixed(1)} KB`, gzip < 100 * 1024 ? 'yes' : 'NO']);
        if (process.env.BENCH_VERBOSE) for (const [path, n] of bytes) console.log(path, n);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    table(['query', 'requests', 'raw', 'gzipped', 'under 100 KB (gzipped)'], rows);
  });
}
