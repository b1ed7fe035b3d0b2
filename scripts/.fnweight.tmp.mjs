import { build } from 'esbuild';
import { readdirSync, mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
const out = '/work/main/.fnweight';
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
const names = readdirSync('netlify/functions').filter((f) => f.endsWith('.mts')).map((f) => f.slice(0, -4)).filter((n) => !only.length || only.includes(n));
await build({ entryPoints: names.map((n) => `netlify/functions/${n}.mts`), bundle: true, platform: 'node', format: 'esm', packages: 'external', outdir: out, outExtension: { '.js': '.mjs' }, logLevel: 'error', loader: { '.json': 'json' } });
const rows = [];
for (const name of names) {
  const entry = pathToFileURL(`${out}/${name}.mjs`).href;
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await new Promise((res, rej) => { const w = new Worker(`import(${JSON.stringify(entry)}).then(()=>process.exit(0),(e)=>{console.error(String(e));process.exit(1)})`, { eval: true }); w.on('exit', res); w.on('error', rej); });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  rows.push([name, Math.round(times[1])]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [n, t] of rows) console.log(String(t).padStart(6), n);
