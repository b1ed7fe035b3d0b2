#!/usr/bin/env node
/**
 * `npm run audit:security`: runs the MDN HTTP Observatory scanner against `npm start` on loopback
 * and prints its grade, score and each test. Plain-http loopback cannot pass the HTTPS redirect
 * test; everything else is judged as on the deployed site.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { table, withServer } from './bench/_server.mjs';

const require = createRequire(import.meta.url);
const observatory = dirname(require.resolve('@mdn/mdn-http-observatory/package.json'));
// Its install script would download this list; no host on loopback is preloaded anyway.
const preload = join(observatory, 'conf', 'hsts-preload.json');
if (!existsSync(preload)) writeFileSync(preload, '{}\n');

const load = (path) => import(pathToFileURL(join(observatory, 'src', path)).href);
const { retrieve } = await load('retriever/retriever.js');
const { ALL_TESTS } = await load('constants.js');
const { getGradeForScore, getScoreModifier } = await load('grader/grader.js');
const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = await load('grader/charts.js');

// jsdom, inside the scanner, cannot parse Tailwind 4's CSS and logs the whole stylesheet; the
// tests read headers and markup only.
const consoleError = console.error;
console.error = (...args) => {
  if (String(args[0]).includes('Could not parse CSS stylesheet')) return;
  consoleError(...args);
};

const port = Number(process.env.AUDIT_PORT || 8896);
const paths = (process.env.AUDIT_PATHS || '/,/faqs,/lead-the-change,/webhook-config').split(',');

await withServer(port, async () => {
  let worst = Infinity;
  for (const path of paths) {
    const requests = await retrieve('localhost', { httpPort: port, httpsPort: port + 1000, path });
    if (!requests.responses.auto) throw new Error(`no answer from http://localhost:${port}${path}`);
    const results = ALL_TESTS.map((test) => test(requests));
    let withCredit = 100;
    let uncurved = 100;
    const rows = [];
    for (const [i, result] of results.entries()) {
      const modifier = result.result ? getScoreModifier(result.result) : 0;
      withCredit += modifier;
      if (modifier < 0) uncurved += modifier;
      rows.push([ALL_TESTS[i].name || '(test)', result.result ?? '', result.pass ? 'pass' : 'FAIL', modifier > 0 ? `+${modifier}` : String(modifier)]);
    }
    const score = uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withCredit : uncurved;
    const { grade } = getGradeForScore(score);
    worst = Math.min(worst, score);
    console.log(`\n### ${path}: grade ${grade}, score ${score}\n`);
    table(['test', 'result', 'pass', 'modifier'], rows);
  }
  console.log(`\nLowest score: ${worst}`);
});
