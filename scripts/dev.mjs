#!/usr/bin/env node
/**
 * `npm run dev`: the local database and MailDev (scripts/local-mail.mjs), then Astro's dev server.
 * The dev server serves pages only, not the functions (a POST to /.netlify/functions/… is a 404
 * there), so no scheduled run is ticked here: `npm start` runs the functions and their schedules.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalDatabase } from './local-database.mjs';
import { startLocalMailOrExit } from './local-mail.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const database = await startLocalDatabase();
const mail = await startLocalMailOrExit(database);
console.log(mail.webUrl ? `Mail (MailDev): ${mail.webUrl}` : `Mail goes out through ${mail.sender}.`);
const child = spawn(join(root, 'node_modules', '.bin', 'astro'), ['dev', ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, ...database.env, ...mail.env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await mail.stop().catch(() => undefined);
  await database.db.stop().catch(() => undefined);
  process.exit(code ?? 0);
});
