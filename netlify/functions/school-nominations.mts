import type { Config } from '@netlify/functions';
import { schoolNominationSchema } from '../../src/lib/shared/schemas';
import { refuseBlocked } from '../../src/server/abuse/blocks';
import { recordRequest } from '../../src/server/abuse/watch';
import { allowMethods, clientIp, handle, json, readJson } from '../../src/server/http';
import { saveNomination } from '../../src/server/schools/nominations';

/** POST /api/school-nominations: the four-field variant; 201 with its id. */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const nomination = await readJson(req, schoolNominationSchema);
  const ip = clientIp(req, context);
  await refuseBlocked({ ip, email: nomination.email });
  const record = await saveNomination('school-nomination', nomination);
  await recordRequest({ kind: 'nomination', ip, email: nomination.email, school: nomination.schoolName, form: 'school-nomination' });
  return json({ id: record.id }, 201);
});

export const config: Config = {
  path: '/api/school-nominations',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
