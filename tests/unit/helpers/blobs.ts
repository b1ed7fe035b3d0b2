/**
 * Netlify Blobs for function tests: the real local Blobs server from @netlify/blobs, in a
 * scratch folder, with the environment context the functions read. Its conditional writes are made
 * atomic and its reads give ETags, as Netlify's do (scripts/netlify-blobs-local.mjs).
 */
import '../../../scripts/netlify-blobs-local.mjs';
import { BlobsServer } from '@netlify/blobs/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestDatabase, type TestDatabase } from './database';

export interface LocalBlobs {
  directory: string;
  /** The test file's own migrated database (records moving off Blobs live there). */
  database: TestDatabase;
  stop(): Promise<void>;
}

export async function startLocalBlobs(): Promise<LocalBlobs> {
  const directory = mkdtempSync(join(tmpdir(), 'blobs-'));
  const token = 'local-blobs-token';
  const server = new BlobsServer({ directory, token, port: 0 });
  const [{ port }, database] = await Promise.all([server.start(), startTestDatabase()]);
  const url = `http://127.0.0.1:${port}`;
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(
    JSON.stringify({ edgeURL: url, uncachedEdgeURL: url, token, siteID: 'local-site' }),
  ).toString('base64');
  return {
    directory,
    database,
    async stop() {
      await Promise.all([server.stop(), database.stop()]);
      rmSync(directory, { recursive: true, force: true });
      delete process.env.NETLIFY_BLOBS_CONTEXT;
    },
  };
}
