/**
 * Netlify Database for function tests: Netlify's own local emulation (@netlify/database-dev,
 * PGlite behind the Postgres wire protocol), one per test file, with every migration of
 * netlify/database/migrations applied (a copy of a migrated template, below). The functions reach
 * it as they do under `npm start`, through NETLIFY_DB_URL with the server driver.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalNetlifyDB, migrationsDirectory } from '../../../scripts/local-database.mjs';
import { closeDatabase } from '../../../src/server/db';
import { forgetRunningExperiments } from '../../../src/server/analytics/experiments';
import { forgetCachedSalts } from '../../../src/server/analytics/visitor';

const root = join(import.meta.dirname, '..', '..', '..');
const templates = join(root, 'node_modules', '.cache', 'test-database');

/** Names the migrated template: the migrations as they are, and the installed PGlite and emulator (package-lock.json). */
function templateKey(): string {
  const hash = createHash('sha256').update(readFileSync(join(root, 'package-lock.json')));
  for (const name of readdirSync(migrationsDirectory).sort()) hash.update(name).update(readFileSync(join(migrationsDirectory, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A data directory with every migration applied, made once per set of migrations and copied for
 * each test database: Postgres's initdb and the migrations cost 2-5 s of CPU per test file, a copy
 * about 0.1 s. Two workers may make it at once; the first rename wins and the other is dropped.
 */
async function migratedTemplate(): Promise<string> {
  const key = templateKey();
  const template = join(templates, key);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  mkdirSync(templates, { recursive: true });
  const scratch = mkdtempSync(join(templates, 'making-'));
  const db = new LocalNetlifyDB({ directory: scratch, logger: () => undefined });
  await db.start();
  await db.applyMigrations(migrationsDirectory);
  await db.stop();
  try {
    renameSync(scratch, template);
    for (const name of readdirSync(templates)) if (name !== key && !name.startsWith('making-')) rmSync(join(templates, name), { recursive: true, force: true });
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
  return template;
}

/**
 * The local emulation on a fresh copy of the migrated template, its migrations applied (none left
 * to apply unless the template is stale); `remove()` after `db.stop()` deletes the copy.
 */
export async function startMigratedDatabase(): Promise<{ db: LocalNetlifyDB; url: string; remove(): void }> {
  const directory = mkdtempSync(join(tmpdir(), 'test-database-'));
  cpSync(await migratedTemplate(), directory, { recursive: true });
  const db = new LocalNetlifyDB({ directory, logger: () => undefined });
  const url = await db.start();
  await db.applyMigrations(migrationsDirectory);
  return { db, url, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

export interface TestDatabase {
  url: string;
  db: LocalNetlifyDB;
  /** Empties every table (the schema stays). */
  truncate(): Promise<void>;
  /** Every row of every table but those named, as `table: {json}` lines, sorted: what a request wrote. */
  snapshot(except?: string[]): Promise<string[]>;
  stop(): Promise<void>;
}

async function tableNames(db: LocalNetlifyDB): Promise<string[]> {
  const { rows } = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rows.map((row) => row.tablename);
}

/**
 * Every row of every table but those named, as sorted `table: {json}` lines, read in one statement:
 * a SELECT per table cost PGlite about 5 ms of CPU each, 0.23 s a snapshot of ~50 tables; one
 * UNION ALL of them all costs about 0.03 s and reads the same rows.
 */
export async function snapshotTables(db: LocalNetlifyDB, except: string[] = []): Promise<string[]> {
  const tables = (await tableNames(db)).filter((table) => !except.includes(table));
  if (!tables.length) return [];
  const { rows } = await db.query<{ line: string }>(
    tables
      .map((table) => `SELECT '${table.replaceAll("'", "''")}: ' || row_to_json(t)::text AS line FROM "${table.replaceAll('"', '""')}" t`)
      .join(' UNION ALL '),
  );
  return rows.map(({ line }) => line).sort();
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const { db, url, remove } = await startMigratedDatabase();
  process.env.NETLIFY_DB_URL = url;
  process.env.NETLIFY_DB_DRIVER = 'server';
  // A new database under modules an earlier file of the worker loaded (vitest.config.ts,
  // `isolate: false`): the day's salt and the running experiments they keep are that file's
  // database's, not this one's.
  forgetCachedSalts();
  forgetRunningExperiments();
  return {
    url,
    db,
    async truncate() {
      // DELETE, not TRUNCATE: PGlite writes new files for each of the ~50 tables and their indexes
      // on a TRUNCATE (about 0.45 s, before every test), and deletes the few rows a test wrote in
      // about 0.03 s. Foreign keys are not checked meanwhile (replica role), so the order is free;
      // nothing else runs on the database between two tests.
      const tables = await tableNames(db);
      if (tables.length) {
        await db.exec(
          `SET session_replication_role = replica; ${tables.map((name) => `DELETE FROM "${name}";`).join(' ')} SET session_replication_role = DEFAULT;`,
        );
      }
      // The day's salt went with analytics_salts: the instance must not keep hashing with it; nor
      // keep the experiments that ran.
      forgetCachedSalts();
      forgetRunningExperiments();
    },
    snapshot(except = []) {
      return snapshotTables(db, except);
    },
    async stop() {
      await closeDatabase();
      await db.stop();
      remove();
      delete process.env.NETLIFY_DB_URL;
      delete process.env.NETLIFY_DB_DRIVER;
    },
  };
}
