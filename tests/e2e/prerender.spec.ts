/**
 * A prerendered page counts its view when it is shown, not when it is made (issue 46: the beacon,
 * src/lib/build/analytics/beacon.ts). A page with speculation rules prerenders /faqs (with a campaign
 * of this run, so that its rows are this test's own); the page loads while prerendered and nothing
 * is recorded; the visitor then goes to it, the prerendered page is shown, and exactly one view is
 * recorded, read from the local database's `analytics_events` as the server stored it.
 *
 * The browser is Chromium started here without Playwright: Chromium refuses to prerender while
 * DevTools is attached to the page that asks (its status is "PrerenderingDisabledByDevTools"; so
 * with Playwright's browser, a `page.route`, or a CDP session of our own), and started on its own it
 * prerenders. It acts by itself, so a small proxy in front of the site serves the page with the
 * rules and tells it when to go, sees every request (a prerender's carry `Sec-Purpose: prefetch;
 * prerender`), and adds to the prerendered page one script of its own that reports, after the
 * beacon's own handler, that the page's load event ran and whether the page was still prerendered.
 * Everything else passes to the site unchanged, as from the site's own origin. A beacon that
 * counts at load (the proxy swapping it, and its hash, into the page) fails at "no beacon while
 * prerendered": its view goes out from the prerender.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { baseURL } from '../../playwright.config';
import { chromiumFlags, testChromiumPath } from '../../scripts/chromium.mjs';
import { databaseUrlFile } from '../../scripts/local-database.mjs';
import { expect as baseExpect, test } from './fixtures';
import { personAgent, runMark } from './helpers';

const expect = baseExpect.configure({ timeout: 20_000 });

interface Seen {
  method: string;
  path: string;
  purpose: string;
  status?: number;
}

/** The proxy: the page with the rules, the word to go, the report of the page's load, the site. */
async function startProxy(target: string) {
  const site = new URL(baseURL);
  const seen: Seen[] = [];
  let go: () => void = () => undefined;
  const going = new Promise<void>((resolve) => (go = resolve));
  let loaded: (prerendering: string) => void = () => undefined;
  const load = new Promise<string>((resolve) => (loaded = resolve));
  const start = `<!doctype html><html lang="en"><title>A page that prerenders the FAQs</title>
<a href="${target}">FAQs</a>
<script type="speculationrules">${JSON.stringify({ prerender: [{ source: 'list', urls: [target] }] })}</script>
<script>fetch('/__prerender/go').then(function(){location.href=${JSON.stringify(target)}})</script>`;
  // Runs after the beacon's own load handler: it is added after the beacon's script, at the end of the body.
  const report = `addEventListener('load',function(){fetch('/__prerender/loaded?prerendering='+document.prerendering,{method:'POST'})})`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: Seen = { method: req.method ?? 'GET', path: req.url ?? '/', purpose: String(req.headers['sec-purpose'] ?? '') };
    seen.push(entry);
    if (entry.path === '/__prerender/start') return void res.writeHead(200, { 'content-type': 'text/html' }).end(start);
    if (entry.path === '/__prerender/go') return void going.then(() => res.writeHead(204).end());
    if (entry.path === '/__prerender/report.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(report);
    if (entry.path.startsWith('/__prerender/loaded')) {
      loaded(new URL(entry.path, 'http://proxy').searchParams.get('prerendering') ?? '');
      return void res.writeHead(204).end();
    }
    const own = `http://${req.headers.host}`;
    const headers = { ...req.headers, host: site.host };
    delete headers['accept-encoding'];
    if (headers.origin === own) headers.origin = site.origin;
    if (typeof headers.referer === 'string') headers.referer = headers.referer.replace(own, site.origin);
    const upstream = httpRequest({ host: '127.0.0.1', port: site.port, path: entry.path, method: entry.method, headers }, (answer) => {
      entry.status = answer.statusCode;
      if (entry.path !== target) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8').replace('</body>', '<script src="/__prerender/report.js"></script></body>');
        const { 'content-length': _length, ...rest } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, rest).end(html);
      });
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    go,
    load,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The page views stored for a campaign, as the server recorded them. */
async function recordedViews(campaign: string): Promise<Array<{ page: string }>> {
  const client = new pg.Client({ connectionString: readFileSync(databaseUrlFile, 'utf8').trim() });
  await client.connect();
  try {
    return (await client.query<{ page: string }>(`SELECT page FROM analytics_events WHERE name = 'page_view' AND campaign = $1 ORDER BY id`, [campaign])).rows;
  } finally {
    await client.end();
  }
}

test('a prerendered page records no view while prerendered, and exactly one once the visitor goes to it', async () => {
  test.skip(Boolean(process.env.E2E_BASE_URL), 'reads the database of the local site');
  const run = runMark();
  const campaign = `prerender-${run}`;
  const target = `/faqs?utm_source=prerender&utm_medium=e2e&utm_campaign=${campaign}`;
  const proxy = await startProxy(target);
  const profile = mkdtempSync(join(tmpdir(), 'prerender-'));
  // A person's Chrome with a language (headless Chromium says it is headless and is counted as a bot,
  // and started without Playwright it sends no Accept-Language, without which a beacon is not counted).
  const agent = personAgent('prerender');
  const browser = spawn(
    testChromiumPath,
    [
      ...chromiumFlags,
      '--proxy-server=http://127.0.0.1:9',
      '--accept-lang=en-US',
      `--user-agent=${agent}`,
      `--user-data-dir=${profile}`,
      `${proxy.origin}/__prerender/start`,
    ],
    { stdio: 'ignore', detached: true },
  );
  const beacons = () => proxy.seen.filter((request) => request.method === 'POST' && request.path === '/api/event');
  try {
    // Chromium prerenders the FAQs: the document, and the page's load event runs while it is still prerendered.
    const prerendering = await Promise.race([proxy.load, new Promise<string>((resolve) => setTimeout(() => resolve('no load reported'), 20_000))]);
    const documents = proxy.seen.filter((request) => request.path === target);
    expect(documents, 'the FAQs were prerendered').toEqual([{ method: 'GET', path: target, purpose: 'prefetch;prerender', status: 200 }]);
    expect(prerendering, 'the load event ran while the page was prerendered').toBe('true');
    // Whatever the beacon's load handler sent has been sent before the report: give it time to be stored.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(beacons(), 'no beacon while prerendered').toEqual([]);
    expect(await recordedViews(campaign)).toEqual([]);

    // The visitor goes to the FAQs: the prerendered page is shown (its document is not fetched again).
    proxy.go();
    await expect.poll(() => beacons().filter((request) => request.status !== undefined).length, { message: 'the beacon once the page is shown' }).toBe(1);
    expect(beacons()[0]!.status).toBe(204);
    expect(beacons()[0]!.purpose, 'sent by the shown page, not the prerender').toBe('');
    expect(proxy.seen.filter((request) => request.path === target)).toHaveLength(1);
    expect(await recordedViews(campaign)).toEqual([{ page: '/faqs' }]);
    // And no second view follows.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(beacons()).toHaveLength(1);
    expect(await recordedViews(campaign)).toEqual([{ page: '/faqs' }]);
  } finally {
    if (browser.pid) process.kill(-browser.pid, 'SIGKILL');
    await proxy.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
