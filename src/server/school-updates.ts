/**
 * The outcome reaches everyone: when a parent reports on /school-answer that their school replied
 * or agreed to meet, every OTHER parent who wrote to that school gets one short update, set on
 * their HubSpot contact for a workflow to email (as the confirmation and follow-up links are).
 *
 * - Who: the parents with a confirmed send or a confirmed self-report (`impact_sends`) to the same
 *   school contact, as the person it reaches (`canonicalAddress`), never the reporter (by the keyed
 *   parent hash of `impact.ts`, so `sam+x@` is `sam@`), never a parent who stopped updates. One
 *   statement queues them, once per reported outcome and parent (a constraint).
 * - When: the scheduled `school-updates` run hands each due update to HubSpot, exactly once (an
 *   attempt claims its row with a lease; a settled row is never tried again), at most one a week
 *   per parent (`school_update_weeks`, one upsert checked under the row's lock) and within the
 *   address's daily emails (`takeEmailAllowance`). An update over the weekly cap is not sent: the
 *   school's page shows the outcome.
 * - Stop: every update carries a signed link (`stopLink`) that stops all further updates for the
 *   address: GET shows a confirm button, POST stops (netlify/functions/school-updates-stop.mts).
 *
 * Table `school_updates`: one row per update, naming the recipient's own message (the address,
 * name and contact come from it; the update goes with it when it is purged or erased).
 */
import type { Client } from '@hubspot/api-client';
import { outcomeText, type PageOutcome } from '../lib/school-pages';
import type { AnswerKind } from '../lib/school-answers';
import { dataLink } from './data-rights';
import { query, queryOne, sql } from './db';
import { serverEnv } from './env';
import { getContact, searchContactsByEmail, statusOf, updateContact } from './hubspot';
import { canonicalAddress } from './identity';
import { parentKey } from './impact';
import { readMessage, type OutboxMessage } from './outbox';
import { schoolPageKeyIfConfigured, schoolPagePath } from './school-pages';
import { takeEmailAllowance } from './send-limits';
import { signToken, verifyToken } from './tokens';

const DAY = 24 * 3600_000;
/** At most one update a week to one parent. */
export const UPDATE_INTERVAL_MS = 7 * DAY;
/** How long the stop link in an update works. */
export const STOP_LINK_TTL_MS = 365 * DAY;
/** How long one attempt holds its update. */
const LEASE_MS = 2 * 60_000;
/** Tries to hand one update to HubSpot before it is given up. */
export const MAX_UPDATE_ATTEMPTS = 6;
const RETRY_BASE_MS = 5 * 60_000;

import type { UpdateState } from '../lib/schemas/admin';
export type { UpdateState };

const isOutcome = (kind: AnswerKind): kind is PageOutcome => kind === 'replied' || kind === 'meeting';

/**
 * Queues the update of a reported outcome for every other parent who wrote to the school of
 * `message` (the reporter's). One statement; the same outcome reported again queues nothing more.
 * Returns how many were queued.
 */
export async function queueSchoolUpdates(message: Pick<OutboxMessage, 'id' | 'to' | 'parentEmail'>, kind: AnswerKind, now = new Date()): Promise<number> {
  if (!isOutcome(kind)) return 0;
  const school = canonicalAddress(message.to);
  const reporter = parentKey(message.parentEmail);
  const page = schoolPageKeyIfConfigured(message.to) ?? null;
  const rows = await query(sql`
    INSERT INTO school_updates (id, source_message_id, kind, parent, message_id, page, state, next_attempt_at, created_at)
    SELECT DISTINCT ON (s.parent) ${message.id}::text || ':' || ${kind}::text || ':' || s.parent, ${message.id}, ${kind}, s.parent, m.id, ${page}::text, 'pending', ${now}, ${now}
    FROM impact_sends s JOIN outbox_messages m ON m.id = s.message_id
    WHERE canonical_address(m.record->>'to') = ${school} AND m.erased_at IS NULL AND m.status = 'sent'
      AND s.parent <> ${reporter} AND m.id <> ${message.id}
      AND NOT EXISTS (SELECT 1 FROM school_update_stops x WHERE x.parent = s.parent)
    ORDER BY s.parent, m.id DESC
    ON CONFLICT ON CONSTRAINT school_updates_once DO NOTHING
    RETURNING 1`);
  return rows.length;
}

