import type { Config } from '@netlify/functions';
import { sendEmailSchema } from '../../src/lib/shared/schemas';
import { allowMethods, clientIp, handle, json, readJson } from '../../src/server/http';
import { networkKey } from '../../src/server/identity';
import { recordSelfSent } from '../../src/server/letter/request';

/**
 * POST /api/email-sent-myself {submissionId, token, note?}: the parent says they sent their school
 * email themselves (copied it, or opened it in their email app). One email asks them to confirm it
 * from their inbox (202, "check your inbox"); only then is it recorded (once per draft), followed
 * up in ten days, and, once staff approve it, counted on its verified school's page. The answer
 * says nothing about any page or count.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const input = await readJson(req, sendEmailSchema);
  const answer = await recordSelfSent(input, { network: networkKey(clientIp(req, context)), ip: clientIp(req, context) });
  return json(answer.body, answer.status);
});

export const config: Config = {
  path: '/api/email-sent-myself',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
