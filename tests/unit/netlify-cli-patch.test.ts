/**
 * `npm install` patches netlify-cli's local server (scripts/patch-netlify-cli.mjs): a function's 403
 * or 404 is not retried as four static paths, and with LOCAL_WARM_FUNCTIONS=1 (scripts/start.mjs) a
 * function's instance stays warm between calls (scripts/local-functions/warm-pool.mjs), and the
 * packaged functions' zips are extracted by Debian's `unzip` (scripts/local-functions/unzip.mjs).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
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
  ZIP_FILE,
  ZIP_MARK,
  ZIP_ORIGINAL,
  patchProxySource,
  patchRuntimeSource,
  patchZipSource,
} from '../../scripts/patch-netlify-cli.mjs';
import { extractWithUnzip } from '../../scripts/local-functions/unzip.mjs';
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

describe("netlify-cli patch: the functions' zips extracted by unzip", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'unzip-patch-'));
  const zipped = join(scratch, 'function.zip');

  /**
   * A zip as the packager writes one (an entry point, a nested module, an executable file), its
   * entries stored, written here byte by byte (PKWARE's APPNOTE: local headers, then the central
   * directory, made on Unix so that the modes travel).
   */
  async function makeZip(): Promise<void> {
    const entries: Array<[string, string, number]> = [
      ['___netlify-entry-point.mjs', 'export default () => new Response("hi");\n', 0o644],
      ['node_modules/some/lib/deep.js', 'export const deep = 1;\n', 0o644],
      ['bin/run', '#!/bin/sh\n', 0o755],
    ];
    const locals: Buffer[] = [];
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const [name, text, mode] of entries) {
      const data = Buffer.from(text);
      const fileName = Buffer.from(name);
      const crc = crc32(data);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(fileName.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE((3 << 8) | 20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(data.length, 24);
      central.writeUInt16LE(fileName.length, 28);
      central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38);
      central.writeUInt32LE(offset, 42);
      locals.push(local, fileName, data);
      centrals.push(central, fileName);
      offset += local.length + fileName.length + data.length;
    }
    const directory = Buffer.concat(centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    writeFileSync(zipped, Buffer.concat([...locals, directory, end]));
  }
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();

  it('is applied to the installed netlify-cli, its own extractor kept as the fallback', () => {
    const source = readFileSync(ZIP_FILE, 'utf8');
    expect(source).toContain(ZIP_MARK);
    expect(source).not.toContain(ZIP_ORIGINAL);
    expect(source).toContain('const extractZipInJavaScript = async (zipPath, { dir }) => {');
    expect(patchZipSource(source)).toBe(source);
    expect(patchZipSource('export const somethingElse = 1;')).toBeUndefined();
  });

  it("extracts through netlify-cli's own extractZip what its JavaScript extractor extracts", async () => {
    await makeZip();
    const { extractZip } = (await import(ZIP_FILE)) as { extractZip: (zip: string, options: { dir: string }) => Promise<void> };
    const viaUnzip = join(scratch, 'via-unzip');
    await extractZip(zipped, { dir: viaUnzip });
    // `unzip` itself, not the fallback, extracted it.
    await extractWithUnzip(zipped, { dir: join(scratch, 'unzip-alone') }, async () => {
      throw new Error('the fallback ran');
    });
    expect(files(join(scratch, 'unzip-alone'))).toEqual(files(viaUnzip));
    // Without `unzip` on the PATH, the same call falls back to netlify-cli's extractor.
    process.env.PATH = '';
    const inJavaScript = join(scratch, 'in-javascript');
    await extractZip(zipped, { dir: inJavaScript });
    expect(files(viaUnzip)).toEqual(['___netlify-entry-point.mjs', 'bin/run', 'node_modules/some/lib/deep.js']);
    expect(files(inJavaScript)).toEqual(files(viaUnzip));
    for (const dir of [viaUnzip, inJavaScript]) {
      expect(readFileSync(join(dir, 'node_modules/some/lib/deep.js'), 'utf8')).toBe('export const deep = 1;\n');
      expect(statSync(join(dir, 'bin/run')).mode & 0o111).not.toBe(0);
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it("without unzip on the PATH, hands the zip to netlify-cli's extractor into an emptied folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unzip-fallback-'));
    process.env.PATH = '';
    const handed: string[] = [];
    await extractWithUnzip('/no/such.zip', { dir }, async (zip: string) => {
      handed.push(zip);
    });
    expect(handed).toEqual(['/no/such.zip']);
    rmSync(dir, { recursive: true, force: true });
  });
});
