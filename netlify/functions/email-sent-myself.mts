import type { Config } from '@netlify/functions';
import { sendEmailSchema } from '../../src/lib/schemas';
import { allowMethods, handle, json, readJson } from '../../src/server/http';
import { recordSelfSent } from '../../src/server/platform-send';

/**
 * POST /api/email-sent-myself {submissionId, token, note?}: the parent says they sent their school
 * email themselves (copied it, or opened it in their email app). Recorded once per draft, so that
 * ten days later they are asked whether the school answered, and counted in the impact figures.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const input = await readJson(req, sendEmailSchema);
  const answer = await recordSelfSent(input);
  return json(answer.body, answer.status);
});

export const config: Config = {
  path: '/api/email-sent-myself',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
