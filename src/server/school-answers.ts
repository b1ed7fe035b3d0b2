/**
 * The follow-up of a school email: some days after it went out, the parent's HubSpot contact gets a
 * signed link (a workflow emails it) to /school-answer, where they say whether the school answered.
 * The answer is stored once per message (changeable while the link works), counted for the impact
 * figures and written to a contact property.
 *
 * Keys in the `outbox` store: `answers/{messageId}`; `answer-sync/{messageId}` marks an answer
 * HubSpot has not got yet.
 */
import type { Client } from '@hubspot/api-client';
import { ANSWER_WINDOW_DAYS, schoolKey, type AnswerKind } from '../lib/school-answers';
import { serverEnv } from './env';
import { getContact, searchContactsByEmail, updateContact } from './hubspot';
import { recordAnswer, recordSent } from './impact';
import { followUpKey, readMessage, saveMessage, type OutboxMessage } from './outbox';
import { store, withStore } from './store';
import { signToken, verifyToken } from './tokens';

export interface SchoolAnswer {
  messageId: string;
  kind: AnswerKind;
  comment: string;
  answeredAt: string;
  updatedAt: string;
  /** Whether HubSpot has the answer on the contact. */
  contact: 'pending' | 'delivered' | 'not_configured';
}

const outbox = () => store('outbox', { strong: true });
export const answerKey = (id: string) => `answers/${id}`;
const syncKey = (id: string) => `answer-sync/${id}`;

/** The follow-up link of a message: valid for ANSWER_WINDOW_DAYS after it is due. */
export function followUpLink(message: Pick<OutboxMessage, 'id' | 'followUp'>): string | undefined {
  if (!message.followUp) return undefined;
  const exp = Date.parse(message.followUp.dueAt) + ANSWER_WINDOW_DAYS * 24 * 3600_000;
  return `${serverEnv.siteOrigin}/school-answer?token=${signToken({ purpose: 'school-answer', id: message.id, exp })}`;
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
  } else {
    try {
      const contactId = await contactOf(client, message);
      const names = serverEnv.contactProperties;
      await updateContact(client, contactId, { [names.followUpSchool]: message.schoolName, [names.followUpUrl]: followUpLink(message)! });
      next = { ...message, contactId, followUp: { ...followUp, link: 'delivered', attempts: followUp.attempts + 1, setAt: now.toISOString(), lastError: undefined } };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      next = { ...message, followUp: { ...followUp, attempts: followUp.attempts + 1, lastError: typeof code === 'number' ? `hubspot_${code}` : 'hubspot_unreachable' } };
    }
  }
  await saveMessage(next, etag);
  return next;
}

/** Every message with a follow-up not yet with HubSpot. */
export async function followUpIds(): Promise<string[]> {
  return withStore(async () => (await outbox().list({ prefix: 'followups/' })).blobs.map((blob) => blob.key.slice('followups/'.length)));
}

/** One run over the follow-ups: due ones handed to HubSpot, every sent one counted. */
export async function runFollowUps(client: Client | undefined, now = new Date()): Promise<{ delivered: number; waiting: number; dropped: number }> {
  const counts = { delivered: 0, waiting: 0, dropped: 0 };
  for (const id of await followUpIds()) {
    const found = await readMessage(id);
    if (!found?.message.followUp || found.message.followUp.link === 'delivered' || found.message.status !== 'sent') {
      await withStore(() => outbox().delete(followUpKey(id)));
      counts.dropped++;
      continue;
    }
    await recordSent(found.message);
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
  const stored = await withStore(() => outbox().getWithMetadata(answerKey(found.message.id), { type: 'json' }));
  const answer = (stored?.data ?? undefined) as SchoolAnswer | undefined;
  if (!check.ok) return { kind: 'expired', message: found.message, answer };
  return { kind: 'open', message: found.message, answer, etag: stored?.etag };
}

export type SaveOutcome = { kind: 'saved'; answer: SchoolAnswer; message: OutboxMessage } | { kind: 'changed_meanwhile'; answer: SchoolAnswer; message: OutboxMessage };

/**
 * Stores the parent's answer: the first one as new, a change only over the version the page showed
 * (`etag`), so of two answers racing the first wins and the other is told. The same answer again
 * changes nothing.
 */
export async function saveAnswer(state: Extract<AnswerLinkState, { kind: 'open' }>, kind: AnswerKind, comment: string, client: Client | undefined, now = new Date()): Promise<SaveOutcome> {
  const { message } = state;
  const current = state.answer;
  if (current && current.kind === kind && current.comment === comment) return { kind: 'saved', answer: current, message };
  const answer: SchoolAnswer = { messageId: message.id, kind, comment, answeredAt: current?.answeredAt ?? now.toISOString(), updatedAt: now.toISOString(), contact: 'pending' };
  const written = await withStore(async () => {
    await outbox().set(syncKey(message.id), '');
    return outbox().setJSON(answerKey(message.id), answer, current && state.etag ? { onlyIfMatch: state.etag } : { onlyIfNew: true });
  });
  if (!written.modified) {
    const latest = (await withStore(() => outbox().get(answerKey(message.id), { type: 'json' }))) as SchoolAnswer;
    return { kind: 'changed_meanwhile', answer: latest, message };
  }
  await recordAnswer({ id: message.id, school: schoolKey(message.to), kind, at: now.toISOString() });
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
  await withStore(async () => {
    // Recorded only on the answer it synced: a newer answer meanwhile has its own sync.
    const stored = await outbox().getWithMetadata(answerKey(message.id), { type: 'json' });
    if (!stored?.etag || (stored.data as SchoolAnswer).updatedAt !== answer.updatedAt) return;
    const { modified } = await outbox().setJSON(answerKey(message.id), next, { onlyIfMatch: stored.etag });
    if (modified && next.contact === 'delivered') await outbox().delete(syncKey(message.id));
  });
  return next;
}

/** Answers HubSpot has not got yet, written now (the scheduled run). */
export async function runAnswerSync(client: Client | undefined): Promise<number> {
  if (!client) return 0;
  let synced = 0;
  const { blobs } = await withStore(() => outbox().list({ prefix: 'answer-sync/' }));
  for (const { key } of blobs) {
    const id = key.slice('answer-sync/'.length);
    const [found, answer] = await Promise.all([readMessage(id), withStore(() => outbox().get(answerKey(id), { type: 'json' }))]);
    if (!found || !answer) {
      await withStore(() => outbox().delete(key));
      continue;
    }
    if ((await syncAnswer(client, found.message, answer as SchoolAnswer)).contact === 'delivered') synced++;
  }
  return synced;
}

/** A stored answer, for the admin page. */
export async function readAnswer(id: string): Promise<SchoolAnswer | undefined> {
  return ((await withStore(() => outbox().get(answerKey(id), { type: 'json' }))) ?? undefined) as SchoolAnswer | undefined;
}
