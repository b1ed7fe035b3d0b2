import type { Config } from '@netlify/functions';
import { updateContactSchema } from '../../src/lib/shared/schemas';
import { allowedUpdate, startsASend } from '../../src/server/forms/contact-updates';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';
import { hubspotClient, statusOf, updateContact } from '../../src/server/hubspot';

/**
 * POST /api/hubspot/update-contact {contactId, updates:[{field, value}]}: only the fields of the
 * allow-list (none today), never an open door to CRM writes. The send choice is refused with 403:
 * it starts the school email's send, which only the parent's confirmation from their inbox may do.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const { contactId, updates } = await readJson(req, updateContactSchema);
  if (updates.some((update) => startsASend(update.field))) {
    throw new HttpError(
      403,
      'send_choice_not_allowed',
      'The send choice cannot be set here: a school email is sent only after the parent confirms it from the link in their inbox.',
    );
  }
  const properties: Record<string, string> = {};
  for (const update of updates) {
    const allowed = allowedUpdate(update.field, update.value);
    if (!allowed) throw new HttpError(400, 'update_not_allowed', `The field "${update.field.slice(0, 100)}" cannot be set to that value here.`);
    properties[allowed.property] = allowed.value;
  }
  const client = hubspotClient();
  try {
    await updateContact(client, contactId, properties);
  } catch (error) {
    if (statusOf(error) === 404) throw new HttpError(404, 'contact_not_found', 'No contact found with this id.');
    throw new HttpError(502, 'hubspot_unavailable', 'Failed to update contact');
  }
  return json({ ok: true, id: contactId });
});

export const config: Config = {
  path: '/api/hubspot/update-contact',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
