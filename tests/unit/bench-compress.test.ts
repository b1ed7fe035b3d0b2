import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { allowed } from './helpers/time';
import { startCompressingProxy } from '../../scripts/bench/_compress.mjs';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function listen(server: Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function fetchText(port: number, path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'identity' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe("the bench's compressing proxy", () => {
  it('keeps serving after a page went away before its answer came (it used to stop the bench)', async () => {
    let answerSlow: (() => void) | undefined;
    const originPort = await listen(
      createServer((req, res) => {
        const send = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
        if (req.url === '/slow') answerSlow = send;
        else send();
      }),
    );
    const proxy: Server = await startCompressingProxy(0, originPort);
    servers.push(proxy);
    const { port } = proxy.address() as AddressInfo;

    // A request whose client hangs up while the origin is still working on it.
    const gone = get({ host: '127.0.0.1', port, path: '/slow' });
    gone.on('error', () => {});
    await expect.poll(() => answerSlow !== undefined).toBe(true);
    gone.destroy();
    // (The proxy hears of the hang-up within a few milliseconds; more when the machine is starved.)
    await new Promise((resolve) => setTimeout(resolve, allowed(50)));
    answerSlow?.();

    const next = await fetchText(port, '/next');
    expect(next.status).toBe(200);
    expect(next.body.toString()).toBe('<p>page</p>');
  });
});
