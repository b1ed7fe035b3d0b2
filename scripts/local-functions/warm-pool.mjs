/**
 * Warm function instances for the local production server (`npm start`, the e2e tests).
 *
 * netlify-cli runs every call of a function in a new worker thread that imports everything again:
 * the worker's own runtime (lambda-local with its logger, about 0.1 s), Netlify's bootstrap and the
 * function with its modules. That is a cold start on every request, about 0.3-0.4 s of CPU before the
 * function's first line runs, where Netlify keeps an instance warm between the calls that reach it.
 * With `LOCAL_WARM_FUNCTIONS=1` (set by scripts/start.mjs), netlify-cli's `invokeFunction` (patched
 * by scripts/patch-netlify-cli.mjs) hands each call of a modern (`Request`/`Response`) function here:
 * an idle instance of that function runs it, or a new one starts. An instance runs one call at a
 * time, as on Netlify; one that failed is retired; one idle for ten minutes ends. What a module keeps
 * between calls (a database pool, a read file) is kept as it is in production, so code that relies
 * on starting afresh fails here as it would there. `npm run dev` keeps netlify-cli's cold starts
 * (its functions are rebuilt as they change).
 */
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const workerFile = new URL('./warm-worker.mjs', import.meta.url);
/**
 * An idle instance ends after ten minutes, about as long as one is kept deployed. With a minute, as
 * before, 135 of the e2e run's 866 function answers took more than half a second, mostly a start;
 * with ten, the run started 51 instances in all for its functions (the server used about 20 CPU
 * seconds less, and 1.9 GB of memory at the end).
 */
const IDLE_MS = 10 * 60_000;
/** Idle instances kept per function: two browsers of the e2e run seldom call one function at once more often. */
const MAX_IDLE = 2;

/** entry file → idle instances. */
const idle = new Map();
let nextId = 1;

function start(cliWorkerFile, env) {
  const worker = new Worker(workerFile, { env, workerData: { cliWorkerFile } });
  worker.unref();
  worker.pending = new Map();
  const fail = (error) => {
    worker.retired = true;
    for (const { reject } of worker.pending.values()) reject(error);
    worker.pending.clear();
  };
  worker.on('message', ({ id, result, failed, error }) => {
    const call = worker.pending.get(id);
    if (!call) return;
    worker.pending.delete(id);
    if (failed) {
      retire(worker);
      call.reject(error);
    } else call.resolve(result);
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('The function instance ended.')));
  return worker;
}

/** Takes an instance out of use; it ends once netlify-cli has read the bodies it is still streaming. */
function retire(worker) {
  if (worker.retired) return;
  worker.retired = true;
  clearTimeout(worker.idleTimer);
  worker.postMessage({ retire: true });
}

function release(key, worker) {
  if (worker.retired) return;
  const list = idle.get(key) ?? [];
  if (list.length >= MAX_IDLE) {
    retire(worker);
    return;
  }
  clearTimeout(worker.idleTimer);
  worker.idleTimer = setTimeout(() => {
    const current = idle.get(key) ?? [];
    idle.set(
      key,
      current.filter((w) => w !== worker),
    );
    retire(worker);
  }, IDLE_MS);
  worker.idleTimer.unref();
  list.push(worker);
  idle.set(key, list);
}

/**
 * Runs one invocation as netlify-cli's worker would; `workerData` is what netlify-cli would have
 * given its own worker, `env` the environment it would have started it with, `cliWorkerFile` the
 * path of netlify-cli's worker (its lambda-local is the one used).
 */
export async function invokeWarm({ workerData, env, cliWorkerFile }) {
  const key = workerData.entryFilePath;
  let worker;
  while ((worker = idle.get(key)?.pop()) && worker.retired);
  if (worker) clearTimeout(worker.idleTimer);
  else worker = start(cliWorkerFile, env);
  const id = nextId++;
  const result = new Promise((resolve, reject) => worker.pending.set(id, { resolve, reject }));
  worker.postMessage({ id, invocation: workerData });
  try {
    return await result;
  } finally {
    release(key, worker);
  }
}

/**
 * What the patched netlify-cli constructs instead of `new Worker(workerURL, options)`: something that
 * emits the one 'message' (the invocation's result) or 'error' its code listens for, so that the rest
 * of netlify-cli's invocation (a streamed body's connection, its error handling) is unchanged.
 */
export function warmWorker(cliWorkerUrl, options) {
  const emitter = new EventEmitter();
  invokeWarm({ workerData: options.workerData, env: options.env, cliWorkerFile: fileURLToPath(cliWorkerUrl) }).then(
    (result) => emitter.emit('message', result),
    (error) => emitter.emit('error', error),
  );
  return emitter;
}
