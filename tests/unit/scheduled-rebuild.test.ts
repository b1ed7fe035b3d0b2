import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { triggerRebuild } from '../../netlify/functions/scheduled-rebuild.mts';
import { config } from '../../netlify/functions/scheduled-rebuild.mts';

let server: Server;
let url: string;
const hits: Array<{ method?: string; path?: string }> = [];
let answer = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({ method: req.method, path: req.url });
    res.writeHead(answer).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/build_hooks/abc123`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('scheduled rebuild', () => {
  test('runs hourly', () => {
    expect(config.schedule).toBe('@hourly');
  });

  test('posts to the build hook when it is set', async () => {
    answer = 200;
    hits.length = 0;
    const response = await triggerRebuild(url);
    expect(await response.json()).toEqual({ triggered: true });
    expect(hits).toEqual([{ method: 'POST', path: '/build_hooks/abc123' }]);
  });

  test('logs that it is not configured without a hook, and calls nothing', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const fetchSpy = vi.fn();
    const response = await triggerRebuild(undefined, fetchSpy as unknown as typeof fetch);
    expect(await response.json()).toEqual({ triggered: false, reason: 'not_configured' });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(log.mock.calls.flat().join(' ')).toMatch(/BUILD_HOOK_URL is not configured/);
    log.mockRestore();
  });

  test.each([
    [500, 'hook_failed'],
    [404, 'hook_failed'],
  ])('reports a hook answering %i without leaking the URL', async (status, reason) => {
    answer = status;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await triggerRebuild(url);
    expect(response.status).toBe(502);
    expect((await response.json()).reason).toBe(reason);
    expect(error.mock.calls.flat().join(' ')).not.toContain('abc123');
    error.mockRestore();
  });

  test('reports an unreachable hook', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await triggerRebuild('http://127.0.0.1:9/build_hooks/secret');
    expect((await response.json()).reason).toBe('unreachable');
    expect(error.mock.calls.flat().join(' ')).not.toContain('secret');
    error.mockRestore();
  });
});
