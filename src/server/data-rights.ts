/**
 * Parents' data rights: a signed "Your data" link shows what the site keeps about one address,
 * as the person it reaches (`canonicalAddress`: `Sam.A+x@Gmail.com` is `sama@gmail.com`), lets
 * them download it as JSON and delete it. The link is the proof: it is only ever emailed to the
 * address it names (links.ts), so nobody who merely types an address reaches its data.
 *
 * Deleting removes their form submissions, email drafts, school emails, answers, nominations,
 * booking logs and the emails the site sent them, at once, in one statement; a school email the
 * platform sent keeps a row without names, addresses or text until its 90-day purge, because its
 * claim on the limits (hashed) lives with it; the impact figures never held names. HubSpot is asked
 * to delete the contacts of the addresses the records were given under (GDPR delete; never one
 * named only by the request), retried by the scheduled `data-deletions-retry` until it has done it.
 *
 * Table `hubspot_contact_deletions`: one row per address to delete in HubSpot; the address is
 * cleared once HubSpot has deleted it, and done rows are removed after DELETION_LOG_RETENTION_MS.
 */
import type { Client } from '@hubspot/api-client';
import { isEmail } from '../lib/shared/forms/values';
import { query, queryOne, sql } from './db';
import type { EmailDraft } from './letter/drafts';
import type { StoredSubmission } from './forms/submissions';
import { statusOf } from './hubspot';
import { canonicalAddress, mailboxKey } from './identity';
import { recordKey } from './ids';
import { DELETE_STEP_TTL_MS, plainAddress } from './links';
import { erasedEmails } from './mail/queue';
import type { NominationRecord } from './schools/nominations';
import { emailDataLink } from './mail/notify';
import type { EmailHandOver, OutboxMessage } from './letter/outbox';
import type { SchoolAnswer } from './schools/answers';
import { quotesOf, type ParentQuotes } from './schools/starred-words';
import { hashSecret } from './tokens';

export { DELETE_STEP_TTL_MS, plainAddress };

/** How long an attempt at a HubSpot deletion holds its row. */
const LEASE_MS = 60_000;
/** First wait before a HubSpot deletion is tried again; doubles, at most RETRY_MAX_MS. */
export const DELETION_RETRY_BASE_MS = 5 * 60_000;
const RETRY_MAX_MS = 6 * 3600_000;
/** Done HubSpot deletions (without their address) are shown to owners this long, then removed. */
export const DELETION_LOG_RETENTION_MS = 90 * 24 * 3600_000;
/** At most this many records of each kind are read for one person (bounded work per request). */
const MAX_ROWS = 500;

export interface BookingLog {
  id: string;
  createdAt: string;
  record: Record<string, unknown>;
}

/** Everything the site keeps that names one person. */
export interface PersonalData {
  email: string;
  submissions: StoredSubmission[];
  drafts: EmailDraft[];
  messages: OutboxMessage[];
  answers: SchoolAnswer[];
  nominations: NominationRecord[];
  bookings: BookingLog[];
  /** Where each of their drafts came from and the steps it reached (the Insights tab's journeys). */
  journeys: Journey[];
  /** Their agreements to be quoted on a school's page, and the quotes staff starred (src/server/schools/starred-words.ts). */
  quotes: ParentQuotes;
}

/** A draft's journey as the figures keep it: no name or address, but it belongs to the person's draft. */
export interface Journey {
  draftId: string;
  createdAt: string;
  page: string | null;
  source: string | null;
  campaign: string | null;
  ambassador: string | null;
  variant: string | null;
  linkVariant: string | null;
  letter: string | null;
  confirmedAt: string | null;
  deliveredAt: string | null;
  answerKind: string | null;
}

interface JourneyRow {
  draft_id: string;
  created_at: Date;
  page: string | null;
  source: string | null;
  campaign: string | null;
  ambassador: string | null;
  variant: string | null;
  link_variant: string | null;
  letter: string | null;
  confirmed_at: Date | null;
  delivered_at: Date | null;
  answer_kind: string | null;
}

const toJourney = (row: JourneyRow): Journey => ({
  draftId: row.draft_id,
  createdAt: row.created_at.toISOString(),
  page: row.page,
  source: row.source,
  campaign: row.campaign,
  ambassador: row.ambassador,
  variant: row.variant,
  linkVariant: row.link_variant,
  letter: row.letter,
  confirmedAt: row.confirmed_at?.toISOString() ?? null,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  answerKind: row.answer_kind,
});