/** The stop link of the parent `email` reaches (names only the keyed hash, never the address). */
export function stopLink(email: string, now = new Date()): string {
  const token = signToken({ purpose: 'school-updates-stop', id: parentKey(email), exp: now.getTime() + STOP_LINK_TTL_MS });
  return `${serverEnv.siteOrigin}/school-updates/stop?token=${token}`;
}

export type StopCheck = { kind: 'ok'; parent: string } | { kind: 'invalid' } | { kind: 'expired' };

export function openStopLink(token: string, now = new Date()): StopCheck {
  const check = verifyToken(token, 'school-updates-stop', now.getTime());
  if (!check.ok) return check.reason === 'expired' ? { kind: 'expired' } : { kind: 'invalid' };
  return /^[A-Za-z0-9_-]{10,100}$/.test(check.claims.id) ? { kind: 'ok', parent: check.claims.id } : { kind: 'invalid' };
}

/** Stops every further update to a parent: recorded, and their waiting updates withdrawn, in one statement. */
export async function stopSchoolUpdates(parent: string, now = new Date()): Promise<void> {
  await query(sql`
    WITH stop AS (
      INSERT INTO school_update_stops (parent, created_at) VALUES (${parent}, ${now}) ON CONFLICT (parent) DO NOTHING RETURNING 1
    )
    UPDATE school_updates SET state = 'stopped', lease_until = NULL WHERE parent = ${parent} AND state = 'pending'`);
}

export async function updatesStopped(parent: string): Promise<boolean> {
  return Boolean(await queryOne(sql`SELECT 1 FROM school_update_stops WHERE parent = ${parent}`));
}

/** The words of an update. */
export function updateText(schoolName: string, kind: PageOutcome): string {
  const school = schoolName.trim() || 'Your school';
  return `${outcomeText(school, kind)}, a parent who wrote to them tells us. Thank you for adding your voice: it helped.`;
}

interface Claimed {
  id: string;
  message_id: string;
  parent: string;
  kind: PageOutcome;
  page: string | null;
  attempts: number;
}

const settle = (id: string, state: Exclude<UpdateState, 'pending' | 'sent'>, error: string | null) =>
  query(sql`UPDATE school_updates SET state = ${state}, lease_until = NULL, last_error = ${error} WHERE id = ${id} AND state = 'pending'`);

/**
 * One attempt at one update. Claimed first (due, pending and not held by another run); on its
 * first attempt it takes the parent's week (unless they stopped updates) and one of the address's
 * emails of the day. Without HubSpot it waits.
 */
