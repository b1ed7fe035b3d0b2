import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { SUGGEST_QUERY_MAX } from '../../src/lib/shared/school-record';
import { allowMethods, describeIssues, handle, HttpError, json } from '../../src/server/http';
import { suggestSchools } from '../../src/server/schools/records';

const querySchema = z.object({
  q: z
    .string()
    .max(SUGGEST_QUERY_MAX, `Type at most ${SUGGEST_QUERY_MAX} characters.`)
    // eslint-disable-next-line no-control-regex
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'Type the school’s name on one line.'),
});

/**
 * GET /api/school-suggestions?q=lin: the verified schools whose name (or city) has words starting
 * with what a parent typed, for the email form's school field (an accessible combobox) and
 * /nominate-school. Only verified schools are ever offered, with the leaders their record lists; a
 * school a parent typed is never offered to another. Answered from the database, cached a minute.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const parsed = querySchema.safeParse({ q: new URL(req.url).searchParams.get('q') ?? '' });
  if (!parsed.success) throw new HttpError(400, 'invalid_query', describeIssues(parsed.error));
  const schools = await suggestSchools(parsed.data.q);
  return json({ schools }, 200, { 'Cache-Control': 'public, max-age=60', 'Netlify-CDN-Cache-Control': 'public, durable, max-age=60' });
});

export const config: Config = {
  path: '/api/school-suggestions',
  method: ['GET'],
  rateLimit: { windowLimit: 300, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
