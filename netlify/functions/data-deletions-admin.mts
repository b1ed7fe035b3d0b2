import type { Config } from '@netlify/functions';
import { requireAdmin } from '../../src/server/auth';
import { listContactDeletions } from '../../src/server/data-rights';
import { allowMethods, handle, json } from '../../src/server/http';

/**
 * GET /api/admin/data-deletions (signed in): the HubSpot contact deletions parents asked for,
 * newest first, with their addresses masked: done, or still waiting and why.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  await requireAdmin(req);
  return json({ deletions: await listContactDeletions() });
});

export const config: Config = { path: '/api/admin/data-deletions', method: ['GET'] };