/** The rows whose address is this person's: found by the database's canonical form, kept only if ours agrees. */
const samePerson = (canonical: string) => (address: unknown) => typeof address === 'string' && canonicalAddress(address) === canonical;

/** What the site keeps about the person `email` reaches. */
export async function findPersonalData(email: string): Promise<PersonalData> {
  const canonical = canonicalAddress(email);
  const mine = samePerson(canonical);
  const [submissions, drafts, messages, answers, nominations, bookings, quotes] = await Promise.all([
    query<{ record: StoredSubmission }>(sql`
      SELECT record FROM form_submissions WHERE canonical_address(record->'values'->>'email') = ${canonical} ORDER BY id LIMIT ${MAX_ROWS}`),
    query<{ record: EmailDraft }>(sql`
      SELECT record FROM email_drafts WHERE canonical_address(record->'data'->>'parentEmail') = ${canonical} ORDER BY created_at DESC LIMIT ${MAX_ROWS}`),
    query<{ record: OutboxMessage }>(sql`
      SELECT record FROM outbox_messages WHERE canonical_address(record->>'parentEmail') = ${canonical} AND erased_at IS NULL ORDER BY id LIMIT ${MAX_ROWS}`),
    query<{ record: SchoolAnswer; parent: string }>(sql`
      SELECT a.record, m.record->>'parentEmail' AS parent FROM school_answers a JOIN outbox_messages m ON m.id = a.message_id
      WHERE canonical_address(m.record->>'parentEmail') = ${canonical} AND m.erased_at IS NULL ORDER BY a.message_id LIMIT ${MAX_ROWS}`),
    query<{ record: NominationRecord }>(sql`
      SELECT record FROM nominations WHERE canonical_address(record->'data'->>'email') = ${canonical} ORDER BY id LIMIT ${MAX_ROWS}`),
    query<{ id: string; created_at: Date; invitee_email: string; record: Record<string, unknown> }>(sql`
      SELECT id, created_at, invitee_email, record FROM webhook_logs WHERE canonical_address(invitee_email) = ${canonical} ORDER BY created_at DESC LIMIT ${MAX_ROWS}`),
    quotesOf(email),
  ]);
  const ownDrafts = drafts.map((row) => row.record).filter((record) => mine(record.data.parentEmail));
  const ownMessages = messages.map((row) => row.record).filter((record) => mine(record.parentEmail));
  const draftIds = [...new Set([...ownDrafts.map((draft) => draft.id), ...ownMessages.map((message) => message.draftId).filter(Boolean)])];
  const journeys = draftIds.length
    ? await query<JourneyRow>(sql`SELECT * FROM analytics_journeys WHERE draft_id = ANY(${draftIds}::text[]) ORDER BY created_at DESC LIMIT ${MAX_ROWS}`)
    : [];
  return {
    email: plainAddress(email),
    journeys: journeys.map(toJourney),
    submissions: submissions.map((row) => row.record).filter((record) => mine(record.values.email)),
    drafts: ownDrafts,
    messages: ownMessages,
    answers: answers.filter((row) => mine(row.parent)).map((row) => row.record),
    nominations: nominations.map((row) => row.record).filter((record) => mine(record.data.email)),
    bookings: bookings.filter((row) => mine(row.invitee_email)).map((row) => ({ id: row.id, createdAt: row.created_at.toISOString(), record: row.record })),
    quotes,
  };
}

/** How many records of each kind, for the page. */
export function countRecords(data: PersonalData) {
  return {
    submissions: data.submissions.length,
    drafts: data.drafts.length,
    messages: data.messages.length,
    answers: data.answers.length,
    nominations: data.nominations.length,
    bookings: data.bookings.length,
    journeys: data.journeys.length,
  };
}

