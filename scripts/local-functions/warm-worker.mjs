/**
 * A warm instance of one function for the local server (see ./warm-pool.mjs): netlify-cli's own
 * worker (`netlify-cli/dist/lib/functions/runtimes/js/worker.js`) runs one invocation and ends;
 * this one imports the function once and runs one invocation after another, as a deployed
 * function's instance does between cold starts. Each invocation is run exactly as netlify-cli's
 * worker runs it (lambda-local, the same options, the same answer for a streamed body).
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const requireFromCli = createRequire(workerData.cliWorkerFile);
const lambdaLocal = requireFromCli('lambda-local');
requireFromCli('source-map-support').install();
lambdaLocal.getLogger().level = 'alert';

/** netlify-cli's `isStream` (the is-stream package): something with a `pipe`. */
const isStream = (value) => value !== null && typeof value === 'object' && typeof value.pipe === 'function';

/** Streamed bodies not yet read by netlify-cli, and whether the pool asked this instance to end. */
let streaming = 0;
let retiring = false;
const endIfRetired = () => {
  if (retiring && streaming === 0) process.exit(0);
};

/**
 * A streamed body is served once on a local port, as netlify-cli's worker does; resolves with the
 * port. The instance stays up until netlify-cli has read it, even when the pool retires it meanwhile.
 */
function serveStream(body) {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => {
      body.pipe(socket).on('end', () => server.close());
    });
    streaming += 1;
    server.on('close', () => {
      streaming -= 1;
      endIfRetired();
    });
    server.on('error', reject);
    server.listen({ port: 0, host: 'localhost' }, () => resolve(server.address().port));
  });
}

async function invoke({ clientContext, entryFilePath, environment = {}, event, timeoutMs }) {
  for (const key in environment) process.env[key] = environment[key];
  const lambdaFunc = await import(entryFilePath);
  const lambdaEvent = await lambdaLocal.execute({ clientContext, event, lambdaFunc, region: 'dev', timeoutMs, verboseLevel: 3 });
  if (lambdaEvent == null) return lambdaEvent;
  if (isStream(lambdaEvent.body)) {
    const { body, ...rest } = lambdaEvent;
    return { ...rest, streamPort: await serveStream(body) };
  }
  return lambdaEvent;
}

parentPort.on('message', async ({ id, invocation, retire }) => {
  if (retire) {
    retiring = true;
    endIfRetired();
    return;
  }
  try {
    parentPort.postMessage({ id, result: await invoke(invocation) });
  } catch (error) {
    // As netlify-cli's worker, whose failed invocation ends it with this error; the pool then
    // retires this instance.
    // The thrown value as it is (lambda-local's { errorMessage, errorType, stackTrace }), which is
    // what netlify-cli's worker hands its server through the worker's 'error' event.
    parentPort.postMessage({ id, failed: true, error });
  }
});
