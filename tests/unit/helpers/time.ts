/**
 * How much longer a test may take than on a machine of its own: `npm test` runs Vitest at idle
 * priority beside the end-to-end tests (scripts/test.mjs), where it waits whenever the browsers
 * want the CPU. VITEST_TIME_FACTOR says by how much (vitest.config.ts stretches the default limits
 * by it too); alone, Vitest's limits are as written.
 */
export const timeFactor = Math.max(1, Number(process.env.VITEST_TIME_FACTOR) || 1);

/** A time limit of a test, hook or command, stretched by timeFactor. */
export const allowed = (ms: number): number => ms * timeFactor;
