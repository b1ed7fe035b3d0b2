/**
 * The site's icon, written into each page's head as a `data:` URL. As a file (/favicon.svg, kept
 * for anything that asks for it by name) Chromium asked for it before the first paint, and
 * Lighthouse's simulation of a phone counts every request started before the largest paint into
 * it: 289 bytes of icon put 30-60 ms between the first paint and the largest on pages whose largest
 * paint is their first (issue 48). Read from public/ at build (the build runs at the project's root).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const faviconDataUrl = `data:image/svg+xml,${encodeURIComponent(readFileSync(join(process.cwd(), 'public', 'favicon.svg'), 'utf8').trim())}`;