/** The download: every record as the site keeps it, without the secrets it keeps beside them (token hashes). */
export function exportPersonalData(data: PersonalData, now = new Date()) {
  return {
    exportedAt: now.toISOString(),
    email: data.email,
    about:
      'Everything this site keeps that names this email address (or another way of writing it that reaches the same mailbox). Our CRM (HubSpot) keeps its own contact record; deleting your data here asks HubSpot to delete it too.',
    formSubmissions: data.submissions.map((record) => ({
      id: record.id,
      form: record.formName,
      createdAt: record.createdAt,
      values: record.values,
      ...(record.consent ? { consent: record.consent } : {}),
      page: record.context.pageUri,
      deliveredToHubSpot: record.delivery.state === 'delivered',
    })),
    journeys: data.journeys,
    emailDrafts: data.drafts.map((draft) => ({
      id: draft.id,
      createdAt: draft.createdAt,
      data: draft.data,
      note: draft.note,
      wantsPlatformSend: draft.wantsPlatformSend,
      mayQuoteMyWords: draft.wordsConsent ?? false,
    })),
    schoolEmails: data.messages.map((message) => ({
      id: message.id,
      channel: message.channel,
      status: message.status,
      createdAt: message.createdAt,
      ...(message.sentAt ? { sentAt: message.sentAt } : {}),
      from: { name: message.parentName, email: message.parentEmail },
      to: { name: message.toName, email: message.to },
      schoolName: message.schoolName,
      subject: message.subject,
      body: message.body,
      note: message.note,
    })),
    schoolAnswers: data.answers.map((answer) => ({
      messageId: answer.messageId,
      answer: answer.kind,
      comment: answer.comment,
      answeredAt: answer.answeredAt,
      updatedAt: answer.updatedAt,
    })),
    nominations: data.nominations.map((nomination) => ({ id: nomination.id, kind: nomination.kind, createdAt: nomination.createdAt, data: nomination.data })),
    bookings: data.bookings,
    wordsOnSchoolPages: {
      about: 'Where you agreed that our team may quote your words on your school’s page (first name only), and the quotes on a page now.',
      agreements: data.quotes.agreements,
      quotes: data.quotes.quotes,
    },
  };
}

/** What the admin page may show of an address: its first letter and its domain. */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

export interface ErasureCounts {
  submissions: number;
  drafts: number;
  messages: number;
  answers: number;
  nominations: number;
  bookings: number;
  journeys: number;
  hubspot: number;
}

/**
 * Deletes everything `findPersonalData(email)` finds, in one statement, once per deletion step:
 * the step's token is taken in the same statement, so of four "Yes, delete" presses at once one
 * deletes and the others find it done (`undefined`). It queues the HubSpot deletion of every
 * address the records were really given under (never one named only by the request). A letter the
 * platform sent keeps a row without names, addresses or text (its claim on the limits lives with
 * it); one not yet sent is withdrawn, with its email, and gives its limits back; one the parent
 * sent themselves goes. Every email the site sent the person is emptied. Returns what went, and
 * the queued deletions' ids.
 */
