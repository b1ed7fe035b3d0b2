/**
 * `npm install` patches netlify-cli's local server (scripts/patch-netlify-cli.mjs): a function's 403
 * or 404 is not retried as four static paths, and with LOCAL_WARM_FUNCTIONS=1 (scripts/start.mjs) a
 * function's instance stays warm between calls (scripts/local-functions/warm-pool.mjs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MARK,
  ORIGINAL,
  POOL_URL,
  PROXY_FILE,
  RUNTIME_FILE,
  RUNTIME_MARK,
  RUNTIME_ORIGINAL,
  patchProxySource,
  patchRuntimeSource,
} from '../../scripts/patch-netlify-cli.mjs';
import { allowed } from './helpers/time';

describe('netlify-cli patch: a function answers once', () => {
  it('is applied to the installed netlify-cli (npm install runs it)', () => {
    const source = readFileSync(PROXY_FILE, 'utf8');
    expect(source).toContain(MARK);
    expect(source).not.toContain(ORIGINAL);
    // The patched line skips the static-path retries only for requests routed to a function.
    expect(source).toMatch(/options\?\.headers\?\.\[NFFunctionName\] \? \[\] : alternativePathsFor/);
  });

  it('is idempotent, and leaves a proxy it does not recognise alone', () => {
    const once = patchProxySource(`import { NFFunctionName } from './headers.js';\n${ORIGINAL}\n`);
    expect(once).toContain(MARK);
    expect(patchProxySource(once)).toBe(once);
    expect(patchProxySource('export const somethingElse = 1;')).toBeUndefined();
  });
});

describe('netlify-cli patch: warm function instances', () => {
  const runtime = `export const invokeFunction = async ({ context }) => {\n    ${RUNTIME_ORIGINAL}\n        workerData,\n    });\n};\n`;

  it('is applied to the installed netlify-cli, pointing at this checkout’s pool', () => {
    const source = readFileSync(RUNTIME_FILE, 'utf8');
    expect(source).toContain(RUNTIME_MARK);
    expect(source).toContain(JSON.stringify(POOL_URL));
    expect(source).not.toMatch(/^\s*const worker = new Worker\(workerURL, \{/m);
  });

  it('is idempotent, follows the checkout when it moves, and leaves a runtime it does not recognise alone', () => {
    const once = patchRuntimeSource(runtime)!;
    expect(once).toContain(RUNTIME_MARK);
    expect(patchRuntimeSource(once)).toBe(once);
    const elsewhere = once.replace(POOL_URL, 'file:///old/checkout/scripts/local-functions/warm-pool.mjs');
    expect(patchRuntimeSource(elsewhere)).toBe(once);
    expect(patchRuntimeSource('export const somethingElse = 1;')).toBeUndefined();
  });

  describe('the patched runtime', () => {
    const saved = process.env.LOCAL_WARM_FUNCTIONS;
    afterEach(() => {
      if (saved === undefined) delete process.env.LOCAL_WARM_FUNCTIONS;
      else process.env.LOCAL_WARM_FUNCTIONS = saved;
    });
    const mainFile = join(import.meta.dirname, 'helpers', 'warm-function.mjs');
    const call = async (path: string) => {
      const { invokeFunction } = (await import(RUNTIME_FILE)) as {
        invokeFunction(input: object): Promise<{ statusCode: number; body: string }>;
      };
      const event = {
        path,
        httpMethod: 'GET',
        headers: {},
        multiValueHeaders: {},
        body: '',
        isBase64Encoded: false,
        rawUrl: `http://localhost${path}`,
        rawQuery: '',
      };
      return invokeFunction({ context: {}, environment: {}, event, func: { buildData: { runtimeAPIVersion: 2 }, mainFile }, timeout: allowed(10) });
    };
    const served = async (path = '/') => JSON.parse((await call(path)).body) as { imports: number; calls: number; threadId: number };

    it('without LOCAL_WARM_FUNCTIONS, runs every call in a new worker (netlify-cli as released)', async () => {
      delete process.env.LOCAL_WARM_FUNCTIONS;
      const first = await served();
      const second = await served();
      expect([first.calls, second.calls]).toEqual([1, 1]);
      expect(second.threadId).not.toBe(first.threadId);
    });

    it('with LOCAL_WARM_FUNCTIONS=1, one instance imports the function once and serves call after call', async () => {
      process.env.LOCAL_WARM_FUNCTIONS = '1';
      const first = await served();
      const second = await served();
      const third = await served();
      expect(second.threadId).toBe(first.threadId);
      expect(third.threadId).toBe(first.threadId);
      expect([first.imports, second.imports, third.imports]).toEqual([1, 1, 1]);
      expect(third.calls - first.calls).toBe(2);
    });

    it('runs calls at once in separate instances, one call per instance at a time', async () => {
      process.env.LOCAL_WARM_FUNCTIONS = '1';
      const answers = await Promise.all([served(), served(), served()]);
      expect(new Set(answers.map((answer) => answer.threadId)).size).toBe(3);
    });

    it('streams every body to its end, also from an instance retired meanwhile (more calls at once than are kept idle)', async () => {
      process.env.LOCAL_WARM_FUNCTIONS = '1';
      const answers = await Promise.all(Array.from({ length: 5 }, () => call('/stream')));
      const bodies = await Promise.all(
        answers.map(async ({ body }) => {
          let text = '';
          for await (const chunk of body as unknown as AsyncIterable<Buffer>) text += chunk.toString();
          return text;
        }),
      );
      for (const text of bodies) expect(text).toMatch(/^first last \d+$/);
    });

    it('fails a call as netlify-cli does, with the same error, and retires that instance', async () => {
      delete process.env.LOCAL_WARM_FUNCTIONS;
      const cold = await call('/fail').catch((error: unknown) => error);
      process.env.LOCAL_WARM_FUNCTIONS = '1';
      const before = await served();
      const warm = await call('/fail').catch((error: unknown) => error);
      // lambda-local's error object, which netlify-cli's server turns into its error answer.
      // (its stack names the worker that ran it).
      expect(warm).toEqual({ ...(cold as object), stackTrace: expect.any(Array) });
      expect(warm).toMatchObject({ errorMessage: 'asked to fail', errorType: 'Error' });
      const after = await served();
      expect(after.threadId).not.toBe(before.threadId);
      expect(after.imports).toBe(1);
    });
  });
});
