import type { Config } from '@netlify/functions';
import { nominationSchema } from '../../src/lib/shared/schemas';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { refuseBlocked } from '../../src/server/abuse/blocks';
import { recordRequest } from '../../src/server/abuse/watch';
import { allowMethods, clientIp, HttpError, handle, json, readJson } from '../../src/server/http';
import { listNominations, saveNomination } from '../../src/server/schools/nominations';

/**
 * POST /api/nominations: the six-field school nomination; 201 with its id.
 * GET /api/nominations?limit=&cursor=: the admin's list, newest first (signed-in only; audited).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  if (req.method === 'GET') {
    const session = await requireAdmin(req);
    const params = new URL(req.url).searchParams;
    const limit = Number(params.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new HttpError(400, 'invalid_request', 'limit must be a whole number from 1 to 200.');
    const cursor = params.get('cursor') ?? undefined;
    if (cursor !== undefined && !/^[\w-]{1,120}$/.test(cursor)) throw new HttpError(400, 'invalid_request', 'cursor is not valid.');
    const page = await listNominations(limit, cursor);
    // Nominations carry parents' names and addresses: reading them is audited.
    await auditRequest(req, context, session, 'nomination.viewed', `${page.nominations.length} nominations${cursor ? ' (next page)' : ''}`);
    return json(page);
  }
  const nomination = await readJson(req, nominationSchema);
  const ip = clientIp(req, context);
  await refuseBlocked({ ip, email: nomination.email });
  const record = await saveNomination('nomination', nomination);
  await recordRequest({ kind: 'nomination', ip, email: nomination.email, school: nomination.schoolName, form: 'nomination' });
  return json({ id: record.id }, 201);
});

export const config: Config = {
  path: '/api/nominations',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
