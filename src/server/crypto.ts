/**
 * Secrets stored by the admin page (access tokens, signing keys) are encrypted at rest with
 * AES-256-GCM under CONFIG_ENCRYPTION_KEY, and only ever leave the server masked.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { serverEnv } from './env';
import { HttpError } from './http';

const VERSION = 'v1';

function key(): Buffer {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) {
    throw new HttpError(503, 'encryption_not_configured', 'Stored secrets cannot be encrypted: CONFIG_ENCRYPTION_KEY is not configured on this site.');
  }
  const decoded = Buffer.from(configured, 'base64');
  // The documented form is 32 random bytes in base64; any other string is stretched to 32 bytes.
  return decoded.length === 32 ? decoded : createHash('sha256').update(configured).digest();
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
}

export function decryptSecret(sealed: string): string {
  const [version, iv, body, tag] = sealed.split(':');
  if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** What the page may show of a secret: its last four characters, and only for long ones. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length >= 16 ? `••••••••${secret.slice(-4)}` : '••••••••';
}
