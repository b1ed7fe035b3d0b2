/** Starts `npm start` on a free port for a bench part and stops it afterwards. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCompressingProxy } from './_compress.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function withServer(port, body, { maxInFlight } = {}) {
  const base = `http://localhost:${port}`;
  // Like Netlify's CDN, the measured origin answers compressed (BENCH_COMPRESS=0 measures it raw).
  const compress = process.env.BENCH_COMPRESS !== '0';
  const originPort = compress ? Number(process.env.BENCH_ORIGIN_PORT || port + 1) : port;
  const proxy = compress ? await startCompressingProxy(port, originPort, { maxInFlight }) : undefined;
  const child = spawn('node', [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    // SITE_URL: the site's own origin, as browsers name it in Origin headers, is the proxy's.
    env: { ...process.env, PORT: String(originPort), SITE_URL: process.env.SITE_URL || base, ADMIN_PASSWORD: process.env.ADMIN_PASSWORD || 'bench-admin-password' },
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
    try {
      process.kill(-child.pid, 'SIGTERM');
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
