/**
 * The outcome reaches everyone: when an outcome that counts is reported (a parent whose letter the
 * platform delivered says the school replied or agreed to meet, or staff approved such a claim),
 * every OTHER parent who wrote to that school gets one short email about it.
 *
 * - Who: the parents whose letters count on the same verified school's page (`impact_sends.page`:
 *   delivered platform letters and approved self-reports to an address its record lists), never
 *   the reporter (by the keyed parent hash, so `sam+x@` is `sam@`), never a parent who stopped
 *   emails about their letter. One statement queues them, once per outcome and parent (a constraint).
 * - When: the scheduled `school-updates` run writes each due update to the mail layer exactly once
 *   (an attempt claims its row with a lease; a settled row is never tried again), at most one a week
 *   per parent (`school_update_weeks`, one upsert checked under the row's lock) and within the
 *   allowance of the address for updates. An update over the weekly cap is not sent: the school's
 *   page shows the outcome.
 * - Stop: every update carries a signed link (`stopLink`, also its one-click List-Unsubscribe) that
 *   stops every further email about the parent's letter: GET asks, POST stops.
 *
 * Table `school_updates`: one row per update, naming the recipient's own message (the address,
 * name and contact come from it; the update goes with it when it is purged or erased).
 */
import { createHash } from 'node:crypto';
import { outcomeText, type PageOutcome } from '../../lib/shared/school-page-words';
import type { AnswerKind } from '../../lib/shared/answer-kinds';
import { query, queryOne, sql } from '../db';
import { parentKey } from '../identity';
import { emailSchoolUpdate } from '../mail/notify';
import { readMessage, type OutboxMessage } from '../letter/outbox';
import { readSchoolPage } from './pages';
import { pageKeyOf, schoolOfLetter } from './letters';

const DAY = 24 * 3600_000;
/** At most one update a week to one parent. */
export const UPDATE_INTERVAL_MS = 7 * DAY;
/** How long one attempt holds its update. */
const LEASE_MS = 2 * 60_000;
/** Tries to hand one update to HubSpot before it is given up. */
export const MAX_UPDATE_ATTEMPTS = 6;
const RETRY_BASE_MS = 5 * 60_000;

import type { UpdateState } from '../../lib/shared/schemas/admin';
export type { UpdateState };

const isOutcome = (kind: AnswerKind): kind is PageOutcome => kind === 'replied' || kind === 'meeting';

/**
 * Queues the update of a reported outcome for every other parent who wrote to the school of
 * `message` (the reporter's). One statement; the same outcome reported again queues nothing more.
 * Returns how many were queued.
 */
export async function queueSchoolUpdates(
  message: Pick<OutboxMessage, 'id' | 'to' | 'parentEmail' | 'schoolId'>,
  kind: AnswerKind,
  now = new Date(),
): Promise<number> {
  if (!isOutcome(kind)) return 0;
  // Only a verified school's page has parents to tell: the letters that count on it.
  const page = pageKeyOf(await schoolOfLetter(message));
  if (!page) return 0;
  const reporter = parentKey(message.parentEmail);
  const rows = await query(sql`
    INSERT INTO school_updates (id, source_message_id, kind, parent, message_id, page, state, next_attempt_at, created_at)
    SELECT DISTINCT ON (s.parent) ${message.id}::text || ':' || ${kind}::text || ':' || s.parent, ${message.id}, ${kind}, s.parent, m.id, ${page}::text, 'pending', ${now}, ${now}
    FROM impact_sends s JOIN outbox_messages m ON m.id = s.message_id
    WHERE s.page = ${page} AND m.erased_at IS NULL AND m.status IN ('sent', 'delivered')
      AND s.parent <> ${reporter} AND m.id <> ${message.id}
      AND NOT EXISTS (SELECT 1 FROM school_update_stops x WHERE x.parent = s.parent)
    ORDER BY s.parent, m.id DESC
    ON CONFLICT ON CONSTRAINT school_updates_once DO NOTHING
    RETURNING 1`);
  return rows.length;
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
 * One attempt at one update. Claimed first (due, pending and not held by another run); it takes the
 * parent's week (unless they stopped emails about their letter), then is written to the mail layer
 * under the update's own id, so a run that dies after it wrote the email writes nothing twice.
 */
export async function attemptSchoolUpdate(id: string, now = new Date()): Promise<UpdateState | 'waiting' | 'skipped'> {
  const claimed = await queryOne<Claimed>(sql`
    UPDATE school_updates SET attempts = attempts + 1, lease_until = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id = ${id} AND state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
    RETURNING id, message_id, parent, kind, page, attempts`);
  if (!claimed) return 'skipped';
  const found = await readMessage(claimed.message_id);
  if (!found || !['sent', 'delivered'].includes(found.message.status)) {
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
  } else if (await updatesStopped(claimed.parent)) {
    await settle(id, 'stopped', null);
    return 'stopped';
  }
  try {
    const pageKey = claimed.page ?? pageKeyOf(await schoolOfLetter(message));
    const page = pageKey ? await readSchoolPage(pageKey).catch(() => undefined) : undefined;
    // Linked in the language of the parent it goes to (notify.ts).
    const emailed = await emailSchoolUpdate(message, claimed.kind, updateEmailId(claimed.id), page, now);
    if (emailed === 'limit' || emailed === 'suppressed') {
      await settle(id, 'limit', emailed === 'limit' ? 'recipient_limit' : 'suppressed');
      return 'limit';
    }
    await query(sql`UPDATE school_updates SET state = 'sent', sent_at = ${now}, lease_until = NULL, last_error = NULL WHERE id = ${id} AND state = 'pending'`);
    return 'sent';
  } catch (error) {
    const code = error instanceof Error ? error.message.slice(0, 60) : 'unknown';
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

/** The id of an update's email: made from the update's own (which may hold characters an id may not). */
const updateEmailId = (updateId: string) => `u-${createHash('sha256').update(updateId).digest('hex').slice(0, 40)}`;

/** The updates whose time has come. */
export async function dueSchoolUpdates(now = new Date()): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`
    SELECT id FROM school_updates WHERE state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
    ORDER BY next_attempt_at, id LIMIT 300`);
  return rows.map((row) => row.id);
}

/** One scheduled run: every due update tried once. */
export async function runSchoolUpdates(now = new Date()): Promise<Record<UpdateState | 'waiting' | 'skipped', number>> {
  const counts: Record<UpdateState | 'waiting' | 'skipped', number> = {
    pending: 0,
    sent: 0,
    capped: 0,
    limit: 0,
    stopped: 0,
    gone: 0,
    failed: 0,
    waiting: 0,
    skipped: 0,
  };
  for (const id of await dueSchoolUpdates(now)) counts[await attemptSchoolUpdate(id, now)]++;
  return counts;
}

/** Forgets when parents last got an update, once that is longer ago than `before` (a week: it no longer caps anything). */
export async function purgeUpdateWeeks(before: Date): Promise<number> {
  return (await query(sql`DELETE FROM school_update_weeks WHERE last_sent_at < ${before} RETURNING 1`)).length;
}
