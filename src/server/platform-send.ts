/**
 * "Send via our platform", end to end: the request (a draft and its one-time token, plus the
 * optional note — never text), the parent's confirmation from their own inbox, the limits, and
 * the hand-over to the outbox. Functions `send-email` and `confirm-send` are thin shells over this.
 */
import type { Client } from '@hubspot/api-client';
import { noteProblem, normaliseNote } from '../lib/email/note';
import { dayInWords } from '../lib/dates';
import { isEmail } from '../lib/forms/values';
import { composeDraft, readDraft, updateDraft, type LetteredDraft } from './email-drafts';
import { serverEnv } from './env';
import { HttpError, StoreUnavailableError } from './http';
import { hubspotClient } from './hubspot';
import { attemptWork, CONFIRM_TTL_MS, createMessage, deleteMessage, newFollowUp, newMessageId, readMessage, saveMessage, type OutboxMessage } from './outbox';
import { ensureSchoolPage, shareLink } from './school-pages';
import { schoolEmailSender } from './school-email-sender';
import { claimLimits, earlierSendAt, limitMessages, releaseLimits, type LimitRefusal } from './send-limits';
import { sameSecret, verifyToken } from './tokens';

/** HubSpot's client when configured; undefined (not an error) when not, so offline runs walk the whole path. */
export function optionalHubSpot(): Client | undefined {
  try {
    return hubspotClient();
  } catch (error) {
    if (error instanceof HttpError && error.code === 'hubspot_not_configured') return undefined;
    throw error;
  }
}

/**
 * What a refusal tells the parent, behind their own link: for an earlier email to this school, the
 * school and the day it went ("You already wrote to Oakwood Academy on 24 November 2026 …").
 */
export function refusalText(message: Pick<OutboxMessage, 'schoolName' | 'confirmation'>, refusal: LimitRefusal): string {
  if (refusal !== 'already_sent') return limitMessages[refusal];
  const earlier = message.confirmation?.earlierAt;
  const when = earlier ? ` on ${dayInWords(earlier)}` : '';
  return `You already wrote to ${message.schoolName || 'this school'}${when} through our platform, and it sends one email from each parent to a school contact. You can still copy your email or send it from your own email app.`;
}

/** A refusal as the message keeps it: with an earlier email to this school, that email's day. */
async function refusalRecord(message: OutboxMessage, refusal: LimitRefusal): Promise<{ refusal: LimitRefusal; earlierAt?: string }> {
  if (refusal !== 'already_sent') return { refusal };
  const earlierAt = await earlierSendAt(message.parentEmail, message.to, message.id).catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) return undefined;
    throw error;
  });
  return earlierAt ? { refusal, earlierAt } : { refusal };
}

export interface SendAnswer {
  status: 200 | 201 | 202;
  body: { id: string; status: OutboxMessage['status']; confirmation?: { expiresAt: string; email: string }; share?: SchoolShare };
}

/** The school page a parent is offered to share once their email is sent. */
export interface SchoolShare {
  url: string;
  schoolName: string;
}

/**
 * Makes sure the school's page exists and gives the parent's share link to it (with their referral
 * code); nothing when school pages are not configured or the page cannot be made now.
 */
export async function shareOf(message: OutboxMessage, now = new Date()): Promise<SchoolShare | undefined> {
  const url = shareLink(message);
  if (!url) return undefined;
  try {
    await ensureSchoolPage(message, now);
  } catch (error) {
    // The send stands either way; only the offer to share is left out.
    if (!(error instanceof StoreUnavailableError)) console.error('[school-pages] page not made for', message.id, error instanceof Error ? error.message : '');
    return undefined;
  }
  return { url, schoolName: message.schoolName || 'your school' };
}

/**
 * The outbox message a draft makes: the parent, the school and exactly the email composed from it
 * (`email`, with `note`), to the school address `to` as checked by the caller.
 */
