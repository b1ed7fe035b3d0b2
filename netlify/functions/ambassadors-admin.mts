import type { Config } from '@netlify/functions';
import {
  addAmbassador,
  AMBASSADOR_ID,
  ambassadorLeaderboard,
  ambassadorLink,
  knownAmbassador,
  newAmbassadorSchema,
  stalledSchools,
} from '../../src/server/ambassadors';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';

/**
 * Ambassadors (signed in). GET /api/admin/ambassadors: the leaderboard (each known ambassador's
 * parents, confirmed sends, schools reached, answers) and the stalled schools; POST
 * /api/admin/ambassadors { id, name, email } adds one; POST /api/admin/ambassadors/{id}/link makes
 * the signed link to their own page (for staff to copy until the mail layer sends it).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const parts = new URL(req.url).pathname.split('/').slice(4); // after /api/admin/ambassadors
  if (parts.length === 0) {
    if (req.method === 'GET') {
      const [ambassadors, stalled] = await Promise.all([ambassadorLeaderboard(), stalledSchools()]);
      return json({ ambassadors, stalled });
    }
    const input = await readJson(req, newAmbassadorSchema);
    await addAmbassador(input, session.username);
    await auditRequest(req, context, session, 'ambassador.added', input.id);
    return json({ id: input.id }, 201);
  }
  const id = decodeURIComponent(parts[0] ?? '');
  if (parts.length === 2 && parts[1] === 'link' && AMBASSADOR_ID.test(id)) {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Make a link with POST.');
    if (!(await knownAmbassador(id))) throw new HttpError(404, 'unknown_ambassador', 'There is no ambassador with this id.');
    await auditRequest(req, context, session, 'ambassador.link_made', id);
    return json({ url: ambassadorLink(id) });
  }
  throw new HttpError(404, 'not_found', 'There is no such ambassador.');
});

export const config: Config = { path: ['/api/admin/ambassadors', '/api/admin/ambassadors/*'] };