export async function erasePersonalData(
  email: string,
  now = new Date(),
  stepToken?: string,
): Promise<{ counts: ErasureCounts; deletionIds: string[] } | undefined> {
  const data = await findPersonalData(email);
  const messageIds = data.messages.map((message) => message.id);
  const addresses = [
    ...new Set(
      [
        ...data.submissions.map((s) => s.values.email ?? ''),
        ...data.drafts.map((d) => d.data.parentEmail),
        ...data.messages.map((m) => m.parentEmail),
        ...data.nominations.map((n) => n.data.email),
        ...data.bookings.map((b) => String(b.record.inviteeEmail ?? '')),
      ]
        .map(plainAddress)
        .filter((address) => isEmail(address)),
    ),
  ];
  const ids = addresses.map((_, index) => recordKey(new Date(now.getTime() + index)));
  const step = stepToken ? hashSecret(stepToken) : null;
  const row = await queryOne<Omit<ErasureCounts, 'hubspot'> & { queued: string[]; step_taken: boolean; _events: number }>(sql`
    WITH step AS (
      INSERT INTO used_deletion_steps (token_hash, expires_at, created_at)
      SELECT ${step}::text, ${new Date(now.getTime() + DELETE_STEP_TTL_MS)}, ${now} WHERE ${step}::text IS NOT NULL
      ON CONFLICT (token_hash) DO NOTHING
      RETURNING 1
    ), go AS (
      SELECT 1 WHERE ${step}::text IS NULL OR EXISTS (SELECT 1 FROM step)
    ), submissions AS (
      DELETE FROM form_submissions WHERE id = ANY(${data.submissions.map((s) => s.id)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), drafts AS (
      DELETE FROM email_drafts WHERE id = ANY(${data.drafts.map((d) => d.id)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), answers AS (
      DELETE FROM school_answers WHERE message_id = ANY(${messageIds}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), released AS (
      DELETE FROM send_claims c USING outbox_messages m
      WHERE c.message_id = m.id AND m.id = ANY(${messageIds}::text[]) AND m.status IN ('awaiting_confirmation', 'queued') AND EXISTS (SELECT 1 FROM go)
      RETURNING c.school, c.parent, c.day
    ), school_days AS (
      UPDATE school_daily_sends d SET sends = d.sends - r.n
      FROM (SELECT school, day, count(*)::int AS n FROM released GROUP BY school, day) r
      WHERE d.school = r.school AND d.day = r.day
      RETURNING 1
    ), parent_days AS (
      UPDATE parent_daily_sends d SET sends = d.sends - r.n
      FROM (SELECT parent, day, count(*)::int AS n FROM released GROUP BY parent, day) r
      WHERE d.parent = r.parent AND d.day = r.day
      RETURNING 1
    ), withdrawn AS (
      DELETE FROM outbox_messages WHERE id = ANY(${messageIds}::text[]) AND NOT (status IN ('sent', 'delivered', 'bounced') AND channel = 'platform') AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), emptied AS (
      UPDATE outbox_messages
      SET erased_at = ${now}, work_left = false, follow_up_waiting = false, updated_at = ${now}, version = version + 1,
          record = jsonb_build_object('id', id, 'draftId', '', 'channel', channel, 'status', status, 'createdAt', record->'createdAt',
                                      'updatedAt', ${now.toISOString()}::text, 'sentAt', record->'sentAt', 'erasedAt', ${now.toISOString()}::text)
      WHERE id = ANY(${messageIds}::text[]) AND status IN ('sent', 'delivered', 'bounced') AND channel = 'platform' AND EXISTS (SELECT 1 FROM go)
      RETURNING 1
    ), mail AS (
      ${erasedEmails(mailboxKey(email), messageIds, now)} AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), nominations AS (
      DELETE FROM nominations WHERE id = ANY(${data.nominations.map((n) => n.id)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), bookings AS (
      DELETE FROM webhook_logs WHERE id = ANY(${data.bookings.map((b) => b.id)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), journeys AS (
      DELETE FROM analytics_journeys WHERE draft_id = ANY(${data.journeys.map((j) => j.draftId)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), journey_events AS (
      DELETE FROM analytics_events WHERE journey = ANY(${data.journeys.map((j) => j.draftId)}::text[]) AND EXISTS (SELECT 1 FROM go) RETURNING 1
    ), queued AS (
      INSERT INTO hubspot_contact_deletions (id, email, masked, state, next_attempt_at, created_at)
      SELECT q.id, q.email, q.masked, 'pending', ${now}, ${now}
      FROM unnest(${ids}::text[], ${addresses}::text[], ${addresses.map(maskAddress)}::text[]) AS q(id, email, masked)
      WHERE EXISTS (SELECT 1 FROM go)
      ON CONFLICT (email) WHERE state = 'pending' DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM go) AS step_taken,
           (SELECT count(*) FROM submissions)::int AS submissions, (SELECT count(*) FROM drafts)::int AS drafts,
           ((SELECT count(*) FROM withdrawn) + (SELECT count(*) FROM emptied))::int AS messages, (SELECT count(*) FROM answers)::int AS answers,
           (SELECT count(*) FROM nominations)::int AS nominations, (SELECT count(*) FROM bookings)::int AS bookings,
           (SELECT count(*) FROM journeys)::int AS journeys, (SELECT count(*) FROM journey_events) AS _events,
           coalesce((SELECT array_agg(id) FROM queued), '{}') AS queued`);
  if (!row?.step_taken) return undefined;
  const { queued = [], step_taken: _taken, _events: _rawEvents, ...counts } = row;
  // An address whose deletion was already waiting is asked for by that row.
  const pending = await query<{ id: string }>(sql`SELECT id FROM hubspot_contact_deletions WHERE state = 'pending' AND email = ANY(${addresses}::text[])`);
  return { counts: { ...counts, hubspot: addresses.length }, deletionIds: [...new Set([...queued, ...pending.map((p) => p.id)])] };
}

/** The letters a deletion would withdraw: confirmed or waiting ones not yet sent. */
export function waitingLetters(data: PersonalData): OutboxMessage[] {
  return data.messages.filter((message) => message.channel === 'platform' && (message.status === 'awaiting_confirmation' || message.status === 'queued'));
}

import type { ContactDeletion } from '../lib/shared/schemas/admin';
export type { ContactDeletion };

interface DeletionRow {
  id: string;
  masked: string;
  state: 'pending' | 'done';
  attempts: number;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date;
  done_at: Date | null;
}

