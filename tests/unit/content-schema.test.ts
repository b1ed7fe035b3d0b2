/**
 * A bad content entry must fail the build with the file and the field named. The project's content
 * model is copied into a scratch folder once; each case adds one broken file and runs Astro's sync
 * (what `astro sync` and the first step of `astro build` run: the collections' loaders and schemas)
 * in this process, so that Astro loads once rather than once per case.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allowed } from './helpers/time';

const root = join(import.meta.dirname, '..', '..');
let scratch: string;
/** Astro's own `sync`, loaded by Node (Vite's resolution for tests gives the `astro` import another entry). */
const { sync: astroSync } = (await import(pathToFileURL(join(root, 'node_modules', 'astro', 'dist', 'core', 'index.js')).href)) as typeof import('astro');

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'content-schema-'));
  for (const entry of ['src', 'content', 'netlify', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, entry), join(scratch, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
});

/**
 * The scratch's own cache: by default Astro keeps its data store in `node_modules/.astro`, which
 * through the link above is the project's, where blog-build.test.ts's `astro build` of the project
 * reads and writes it at the same time (a store holding this file's broken content).
 */
const cacheDir = () => join(scratch, '.astro-cache');

// Astro's data store saves on a 500 ms debounce, which a sync's late loaders can start after it
// returns: a save into a folder already gone was an unhandled ENOENT (data-store.json.tmp) that
// failed the whole Vitest run once. Three debounces go by before the folder is removed.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  rmSync(scratch, { recursive: true, force: true });
});

/** The sync's outcome and what it printed (warnings and errors), and for a failure what `astro sync` prints of it: its message and the file it names. */
async function sync(): Promise<{ ok: boolean; output: string }> {
  const printed: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => printed.push(String(chunk)) > 0) as typeof stream.write;
  }
  try {
    await astroSync({ root: scratch, cacheDir: cacheDir(), logLevel: 'warn' });
    return { ok: true, output: printed.join('') };
  } catch (error) {
    const failure = error as { message?: string; loc?: { file?: string } };
    return { ok: false, output: `${printed.join('')}${failure.message ?? String(error)}\n${failure.loc?.file ?? ''}` };
  } finally {
    streams.forEach((stream, index) => (stream.write = writes[index]!));
  }
}

function withFile<T>(path: string, contents: string, body: () => Promise<T>): Promise<T> {
  const target = join(scratch, path);
  let previous: string | undefined;
  try {
    previous = readFileSync(target, 'utf8');
  } catch {
    previous = undefined;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, contents);
  return body().finally(() => {
    if (previous === undefined) rmSync(target, { force: true });
    else writeFileSync(target, previous);
  });
}

