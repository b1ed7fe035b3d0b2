/**
 * The local Netlify Database: Netlify's own emulation (@netlify/database-dev, PGlite behind the
 * Postgres wire protocol) with its data under .netlify/db, every migration of
 * netlify/database/migrations applied. `npm start`, `npm run dev` and the tests start it; the
 * functions reach it through NETLIFY_DB_URL with the server driver, as `getDatabase()` does on
 * Netlify with the connection it is given there.
 */
import { NetlifyDB } from '@netlify/database-dev';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedSampleSchools } from './sample-schools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const databaseDirectory = join(root, '.netlify', 'db');
export const migrationsDirectory = join(root, 'netlify', 'database', 'migrations');
/** Where a running local database leaves its URL, for `psql "$(cat .netlify/db.url)"` and the load test. */
export const databaseUrlFile = join(root, '.netlify', 'db.url');

/**
 * Netlify's emulation with TCP_NODELAY on each connection. The emulator writes an answer in several
 * small writes and never turns Nagle's algorithm off, so the last of them waited for the client's
 * delayed ACK: 40 ms more on every parameterised statement (tests/unit/local-database.test.ts).
 * Every local database (npm start, npm run dev, the tests, the benches) is made with this class.
 */
export class LocalNetlifyDB extends NetlifyDB {
  /** @param {import('node:net').Socket} socket */
  handleConnection(socket) {
    socket.setNoDelay(true);
    super.handleConnection(socket);
  }
}

/**
 * Starts the local database and applies the migrations, with the sample verified schools of the
 * local site (scripts/sample-schools.mjs; `samples: false` leaves them out); returns the
 * environment the functions need.
 */
export async function startLocalDatabase({ directory = databaseDirectory, log = console.log, samples = true } = {}) {
  const db = new LocalNetlifyDB({ directory, logger: () => undefined });
  const url = await db.start();
  const applied = await db.applyMigrations(migrationsDirectory);
  if (applied.length) log(`Local database: applied ${applied.join(', ')}`);
  if (samples) await seedSampleSchools(db);
  mkdirSync(dirname(databaseUrlFile), { recursive: true });
  writeFileSync(databaseUrlFile, `${url}\n`);
  return { db, url, env: { NETLIFY_DB_URL: url, NETLIFY_DB_DRIVER: 'server' } };
}

/** Deletes the local database's data (the next start makes it anew). */
export function resetLocalDatabase(directory = databaseDirectory) {
  rmSync(directory, { recursive: true, force: true });
}
