/**
 * Starts `npm start` on a free port for a bench part and stops it afterwards. BENCH_STATIC=<dir>
 * serves a built site's files instead (no functions): on a shared machine, packaging the
 * functions takes many minutes, and a static page's first paint needs none of them.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCompressingProxy } from './_compress.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
};

/** A built site's files on `port`, as Netlify maps its paths (`/faqs` is faqs.html). */
function serveStatic(dir, port) {
  const base = resolve(root, dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (path === '/api/health') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    const file = normalize(join(base, path === '/' ? 'index.html' : extname(path) ? path : `${path}.html`));
    if (!file.startsWith(base)) return res.writeHead(403).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(await readFile(join(base, '404.html')).catch(() => 'Not found'));
    }
  });
  return new Promise((done) => server.listen(port, () => done(server)));
}

export async function withServer(port, body, { maxInFlight } = {}) {
  // Like Netlify's CDN, the measured origin answers compressed (BENCH_COMPRESS=0 measures it raw).
  const compress = process.env.BENCH_COMPRESS !== '0';
  // BENCH_ORIGIN_PORT with BENCH_REUSE=1: measure an `npm start` already running on that port
  // (on a shared machine, packaging the functions again for every part takes minutes).
  const reuse = process.env.BENCH_REUSE === '1' && process.env.BENCH_ORIGIN_PORT;
  const originPort = compress || reuse ? Number(process.env.BENCH_ORIGIN_PORT || port + 1) : port;
  const base = `http://localhost:${compress || !reuse ? port : originPort}`;
  const proxy = compress ? await startCompressingProxy(port, originPort, { maxInFlight }) : undefined;
  const staticServer = process.env.BENCH_STATIC ? await serveStatic(process.env.BENCH_STATIC, originPort) : undefined;
  const child =
    reuse || staticServer
      ? undefined
      : spawn('node', [join(root, 'scripts', 'start.mjs')], {
          cwd: root,
          // SITE_URL: the site's own origin, as browsers name it in Origin headers, is the proxy's.
          env: {
            ...process.env,
            PORT: String(originPort),
            SITE_URL: process.env.SITE_URL || base,
            ADMIN_PASSWORD: process.env.ADMIN_PASSWORD || 'bench-admin-password',
          },
          stdio: ['ignore', 'ignore', 'inherit'],
          detached: true,
        });
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      try {
        const response = await fetch(`${base}/api/health`);
        if (response.ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) throw new Error('the server did not start within 10 minutes (packaging the functions takes 3-7)');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return await body(base);
  } finally {
    proxy?.close();
    staticServer?.close();
    try {
      if (child) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** Prints rows as a Markdown table. */
export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(headers));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}
