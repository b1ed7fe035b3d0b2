import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashSecret, newSecret, sameSecret, signToken, verifyToken } from '../../src/server/tokens';

beforeAll(() => {
  process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
});
afterAll(() => {
  delete process.env.CONFIG_ENCRYPTION_KEY;
});

describe('secrets handed to one browser', () => {
  test('only the secret itself matches its stored hash', () => {
    const secret = newSecret();
    const stored = hashSecret(secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toBe(secret);
    expect(sameSecret(secret, stored)).toBe(true);
    expect(sameSecret(newSecret(), stored)).toBe(false);
    expect(sameSecret(secret, undefined)).toBe(false);
  });
});

describe('signed link tokens', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  let token = '';
  beforeAll(() => {
    token = signToken({ purpose: 'confirm-send', id: 'msg-1', exp: now + 24 * 3600_000 });
  });

  test('a fresh token names its record', () => {
    expect(verifyToken(token, 'confirm-send', now)).toEqual({ ok: true, claims: { purpose: 'confirm-send', id: 'msg-1', exp: now + 24 * 3600_000 } });
  });

  test('expired after its time, still naming the record', () => {
    expect(verifyToken(token, 'confirm-send', now + 24 * 3600_000 + 1)).toMatchObject({ ok: false, reason: 'expired', claims: { id: 'msg-1' } });
  });

  test.each([
    ['another purpose', () => verifyToken(token, 'school-answer', now), 'wrong_purpose'],
    [
      'a changed record id',
      () =>
        verifyToken(
          token.replace(/^[^.]+/, Buffer.from(JSON.stringify({ p: 'confirm-send', i: 'msg-2', e: now + 1e9 })).toString('base64url')),
          'confirm-send',
          now,
        ),
      'forged',
    ],
    ['a changed signature', () => verifyToken(`${token.slice(0, -2)}xx`, 'confirm-send', now), 'forged'],
    ['garbage', () => verifyToken('not a token', 'confirm-send', now), 'malformed'],
    ['nothing', () => verifyToken('', 'confirm-send', now), 'malformed'],
  ])('%s is refused', (_name, check, reason) => {
    expect(check()).toMatchObject({ ok: false, reason });
  });

  test('a token signed under another key is forged', () => {
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 8).toString('base64');
    expect(verifyToken(token, 'confirm-send', now)).toMatchObject({ ok: false, reason: 'forged' });
    process.env.CONFIG_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
  });
});
