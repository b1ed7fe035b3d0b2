import type { Config } from '@netlify/functions';
import { BEACON_MAX_BYTES, beaconSchema } from '../../src/lib/shared/analytics/events';
import { recordBeacon, takeBeaconAllowance } from '../../src/server/analytics/record';
import { countable, hasBrowserSignals } from '../../src/server/analytics/visitor';
import { serverEnv } from '../../src/server/env';
import { allowMethods, describeIssues, handle, HttpError, readLimited } from '../../src/server/http';

/** The beacon's answer: nothing to read, nothing cached. */
const accepted = () => new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } });

/** Only this site's pages may send events: their Origin (or, without one, a same-origin fetch). */
function fromThisSite(req: Request): boolean {
  const origin = req.headers.get('origin');
  if (!origin) return req.headers.get('sec-fetch-site') === 'same-origin';
  return origin === new URL(req.url).origin || serverEnv.siteOrigins.includes(origin);
}

/**
 * POST /api/event: the pages' beacon (`navigator.sendBeacon`, a text/plain JSON body of at most
 * 2 KB): a page view, a form start or a share. Another site's request is 403, an unknown event or
 * an oversized value 400 or 413, a flood from one network or past the site's ceiling 429; a bot,
 * a request without a browser's own signals, or a browser that asks not to be counted
 * (Do-Not-Track, Global Privacy Control) gets 204 and nothing is stored. Never a cookie.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  if (!fromThisSite(req)) throw new HttpError(403, 'foreign_origin', 'Events are only taken from this site’s own pages.');
  const type = req.headers.get('content-type') ?? '';
  if (type && !/^(text\/plain|application\/json)\b/i.test(type)) throw new HttpError(415, 'unsupported_media_type', 'Send the event as JSON text.');
  if (Number(req.headers.get('content-length') ?? 0) > BEACON_MAX_BYTES) throw new HttpError(413, 'payload_too_large', 'An event is at most 2 KB.');
  const text = await readLimited(req, BEACON_MAX_BYTES);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The event is not valid JSON.');
  }
  const parsed = beaconSchema.safeParse(data);
  if (!parsed.success) throw new HttpError(400, 'invalid_event', describeIssues(parsed.error));
  if (!countable(req, context) || !hasBrowserSignals(req)) return accepted();
  const allowance = await takeBeaconAllowance(req, context);
  if (allowance === 'network') throw new HttpError(429, 'rate_limited', 'Too many events from this network; they are counted again in a minute.');
  if (allowance === 'site') throw new HttpError(429, 'site_busy', 'The site is taking as many events as it counts in a minute; it counts again in a minute.');
  await recordBeacon(req, context, parsed.data);
  return accepted();
});

export const config: Config = {
  path: '/api/event',
  method: 'POST',
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