function messageFromDraft(
  draft: LetteredDraft,
  what: { channel: OutboxMessage['channel']; status: OutboxMessage['status']; to: string; email: { subject: string; body: string }; note: string },
  now: Date,
): OutboxMessage {
  return {
    id: newMessageId(now),
    draftId: draft.id,
    channel: what.channel,
    status: what.status,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    parentEmail: draft.data.parentEmail.trim().toLowerCase(),
    parentName: draft.data.parentFullName,
    schoolName: draft.data.schoolName,
    to: what.to,
    toName: draft.data.schoolContactName,
    ...(draft.attribution ? { attribution: draft.attribution } : {}),
    subject: what.email.subject,
    body: what.email.body,
    note: what.note,
    letterId: draft.letter.id,
    ownWords: draft.ownWords ?? '',
    attempts: 0,
    nextAttemptAt: now.toISOString(),
  };
}

/** The draft a browser names, checked against its token; the refusals every caller shares. */
async function ownDraft(input: { submissionId: string; token: string }) {
  const found = await readDraft(input.submissionId);
  if (!found) throw new HttpError(404, 'unknown_submission', 'We could not find a school email for this submission. Please fill in the form again.');
  if (!sameSecret(input.token, found.draft.tokenHash)) throw new HttpError(403, 'invalid_token', 'This send request is not valid for this email. Please fill in the form again.');
  return found;
}

/**
 * The parent sent the email themselves: recorded once per draft (a second call answers the first
 * record), so that the follow-up asks them later and the impact figures count it.
 */
export async function recordSelfSent(input: { submissionId: string; token: string; note?: string }, now = new Date()): Promise<SendAnswer> {
  const { draft, etag } = await ownDraft(input);
  if (draft.selfSentMessageId) return repeatedSelfSent(draft.selfSentMessageId, now);
  const note = normaliseNote(input.note ?? draft.note);
  const problem = noteProblem(note);
  if (problem) throw new HttpError(400, 'invalid_note', problem);
  const school = draft.data.schoolContactEmail.trim().toLowerCase();
  if (!isEmail(school)) throw new HttpError(400, 'missing_address', 'We can only follow up on an email with the school contact’s address.');
  const email = composeDraft(draft, note);
  const message: OutboxMessage = {
    ...messageFromDraft(draft, { channel: 'self', status: 'sent', to: school, email, note }, now),
    sentAt: now.toISOString(),
    followUp: newFollowUp(now),
  };
  await createMessage(message);
  if (!(await updateDraft({ ...draft, selfSentMessageId: message.id }, etag))) {
    await deleteMessage(message.id);
    const latest = await readDraft(draft.id);
    if (latest?.draft.selfSentMessageId) return repeatedSelfSent(latest.draft.selfSentMessageId, now);
    throw new HttpError(409, 'changed', 'This email changed meanwhile; please try again.');
  }
  // Counted in the impact figures only once the parent confirms it from the follow-up link.
  const share = await shareOf(message, now);
  return { status: 201, body: { id: message.id, status: 'sent', ...(share ? { share } : {}) } };
}

/** A second "I've sent it myself" for a draft: the first record, and its share link again. */
async function repeatedSelfSent(id: string, now: Date): Promise<SendAnswer> {
  const found = await readMessage(id);
  const share = found ? await shareOf(found.message, now) : undefined;
  return { status: 200, body: { id, status: 'sent', ...(share ? { share } : {}) } };
}

