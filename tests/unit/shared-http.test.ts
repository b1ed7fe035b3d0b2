import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { allowMethods, handle, HttpError, json, readJson, scheduled, StoreUnavailableError } from '../../src/server/http';

const schema = z.object({ email: z.email() }).strict();

function post(body: BodyInit | null, type = 'application/json', extra: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': type, ...extra } });
}

async function reason(req: Request): Promise<{ status: number; code: string }> {
  try {
    await readJson(req, schema);
    return { status: 200, code: 'ok' };
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, code: error.code };
    throw error;
  }
}

describe('readJson', () => {
  test.each([
    ['a valid body', post('{"email":"a@b.co"}'), 200, 'ok'],
    ['a JSON variant content type', post('{"email":"a@b.co"}', 'application/merge-patch+json'), 200, 'ok'],
    ['malformed JSON', post('{"email":'), 400, 'invalid_json'],
    ['an empty body', post(''), 400, 'invalid_json'],
    ['a form body', post('email=a@b.co', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
    ['a missing field', post('{}'), 400, 'invalid_request'],
    ['an extra field', post('{"email":"a@b.co","admin":true}'), 400, 'invalid_request'],
    ['a wrong type', post('{"email":42}'), 400, 'invalid_request'],
    ['a body over 1 MB', post(JSON.stringify({ email: 'x'.repeat(1_100_000) })), 413, 'payload_too_large'],
    ['a declared length over 1 MB', post('{}', 'application/json', { 'content-length': '2000000' }), 413, 'payload_too_large'],
  ])('%s → %i %s', async (_name, req, status, code) => {
    expect(await reason(req)).toEqual({ status, code });
  });

  test('the message names the field', async () => {
    await expect(readJson(post('{"email":"nope"}'), schema)).rejects.toThrow(/email/);
  });
});

describe('answers', () => {
  test('405 names the allowed methods', async () => {
    const response = allowMethods(new Request('http://localhost/', { method: 'DELETE' }), ['GET', 'POST'])!;
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.stringMatching(/GET or POST/) } });
  });

  test('JSON answers carry security headers and are never cached', () => {
    const response = json({ ok: true });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('an unexpected error becomes a generic 500 without its message or stack', async () => {
    const wrapped = handle(async () => {
      throw new Error('secret token abc123 leaked in stack');
    });
    const response = await wrapped(new Request('http://localhost/api/x'), {});
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('stack');
    expect(JSON.parse(text).error.code).toBe('internal_error');
  });
});

describe('scheduled(name, work): the body of every scheduled function', () => {
  test('logs the summary under its name and answers it as JSON', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const response = await scheduled('a-run', async () => ({ sent: 2, waiting: 1 }))();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sent: 2, waiting: 1 });
    expect(log).toHaveBeenCalledWith('[a-run]', '{"sent":2,"waiting":1}');
    log.mockRestore();
  });

  test('a database that cannot be reached stops the run, is said in the log, and answers 503', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await scheduled('a-run', async () => {
      throw new StoreUnavailableError('connection refused');
    })();
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe('store_unavailable');
    expect(error).toHaveBeenCalledWith('[a-run] the store is unavailable; stopping this run.');
    error.mockRestore();
  });

  test('any other failure is thrown, for the platform to log the failed run', async () => {
    await expect(scheduled('a-run', async () => Promise.reject(new TypeError('a bug')))()).rejects.toThrow('a bug');
  });
});
