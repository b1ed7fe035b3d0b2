import type { Config } from '@netlify/functions';
import { connectionTestSchema } from '../../src/lib/shared/schemas';
import { requireOwner } from '../../src/server/staff/auth';
import { hubspotClient } from '../../src/server/hubspot';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';

/** Checks a HubSpot token with the cheapest authenticated call (account details). Nothing is stored. */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  await requireOwner(req, context);
  const { accessToken } = await readJson(req, connectionTestSchema);
  let response: Response;
  try {
    response = await hubspotClient(accessToken).apiRequest({ method: 'GET', path: '/account-info/v3/details' });
  } catch (error) {
    const status = (error as { code?: unknown; response?: { status?: number } })?.response?.status;
    if (!status) throw new HttpError(502, 'connection_failed', 'Failed to connect to the HubSpot API');
    response = new Response(null, { status });
  }
  if (response.status === 401 || response.status === 403) {
    throw new HttpError(400, 'connection_failed', `HubSpot refused this access token (${response.status}).`);
  }
  if (!response.ok) throw new HttpError(502, 'connection_failed', `HubSpot answered ${response.status}.`);
  const account = (await response.json().catch(() => ({}))) as { portalId?: number };
  return json({ ok: true, message: 'HubSpot connection test successful', account: { portalId: account.portalId ?? null } });
});

export const config: Config = { path: '/api/test-hubspot-connection', method: 'POST' };
