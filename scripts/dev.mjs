#!/usr/bin/env node
/** `npm run dev`: the local database, then Astro's dev server (functions through @netlify/vite-plugin). */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalDatabase } from './local-database.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const database = await startLocalDatabase();
const child = spawn(join(root, 'node_modules', '.bin', 'astro'), ['dev', ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, ...database.env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await database.db.stop().catch(() => undefined);
  process.exit(code ?? 0);
});
