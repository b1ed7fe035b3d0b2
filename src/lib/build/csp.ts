import { createHash } from 'node:crypto';

/**
 * The CSP source for an inline script (build time only). Astro hashes the scripts it bundles,
 * not `is:inline` ones: a page that must run a few lines before its first paint passes this to
 * `Astro.csp.insertScriptHash()` in its own frontmatter. (Called from a component in the body it
 * comes too late: the policy <meta> in the head is already written.)
 */
export function scriptHash(code: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}`;
}
