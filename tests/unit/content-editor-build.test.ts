/**
 * The content editor's build logs (src/components/content-editor/integration.ts): a real Vite build of a
 * small project with an editor entry and a site entry. Decap's large chunk and its dependencies'
 * `eval` are not reported; the same in the site's own code still is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build, createLogger } from 'vite';
import { afterAll, describe, expect, test } from 'vitest';
import { editorBundleLogs } from '../../src/lib/build/content-editor/integration';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Over the size limit of these builds (50 kB, where the site has Vite's 500 kB) once minified. */
const largeModule = `export const table = ${JSON.stringify(Array.from({ length: 6_000 }, (_, index) => `entry-${index}`))};\n`;
const evalModule = "export const value = eval('1 + 1');\n";

/**
 * Rolldown's own reporter (chunk sizes) hands its warnings over from its native side without
 * waiting, so one may arrive just after `build()` has resolved (seen once in a loaded clean run).
 * Wait for the expected number, up to two seconds, then a moment more for any unexpected one.
 */
async function settled(warnings: string[], expected: number): Promise<string[]> {
  const deadline = Date.now() + 2_000;
  while (warnings.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 100));
  return warnings;
}

async function warningsOf(files: Record<string, string>, expected: number): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'editor-build-logs-'));
  roots.push(root);
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  const warnings: string[] = [];
  const logger = createLogger('warn');
  logger.warn = (message) => warnings.push(message);
  logger.warnOnce = (message) => warnings.push(message);
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    customLogger: logger,
    plugins: [editorBundleLogs()],
    build: {
      outDir: join(root, 'dist'),
      chunkSizeWarningLimit: 50,
      rolldownOptions: {
        input: { editor: join(root, 'src/components/content-editor/app.ts'), site: join(root, 'src/site.ts') },
        // Rolldown hands every warning to onwarn; print it as Vite would.
        onwarn: (warning) => warnings.push(`${warning.code ?? warning.plugin ?? ''} ${warning.message}`),
      },
    },
  });
  return settled(warnings, expected);
}

interface Case {
  name: string;
  files: Record<string, string>;
  reported: RegExp[];
}

describe('the build reports what the site can act on, not what Decap brings', () => {
  test.each<Case>([
    {
      name: 'a large editor chunk with eval in its dependencies',
      files: {
        'src/components/content-editor/app.ts': "import { table } from './large';\nimport { value } from './uses-eval';\nconsole.log(table.length, value);\n",
        'src/components/content-editor/large.ts': largeModule,
        'src/components/content-editor/uses-eval.ts': evalModule,
        'src/site.ts': "console.log('site');\n",
      },
      reported: [],
    },
    {
      name: 'eval in the site’s own code',
      files: {
        'src/components/content-editor/app.ts': "import { table } from './large';\nconsole.log(table.length);\n",
        'src/components/content-editor/large.ts': largeModule,
        'src/site.ts': "import { value } from './uses-eval';\nconsole.log(value);\n",
        'src/uses-eval.ts': evalModule,
      },
      reported: [/EVAL/],
    },
    {
      name: 'eval in a module both the editor and the site use',
      files: {
        'src/components/content-editor/app.ts': "import { value } from '../../uses-eval';\nconsole.log(value);\n",
        'src/site.ts': "import { value } from './uses-eval';\nconsole.log(value);\n",
        'src/uses-eval.ts': evalModule,
      },
      reported: [/EVAL/],
    },
    {
      name: 'a large chunk of the site',
      files: {
        'src/components/content-editor/app.ts': "console.log('editor');\n",
        'src/site.ts': "import { table } from './large';\nconsole.log(table.length);\n",
        'src/large.ts': largeModule,
      },
      reported: [/chunks are larger than 50 kB/],
    },
  ])('$name', async ({ files, reported }) => {
    const warnings = await warningsOf(files, reported.length);
    expect(warnings.length).toBe(reported.length);
    reported.forEach((pattern, index) => expect(warnings[index]).toMatch(pattern));
  });
});
