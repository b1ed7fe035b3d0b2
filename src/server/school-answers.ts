/**
 * The follow-up of a school email: some days after it went out, the parent's HubSpot contact gets a
 * signed link (a workflow emails it) to /school-answer, where they say whether the school answered.
 * The answer is stored once per message (changeable while the link works), counted for the impact
 * figures and written to a contact property.
 *
 * Table `school_answers`: one row per message (deleted with it), the answer as `record`;
 * `sync_pending` marks an answer HubSpot has not got yet.
 */
import type { Client } from '@hubspot/api-client';
import { ANSWER_WINDOW_DAYS, schoolKey, type AnswerKind } from '../lib/school-answers';
import { dataLink } from './data-rights';
import { serverEnv } from './env';
import { getContact, searchContactsByEmail, updateContact } from './hubspot';
import { recordAnswer, recordSent } from './impact';
import { query, queryOne, sql } from './db';
import { readMessage, saveMessage, type OutboxMessage, type SecondFollowUp } from './outbox';
import { takeEmailAllowance } from './send-limits';
import { canonicalAddress } from './identity';
import { queueSchoolUpdates } from './school-updates';
import { signToken, verifyToken } from './tokens';

import type { SchoolAnswer } from '../lib/schemas/admin';
export type { SchoolAnswer };

async function readStoredAnswer(id: string): Promise<{ answer: SchoolAnswer; version: number } | undefined> {
  const row = await queryOne<{ record: SchoolAnswer; version: number }>(sql`SELECT record, version FROM school_answers WHERE message_id = ${id}`);
  return row ? { answer: row.record, version: row.version } : undefined;
}

/** The follow-up link of a message: valid for ANSWER_WINDOW_DAYS after it is due. */
export function followUpLink(message: Pick<OutboxMessage, 'id' | 'followUp'>): string | undefined {
  if (!message.followUp) return undefined;
  const exp = Date.parse(message.followUp.dueAt) + ANSWER_WINDOW_DAYS * 24 * 3600_000;
  return `${serverEnv.siteOrigin}/school-answer?token=${signToken({ purpose: 'school-answer', id: message.id, exp })}`;
}

/** The second follow-up's link: a link of its own (valid ANSWER_WINDOW_DAYS after it is due), so the contact property changes and the workflow emails again. */
export function secondFollowUpLink(message: Pick<OutboxMessage, 'id' | 'followUp'>): string | undefined {
  const second = message.followUp?.second;
  if (!second) return undefined;
  const exp = Date.parse(second.dueAt) + ANSWER_WINDOW_DAYS * 24 * 3600_000;
  return `${serverEnv.siteOrigin}/school-answer?token=${signToken({ purpose: 'school-answer', id: message.id, exp })}`;
}

/** The second follow-up of a message sent at `sentAt`. */
export function newSecondFollowUp(sentAt: string | undefined, now: Date): SecondFollowUp {
  const from = sentAt ? Date.parse(sentAt) : now.getTime();
  return { dueAt: new Date(from + serverEnv.secondFollowUpAfterDays * 24 * 3600_000).toISOString(), link: 'pending', attempts: 0 };
}

async function contactOf(client: Client, message: OutboxMessage): Promise<string> {
  if (message.contactId) return (await getContact(client, message.contactId, [])).id;
  const found = await searchContactsByEmail(client, message.parentEmail, []);
  const contact = found.results[0];
  if (!contact) throw Object.assign(new Error('contact_not_found'), { code: 404 });
  return contact.id;
}

