/**
 * The follow-up of a school letter: some days after it went, the parent gets an email (a signed link
 * to /school-answer, where they say whether the school answered), and once more if they did not
 * answer. The answer is stored once per message (changeable while the link works), written to their
 * HubSpot contact, and counted for the impact figures when its letter counts and, for what a
 * self-reported letter claims the school did, once staff approve it (review queue).
 *
 * Table `school_answers`: one row per message (deleted with it), the answer as `record`;
 * `sync_pending` marks an answer HubSpot has not got yet.
 */
import type { Client } from '@hubspot/api-client';
import { schoolResponded, type AnswerKind } from '../../lib/shared/answer-kinds';
import { serverEnv } from '../env';
import { getContact, searchContactsByEmail, updateContact } from '../hubspot';
import { counts, recordAnswer } from './impact';
import { query, queryOne, sql } from '../db';
import { dropFollowUp, followUpIds, newSecondFollowUp, readMessage, updateMessage, type OutboxMessage } from '../letter/outbox';
import { parentKey, schoolOf } from '../identity';
import { emailFollowUp } from '../mail/notify';
import { approved, queueReview } from '../staff/review-items';
import { queueSchoolUpdates, updatesStopped } from './updates';
import { verifyToken } from '../tokens';

import type { SchoolAnswer } from '../../lib/shared/schemas/admin';
export type { SchoolAnswer };

async function readStoredAnswer(id: string): Promise<{ answer: SchoolAnswer; version: number } | undefined> {
  const row = await queryOne<{ record: SchoolAnswer; version: number }>(sql`SELECT record, version FROM school_answers WHERE message_id = ${id}`);
  return row ? { answer: row.record, version: row.version } : undefined;
}

async function contactOf(client: Client, message: OutboxMessage): Promise<string> {
  if (message.contactId) return (await getContact(client, message.contactId, [])).id;
  const found = await searchContactsByEmail(client, message.parentEmail, []);
  const contact = found.results[0];
  if (!contact) throw Object.assign(new Error('contact_not_found'), { code: 404 });
  return contact.id;
}

/**
 * One run over the follow-ups: each due one emailed to its parent (under the allowance for
 * follow-ups), the second one only if the first got no answer; nothing to a parent who stopped
 * emails about their letter, or for a self-report staff rejected.
 */
export async function runFollowUps(now = new Date()): Promise<{ delivered: number; waiting: number; dropped: number }> {
  const tally = { delivered: 0, waiting: 0, dropped: 0 };
  for (const id of await followUpIds()) {
    const found = await readMessage(id);
    const message = found?.message;
    const followUp = message?.followUp;
    if (!message || !followUp || message.status !== 'sent' || (message.channel === 'self' && message.review === 'rejected')) {
      await dropFollowUp(id);
      tally.dropped++;
      continue;
    }
    const first = followUp.link === 'pending';
    const due = first ? followUp.dueAt : followUp.second?.dueAt;
    if (!due || followUp.link === 'limit' || followUp.link === 'stopped') {
      await dropFollowUp(id);
      tally.dropped++;
      continue;
    }
    if (!first && (await readStoredAnswer(id))) {
      await updateMessage(
        id,
        (current) => current.followUp && { ...current, followUp: { ...current.followUp, second: { ...current.followUp.second!, link: 'answered' } } },
      );
      tally.dropped++;
      continue;
    }
    if (Date.parse(due) > now.getTime()) {
      tally.waiting++;
      continue;
    }
    const stopped = await updatesStopped(parentKey(message.parentEmail));
    const sent = stopped ? 'stopped' : await emailFollowUp(message, first ? 'follow_up' : 'second_follow_up', due, now);
    const link = sent === 'queued' ? 'delivered' : sent === 'stopped' ? 'stopped' : 'limit';
    await updateMessage(id, (current) => {
      if (!current.followUp) return undefined;
      if (first)
        return {
          ...current,
          followUp: {
            ...current.followUp,
            link,
            attempts: current.followUp.attempts + 1,
            setAt: now.toISOString(),
            ...(link === 'delivered' ? { second: newSecondFollowUp(current.sentAt, now) } : {}),
          },
        };
      return {
        ...current,
        followUp: {
          ...current.followUp,
          second: { ...current.followUp.second!, link, attempts: current.followUp.second!.attempts + 1, setAt: now.toISOString() },
        },
      };
    });
    tally[link === 'delivered' ? 'delivered' : 'dropped']++;
  }
  return tally;
}

export type AnswerLinkState =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage; answer?: SchoolAnswer }
  | { kind: 'open'; message: OutboxMessage; answer?: SchoolAnswer; etag?: string };

/** What a follow-up link leads to. */
export async function openAnswerLink(token: string, now = new Date()): Promise<AnswerLinkState> {
  const check = verifyToken(token, 'school-answer', now.getTime());
  if (!check.ok && check.reason !== 'expired') return { kind: 'invalid' };
  const found = await readMessage(check.claims!.id);
  if (found?.message.status !== 'sent') return { kind: 'invalid' };
  const stored = await readStoredAnswer(found.message.id);
  const answer = stored?.answer;
  if (!check.ok) return { kind: 'expired', message: found.message, answer };
  return { kind: 'open', message: found.message, answer, etag: stored ? String(stored.version) : undefined };
}

export type SaveOutcome =
  | { kind: 'saved'; answer: SchoolAnswer; message: OutboxMessage }
  | { kind: 'changed_meanwhile'; answer: SchoolAnswer; message: OutboxMessage; version: string };

/**
 * Stores the parent's answer: the first one as new, a change only over the version the page showed
 * (`etag`), so of two answers racing the first wins and the other is told. The same answer again
 * changes nothing.
 */
