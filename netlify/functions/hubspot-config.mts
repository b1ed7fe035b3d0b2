import type { Config } from '@netlify/functions';
import { hubspotConfigSchema } from '../../src/lib/shared/schemas';
import { createHubSpotConfig, currentHubSpotConfig, publicHubSpotConfig } from '../../src/server/staff/admin-config';
import { auditRequest } from '../../src/server/staff/audit';
import { requireOwner } from '../../src/server/staff/auth';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, json, readJson } from '../../src/server/http';
import type { HubSpotConfigAnswer } from '../../src/lib/shared/schemas/admin';

/**
 * The HubSpot configuration. GET: the current one (tokens masked) and whether the site falls back
 * to HUBSPOT_ACCESS_TOKEN. POST: stores a new one, its tokens encrypted; an active one takes over.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireOwner(req, context);

  if (req.method === 'POST') {
    const input = await readJson(req, hubspotConfigSchema);
    const record = await createHubSpotConfig(input);
    await auditRequest(req, context, session, 'hubspot_config.saved', record.id);
    return json({ config: publicHubSpotConfig(record) }, 201);
  }

  const current = await currentHubSpotConfig();
  return json({
    config: current ? publicHubSpotConfig(current) : null,
    environmentTokenConfigured: Boolean(serverEnv.hubspotAccessToken),
  } satisfies HubSpotConfigAnswer);
});

export const config: Config = { path: '/api/hubspot-config', method: ['GET', 'POST'] };