const deletionOf = (row: DeletionRow): ContactDeletion => ({
  id: row.id,
  masked: row.masked,
  state: row.state,
  attempts: row.attempts,
  ...(row.last_error ? { lastError: row.last_error } : {}),
  createdAt: row.created_at.toISOString(),
  nextAttemptAt: row.next_attempt_at.toISOString(),
  ...(row.done_at ? { doneAt: row.done_at.toISOString() } : {}),
});

/** The HubSpot deletions, newest first, for the admin page (addresses masked). */
export async function listContactDeletions(limit = 50): Promise<ContactDeletion[]> {
  const rows = await query<DeletionRow>(sql`
    SELECT id, masked, state, attempts, last_error, created_at, next_attempt_at, done_at FROM hubspot_contact_deletions ORDER BY created_at DESC, id LIMIT ${limit}`);
  return rows.map(deletionOf);
}

const retryAt = (now: Date, attempts: number) => new Date(now.getTime() + Math.min(DELETION_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS));

/**
 * One attempt at a queued HubSpot deletion: claimed first (one statement: due, pending and not
 * held by another run), so two runs never ask at once and a done one is never asked again. HubSpot
 * answers 204 when it deleted the contact and 404 when it has none: both settle it, and the
 * address is forgotten. Anything else is tried again later. Without HubSpot it waits.
 */
export async function attemptContactDeletion(client: Client | undefined, id: string, now = new Date()): Promise<'done' | 'waiting' | 'skipped'> {
  if (!client) {
    await query(sql`UPDATE hubspot_contact_deletions SET last_error = 'hubspot_not_configured' WHERE id = ${id} AND state = 'pending'`);
    return 'waiting';
  }
  const claimed = await queryOne<{ email: string; attempts: number }>(sql`
    UPDATE hubspot_contact_deletions SET attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id = ${id} AND state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING email, attempts`);
  if (!claimed) return 'skipped';
  let outcome: { done: true; note?: string } | { done: false; error: string };
  try {
    await client.crm.contacts.basicApi.purge({ idProperty: 'email', objectId: claimed.email });
    outcome = { done: true };
  } catch (error) {
    const status = statusOf(error);
    outcome = status === 404 ? { done: true, note: 'no_contact' } : { done: false, error: status ? `hubspot_${status}` : 'hubspot_unreachable' };
  }
  if (outcome.done) {
    await query(sql`
      UPDATE hubspot_contact_deletions SET state = 'done', done_at = ${now}, email = NULL, lease_until = NULL, last_error = ${outcome.note ?? null}
      WHERE id = ${id} AND state = 'pending'`);
    return 'done';
  }
  await query(sql`
    UPDATE hubspot_contact_deletions SET lease_until = NULL, last_error = ${outcome.error}, next_attempt_at = ${retryAt(now, claimed.attempts)}
    WHERE id = ${id} AND state = 'pending'`);
  return 'waiting';
}

/** The queued HubSpot deletions whose time has come. */
export async function dueContactDeletions(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM hubspot_contact_deletions WHERE state = 'pending' AND next_attempt_at <= ${now} ORDER BY next_attempt_at LIMIT 200`);
  return rows.map((row) => row.id);
}

/** Whether this deletion step's token was used already (its button pressed before). */
export async function deletionStepUsed(token: string): Promise<boolean> {
  return Boolean(await queryOne(sql`SELECT 1 FROM used_deletion_steps WHERE token_hash = ${hashSecret(token)}`));
}

/** Forgets the used deletion steps whose tokens have expired; returns how many. */
export async function purgeUsedDeletionSteps(now = new Date()): Promise<number> {
  return (await query(sql`DELETE FROM used_deletion_steps WHERE expires_at < ${now} RETURNING 1`)).length;
}

/** Removes the record of HubSpot deletions done before `before`; returns how many. */
export async function purgeContactDeletions(before: Date): Promise<number> {
  return (await query(sql`DELETE FROM hubspot_contact_deletions WHERE state = 'done' AND done_at < ${before} RETURNING 1`)).length;
}

/**
 * A "Your data" link asked for by address: emailed to that address only, under its own allowance
 * for data links from the network that asked (so a stranger's requests neither reach the data nor
 * spend the person's other emails), and only when the site keeps something about it. The caller
 * answers the same whatever happens here, so the answer never tells whether the address is known.
 */
export async function sendDataLink(email: string, network: string, now = new Date()): Promise<EmailHandOver | 'nothing_kept'> {
  const data = await findPersonalData(email);
  if (Object.values(countRecords(data)).every((n) => n === 0)) return 'nothing_kept';
  return emailDataLink(plainAddress(email), network, now);
}
