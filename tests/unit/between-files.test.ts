/**
 * The unit tests share each worker's loaded modules (vitest.config.ts, `isolate: false`), and
 * tests/unit/helpers/between-files.ts puts back what a file changed of the process before the next
 * file runs. Two files that each change the environment, a global, the timers and a spy, and each
 * check that the other left nothing, pass together in one worker with it, and fail without it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { allowed } from './helpers/time';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const config = join(import.meta.dirname, 'fixtures', 'between-files', 'vitest.config.ts');

async function runFixtures(setup: 'on' | 'off'): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--config', config, '--reporter=dot'], {
      cwd: root,
      env: { ...process.env, BETWEEN_FILES_SETUP: setup, NO_COLOR: '1' },
    });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

test(
  'what one file changes of the process is gone when the next file in the same worker starts',
  async () => {
    const result = await runFixtures('on');
    expect(result.ok, result.output.slice(-2000)).toBe(true);
    expect(result.output).toMatch(/Tests\s+4 passed \(4\)/);
  },
  allowed(60_000),
);

test(
  'without the setup file the second file finds what the first left (so the files above can tell)',
  async () => {
    const result = await runFixtures('off');
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/Tests\s+1 failed \| 3 passed \(4\)/);
    expect(result.output).toContain('nothing the other file changed is left');
  },
  allowed(60_000),
);
