import { createHash } from 'node:crypto';

/**
 * The CSP source for an inline script (build time only). Astro hashes the scripts it bundles;
 * a page that must run a few lines before its first paint adds this for its `is:inline` script.
 */
export function scriptHash(code: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}`;
}
