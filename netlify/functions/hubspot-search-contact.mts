import type { Config } from '@netlify/functions';
import { searchContactSchema } from '../../src/lib/schemas';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';
import { hubspotClient, searchContactsByEmail } from '../../src/server/hubspot';

/**
 * POST /api/hubspot/search-contact {email}: the booking page's lookup. Answers only the three
 * properties it needs, never the rest of the contact.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const { email } = await readJson(req, searchContactSchema);
  const client = hubspotClient();
  const names = serverEnv.contactProperties;
  let found;
  try {
    found = await searchContactsByEmail(client, email, ['hs_object_id', names.meetingLink, names.assignedHost]);
  } catch {
    throw new HttpError(502, 'hubspot_unavailable', 'Failed to search for contact');
  }
  return json({
    total: found.total,
    results: found.results.map((contact) => ({
      properties: {
        hs_object_id: contact.properties.hs_object_id ?? contact.id,
        meeting_link: contact.properties[names.meetingLink] ?? null,
        calendly_assigned_host: contact.properties[names.assignedHost] ?? null,
      },
    })),
  });
});

export const config: Config = {
  path: '/api/hubspot/search-contact',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
