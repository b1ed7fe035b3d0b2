/**
 * Counting what people do, without tracking them (issue 30). Two ways in:
 * - the beacon (`/api/event`): page views, form starts and shares, from the page's own tiny
 *   script; nothing from a bot or a browser that declines counting;
 * - the server's own steps, counted where they happen, so they count without JavaScript too:
 *   a form sent (and its draft), a send request, a confirmation, a delivery, an answer.
 *
 * A draft starts a journey (`analytics_journeys`): the page, source, campaign, ambassador and
 * experiment variant the parent came with (their first visit of the day, found by the day's
 * visitor hash), its letter and school page. Later steps, often days later from the parent's
 * inbox, are counted for that journey, once each. Every hook here is failure-tolerant: counting
 * never fails or slows the step it counts beyond one statement.
 */
import { emailFormPurposes, formPurposes } from '../../config/forms';
import { shareChannels, type Beacon } from '../../lib/shared/analytics/events';
import { countedPage, OTHER_PAGE } from './counted-pages';
import { knownAmbassador } from '../ambassadors';
import { query, queryOne, sql } from '../db';
import { creditedVariants, recordShareConversion } from './experiments';
import { clientIp } from '../http';
import { clientAddressKey } from '../identity';
import { pageKeyAt } from '../schools/letters';
import { countable, dayOf, NETWORK_VISITORS, networkHash, saltOf, visitorHash } from './visitor';
import { createHmac } from 'node:crypto';

/** A form's purpose as an event kind: "emailGenerator" → "email_generator". */
export const kindOfPurpose = (purpose: string) => purpose.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).slice(0, 40);
/** The kinds of the school email's forms: the funnel's "started the form". */
export const emailFormKinds = emailFormPurposes.map(kindOfPurpose);

/**
 * A campaign's or source's value as the figures keep it: lower-case letters, digits and . _ - / and
 * spaces, at most `max` characters; anything else (a 2 KB value, markup, another alphabet a script
 * made up) is "other", so that a stranger cannot make rows of their own.
 */