export async function saveAnswer(
  state: Extract<AnswerLinkState, { kind: 'open' }>,
  kind: AnswerKind,
  comment: string,
  client: Client | undefined,
  now = new Date(),
  /** The version of the answer the parent's page showed ('' for none; anything but a whole number names no version); the one read now when not given. */
  seen?: string,
  /** How many days the reply took (kept for replies only). */
  daysTaken?: number,
): Promise<SaveOutcome> {
  const { message } = state;
  const current = state.answer;
  const days = schoolResponded.has(kind) ? daysTaken : undefined;
  if (current && current.kind === kind && current.comment === comment && current.daysTaken === days) return { kind: 'saved', answer: current, message };
  const expected = seen ?? (current ? (state.etag ?? '') : '');
  const answer: SchoolAnswer = {
    messageId: message.id,
    kind,
    comment,
    ...(days !== undefined ? { daysTaken: days } : {}),
    answeredAt: current?.answeredAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
    contact: 'pending',
  };
  // The first answer only if there is none; a change only over the version the page showed.
  const written =
    expected !== ''
      ? await queryOne(sql`
          UPDATE school_answers SET kind = ${kind}, sync_pending = true, updated_at = ${answer.updatedAt}, record = ${answer}, version = version + 1
          WHERE message_id = ${message.id} AND version = ${/^[1-9]\d{0,8}$/.test(expected) ? Number(expected) : 0} RETURNING 1`)
      : await queryOne(sql`
          INSERT INTO school_answers (message_id, kind, sync_pending, updated_at, record) VALUES (${message.id}, ${kind}, true, ${answer.updatedAt}, ${answer})
          ON CONFLICT (message_id) DO NOTHING RETURNING 1`);
  if (!written) {
    const latest = await readStoredAnswer(message.id);
    // Nothing stored yet (a stale page named a version): stored now as the first answer.
    if (!latest) return saveAnswer({ ...state, answer: undefined, etag: undefined }, kind, comment, client, now, '', daysTaken);
    return { kind: 'changed_meanwhile', answer: latest.answer, message, version: String(latest.version) };
  }
  await countAnswer(message, kind, now, days);
  return { kind: 'saved', answer: await syncAnswer(client, message, answer), message };
}

export type Counted = 'counted' | 'review' | 'held';

/**
 * Counts an answer towards the figures, the school's page and its other parents, once its letter
 * counts (src/server/schools/publication.ts: on record, delivered or an approved self-report). An
 * outcome ("they replied", "we have a meeting") speaks for the school, and the school's answer went
 * to the parent, not to us: it counts, shows and reaches the other parents only once staff approve
 * it in the review queue. An answer about a letter that does not count yet is kept and counted when
 * it does.
 */
export async function countAnswer(message: OutboxMessage, kind: AnswerKind, now = new Date(), daysTaken?: number): Promise<Counted> {
  if (!(await counts(message.id))) return 'held';
  const outcome = kind === 'replied' || kind === 'meeting';
  if (outcome && !(await approved(message.id, kind))) {
    await queueReview(message.id, kind, message.channel === 'self' ? 'outcome_on_self_report' : 'outcome_reported', now);
    return 'review';
  }
  await recordAnswer({ id: message.id, school: schoolOf(message.to), kind, at: now.toISOString(), ...(daysTaken !== undefined ? { daysTaken } : {}) });
  // "They replied" or "We have a meeting": the school's other parents hear it (school-updates.ts).
  await queueSchoolUpdates(message, kind, now).catch((error: unknown) =>
    console.error('[school-answer] updates not queued for', message.id, error instanceof Error ? error.message : ''),
  );
  return 'counted';
}

/** Counts the answer kept about a letter that has just come to count (an approval), if there is one. */
export async function countStoredAnswer(message: OutboxMessage, now = new Date()): Promise<Counted | undefined> {
  const stored = await readStoredAnswer(message.id);
  return stored ? countAnswer(message, stored.answer.kind, now, stored.answer.daysTaken) : undefined;
}

/** Writes the answer to the parent's contact; without HubSpot (or with it down) it waits. */
export async function syncAnswer(client: Client | undefined, message: OutboxMessage, answer: SchoolAnswer): Promise<SchoolAnswer> {
  let next: SchoolAnswer;
  if (!client) next = { ...answer, contact: 'not_configured' };
  else {
    try {
      const contactId = await contactOf(client, message);
      await updateContact(client, contactId, { [serverEnv.contactProperties.schoolAnswer]: answer.kind });
      next = { ...answer, contact: 'delivered' };
    } catch {
      next = { ...answer, contact: 'pending' };
    }
  }
  // Recorded only on the answer it synced: a newer answer meanwhile has its own sync.
  await query(sql`
    UPDATE school_answers SET record = ${next}, sync_pending = ${next.contact !== 'delivered'}, version = version + 1
    WHERE message_id = ${message.id} AND record->>'updatedAt' = ${answer.updatedAt}`);
  return next;
}

/** Answers HubSpot has not got yet, written now (the scheduled run). */
export async function runAnswerSync(client: Client | undefined): Promise<number> {
  if (!client) return 0;
  let synced = 0;
  const rows = await query<{ message_id: string; record: SchoolAnswer }>(
    sql`SELECT message_id, record FROM school_answers WHERE sync_pending ORDER BY updated_at LIMIT 500`,
  );
  for (const { message_id: id, record: answer } of rows) {
    const found = await readMessage(id);
    if (!found) continue;
    if ((await syncAnswer(client, found.message, answer)).contact === 'delivered') synced++;
  }
  return synced;
}

/** A stored answer, for the admin page. */
export async function readAnswer(id: string): Promise<SchoolAnswer | undefined> {
  return (await readStoredAnswer(id))?.answer;
}
