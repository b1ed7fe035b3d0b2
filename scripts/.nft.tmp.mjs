import { build } from 'esbuild';
import { nodeFileTrace } from '@vercel/nft';
const name = process.argv[2];
await build({ entryPoints: [`netlify/functions/${name}.mts`], bundle: true, platform: 'node', format: 'esm', packages: 'external', outdir: '.fnweight', outExtension: { '.js': '.mjs' }, logLevel: 'error' });
const t = performance.now();
const { fileList } = await nodeFileTrace([`.fnweight/${name}.mjs`], { base: process.cwd() });
const files = [...fileList];
const byPkg = new Map();
for (const f of files) { const m = f.match(/node_modules\/((@[^/]+\/)?[^/]+)/); const k = m ? m[1] : 'local'; byPkg.set(k, (byPkg.get(k) || 0) + 1); }
console.log(name, 'files', files.length, 'ms', Math.round(performance.now() - t));
console.log([...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k}:${v}`).join(' '));
