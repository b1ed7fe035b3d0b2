import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { sendEmailSchema } from '../../src/lib/shared/schemas';
import { allowMethods, clientIp, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { networkKey } from '../../src/server/identity';
import { requestPlatformSend, timeZoneOf } from '../../src/server/letter/request';
import { recordSendRequest } from '../../src/server/analytics/record';

/**
 * POST /api/send-email {submissionId, token, note?}: "Send via our platform". The server composes
 * the email from the accepted submission and stores it; with confirmation on (the default) it
 * answers 202 awaiting_confirmation and the site emails the parent a link to confirm; with it off,
 * 200 sent or 202 queued. A limit this parent met (already wrote to this school, their daily
 * cap) is never in the answer: it is the same either way, and the parent reads it in their inbox.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const body = await readJson(req, z.record(z.string(), z.unknown()));
  // The old request shape carried the text itself; the platform only sends what it composed.
  if (['subject', 'body', 'to', 'idempotencyKey'].some((name) => name in body)) {
    throw new HttpError(400, 'text_not_accepted', 'The platform only sends the email it composed from your form. Send your submission id and token instead.');
  }
  const parsed = sendEmailSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
  const input = parsed.data;
  const { timeZone, ...request } = input;
  const answer = await requestPlatformSend(request, {
    network: networkKey(clientIp(req, context)),
    ip: clientIp(req, context),
    timeZone: timeZoneOf(timeZone),
  });
  await recordSendRequest(input.submissionId, answer.body.status);
  return json(answer.body, answer.status);
});

export const config: Config = {
  path: '/api/send-email',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