const label = (value: string | null | undefined, max: number) => {
  const text = (value ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (!text) return undefined;
  return text.length <= max && /^[a-z0-9._ /-]+$/.test(text) ? text : OTHER_PAGE;
};

/** Where a visit came from: its campaign's source (and medium), else the referring site, else direct. */
export function sourceOf(params: URLSearchParams, referrer: string | undefined, siteHost: string): { source?: string; campaign?: string } {
  const campaign = label(params.get('utm_campaign'), 100);
  const utm = label(params.get('utm_source'), 60);
  if (utm) {
    const medium = label(params.get('utm_medium'), 30);
    return { source: medium ? `${utm} / ${medium}` : utm, campaign };
  }
  try {
    const host = referrer ? new URL(referrer).hostname.toLowerCase().replace(/^www\./, '') : '';
    if (host && host !== siteHost.replace(/^www\./, '')) return { source: label(host, 100), campaign };
  } catch {
    // A referrer that is not a URL is no source.
  }
  return { campaign };
}

/** The kind a beacon event may carry: a known form or share channel, anything else "other". */
function beaconKind(beacon: Beacon): string | undefined {
  if (beacon.n === 'form_start') return formPurposes.includes(beacon.k as never) ? kindOfPurpose(beacon.k!) : 'other';
  if (beacon.n === 'share') return shareChannels.includes(beacon.k as never) ? beacon.k : 'other';
  return undefined;
}

/** Beacon events allowed per client network and minute; more are refused (429). */
export const BEACON_RATE_LIMIT = 60;
/**
 * Beacon events the whole site takes in a minute, from every network together: the ceiling that
 * keeps a flood from many networks from filling the database. Far above an honest day's peak (a
 * newsletter's minute brings a few hundred); past it events are refused (429) and pages work on.
 */
export const SITE_EVENTS_PER_MINUTE = 3000;

/** Takes one event from a window's allowance; false once it is spent. */
async function take(client: string, window: Date, limit: number): Promise<boolean> {
  const row = await queryOne(sql`
    INSERT INTO analytics_rate_windows AS w (client, window_start, events) VALUES (${client}, ${window}, 1)
    ON CONFLICT (client, window_start) DO UPDATE SET events = w.events + 1 WHERE w.events < ${limit}
    RETURNING 1`);
  return row !== undefined;
}

/**
 * Takes one beacon event for the request's network (its key a keyed hash under the day's salt)
 * and for the whole site; says which allowance is spent, if one is.
 */
export async function takeBeaconAllowance(req: Request, context: unknown, now = Date.now()): Promise<'ok' | 'network' | 'site'> {
  const window = new Date(now - (now % 60_000));
  const salt = await saltOf(dayOf(new Date(now)));
  const client = createHmac('sha256', salt)
    .update(`beacon|${clientAddressKey(clientIp(req, context))}`)
    .digest('hex');
  if (!(await take(client, window, BEACON_RATE_LIMIT))) return 'network';
  if (!(await take('site', window, SITE_EVENTS_PER_MINUTE))) return 'site';
  return 'ok';
}

/**
 * Stores one beacon event, if the request may be counted. A network's browsers past
 * `NETWORK_VISITORS` in a day count as one more visitor, whatever user agents they claim.
 */
export async function recordBeacon(req: Request, context: unknown, beacon: Beacon, now = new Date()): Promise<'stored' | 'ignored'> {
  if (!countable(req, context)) return 'ignored';
  const day = dayOf(now);
  const [visitor, network] = await Promise.all([visitorHash(req, context, day), networkHash(req, context, day)]);
  const params = new URLSearchParams(beacon.q ?? '');
  const { page, school } = countedPage(beacon.p);
  const { source, campaign } = sourceOf(params, beacon.r, new URL(req.url).hostname);
  const asked = params.get('ambassadorId')?.trim() ?? '';
  const ambassador = asked && (await knownAmbassador(asked)) ? asked : undefined;
  const crowd = network ? createHmac('sha256', network).update('crowd').digest('hex').slice(0, 32) : null;
  await query(sql`
    WITH seen AS (
      SELECT DISTINCT visitor FROM analytics_events WHERE network = ${network ?? null} AND day = ${day}::date AND visitor IS NOT NULL LIMIT ${NETWORK_VISITORS + 1}
    )
    INSERT INTO analytics_events (at, day, name, visitor, network, page, source, campaign, ambassador, school, kind)
    SELECT ${now}, ${day}::date, ${beacon.n},
      CASE WHEN ${network ?? null}::text IS NULL OR EXISTS (SELECT 1 FROM seen WHERE visitor = ${visitor ?? null}) OR (SELECT count(*) FROM seen) < ${NETWORK_VISITORS}
        THEN ${visitor ?? null}::text ELSE ${crowd}::text END,
      ${network ?? null}, ${page}, ${source ?? null}, ${campaign ?? null}, ${ambassador ?? null}, ${school ?? null}, ${beaconKind(beacon) ?? null}`);
  if (beacon.n === 'share') await recordShareConversion(visitor, now);
  return 'stored';
}

/** What a draft brings to its journey (the email form's draft, as email-drafts.ts makes it). */
export interface DraftFacts {
  id: string;
  letter?: { id: string };
  attribution?: { via: string; ambassadorId?: string };
  data?: { schoolContactEmail?: string };
}

async function tolerate(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.error(`[insights] ${what} not counted:`, error instanceof Error ? error.message : 'unknown error');
  }
}

/**
 * A form was sent (and, for the email forms, its draft made): counts both and starts the draft's
 * journey with where the parent came from today. Never throws.
 */
export async function recordFormSent(
  req: Request,
  context: unknown,
  input: { purpose: string; page?: string; draft?: DraftFacts },
  now = new Date(),
): Promise<void> {
  if (!countable(req, context)) return;
  await tolerate('form', async () => {
    const day = dayOf(now);
    const visitor = await visitorHash(req, context, day);
    const { page, school: pageSchool } = countedPage(input.page ?? '/');
    const draft = input.draft;
    const address = draft?.data?.schoolContactEmail?.trim();
    const school = (address ? await pageKeyAt(address) : undefined) ?? pageSchool;
    const asked = draft?.attribution?.ambassadorId;
    const ambassador = asked && (await knownAmbassador(asked)) ? asked : null;
    const credited = await creditedVariants(visitor, day);
    const names = draft ? ['form_sent', 'draft'] : ['form_sent'];
    // The visitor finds the day's landing and is not written: a row that names a draft carries no visitor.
    await query(sql`
      WITH landing AS (
        SELECT source, campaign, ambassador FROM analytics_events
        WHERE visitor = ${visitor ?? null} AND day = ${day}::date AND name = 'page_view' ORDER BY id LIMIT 1
      ),
      dims AS (
        SELECT (SELECT source FROM landing) AS source, (SELECT campaign FROM landing) AS campaign,
               coalesce(${ambassador}::text, (SELECT ambassador FROM landing)) AS ambassador,
               ${credited.variant ?? null}::text AS variant, ${credited.linkVariant ?? null}::text AS link_variant
      ),
      journey AS (
        INSERT INTO analytics_journeys (draft_id, created_at, page, source, campaign, ambassador, variant, link_variant, letter, school)
        SELECT ${draft?.id ?? null}::text, ${now}, ${page}, source, campaign, ambassador, variant, link_variant, ${draft?.letter?.id ?? null}::text, ${school ?? null}::text
        FROM dims WHERE ${draft?.id ?? null}::text IS NOT NULL
        ON CONFLICT (draft_id) DO NOTHING RETURNING 1
      )
      INSERT INTO analytics_events (at, day, name, page, source, campaign, ambassador, variant, letter, school, kind, journey)
      SELECT ${now}, ${day}::date, n.name, ${page}, d.source, d.campaign, d.ambassador, d.variant,
             ${draft?.letter?.id ?? null}::text, ${school ?? null}::text, ${kindOfPurpose(input.purpose)}, ${draft?.id ?? null}::text
      FROM dims d, unnest(${names}::text[]) AS n(name)`);
  });
}