/** The parent asks the platform to send the email of draft `submissionId`. */
export async function requestPlatformSend(input: { submissionId: string; token: string; note?: string }, now = new Date()): Promise<SendAnswer> {
  const { draft, etag } = await ownDraft(input);
  if (draft.messageId) throw new HttpError(409, 'already_requested', 'You have already asked us to send this email. Check your inbox for the confirmation link.');
  const note = normaliseNote(input.note ?? draft.note);
  const problem = noteProblem(note);
  if (problem) throw new HttpError(400, 'invalid_note', problem);
  const parent = draft.data.parentEmail.trim().toLowerCase();
  const school = draft.data.schoolContactEmail.trim().toLowerCase();
  if (!isEmail(parent) || !isEmail(school)) {
    throw new HttpError(400, 'missing_address', 'Our platform needs your email address and the school contact’s email address to send this email.');
  }
  const email = composeDraft(draft, note);
  const confirm = serverEnv.platformSendConfirmation === 'email';
  const message: OutboxMessage = {
    ...messageFromDraft(draft, { channel: 'platform', status: confirm ? 'awaiting_confirmation' : 'queued', to: school, email, note }, now),
    ...(confirm ? { confirmation: { expiresAt: new Date(now.getTime() + CONFIRM_TTL_MS).toISOString(), link: 'pending' as const, linkAttempts: 0 } } : {}),
  };
  await createMessage(message);
  // The draft takes one message only: of two requests at once, the second gives its message back.
  if (!(await updateDraft({ ...draft, note, messageId: message.id }, etag))) {
    await deleteMessage(message.id);
    throw new HttpError(409, 'already_requested', 'You have already asked us to send this email. Check your inbox for the confirmation link.');
  }

  if (confirm) {
    // The limits are taken now, so requests waiting for their confirmation count. What this
    // request met is kept on the message and told only behind the parent's own link: the answer
    // is the same whether or not this parent already wrote to this school.
    // With the database down here, the confirmation takes the limits instead.
    const refusal = await claimLimits(parent, school, message.id, now).catch((error: unknown) => {
      if (error instanceof StoreUnavailableError) return undefined;
      throw error;
    });
    const pending = refusal ? { ...message, confirmation: { ...message.confirmation!, ...(await refusalRecord(message, refusal)) } } : message;
    const etag = refusal ? await saveMessage(pending) : undefined;
    const settled = await attemptWork(optionalHubSpot(), pending, etag);
    return { status: 202, body: { id: settled.id, status: 'awaiting_confirmation', confirmation: { expiresAt: message.confirmation!.expiresAt, email: parent } } };
  }
  return sendNow(message, now);
}

/**
 * PLATFORM_SEND_CONFIRMATION=off: claims the limits and delivers. A refusal sends nothing to the
 * school and is answered like an accepted send (`noticeInstead`).
 */
async function sendNow(message: OutboxMessage, now: Date, etag?: string): Promise<SendAnswer> {
  const refusal = await claimLimits(message.parentEmail, message.to, message.id, now);
  if (refusal) return noticeInstead(message, refusal, now, etag);
  const settled = await attemptWork(optionalHubSpot(), { ...message, status: 'queued' }, etag);
  if (settled.status === 'failed') {
    throw new HttpError(502, 'delivery_failed', 'The email could not be sent. Please copy it and send it yourself.');
  }
  return { status: settled.status === 'sent' ? 200 : 202, body: { id: settled.id, status: settled.status } };
}

/**
 * A send that met a limit with confirmation off. The answer is the one an accepted send gets, so
 * that it tells nobody what this parent did before; the parent learns why in their own inbox, by
 * the path a confirmation takes: the message waits with its refusal, and the link handed over for
 * them (under the 3-a-day allowance of their address) opens the page that says it.
 */
async function noticeInstead(message: OutboxMessage, refusal: LimitRefusal, now: Date, etag?: string): Promise<SendAnswer> {
  const notice: OutboxMessage = {
    ...message,
    status: 'awaiting_confirmation',
    confirmation: { expiresAt: new Date(now.getTime() + CONFIRM_TTL_MS).toISOString(), link: 'pending', linkAttempts: 0, ...(await refusalRecord(message, refusal)) },
    updatedAt: now.toISOString(),
  };
  const saved = await saveMessage(notice, etag);
  if (saved !== undefined) await attemptWork(optionalHubSpot(), notice, saved);
  // What an accepted send answers when its sender takes it: sent, or queued without a sender.
  return schoolEmailSender() ? { status: 200, body: { id: message.id, status: 'sent' } } : { status: 202, body: { id: message.id, status: 'queued' } };
}

