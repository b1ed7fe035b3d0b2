import type { Config } from '@netlify/functions';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, HttpError, json, jsonError, readJson } from '../../src/server/http';
import { afterDelivery } from '../../src/server/letter/delivery';
import { acceptMailgunReport, mailgunReportSchema, readMailgunEvent } from '../../src/server/mail/provider-events';
import { recordProviderEvent } from '../../src/server/mail/queue';

/**
 * POST /api/mail/events/mailgun: Mailgun's signed delivery reports (webhooks "delivered",
 * "permanent_fail", "temporary_fail", "complained"), answered as Mailgun's retry rules read them:
 * 200 taken (also a replay of one taken before, and a report for an email of ours not recorded yet,
 * which waits and is applied when it is); 406 for a report about a message this site never sent
 * (Mailgun stops retrying); 401 unsigned, 400 stale or malformed (retried, in case the key is being
 * rotated). Only a mailbox that does not exist blocks its address; a policy refusal fails that one
 * email; the letters an email carried move on and their parents are told (src/server/letter).
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  // A malformed report is a 400 whatever the configuration; a well-formed one needs the key.
  const report = await readJson(req, mailgunReportSchema);
  const key = serverEnv.mailgunWebhookSigningKey;
  if (!key) throw new HttpError(503, 'not_configured', 'Mailgun reports are not taken: MAILGUN_WEBHOOK_SIGNING_KEY is not set.');
  if (!(await acceptMailgunReport(report, key))) return json({ ok: true, replayed: true });
  const event = readMailgunEvent(report, serverEnv.mailFromAddress);
  if (event === 'not_ours') return jsonError(406, 'not_ours', 'No email of this site has this Message-ID; do not send it again.');
  if (!event) return json({ ok: true, ignored: true });
  const recorded = await recordProviderEvent(event.id, event.event, event.detail);
  if (!recorded) return json({ ok: true, waiting: true });
  if (recorded.changed) await afterDelivery(recorded.email, recorded.email.state, new Date(), event.detail);
  return json({ ok: true, changed: recorded.changed });
});

export const config: Config = { path: '/api/mail/events/mailgun', method: ['POST'] };
