/**
 * The HubSpot form embeds for the Lighthouse bench. This machine has no internet, so HubSpot's
 * embed scripts cannot load and their failed requests are console errors (Lighthouse "errors in
 * console", best practices 96). The bench's Chromium resolves js.hsforms.net to this https server
 * instead, which answers with the stand-ins the browser tests use: tests/fakes/form-embed.js for the
 * legacy `/forms/embed/v2.js`, tests/fakes/form-embed-v4.js for a portal's v4 `/forms/embed/{portalId}.js`
 * (na1 portals; another region's js-{region}.hsforms.net is not mapped), under a certificate made for
 * the run. The default build shows native forms and requests neither; this matters when forms are
 * set to the embed (PUBLIC_EMBED_FORMS) for the build that is measured. BENCH_EMBED=off measures
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
  const v2 = await readFile(join(root, 'tests', 'fakes', 'form-embed.js'));
  const v4 = await readFile(join(root, 'tests', 'fakes', 'form-embed-v4.js'));
  const pems = await selfsigned.generate([{ name: 'commonName', value: embedHost }], {
    days: 1,
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: embedHost }] }],
  });
  const server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const { pathname } = new URL(request.url ?? '/', `https://${embedHost}`);
    const script = pathname === '/forms/embed/v2.js' ? v2 : /^\/forms\/embed\/\d+\.js$/.test(pathname) ? v4 : undefined;
    if (request.method === 'GET' && script) {
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
