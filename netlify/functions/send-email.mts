import type { Config } from '@netlify/functions';
import { sendEmailSchema } from '../../src/lib/schemas';
import { allowMethods, handle, json, jsonError, readJson } from './_shared/http';
import { hubspotClient } from './_shared/hubspot';
import { attemptDelivery, enqueue, type OutboxRecord } from './_shared/outbox';

/** The outcome of a message, as the dialog reads it: sent (200), queued for retry (202), failed (502). */
function answer(record: OutboxRecord): Response {
  if (record.status === 'failed') {
    return jsonError(502, 'delivery_failed', 'The email could not be handed to HubSpot. Please copy it and send it yourself.');
  }
  return json({ id: record.id, status: record.status }, record.status === 'sent' ? 200 : 202);
}

/**
 * Keys being handled by this instance. The outbox's create-if-new write is what makes a key send
 * once across instances; this also covers two requests racing inside one warm instance (and the
 * local Blobs emulator, whose conditional write is not atomic).
 */
const inFlight = new Set<string>();

/**
 * POST /api/send-email: "Send via our platform". Stores the message in the outbox first, then
 * asks HubSpot to send it; whatever HubSpot does, nothing is lost.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const input = await readJson(req, sendEmailSchema);
  // A clear "not configured" before anything is stored: such a message could never be delivered.
  const client = hubspotClient();
  const key = input.idempotencyKey;
  if (inFlight.has(key)) return json({ id: key, status: 'pending' }, 202);
  inFlight.add(key);
  try {
    const { created, record } = await enqueue(key, {
      parentEmail: input.parentEmail,
      to: input.to,
      subject: input.subject,
      body: input.body,
    });
    // The same key again (a double click, a retried request): report, never send twice.
    if (!created) return answer(record);
    return answer(await attemptDelivery(client, record));
  } finally {
    inFlight.delete(key);
  }
});

export const config: Config = {
  path: '/api/send-email',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
