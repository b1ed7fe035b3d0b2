/**
 * `npm run bench -- data`: what a request costs as the data grows. The function handlers run in
 * this process (no emulator worker per call) against Netlify's local database emulation, first
 * with 100 rows, then with 100,000 form submissions and 50,000 outbox messages seeded in bulk, and
 * print p50/p99 of a form submission, a send request, a confirmation, GET /api/impact and an admin
 * list page. The cost of a request should not grow with the rows.
 */
import { importSource } from './_source.mjs';

export const title = 'Data: request cost at 100 rows and at 100,000';

export async function run() {
  const { measureData } = await importSource('./data/measure.ts');
  await measureData();
}
