import type { Config } from '@netlify/functions';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';
import { afterDelivery } from '../../src/server/letter-delivery';
import { acceptMailgunReport, mailgunReportSchema, readMailgunEvent } from '../../src/server/mail/provider-events';
import { recordProviderEvent } from '../../src/server/mail/queue';

/**
 * POST /api/mail/events/mailgun: Mailgun's signed delivery reports (webhooks "delivered",
 * "permanent_fail", "complained"). A bounce suppresses the address and tells the parent whose
 * letter it was (src/server/letter-delivery.ts); a complaint stops everything but essential mail to
 * it. Unsigned, stale or replayed reports change nothing (401, 400, 409); a report about an email
 * this site did not send is a 404 (Mailgun then stops retrying it: 406 would too, but 404 says why).
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  // A malformed report is a 400 whatever the configuration; a well-formed one needs the key.
  const report = await readJson(req, mailgunReportSchema);
  const key = serverEnv.mailgunWebhookSigningKey;
  if (!key) throw new HttpError(503, 'not_configured', 'Mailgun reports are not taken: MAILGUN_WEBHOOK_SIGNING_KEY is not set.');
  await acceptMailgunReport(report, key);
  const event = readMailgunEvent(report);
  if (!event) return json({ ok: true, ignored: true });
  const recorded = await recordProviderEvent(event.id, event.event, event.detail);
  if (!recorded) throw new HttpError(404, 'unknown_email', 'No email of this site has this Message-ID.');
  if (recorded.changed) await afterDelivery(recorded.email, event.event, new Date(), event.detail);
  return json({ ok: true, changed: recorded.changed });
});

export const config: Config = { path: '/api/mail/events/mailgun', method: ['POST'] };
