#!/usr/bin/env node
/**
 * `npm run edit`: the content editor on this checkout. Starts Decap's local backend (decap-server:
 * a save in the editor writes the files under content/ and public/media of this working tree) and
 * the Astro dev server, prints the editor's URL, and stops both on Ctrl+C.
 *
 * PORT (default 4321) is the dev server's port, DECAP_SERVER_PORT (default 8081) decap-server's.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Run with this Node (24 under npm run), whatever `node` is first on the PATH.
const bin = (name) => join(root, 'node_modules', '.bin', name);

function portFrom(name, fallback) {
  const port = Number(process.env[name] || fallback);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`${name} must be a port number, got "${process.env[name]}".`);
    process.exit(1);
  }
  return port;
}

const port = portFrom('PORT', 4321);
const backendPort = portFrom('DECAP_SERVER_PORT', 8081);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', DECAP_SERVER_PORT: String(backendPort) };

const children = new Set();
let stopping = false;

function stop(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) child.kill('SIGTERM');
}

function start(name, command, args, extraEnv) {
  const child = spawn(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    // One of the two gone means the editor no longer works: stop the other as well.
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the editor.`);
      stop(code || 1);
    }
    if (children.size === 0) process.exit(process.exitCode ?? 0);
  });
  return child;
}

// decap-server's API reads and writes files without authentication: loopback only.
const backend = start('decap-server', process.execPath, [bin('decap-server')], {
  PORT: String(backendPort),
  BIND_HOST: '127.0.0.1',
  MODE: 'fs',
  GIT_REPO_DIRECTORY: root,
});
backend.stdout.pipe(process.stdout);

// Astro moves to the next free port when PORT is taken: the URL it prints is the one to open.
const dev = start('astro dev', process.execPath, [bin('astro'), 'dev', '--port', String(port)], {});
let announced = false;
dev.stdout.on('data', (chunk) => {
  const text = chunk.toString();
  process.stdout.write(text);
  const local = !announced && text.replace(/\x1b\[[0-9;]*m/g, '').match(/Local\s+(http:\/\/\S+?)\/?\s/);
  if (local) {
    announced = true;
    console.log(`\nContent editor: ${local[1]}/content-editor (saves go to the files of ${root})\nCtrl+C stops it.\n`);
  }
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