/** Hands one due follow-up link to HubSpot (or notes that HubSpot is not configured). */
export async function deliverFollowUp(client: Client | undefined, message: OutboxMessage, etag: string, now = new Date()): Promise<OutboxMessage> {
  const followUp = message.followUp!;
  let next: OutboxMessage;
  if (!client) {
    next = { ...message, followUp: { ...followUp, link: 'not_configured', lastError: 'hubspot_not_configured' } };
  } else if (followUp.attempts === 0 && !(await takeEmailAllowance(message.parentEmail, now))) {
    // The address has had its emails for today (confirmation and follow-up links count alike).
    next = { ...message, followUp: { ...followUp, link: 'limit', lastError: 'recipient_limit' } };
  } else {
    try {
      const contactId = await contactOf(client, message);
      const names = serverEnv.contactProperties;
      await updateContact(client, contactId, { [names.followUpSchool]: message.schoolName, [names.followUpUrl]: followUpLink(message)!, [names.yourDataUrl]: dataLink(message.parentEmail) });
      const second = followUp.second ?? newSecondFollowUp(message.sentAt, now);
      next = { ...message, contactId, followUp: { ...followUp, link: 'delivered', attempts: followUp.attempts + 1, setAt: now.toISOString(), lastError: undefined, second } };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      next = { ...message, followUp: { ...followUp, attempts: followUp.attempts + 1, lastError: typeof code === 'number' ? `hubspot_${code}` : 'hubspot_unreachable' } };
    }
  }
  await saveMessage(next, etag);
  return next;
}

/**
 * Hands the second follow-up to HubSpot, once: the same properties as the first with a link of its
 * own. Within the address's daily emails, as the first.
 */
export async function deliverSecondFollowUp(client: Client | undefined, message: OutboxMessage, etag: string, now = new Date()): Promise<OutboxMessage> {
  const followUp = message.followUp!;
  const second = followUp.second!;
  let next: OutboxMessage;
  if (!client) {
    next = { ...message, followUp: { ...followUp, second: { ...second, link: 'not_configured', lastError: 'hubspot_not_configured' } } };
  } else if (second.attempts === 0 && !(await takeEmailAllowance(message.parentEmail, now))) {
    next = { ...message, followUp: { ...followUp, second: { ...second, link: 'limit', lastError: 'recipient_limit' } } };
  } else {
    try {
      const contactId = await contactOf(client, message);
      const names = serverEnv.contactProperties;
      await updateContact(client, contactId, { [names.followUpSchool]: message.schoolName, [names.followUpUrl]: secondFollowUpLink(message)!, [names.yourDataUrl]: dataLink(message.parentEmail) });
      next = { ...message, contactId, followUp: { ...followUp, second: { ...second, link: 'delivered', attempts: second.attempts + 1, setAt: now.toISOString(), lastError: undefined } } };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      next = { ...message, followUp: { ...followUp, second: { ...second, attempts: second.attempts + 1, lastError: typeof code === 'number' ? `hubspot_${code}` : 'hubspot_unreachable' } } };
    }
  }
  await saveMessage(next, etag);
  return next;
}

/** Every message with a follow-up not yet with HubSpot. */
export async function followUpIds(): Promise<string[]> {
  const rows = await query<{ id: string }>(sql`SELECT id FROM outbox_messages WHERE follow_up_waiting ORDER BY id LIMIT 1000`);
  return rows.map((row) => row.id);
}

