/**
 * `netlify serve` extracts every packaged function's zip before it answers (59 zips, about 75,000
 * files): 34 s of its JavaScript extractor on this machine, after the packaging, before the site is
 * up. Debian's `unzip` does the same in 5 s. netlify-cli's extractor calls this first
 * (scripts/patch-netlify-cli.mjs, edit 3); without `unzip`, or when it fails, netlify-cli's own
 * extractor runs as before, into an emptied folder.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';

/** netlify-cli starts every extraction at once: as many `unzip` processes at a time as there are cores. */
const slots = Math.max(1, availableParallelism());
let running = 0;
const waiting = [];

async function inSlot(work) {
  if (running >= slots) await new Promise((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

const unzip = (zipPath, dir) =>
  new Promise((resolve, reject) =>
    execFile('unzip', ['-q', '-o', zipPath, '-d', dir], { maxBuffer: 1024 * 1024 }, (error) => (error ? reject(error) : resolve())),
  );

/** Extracts `zipPath` into `dir` with `unzip`, or with `fallback` (netlify-cli's extractor) when that cannot. */
export async function extractWithUnzip(zipPath, options, fallback) {
  if (!isAbsolute(options.dir)) return fallback(zipPath, options);
  try {
    await inSlot(() => unzip(zipPath, options.dir));
  } catch {
    await rm(options.dir, { recursive: true, force: true });
    await fallback(zipPath, options);
  }
}