export type ConfirmOutcome =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage }
  | { kind: 'ready'; message: OutboxMessage }
  | { kind: 'done'; message: OutboxMessage }
  | { kind: 'refused'; message: OutboxMessage; refusal: LimitRefusal }
  | { kind: 'failed'; message: OutboxMessage };

/** What a confirmation link leads to, without changing anything (GET shows this). */
export async function inspectConfirmation(token: string, now = new Date()): Promise<ConfirmOutcome> {
  const check = verifyToken(token, 'confirm-send', now.getTime());
  if (!check.ok && check.reason !== 'expired') return { kind: 'invalid' };
  const found = await readMessage(check.claims!.id);
  if (!found || found.message.channel !== 'platform') return { kind: 'invalid' };
  const { message } = found;
  if (message.status === 'queued' || message.status === 'sent') return { kind: 'done', message };
  if (message.status === 'failed') {
    const refusal = message.lastError as LimitRefusal;
    return refusal in limitMessages ? { kind: 'refused', message, refusal } : { kind: 'failed', message };
  }
  if (message.confirmation?.refusal) return { kind: 'refused', message, refusal: message.confirmation.refusal };
  if (!check.ok) return { kind: 'expired', message };
  return { kind: 'ready', message };
}

/**
 * The parent confirms: exactly once, the message is queued, its limits taken, and it is delivered.
 * A second confirmation (or one racing the first) finds it done.
 */
export async function confirmPlatformSend(token: string, now = new Date()): Promise<ConfirmOutcome> {
  const outcome = await inspectConfirmation(token, now);
  if (outcome.kind === 'expired' && outcome.message?.status === 'awaiting_confirmation') {
    const found = await readMessage(outcome.message.id);
    if (found?.message.status === 'awaiting_confirmation') {
      const saved = await saveMessage({ ...found.message, status: 'failed', lastError: 'not_confirmed_in_time', updatedAt: now.toISOString() }, found.etag);
      if (saved !== undefined) await releaseLimits([found.message.id]);
    }
  }
  if (outcome.kind === 'refused' && outcome.message.status === 'awaiting_confirmation') {
    // A request that met a limit: confirming it settles it as refused, and sends nothing.
    const found = await readMessage(outcome.message.id);
    if (found?.message.status === 'awaiting_confirmation') {
      await saveMessage({ ...found.message, status: 'failed', lastError: outcome.refusal, updatedAt: now.toISOString() }, found.etag);
    }
    return outcome;
  }
  if (outcome.kind !== 'ready') return outcome;
  const found = await readMessage(outcome.message.id);
  if (!found || found.message.status !== 'awaiting_confirmation') return inspectConfirmation(token, now);
  const confirmed: OutboxMessage = {
    ...found.message,
    confirmation: { ...found.message.confirmation!, confirmedAt: now.toISOString() },
    updatedAt: now.toISOString(),
  };
  const refusal = await claimLimits(confirmed.parentEmail, confirmed.to, confirmed.id, now);
  if (refusal) {
    const failed = { ...confirmed, confirmation: { ...confirmed.confirmation!, ...(await refusalRecord(confirmed, refusal)) }, status: 'failed' as const, lastError: refusal };
    if ((await saveMessage(failed, found.etag)) === undefined) return inspectConfirmation(token, now);
    return { kind: 'refused', message: failed, refusal };
  }
  const queued = { ...confirmed, status: 'queued' as const, nextAttemptAt: now.toISOString() };
  // Only one confirmation moves it on; the other finds it done.
  const etag = await saveMessage(queued, found.etag);
  if (etag === undefined) return inspectConfirmation(token, now);
  const settled = await attemptWork(optionalHubSpot(), queued, etag);
  return settled.status === 'failed' ? { kind: 'failed', message: settled } : { kind: 'done', message: settled };
}
