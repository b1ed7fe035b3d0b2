import type { Config } from '@netlify/functions';
import { nominationSchema } from '../../src/lib/schemas';
import { allowMethods, handle, json, readJson } from './_shared/http';
import { saveNomination } from './_shared/nominations';

/** POST /api/nominations: the six-field school nomination; 201 with its id. */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const nomination = await readJson(req, nominationSchema);
  const record = await saveNomination('nomination', nomination);
  return json({ id: record.id }, 201);
});

export const config: Config = {
  path: '/api/nominations',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
