/**
 * Netlify Blobs that fail on demand: the real local Blobs server behind a loopback proxy, with
 * NETLIFY_BLOBS_CONTEXT pointing at the proxy. The proxy passes requests through until told to
 * fail them (an HTTP 503 or a dropped connection), all of them or those a rule picks, from a
 * chosen request on. The test reads the store directly, past the proxy, to see what was written.
 */
import { getStore } from '@netlify/blobs';
import '../../../scripts/netlify-blobs-local.mjs';
import { BlobsServer } from '@netlify/blobs/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every store the functions use (StoreName in src/server/store.ts). */
export const STORE_NAMES = ['nominations', 'outbox', 'webhook-configs', 'webhook-logs', 'hubspot-configs', 'sessions', 'rate-limits', 'subscriptions'] as const;

export interface BlobsRequest {
  method: string;
  store: string;
  key: string;
  /** A write with onlyIfNew or onlyIfMatch. */
  conditional: boolean;
}

export type FaultKind = 'http-503' | 'drop';

export interface FaultRule {
  how: FaultKind;
  /** Failing starts once this many writes (PUT or DELETE) have passed; at once when omitted. */
  afterWrites?: number;
  /** Once failing, only the requests this picks fail (all of them when omitted). */
  only?: (request: BlobsRequest) => boolean;
}

export const isWrite = (request: BlobsRequest) => request.method === 'PUT' || request.method === 'DELETE';

export interface FaultyBlobs {
  /** Requests that reached the proxy since the last `clearLog()`, failed ones included. */
  readonly requests: BlobsRequest[];
  readonly failed: BlobsRequest[];
  fail(rule: FaultRule): void;
  heal(): void;
  clearLog(): void;
  /** Every blob of every store, read past the proxy: `store/key` to its text. */
  snapshot(): Promise<Map<string, string>>;
  /** One store, read and written past the proxy (for setting up and checking state). */
  direct(name: (typeof STORE_NAMES)[number]): ReturnType<typeof getStore>;
  /** Points the functions at a loopback port nobody listens on, until `reconnect()`. */
  pointAtClosedPort(): Promise<void>;
  reconnect(): void;
  stop(): Promise<void>;
}

const SITE_ID = 'local-site';
const TOKEN = 'local-blobs-token';

function context(url: string): string {
  return Buffer.from(JSON.stringify({ edgeURL: url, uncachedEdgeURL: url, token: TOKEN, siteID: SITE_ID })).toString('base64');
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function classify(method: string, rawUrl: string, headers: Record<string, string | string[] | undefined>): BlobsRequest {
  const path = decodeURIComponent(new URL(rawUrl, 'http://proxy').pathname);
  // /{siteID}/site:{store}/{key…}; a listing has no key.
  const [, , storePart = '', ...key] = path.split('/');
  return {
    method: method.toUpperCase(),
    store: storePart.replace(/^site:/, ''),
    key: key.join('/'),
    conditional: Boolean(headers['if-none-match'] || headers['if-match']),
  };
}

export async function startFaultyBlobs(): Promise<FaultyBlobs> {
  const directory = mkdtempSync(join(tmpdir(), 'blobs-faults-'));
  const server = new BlobsServer({ directory, token: TOKEN, port: 0 });
  const { port: target } = await server.start();
  const directUrl = `http://127.0.0.1:${target}`;

  let rule: FaultRule | undefined;
  let writesPassed = 0;
  const requests: BlobsRequest[] = [];
  const failed: BlobsRequest[] = [];

  const proxy = createServer((req, res) => {
    const seen = classify(req.method ?? 'GET', req.url ?? '/', req.headers);
    requests.push(seen);
    const failing = rule && writesPassed >= (rule.afterWrites ?? 0) && (!rule.only || rule.only(seen));
    if (rule && failing) {
      failed.push(seen);
      if (rule.how === 'drop') {
        req.socket.destroy();
        return;
      }
      req.resume();
      res.writeHead(503, { 'content-type': 'text/plain' }).end('blobs unavailable (test fault)');
      return;
    }
    if (isWrite(seen)) writesPassed++;
    const upstream = forward({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  process.env.NETLIFY_BLOBS_CONTEXT = context(proxyUrl);

  const direct = (name: (typeof STORE_NAMES)[number]) =>
    getStore({ name, siteID: SITE_ID, token: TOKEN, edgeURL: directUrl, uncachedEdgeURL: directUrl, consistency: 'strong' });

  return {
    requests,
    failed,
    fail(next) {
      rule = next;
      writesPassed = 0;
    },
    heal() {
      rule = undefined;
    },
    clearLog() {
      requests.length = 0;
      failed.length = 0;
    },
    async snapshot() {
      const all = new Map<string, string>();
      for (const name of STORE_NAMES) {
        const store = direct(name);
        const { blobs } = await store.list();
        for (const { key } of blobs) all.set(`${name}/${key}`, (await store.get(key, { type: 'text' })) ?? '');
      }
      return all;
    },
    direct,
    async pointAtClosedPort() {
      const probe = createServer();
      const port = await listen(probe);
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      process.env.NETLIFY_BLOBS_CONTEXT = context(`http://127.0.0.1:${port}`);
    },
    reconnect() {
      process.env.NETLIFY_BLOBS_CONTEXT = context(proxyUrl);
    },
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
      delete process.env.NETLIFY_BLOBS_CONTEXT;
    },
  };
}
