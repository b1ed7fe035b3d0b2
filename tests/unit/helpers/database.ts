/**
 * Netlify Database for function tests: Netlify's own local emulation (@netlify/database-dev,
 * PGlite behind the Postgres wire protocol), in memory, one per test file, with every migration
 * of netlify/database/migrations applied. The functions reach it as they do under `npm start`,
 * through NETLIFY_DB_URL with the server driver.
 */
import { NetlifyDB } from '@netlify/database-dev';
import { join } from 'node:path';
import { closeDatabase } from '../../../src/server/db';

export const migrationsDirectory = join(import.meta.dirname, '..', '..', '..', 'netlify', 'database', 'migrations');

export interface TestDatabase {
  url: string;
  db: NetlifyDB;
  /** Empties every table (the schema stays). */
  truncate(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const db = new NetlifyDB({ logger: () => undefined });
  const url = await db.start();
  await db.applyMigrations(migrationsDirectory);
  process.env.NETLIFY_DB_URL = url;
  process.env.NETLIFY_DB_DRIVER = 'server';
  return {
    url,
    db,
    async truncate() {
      const { rows } = await db.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '\\_netlify%'`);
      const tables = rows.map((row) => row.tablename).filter((name) => !name.startsWith('netlify_'));
      if (tables.length) await db.exec(`TRUNCATE ${tables.map((name) => `"${name}"`).join(', ')} CASCADE`);
    },
    async stop() {
      await closeDatabase();
      await db.stop();
      delete process.env.NETLIFY_DB_URL;
      delete process.env.NETLIFY_DB_DRIVER;
    },
  };
}