/** One run over the follow-ups: due ones handed to HubSpot, every sent one counted. */
export async function runFollowUps(client: Client | undefined, now = new Date()): Promise<{ delivered: number; waiting: number; dropped: number }> {
  const counts = { delivered: 0, waiting: 0, dropped: 0 };
  for (const id of await followUpIds()) {
    const found = await readMessage(id);
    const second = found?.message.followUp?.second;
    if (found && found.message.status === 'sent' && found.message.followUp?.link === 'delivered' && (second?.link === 'pending' || second?.link === 'not_configured')) {
      // The second follow-up: not if the parent answered the first; else once it is due.
      if (await readStoredAnswer(id)) {
        await saveMessage({ ...found.message, followUp: { ...found.message.followUp, second: { ...second, link: 'answered' } } }, found.etag);
        counts.dropped++;
      } else if (Date.parse(second.dueAt) > now.getTime()) {
        counts.waiting++;
      } else {
        const next = await deliverSecondFollowUp(client, found.message, found.etag, now);
        counts[next.followUp?.second?.link === 'delivered' ? 'delivered' : 'waiting']++;
      }
      continue;
    }
    if (!found?.message.followUp || found.message.followUp.link === 'delivered' || found.message.status !== 'sent') {
      if (found) await query(sql`UPDATE outbox_messages SET follow_up_waiting = false WHERE id = ${id}`);
      counts.dropped++;
      continue;
    }
    // A platform send was confirmed from the parent's inbox; a self-report counts once the parent
    // confirms it from this follow-up link (saveAnswer).
    if (found.message.channel === 'platform') await recordSent(found.message);
    if (Date.parse(found.message.followUp.dueAt) > now.getTime()) {
      counts.waiting++;
      continue;
    }
    const next = await deliverFollowUp(client, found.message, found.etag, now);
    counts[next.followUp?.link === 'delivered' ? 'delivered' : 'waiting']++;
  }
  return counts;
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
  if (!found || found.message.status !== 'sent') return { kind: 'invalid' };
  const stored = await readStoredAnswer(found.message.id);
  const answer = stored?.answer;
  if (!check.ok) return { kind: 'expired', message: found.message, answer };
  return { kind: 'open', message: found.message, answer, etag: stored ? String(stored.version) : undefined };
}

export type SaveOutcome = { kind: 'saved'; answer: SchoolAnswer; message: OutboxMessage } | { kind: 'changed_meanwhile'; answer: SchoolAnswer; message: OutboxMessage; version: string };

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
  /** The version of the answer the parent's page showed ('' for none); the one read now when not given. */
  seen?: string,
): Promise<SaveOutcome> {
  const { message } = state;
  const current = state.answer;
  if (current && current.kind === kind && current.comment === comment) return { kind: 'saved', answer: current, message };
  const expected = seen ?? (current ? (state.etag ?? '') : '');
  const answer: SchoolAnswer = { messageId: message.id, kind, comment, answeredAt: current?.answeredAt ?? now.toISOString(), updatedAt: now.toISOString(), contact: 'pending' };
  // The first answer only if there is none; a change only over the version the page showed.
  const written =
    expected !== ''
      ? await queryOne(sql`
          UPDATE school_answers SET kind = ${kind}, sync_pending = true, updated_at = ${answer.updatedAt}, record = ${answer}, version = version + 1
          WHERE message_id = ${message.id} AND version = ${Number(expected) || 0} RETURNING 1`)
      : await queryOne(sql`
          INSERT INTO school_answers (message_id, kind, sync_pending, updated_at, record) VALUES (${message.id}, ${kind}, true, ${answer.updatedAt}, ${answer})
          ON CONFLICT (message_id) DO NOTHING RETURNING 1`);
  if (!written) {
    const latest = await readStoredAnswer(message.id);
    // Nothing stored yet (a stale page named a version): stored now as the first answer.
    if (!latest) return saveAnswer({ ...state, answer: undefined, etag: undefined }, kind, comment, client, now, '');
    return { kind: 'changed_meanwhile', answer: latest.answer, message, version: String(latest.version) };
  }
  // Answering from the link in their own inbox confirms a self-reported send.
  if (message.channel === 'self') await recordSent(message);
  await recordAnswer({ id: message.id, school: schoolKey(canonicalAddress(message.to)), kind, at: now.toISOString() });
  // "They replied" or "We have a meeting": the school's other parents hear it (school-updates.ts).
  await queueSchoolUpdates(message, kind, now).catch((error: unknown) => console.error('[school-answer] updates not queued for', message.id, error instanceof Error ? error.message : ''));
  return { kind: 'saved', answer: await syncAnswer(client, message, answer), message };
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
  const rows = await query<{ message_id: string; record: SchoolAnswer }>(sql`SELECT message_id, record FROM school_answers WHERE sync_pending ORDER BY updated_at LIMIT 500`);
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
