/**
 * Netlify Database for function tests: Netlify's own local emulation (@netlify/database-dev,
 * PGlite behind the Postgres wire protocol), in memory, one per test file, with every migration
 * of netlify/database/migrations applied. The functions reach it as they do under `npm start`,
 * through NETLIFY_DB_URL with the server driver.
 */
import { LocalNetlifyDB, migrationsDirectory } from '../../../scripts/local-database.mjs';
import { closeDatabase } from '../../../src/server/db';

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

export async function startTestDatabase(): Promise<TestDatabase> {
  const db = new LocalNetlifyDB({ logger: () => undefined });
  const url = await db.start();
  await db.applyMigrations(migrationsDirectory);
  process.env.NETLIFY_DB_URL = url;
  process.env.NETLIFY_DB_DRIVER = 'server';
  return {
    url,
    db,
    async truncate() {
      const tables = await tableNames(db);
      if (tables.length) await db.exec(`TRUNCATE ${tables.map((name) => `"${name}"`).join(', ')} CASCADE`);
    },
    async snapshot(except = []) {
      const lines: string[] = [];
      for (const table of await tableNames(db)) {
        if (except.includes(table)) continue;
        const { rows } = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table}" t`);
        lines.push(...rows.map(({ row }) => `${table}: ${row}`));
      }
      return lines.sort();
    },
    async stop() {
      await closeDatabase();
      await db.stop();
      delete process.env.NETLIFY_DB_URL;
      delete process.env.NETLIFY_DB_DRIVER;
    },
  };
}
