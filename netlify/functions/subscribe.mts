import type { Config } from '@netlify/functions';
import { subscribeSchema } from '../../src/lib/shared/schemas';
import { serverEnv } from '../../src/server/env';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';
import { withRetry } from '../../src/server/hubspot';

const SUBMIT_TIMEOUT_MS = 3000;

/** A failed Forms API answer, shaped like the api-client's errors so withRetry can judge it. */
class FormsApiError extends Error {
  constructor(
    readonly code: number,
    readonly invalidEmail: boolean,
  ) {
    super(`HubSpot Forms API answered ${code}`);
  }
}

async function submit(email: string, pageUri: string | undefined): Promise<void> {
  const url = `${serverEnv.hubspotFormsBasePath}/submissions/v3/integration/submit/${encodeURIComponent(serverEnv.hubspotPortalId)}/${encodeURIComponent(serverEnv.hubspotNewsletterFormId)}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      fields: [{ objectTypeId: '0-1', name: 'email', value: email }],
      context: { pageUri, pageName: 'How It Works' },
    }),
    signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
  });
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw new FormsApiError(response.status, response.status === 400 && /INVALID_EMAIL/.test(text));
}

/**
 * POST /api/subscribe {email}: the /how-it-works subscribe box, through HubSpot's Forms submission
 * API (portal and newsletter form from configuration).
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  const { email } = await readJson(req, subscribeSchema);
  // Without HubSpot configured a local run must not post to the real portal.
  if (!serverEnv.hubspotAccessToken) {
    throw new HttpError(503, 'hubspot_not_configured', 'Subscriptions are not available yet: HubSpot is not configured on this site.');
  }
  const referer = req.headers.get('referer') ?? undefined;
  try {
    await withRetry(() => submit(email, referer), { attempts: 3 });
  } catch (error) {
    if (error instanceof FormsApiError && error.invalidEmail) {
      throw new HttpError(400, 'invalid_email', 'Please enter a valid email address.');
    }
    console.error('[subscribe] HubSpot Forms API failed', error instanceof FormsApiError ? error.code : 'network');
    throw new HttpError(502, 'subscribe_failed', 'We could not subscribe you right now. Please try again in a moment.');
  }
  return json({ ok: true, message: "You're subscribed! Watch your inbox for insights and advocacy tips." });
});

export const config: Config = {
  path: '/api/subscribe',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