describe('content schemas', () => {
  test.each([
    {
      name: 'an FAQ without a question',
      path: 'content/faqs/broken-question.mdx',
      contents: '---\ncategory: how-it-works\norder: 1\n---\n\nAn answer.\n',
      file: 'broken-question.mdx',
      field: 'question',
    },
    {
      name: 'an FAQ whose order is not a number',
      path: 'content/faqs/broken-order.mdx',
      contents: '---\nquestion: Is this a valid question?\ncategory: how-it-works\norder: first\n---\n\nAn answer.\n',
      file: 'broken-order.mdx',
      field: 'order',
    },
    {
      name: 'an FAQ whose question is over 200 characters',
      path: 'content/faqs/broken-long-question.mdx',
      contents: `---\nquestion: "Why ${'so '.repeat(70)}long?"\ncategory: how-it-works\norder: 1\n---\n\nAn answer.\n`,
      file: 'broken-long-question.mdx',
      field: 'question',
    },
    {
      name: 'a blog post with a date that is not a date',
      path: 'content/blog/broken-date.mdx',
      contents: '---\ntitle: A broken post\nexcerpt: An excerpt that is long enough to pass the rule.\npublishedAt: someday\n---\n\nText.\n',
      file: 'broken-date.mdx',
      field: 'publishedAt',
    },
    {
      name: 'a statistic with both a target and a text',
      path: 'content/stats.yaml',
      contents: '- id: both\n  group: home-stats\n  target: 5\n  text: "5"\n  label: a broken statistic\n  labelEs: una cifra rota\n  order: 1\n',
      file: 'stats.yaml',
      field: 'target',
    },
    {
      name: 'a statistic without a number or a text',
      path: 'content/stats.yaml',
      contents: '- id: no-figure\n  group: home-stats\n  label: a statistic without its figure\n  labelEs: una cifra sin su número\n  order: 1\n',
      file: 'stats.yaml',
      field: 'target',
    },
    {
      name: 'a statistic without its Spanish line',
      path: 'content/stats.yaml',
      contents: '- id: english-only\n  group: home-stats\n  target: 5\n  label: a statistic in English only\n  order: 1\n',
      file: 'stats.yaml',
      field: 'the Spanish of "label" is missing',
    },
    {
      name: 'a card without its Spanish text',
      path: 'content/cards.yaml',
      contents:
        '- id: english-only\n  group: resources\n  icon: book\n  title: English only\n  titleEs: Solo en inglés\n  body: A card whose text is in English only.\n  order: 1\n',
      file: 'cards.yaml',
      field: 'bodyEs',
    },
    {
      name: 'a story video without its Spanish title',
      path: 'content/videos/students.yaml',
      contents:
        '- id: english-only\n  title: English only\n  description: A story told in English.\n  descriptionEs: Una historia contada en inglés.\n  mp4Url: /media/student-story-1.mp4\n  thumbnailUrl: /media/student-story-1.jpg\n  order: 1\n',
      file: 'students.yaml',
      field: 'titleEs',
    },
    {
      name: 'a webinar whose video is on plain http',
      path: 'content/webinars.yaml',
      contents:
        '- id: insecure\n  title: An insecure webinar\n  duration: 45\n  views: "1k"\n  category: Webinar\n  description: Text.\n  categoryEs: Seminario\n  descriptionEs: Texto.\n  videoUrl: http://example.org/v.mp4\n  thumbnail: /media/t.jpg\n  publishedDate: 2025-06-26\n',
      file: 'webinars.yaml',
      field: 'videoUrl',
    },
    {
      name: 'a webinar without its Spanish description',
      path: 'content/webinars.yaml',
      contents:
        '- id: untranslated\n  title: An untranslated webinar\n  duration: 45\n  views: "1k"\n  category: Webinar\n  description: Text.\n  categoryEs: Seminario\n  videoUrl: /media/v.mp4\n  thumbnail: /media/t.jpg\n  publishedDate: 2025-06-26\n',
      file: 'webinars.yaml',
      field: 'descriptionEs',
    },
    {
      name: 'a letter whose main text misses {video}',
      path: 'content/letters/broken-letter.yaml',
      contents:
        'title: A broken letter\norder: 4\nintroduction: My name is {parent}, and my child, {child}, is in {grade} at {school}.\nbody: "Book a call with the team here: {booking}"\nclosing: Thank you for your time and care.\n',
      file: 'content/letters/broken-letter.yaml',
      field: 'body',
    },
    {
      name: 'a letter whose closing is over its limit',
      path: 'content/letters/long-letter.yaml',
      contents: `title: A long letter\norder: 4\nintroduction: My name is {parent}, and my child, {child}, is in {grade} at {school}.\nbody: "The video {video} and the call {booking}"\nclosing: "${'Thank you. '.repeat(40)}"\n`,
      file: 'content/letters/long-letter.yaml',
      field: 'closing',
    },
  ])(
    '$name fails naming $file and $field',
    async ({ path, contents, file, field }) => {
      const result = await withFile(path, contents, sync);
      expect(result.ok).toBe(false);
      expect(result.output).toContain(file);
      expect(result.output).toContain(field);
    },
    60_000,
  );

  // Last: a sync that fails in one collection leaves the other collections' loaders reading their
  // files for a moment after it throws; this one runs them all to the end before the folder goes.
  test(
    'the committed content is valid',
    async () => {
      const result = await sync();
      expect(result.output).not.toMatch(/does not match collection schema/);
      expect(result.ok).toBe(true);
    },
    allowed(60_000),
  );
});
