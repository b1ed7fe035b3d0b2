#!/usr/bin/env node
/**
 * `npm start`: builds the site and serves the production build the way Netlify does (static
 * files, netlify.toml headers and redirects, functions) on http://localhost:${PORT:-8888},
 * with the local Netlify Database (scripts/local-database.mjs) started first and migrated, MailDev
 * catching every email unless another sender is configured (scripts/local-mail.mjs), and the
 * scheduled functions run on their schedules (scripts/local-schedule.mjs).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalDatabase } from './local-database.mjs';
import { startLocalMailOrExit } from './local-mail.mjs';
import { chosenFunctions, startTicker } from './local-schedule.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.PORT || 8888);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}".`);
  process.exit(1);
}

/** A local admin password, generated once and kept in .netlify/ so restarts keep it. */
function localAdminPassword() {
  const file = join(root, '.netlify', 'local-admin-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(12).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** A local key for the admin page's stored tokens, generated once like the password. */
function localEncryptionKey() {
  const file = join(root, '.netlify', 'local-config-encryption-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

const env = {
  ...process.env,
  BROWSER: 'none',
  ASTRO_TELEMETRY_DISABLED: '1',
  NETLIFY_TELEMETRY_DISABLED: '1',
  SITE_URL: process.env.SITE_URL || `http://localhost:${port}`,
  // netlify serve runs every function call in a fresh worker thread (a cold start each time);
  // V8's default 16 MB young generation per worker took ~80 MB a call and ran the process out of
  // memory at 50 concurrent calls. A small one keeps 50 in flight at ~1.4 GB, and is faster.
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=2'].filter(Boolean).join(' '),
  // A function's instance stays warm between calls, as on Netlify, instead of a cold start on each
  // (0.3-0.7 s of CPU a call; scripts/local-functions/warm-pool.mjs). LOCAL_WARM_FUNCTIONS=0 turns it off.
  LOCAL_WARM_FUNCTIONS: process.env.LOCAL_WARM_FUNCTIONS || '1',
};
const generatedPassword = !process.env.ADMIN_PASSWORD && !process.env.ADMIN_PASSWORD_HASH;
if (generatedPassword) {
  env.ADMIN_PASSWORD = localAdminPassword();
  env.ADMIN_PASSWORD_GENERATED = '1';
}

if (!process.env.CONFIG_ENCRYPTION_KEY) env.CONFIG_ENCRYPTION_KEY = localEncryptionKey();

/** A port nothing holds, for the static server behind netlify serve (another checkout's may hold any fixed one). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address();
      server.close(() => resolve(free));
    });
  });
}

// Checked before anything starts, so a wrong LOCAL_SCHEDULE fails at once.
const scheduled = chosenFunctions();
// netlify serve does not start the local database: it runs here, in this process, for as long as the site.
const database = await startLocalDatabase();
Object.assign(env, database.env);
const mail = await startLocalMailOrExit(database);
Object.assign(env, mail.env);

const netlify = join(root, 'node_modules', '.bin', 'netlify');
const staticServerPort = process.env.STATIC_SERVER_PORT || String(await freePort());
const child = spawn(netlify, ['serve', '--offline', '--port', String(port), '--staticServerPort', staticServerPort], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});

let announced = false;
let ticker;
child.stdout.on('data', (chunk) => {
  const text = chunk.toString();
  // Netlify's own banner tries to open a browser inside a container; keep its output, drop that noise.
  process.stdout.write(text.replace(/Error: Unable to open browser automatically.*\n?/g, ''));
  if (!announced && text.includes('Local dev server ready')) {
    announced = true;
    const user = process.env.ADMIN_USERNAME || 'admin';
    console.log(`\nThe site is running at http://localhost:${port}`);
    console.log(mail.webUrl ? `Mail it sends (MailDev): ${mail.webUrl}` : `Mail goes out through ${mail.sender}.`);
    ticker = startTicker(`http://localhost:${port}`, scheduled);
    if (generatedPassword) console.log(`Admin page: http://localhost:${port}/webhook-config (user "${user}", password "${env.ADMIN_PASSWORD}")`);
  }
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', async (code, signal) => {
  ticker?.stop();
  await mail.stop().catch(() => undefined);
  await database.db.stop().catch(() => undefined);
  process.exit(code ?? (signal ? 1 : 0));
});
