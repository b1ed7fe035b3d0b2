import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/staff/audit';
import { requireOwner } from '../../src/server/staff/auth';
import { listContactDeletions } from '../../src/server/data-rights';
import { allowMethods, handle, json } from '../../src/server/http';

/**
 * GET /api/admin/data-deletions (signed in): the HubSpot contact deletions parents asked for,
 * newest first, with their addresses masked: done, or still waiting and why.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const session = await requireOwner(req, context);
  const deletions = await listContactDeletions();
  await auditRequest(req, context, session, 'data_deletion.viewed');
  return json({ deletions });
});

export const config: Config = { path: '/api/admin/data-deletions', method: ['GET'] };
