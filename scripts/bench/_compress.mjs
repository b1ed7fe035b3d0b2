/**
 * A compressing reverse proxy for the bench. Netlify's CDN serves text with brotli or gzip;
 * `netlify serve` does not, so without this the bench would measure uncompressed HTML and CSS
 * that no visitor ever downloads.
 */
import { createServer, request } from 'node:http';
import { pipeline } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';

const compressible = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

/** At most `limit` requests upstream at once; the rest wait their turn in arrival order. */
function gate(limit) {
  let active = 0;
  const waiting = [];
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  return (start) => {
    const run = () => {
      active++;
      start(release);
    };
    if (active < limit) run();
    else waiting.push(run);
  };
}

/**
 * `maxInFlight` (optional) bounds the requests the origin sees at once, as a platform that scales
 * out would: `netlify serve` starts a fresh worker thread for every function call.
 */
export function startCompressingProxy(port, originPort, { maxInFlight = Infinity } = {}) {
  const admit = gate(maxInFlight);
  const server = createServer((req, res) =>
    admit((release) => {
      let released = false;
      const done = () => {
        if (!released) {
          released = true;
          release();
        }
      };
      res.on('close', done);
      const headers = { ...req.headers, host: `localhost:${originPort}` };
      delete headers['accept-encoding'];
      const upstream = request({ host: '127.0.0.1', port: originPort, method: req.method, path: req.url, headers }, (answer) => {
        // The page that asked may be gone (a closed context, a cancelled prefetch): piping into its
        // closed answer throws (ERR_STREAM_UNABLE_TO_PIPE) and stopped the whole bench.
        if (res.destroyed) {
          answer.resume();
          return;
        }
        const type = String(answer.headers['content-type'] ?? '');
        const accepts = String(req.headers['accept-encoding'] ?? '');
        const encoding =
          !compressible.test(type) || answer.headers['content-encoding'] ? null : /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
        const out = { ...answer.headers };
        if (encoding) {
          delete out['content-length'];
          out['content-encoding'] = encoding;
          out.vary = 'Accept-Encoding';
        }
        res.writeHead(answer.statusCode ?? 502, out);
        if (!encoding) return pipeline(answer, res, () => {});
        const compressor = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip({ level: 6 });
        pipeline(answer, compressor, res, () => {});
      });
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      pipeline(req, upstream, () => {});
    }),
  );
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}
