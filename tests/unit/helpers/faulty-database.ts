/**
 * Netlify Database that fails on demand: Netlify's local emulation (@netlify/database-dev) behind
 * a loopback TCP proxy that reads the Postgres protocol the functions speak, with NETLIFY_DB_URL
 * pointing at the proxy. The proxy passes statements through until told to fail them, all of them
 * or from the Nth write on:
 *  - `refuse`: the connection is cut as the statement arrives; the database never runs it;
 *  - `lose-answer`: the statement runs (and commits), then the connection is cut before its answer
 *    reaches the function, which cannot tell whether it happened.
 * The test reads and writes the database directly, past the proxy, to see what was written.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { closeDatabase } from '../../../src/server/db';
import { snapshotTables, startMigratedDatabase } from './database';

export type FaultKind = 'refuse' | 'lose-answer';

export interface Statement {
  text: string;
  write: boolean;
}

export interface FaultRule {
  how: FaultKind;
  /** Failing starts once this many writes have passed; at once when omitted. */
  afterWrites?: number;
  /** Once failing, only the statements this picks fail (all of them when omitted). */
  only?: (statement: Statement) => boolean;
}

export interface FaultyDatabase {
  /** Statements that reached the proxy since the last `clearLog()`, failed ones included. */
  readonly statements: Statement[];
  readonly failed: Statement[];
  fail(rule: FaultRule): void;
  heal(): void;
  clearLog(): void;
  /** A query run directly against the database, past the proxy. */
  direct<Row>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Every row of every table, read past the proxy, as sorted `table: {json}` lines. */
  snapshot(): Promise<string[]>;
  /** Points the functions at a loopback port nobody listens on, until `reconnect()`. */
  pointAtClosedPort(): Promise<void>;
  reconnect(): void;
  stop(): Promise<void>;
}

const isWriteStatement = (text: string) => /\b(INSERT|UPDATE|DELETE)\b/i.test(text);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** The SQL of a frontend message: `Q` (simple query) or `P` (parse: name, then the query). */
function sqlOf(type: number, body: Buffer): string | undefined {
  if (type === 0x51) return body.toString('utf8', 0, Math.max(0, body.indexOf(0)));
  if (type === 0x50) {
    const nameEnd = body.indexOf(0);
    const queryEnd = body.indexOf(0, nameEnd + 1);
    return body.toString('utf8', nameEnd + 1, queryEnd);
  }
  return undefined;
}

export async function startFaultyDatabase(): Promise<FaultyDatabase> {
  const { db, url: directUrl, remove } = await startMigratedDatabase();
  const target = Number(new URL(directUrl).port);

  let rule: FaultRule | undefined;
  let writesPassed = 0;
  const statements: Statement[] = [];
  const failed: Statement[] = [];
  const sockets = new Set<Socket>();

  const proxy = createServer((client) => {
    sockets.add(client);
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    sockets.add(upstream);
    let started = false;
    let pending = Buffer.alloc(0);
    /** Set when this connection's next answer must be lost. */
    let loseAnswer = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', cut);
    upstream.on('error', cut);
    upstream.on('data', (chunk) => {
      if (loseAnswer) cut();
      else client.write(chunk);
    });
    client.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      const forward: Buffer[] = [];
      for (;;) {
        if (!started) {
          // The startup message (or an SSL request) has a length and no type byte.
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          forward.push(pending.subarray(0, length));
          pending = pending.subarray(length);
          const code = length >= 8 ? forward.at(-1)!.readInt32BE(4) : 0;
          if (code !== 80877103) started = true;
          continue;
        }
        if (pending.length < 5) break;
        const type = pending[0]!;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) break;
        const message = pending.subarray(0, length + 1);
        pending = pending.subarray(length + 1);
        const text = sqlOf(type, message.subarray(5));
        if (text !== undefined) {
          const statement = { text, write: isWriteStatement(text) };
          statements.push(statement);
          const failing = rule && writesPassed >= (rule.afterWrites ?? 0) && (!rule.only || rule.only(statement));
          if (rule && failing) {
            failed.push(statement);
            if (rule.how === 'refuse') {
              cut();
              return;
            }
            loseAnswer = true;
          } else if (statement.write) writesPassed++;
        }
        forward.push(message);
      }
      if (forward.length) upstream.write(Buffer.concat(forward));
    });
  });
  const proxyUrl = `postgres://postgres@127.0.0.1:${await listen(proxy)}/postgres`;
  const useUrl = async (url: string) => {
    // The functions' pools are per connection string: a new one is opened on the next query.
    await closeDatabase();
    process.env.NETLIFY_DB_URL = url;
    process.env.NETLIFY_DB_DRIVER = 'server';
  };
  await useUrl(proxyUrl);

  return {
    statements,
    failed,
    fail(next) {
      rule = next;
      writesPassed = 0;
    },
    heal() {
      rule = undefined;
    },
    clearLog() {
      statements.length = 0;
      failed.length = 0;
    },
    async direct<Row>(text: string, params?: unknown[]) {
      return (await db.query<Row>(text, params)).rows;
    },
    snapshot() {
      return snapshotTables(db);
    },
    async pointAtClosedPort() {
      const probe = createServer();
      const port = await listen(probe);
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      await useUrl(`postgres://postgres@127.0.0.1:${port}/postgres`);
    },
    reconnect() {
      process.env.NETLIFY_DB_URL = proxyUrl;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await closeDatabase();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await db.stop();
      remove();
      delete process.env.NETLIFY_DB_URL;
      delete process.env.NETLIFY_DB_DRIVER;
    },
  };
}
