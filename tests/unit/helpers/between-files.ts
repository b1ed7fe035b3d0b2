/**
 * Run before every test file of the shared workers (vitest.config.ts, `isolate: false`): after the
 * file's own hooks, what it changed of the process is put back, so that the next file in the same
 * worker starts as it would in a fresh one. Its environment variables (set, changed or deleted),
 * fake timers, spies and mocked functions, and stubbed globals and variables.
 */
import { afterAll, vi } from 'vitest';

const environment = { ...process.env };

// Registered before the file's own hooks: with Vitest's "stack" order it runs after them all.
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
});
