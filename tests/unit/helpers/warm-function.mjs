/**
 * A function module for tests/unit/netlify-cli-patch.test.ts, in the shape lambda-local runs: it
 * counts the calls its instance has served and the times it was imported, and fails when asked.
 */
let imports = 0;
let calls = 0;
imports += 1;

export const handler = async (event) => {
  calls += 1;
  if (event.path === '/fail') throw new Error('asked to fail');
  // A body streamed as Netlify's bootstrap streams a Response's, whose end comes a moment after the answer.
  if (event.path === '/stream') {
    const { Readable } = await import('node:stream');
    const { setTimeout: wait } = await import('node:timers/promises');
    return {
      statusCode: 200,
      body: Readable.from(
        (async function* () {
          yield 'first ';
          await wait(300);
          yield `last ${calls}`;
        })(),
      ),
    };
  }
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ imports, calls, threadId: (await import('node:worker_threads')).threadId }),
  };
};
