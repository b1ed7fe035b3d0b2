/**
 * Tokens in links and answers. Two kinds:
 * - a secret handed to one browser (`newSecret`), of which the store keeps only a hash, so a
 *   stolen store cannot be replayed (`hashSecret`, `sameSecret`);
 * - a signed link token (`signToken`/`verifyToken`): what it is for, the record it names and when it
 *   expires, with an HMAC-SHA256 under a key derived from CONFIG_ENCRYPTION_KEY. Signed tokens
 *   are single-use only together with the record they name (its state changes once); a "Your
 *   data" token names a sealed address and works until it expires (`data-rights.ts`).
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { serverEnv } from './env';
import { HttpError } from './http';

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Whether `secret` is the one whose hash was stored, in constant time. */
export function sameSecret(secret: string, storedHash: string | undefined): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function signingKey(): Buffer {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) {
    throw new HttpError(503, 'signing_not_configured', 'Links cannot be signed: CONFIG_ENCRYPTION_KEY is not configured on this site.');
  }
  // A key of its own for signing, derived so that it never equals the encryption key.
  return Buffer.from(hkdfSync('sha256', Buffer.from(configured, 'utf8'), Buffer.alloc(0), 'mastery-parents link tokens v1', 32));
}

/** A short MAC of bytes for one use (`label`), under the signing key: stateless, checkable later. */
export function macOf(label: string, data: Buffer, bytes = 16): Buffer {
  return createHmac('sha256', signingKey()).update(label, 'utf8').update(data).digest().subarray(0, bytes);
}

/** Whether `mac` is `data`'s MAC for `label` (in constant time). */
export function macMatches(label: string, data: Buffer, mac: Buffer): boolean {
  const expected = macOf(label, data, mac.length);
  return mac.length >= 16 && timingSafeEqual(expected, mac);
}

/** What a signed token may be used for. */
export type TokenPurpose = 'confirm-send' | 'school-answer' | 'your-data' | 'your-data-delete' | 'school-updates-stop' | 'fix-address';

export interface TokenClaims {
  purpose: TokenPurpose;
  /** The record the token names (an outbox message id; for the data links, the sealed address). */
  id: string;
  /** Expiry, in ms since the epoch. */
  exp: number;
}

const mac = (payload: string) => createHmac('sha256', signingKey()).update(payload, 'utf8').digest('base64url');

export function signToken(claims: TokenClaims): string {
  const payload = Buffer.from(JSON.stringify({ p: claims.purpose, i: claims.id, e: claims.exp }), 'utf8').toString('base64url');
  return `${payload}.${mac(payload)}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'wrong_purpose'; claims?: TokenClaims };

/** Checks signature, purpose and expiry. An expired token still names its record (for a helpful page). */
export function verifyToken(token: string, purpose: TokenPurpose, now = Date.now()): TokenCheck {
  const match = /^([A-Za-z0-9_-]{10,1200})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(mac(payload));
  if (expected.length !== signature.length || !timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'forged' };
  let claims: TokenClaims;
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; i?: unknown; e?: unknown };
    if (typeof raw.p !== 'string' || typeof raw.i !== 'string' || typeof raw.e !== 'number') return { ok: false, reason: 'malformed' };
    claims = { purpose: raw.p as TokenPurpose, id: raw.i, exp: raw.e };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (claims.purpose !== purpose) return { ok: false, reason: 'wrong_purpose' };
  if (now > claims.exp) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}