export async function attemptSchoolUpdate(client: Client | undefined, id: string, now = new Date()): Promise<UpdateState | 'waiting' | 'skipped'> {
  if (!client) {
    await query(sql`UPDATE school_updates SET last_error = 'hubspot_not_configured' WHERE id = ${id} AND state = 'pending'`);
    return 'waiting';
  }
  const claimed = await queryOne<Claimed>(sql`
    UPDATE school_updates SET attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id = ${id} AND state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING id, message_id, parent, kind, page, attempts`);
  if (!claimed) return 'skipped';
  const found = await readMessage(claimed.message_id);
  if (!found || found.message.status !== 'sent') {
    await settle(id, 'gone', null);
    return 'gone';
  }
  const message = found.message;
  if (claimed.attempts === 1) {
    const week = await queryOne<{ stopped: boolean; took: boolean }>(sql`
      WITH stopped AS (
        SELECT 1 FROM school_update_stops WHERE parent = ${claimed.parent}
      ), week AS (
        INSERT INTO school_update_weeks AS w (parent, last_sent_at) SELECT ${claimed.parent}, ${now} WHERE NOT EXISTS (SELECT 1 FROM stopped)
        ON CONFLICT (parent) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at WHERE w.last_sent_at <= ${new Date(now.getTime() - UPDATE_INTERVAL_MS)}
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM stopped) AS stopped, EXISTS (SELECT 1 FROM week) AS took`);
    if (week?.stopped) {
      await settle(id, 'stopped', null);
      return 'stopped';
    }
    if (!week?.took) {
      await settle(id, 'capped', 'weekly_cap');
      return 'capped';
    }
    if (!(await takeEmailAllowance(message.parentEmail, now))) {
      await settle(id, 'limit', 'recipient_limit');
      return 'limit';
    }
  } else if (await updatesStopped(claimed.parent)) {
    await settle(id, 'stopped', null);
    return 'stopped';
  }
  try {
    const contactId = message.contactId
      ? (await getContact(client, message.contactId, [])).id
      : (await searchContactsByEmail(client, message.parentEmail, [])).results[0]?.id;
    if (!contactId) throw Object.assign(new Error('contact_not_found'), { code: 404 });
    const names = serverEnv.contactProperties;
    const pageKey = claimed.page ?? schoolPageKeyIfConfigured(message.to);
    await updateContact(client, contactId, {
      [names.schoolUpdateId]: claimed.id,
      [names.schoolUpdateSchool]: message.schoolName,
      [names.schoolUpdateText]: updateText(message.schoolName, claimed.kind),
      [names.schoolUpdatePageUrl]: pageKey ? `${serverEnv.siteOrigin}${schoolPagePath(pageKey)}` : '',
      [names.schoolUpdateStopUrl]: stopLink(message.parentEmail, now),
      [names.yourDataUrl]: dataLink(message.parentEmail, { now }),
    });
    await query(sql`UPDATE school_updates SET state = 'sent', sent_at = ${now}, lease_until = NULL, last_error = NULL WHERE id = ${id} AND state = 'pending'`);
    return 'sent';
  } catch (error) {
    const status = statusOf(error) ?? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : undefined);
    const code = status ? `hubspot_${status}` : 'hubspot_unreachable';
    if (claimed.attempts >= MAX_UPDATE_ATTEMPTS) {
      await settle(id, 'failed', code);
      return 'failed';
    }
    await query(sql`
      UPDATE school_updates SET lease_until = NULL, last_error = ${code}, next_attempt_at = ${new Date(now.getTime() + RETRY_BASE_MS * 2 ** (claimed.attempts - 1))}
      WHERE id = ${id} AND state = 'pending'`);
    return 'waiting';
  }
}

/** The updates whose time has come. */
export async function dueSchoolUpdates(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM school_updates WHERE state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
    ORDER BY next_attempt_at, id LIMIT 300`);
  return rows.map((row) => row.id);
}

/** One scheduled run: every due update tried once. */
export async function runSchoolUpdates(client: Client | undefined, now = new Date()): Promise<Record<UpdateState | 'waiting' | 'skipped', number>> {
  const counts: Record<UpdateState | 'waiting' | 'skipped', number> = { pending: 0, sent: 0, capped: 0, limit: 0, stopped: 0, gone: 0, failed: 0, waiting: 0, skipped: 0 };
  for (const id of await dueSchoolUpdates(now)) counts[await attemptSchoolUpdate(client, id, now)]++;
  return counts;
}

/** Forgets when parents last got an update, once that is longer ago than `before` (a week: it no longer caps anything). */
export async function purgeUpdateWeeks(before: Date): Promise<number> {
  return (await query(sql`DELETE FROM school_update_weeks WHERE last_sent_at < ${before} RETURNING 1`)).length;
}
