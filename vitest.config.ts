/// <reference types="vitest/config" />
import { globSync, readFileSync } from 'node:fs';
import { getViteConfig } from 'astro/config';
import { configDefaults } from 'vitest/config';

const include = ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'];
/** tests/unit/helpers/time.ts: `npm test` runs Vitest at idle priority, where a test may wait longer than it runs. */
const timeFactor = Math.max(1, Number(process.env.VITEST_TIME_FACTOR) || 1);
/**
 * Files that run in a process of their own, as every file did before the shared workers below:
 * - a file that replaces a module with `vi.mock`: in a shared worker the module may already be
 *   loaded by an earlier file (then the mock would not apply), or stay mocked for the next one;
 * - content-editor-build.test.ts, which runs Vite's (Rolldown's native) bundler in the test process
 *   and counts the warnings it logs: in one clean-order run of the shared workers its last case
 *   missed the chunk-size warning (0 of 1), not seen alone in 25 runs, idle or loaded, nor in two
 *   other runs of the whole suite; the bundler's state is the process's own, so it keeps its own.
 */
const ownProcess = [...globSync(include).filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8'))), 'tests/unit/content-editor-build.test.ts'];

// Astro's Vite config, so that tests can render .astro components with the container API.
export default getViteConfig({
  test: {
    // Each project names its own files (an `include` here would be added to each project's).
    environment: 'node',
    testTimeout: 20_000 * timeFactor,
    hookTimeout: 60_000 * timeFactor,
    // Tests that build the site are heavy; two cores are all this machine has.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include,
          exclude: [...configDefaults.exclude, ...ownProcess],
          // The files share each worker's loaded modules instead of importing them afresh: the same
          // 2,147 tests ran in 100 s instead of 148 (86 CPU seconds fewer), each file's imports were
          // most of the difference. What a file changes of the process (its environment, timers,
          // spies and globals) is put back after it (tests/unit/helpers/between-files.ts).
          isolate: false,
          setupFiles: ['tests/unit/helpers/between-files.ts'],
        },
      },
      { extends: true, test: { name: 'own-process', include: ownProcess } },
    ],
  },
});
