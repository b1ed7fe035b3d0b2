/**
 * The local Netlify Blobs emulator (@netlify/blobs/server), made to behave like Netlify Blobs where
 * the site relies on it:
 * - conditional writes (`onlyIfNew`, `onlyIfMatch`) are atomic: the emulator checks the condition
 *   and writes the file in separate steps, so two writes racing for one key could both succeed.
 *   Here every read and write of a key waits for the one before it.
 * - reads answer with the blob's ETag, as Netlify's do, so a read-then-compare-and-swap works
 *   (`getWithMetadata` returns no etag from the bare emulator), and an ETag changes with every
 *   write (the emulator's is the file's modification time in milliseconds, which two writes in one
 *   millisecond share).
 *
 * Loaded with `--import` into the process that runs the emulator (`npm start`) and imported by the
 * unit tests' Blobs helper. Worker threads (where functions run) skip it.
 */
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const { BlobsServer } = await import('@netlify/blobs/server');
  const { createHash } = await import('node:crypto');
  const { readFile, stat } = await import('node:fs/promises');
  const proto = BlobsServer.prototype;
  if (!proto.put.patchedForNetlifyParity) {
    BlobsServer.generateETag = async (filePath) => {
      try {
        const [info, content] = await Promise.all([stat(filePath), readFile(filePath)]);
        return `"${createHash('sha256').update(`${info.mtimeMs}:${info.size}:`).update(content).digest('hex')}"`;
      } catch {
        return '';
      }
    };
    /** The last operation queued for each key's file. */
    const queues = new Map();
    const serialise = (key, operation) => {
      const previous = queues.get(key) ?? Promise.resolve();
      const result = previous.then(operation);
      const settled = result.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, settled);
      settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return result;
    };
    /** The data file a request names, when it names one blob. */
    const dataPathOf = (server, req) => {
      const url = server.parseAPIRequest(req)?.url ?? new URL(req.url ?? '/', server.address);
      const { dataPath, key } = server.getLocalPaths(url);
      return key ? dataPath : undefined;
    };

    const put = proto.put;
    proto.put = function (req) {
      const path = dataPathOf(this, req);
      return path ? serialise(path, () => put.call(this, req)) : put.call(this, req);
    };
    proto.put.patchedForNetlifyParity = true;

    for (const method of ['get', 'head']) {
      const original = proto[method];
      proto[method] = function (req) {
        const path = dataPathOf(this, req);
        if (!path) return original.call(this, req);
        return serialise(path, async () => {
          const response = await original.call(this, req);
          if (response.status !== 200 || response.headers.has('etag')) return response;
          const etag = await BlobsServer.generateETag(path);
          if (!etag) return response;
          const headers = new Headers(response.headers);
          headers.set('etag', etag);
          return new Response(response.body, { status: response.status, headers });
        });
      };
    }
  }
}
