/**
 * The HubSpot form embed for the Lighthouse bench. This machine has no internet, so
 * `https://js.hsforms.net/forms/embed/v2.js` cannot load and its failed request is a console
 * error (Lighthouse "errors in console", best practices 96). The bench's Chromium resolves
 * js.hsforms.net to this https server instead, which answers with the stand-in the browser tests use
 * (tests/fakes/form-embed.js), under a certificate made for the run. BENCH_EMBED=off measures
 * without it (the embed then fails to load, as offline).
 *
 * What this does not measure: the real embed's own weight and work, which only a run with
 * internet access sees.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { root } from './_server.mjs';

export const embedHost = 'js.hsforms.net';

/** Starts the stand-in; returns the Chromium flags that route the embed's host to it. */
export async function startEmbedStandIn() {
  if (process.env.BENCH_EMBED === 'off') return { flags: [], close: async () => {} };
  const script = await readFile(join(root, 'tests', 'fakes', 'form-embed.js'));
  const pems = await selfsigned.generate([{ name: 'commonName', value: embedHost }], {
    days: 1,
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: embedHost }] }],
  });
  const server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    if (request.method === 'GET' && new URL(request.url ?? '/', `https://${embedHost}`).pathname === '/forms/embed/v2.js') {
      response.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
      response.end(script);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    flags: [`--host-resolver-rules=MAP ${embedHost} 127.0.0.1:${port}`, '--ignore-certificate-errors'],
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