export type JourneyStep = 'send_request' | 'confirmed' | 'delivered' | 'answer';

/**
 * Counts a later step of a draft's journey, once (an answer changed later keeps its first count
 * and updates the journey's kind). Drafts without a journey (made before counting began, or by a
 * browser that declined counting) are not counted. Never throws.
 */
export async function recordStep(step: JourneyStep, draftId: string | undefined, kind?: string, now = new Date()): Promise<void> {
  if (!draftId) return;
  const answerKind = kind && /^[a-z_]{1,40}$/.test(kind) ? kind : null;
  await tolerate(step, () =>
    query(sql`
      WITH moved AS (
        UPDATE analytics_journeys j SET
          requested_at = CASE WHEN ${step} = 'send_request' THEN coalesce(j.requested_at, ${now}) ELSE j.requested_at END,
          confirmed_at = CASE WHEN ${step} = 'confirmed' THEN coalesce(j.confirmed_at, ${now}) ELSE j.confirmed_at END,
          delivered_at = CASE WHEN ${step} = 'delivered' THEN coalesce(j.delivered_at, ${now}) ELSE j.delivered_at END,
          answered_at = CASE WHEN ${step} = 'answer' THEN coalesce(j.answered_at, ${now}) ELSE j.answered_at END,
          answer_kind = CASE WHEN ${step} = 'answer' THEN coalesce(${answerKind}::text, j.answer_kind) ELSE j.answer_kind END
        FROM analytics_journeys old
        WHERE j.draft_id = ${draftId} AND old.draft_id = j.draft_id
        RETURNING j.*, CASE ${step}::text
          WHEN 'send_request' THEN old.requested_at IS NULL
          WHEN 'confirmed' THEN old.confirmed_at IS NULL
          WHEN 'delivered' THEN old.delivered_at IS NULL
          ELSE old.answered_at IS NULL END AS first
      )
      INSERT INTO analytics_events (at, day, name, page, source, campaign, ambassador, variant, letter, school, kind, journey)
      SELECT ${now}, ${dayOf(now)}::date, ${step}, page, source, campaign, ambassador, variant, letter, school, ${step === 'answer' ? answerKind : null}::text, draft_id
      FROM moved WHERE first`),
  );
}

/**
 * "Send via our platform" was asked for: the request, and with confirmation off (the message is
 * queued or sent at once) the confirmation and delivery too.
 */
export async function recordSendRequest(draftId: string, status: string, now = new Date()): Promise<void> {
  await recordStep('send_request', draftId, undefined, now);
  if (status === 'queued' || status === 'sent') await recordStep('confirmed', draftId, undefined, now);
  if (status === 'sent') await recordStep('delivered', draftId, undefined, now);
}

/** The parent confirmed from their inbox (the confirmation page's "done"), and the send if it went at once. */
export async function recordConfirmation(outcome: { kind: string; message?: { draftId: string; status: string } }, now = new Date()): Promise<void> {
  if (outcome.kind !== 'done' || !outcome.message) return;
  await recordStep('confirmed', outcome.message.draftId, undefined, now);
  if (outcome.message.status === 'sent') await recordStep('delivered', outcome.message.draftId, undefined, now);
}

/** A school email was delivered (the scheduled outbox run, or the mail layer): counted once. */
export async function recordDelivery(message: { draftId: string; status: string; channel?: string }, now = new Date()): Promise<void> {
  if ((message.status !== 'sent' && message.status !== 'delivered') || message.channel === 'self') return;
  await recordStep('delivered', message.draftId, undefined, now);
}

/** A parent told us what the school answered (any kind: a new kind is just another value). */
export async function recordAnswerStep(message: { draftId: string }, kind: string, now = new Date()): Promise<void> {
  await recordStep('answer', message.draftId, kind, now);
}
