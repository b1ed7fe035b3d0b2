import type { Config } from '@netlify/functions';
import { safeHttpUrl } from '../../src/lib/shared/booking';
import { searchContactSchema } from '../../src/lib/shared/schemas';
import { findBookingDelivery } from '../../src/server/calendly-webhook';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, json, readJson } from '../../src/server/http';

/** Between two looks for the booking's delivery. */
const POLL_MS = 400;

/**
 * POST /api/hubspot/search-contact {email, inviteeUuid}: the /thank-you page's meeting link, for a
 * booking that happened. It answers only when Calendly's signed delivery of this invitee (the
 * `invitee_uuid` of Calendly's redirect) for this email was logged, waiting a few seconds for the
 * webhook, and then only with the meeting link. Anything else, whoever asks, is the same
 * `{ found: false }` after the same wait: the answer never says whether an address is a contact.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const { email, inviteeUuid } = await readJson(req, searchContactSchema);
  const deadline = Date.now() + serverEnv.bookingLookupWaitMs;
  for (;;) {
    const delivery = await findBookingDelivery({ email, inviteeUuid });
    if (delivery) return json({ found: true, meetingLink: safeHttpUrl(delivery.payload.payload.scheduled_event?.location?.join_url) ?? null });
    if (Date.now() + POLL_MS > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return json({ found: false });
});

export const config: Config = {
  path: '/api/hubspot/search-contact',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
