/**
 * The site's pages show native forms; the HubSpot embed is a per-form setting. To test the embed,
 * the site is built a second time with every form embedded, into dist-embed/ (in the embed spec's
 * `beforeAll`, once per run and only when it runs: the `embed` project runs it in one worker), and the
 * embed specs serve its pages and assets in place of the running server's with `page.route`. What
 * the pages call (/api/*, other functions, files only the main build has) still goes to the server.
 */
import type { Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { baseURL } from '../../playwright.config';

const root = join(import.meta.dirname, '..', '..');
export const embedBuildDir = join(root, 'dist-embed');

/** Both generations, on purpose: the email form and the referral form each use one. */
export const embedGenerations = {
  newsletter: 'v2',
  emailGenerator: 'v2',
  partnership: 'v2',
  resources: 'v2',
  referSchool: 'v4',
  toolkit: 'v4',
  webinarSignup: 'v4',
  contact: 'v4',
} as const;

export const embedBuildEnv = {
  PUBLIC_EMBED_FORMS: Object.keys(embedGenerations).join(','),
  PUBLIC_EMBED_V4_FORMS: Object.entries(embedGenerations)
    .filter(([, generation]) => generation === 'v4')
    .map(([purpose]) => purpose)
    .join(','),
  SITE_URL: baseURL,
  BLOG_SOURCE: 'local',
  FORMS_SOURCE: 'local',
  ASTRO_TELEMETRY_DISABLED: '1',
};

/** `astro build --outDir dist-embed` with every form embedded; rejects with the build's output. */
export function buildEmbedSite(): Promise<void> {
  return new Promise((resolve, reject) => {
    const astro = join(root, 'node_modules', '.bin', 'astro');
    const child = spawn(astro, ['build', '--outDir', embedBuildDir], { cwd: root, env: { ...process.env, ...embedBuildEnv } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The embed build failed (exit ${code}):\n${output.slice(-4000)}`))));
  });
}

/** The file of dist-embed/ that answers a path, as the CDN would (`/faqs` is faqs.html). */
function fileFor(pathname: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const relative = normalize(path === '/' ? '/index.html' : path.replace(/\/$/, ''));
  if (relative.includes('..')) return undefined;
  for (const candidate of [join(embedBuildDir, relative), join(embedBuildDir, `${relative}.html`)]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Serves the embed build's pages and assets to `page`; everything else goes to the server. */
export async function serveEmbedBuild(page: Page): Promise<void> {
  const origin = new URL(baseURL).origin;
  await page.route(
    (url) => url.origin === origin && !url.pathname.startsWith('/api/'),
    (route) => {
      const file = route.request().method() === 'GET' ? fileFor(new URL(route.request().url()).pathname) : undefined;
      return file ? route.fulfill({ path: file }) : route.fallback();
    },
  );
}
