/**
 * "Send via our platform", end to end: the request (a draft and its one-time token, plus the
 * optional note — never text), the parent's confirmation from their own inbox, the limits, and the
 * letter's hand-over to the mail layer. Functions `send-email` and `confirm-send` are thin shells.
 *
 * Proof before power: a request spends nobody's allowance but its own network's (a bounded number
 * of requests a day), makes no page and moves no figure. Only the confirmation, from the link in
 * the parent's inbox, takes the limits (one letter per parent and school, the school's and the
 * parent's day) and sends. A newer request of the same parent to the same school replaces an
 * older one still waiting, whose link then sends nothing.
 */
import type { Client } from '@hubspot/api-client';
import { noteProblem, normaliseNote } from '../lib/email/note';
import { dayInWords } from '../lib/dates';
import { isEmail } from '../lib/forms/values';
import { composeDraft, readDraft, updateDraft, type LetteredDraft } from './email-drafts';
import { serverEnv } from './env';
import { HttpError, StoreUnavailableError } from './http';
import { hubspotClient } from './hubspot';
import { counts } from './impact';
import { deliverAndFollow, queueLetter } from './letter-delivery';
import { mailboxKey } from './identity';
import { addressSuppressed } from './mail/queue';
import { mailSender } from './mail/senders';
import { whenLetterGoes } from './mail/schedule';
import { isTimeZone } from './mail/window';
import { emailConfirmation, emailRefusal } from './notify';
import { CONFIRM_TTL_MS, createMessage, deleteMessage, newFollowUp, newMessageId, readMessage, replaceWaitingRequests, updateMessage, type OutboxMessage } from './outbox';
import { queueReview } from './review-items';
import { ensureSchoolPage, readSchoolPage, schoolPageKeyIfConfigured, shareLink } from './school-pages';
import { claimLimits, earlierLetter, limitMessages, takeRequestBound, type LimitRefusal } from './send-limits';
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

/** The time zone a browser said, if it is one this runtime knows. */
export const timeZoneOf = (value: string | null | undefined) => (value && isTimeZone(value.trim()) ? value.trim() : undefined);

/**
 * What a refusal tells the parent, behind their own link: for their other letter to this school,
 * when it went, or, confirmed and waiting for the school's hours, when it goes. "Already wrote" is
 * said only of a letter that really went.
 */
export function refusalText(message: Pick<OutboxMessage, 'schoolName' | 'confirmation'>, refusal: LimitRefusal, now = new Date()): string {
  const school = message.schoolName || 'this school';
  if (refusal !== 'already_sent') return limitMessages[refusal];
  const earlier = message.confirmation?.earlierAt;
  if (earlier && Date.parse(earlier) > now.getTime()) {
    return `Your earlier letter to ${school} is confirmed and goes at ${whenLetterGoes({ at: earlier }, now)} (the school's time). Our platform sends one letter from each parent to a school contact, so this one was not sent. You can copy it or send it from your own email app below.`;
  }
  const when = earlier ? ` on ${dayInWords(earlier)}` : '';
  return `You already wrote to ${school}${when} through our platform, and it sends one letter from each parent to a school contact. You can copy this one or send it from your own email app below.`;
}

export interface SendAnswer {
  status: 200 | 201 | 202;
  body: { id: string; status: OutboxMessage['status']; confirmation?: { expiresAt: string; email: string }; share?: SchoolShare };
}

/** The school page a parent is offered to share once their letter is confirmed. */
export interface SchoolShare {
  url: string;
  schoolName: string;
  /** How many other parents' letters count on the page so far (0 until the first is delivered). */
  others: number;
}

/**
 * The parent's share link to their school's page (with their referral code). For a confirmed
 * platform letter the page is made if there is none (it shows nothing until the letter is
 * delivered); a self-reported letter only links to a page that exists. Nothing when school pages
 * are not configured or the page cannot be read now.
 */
export async function shareOf(message: OutboxMessage, now = new Date()): Promise<SchoolShare | undefined> {
  try {
    if (message.channel === 'platform') await ensureSchoolPage(message, now);
    const key = schoolPageKeyIfConfigured(message.to);
    const page = key ? await readSchoolPage(key) : undefined;
    const url = page && shareLink(message, page.slug);
    if (!page || !url) return undefined;
    const own = (await counts(message.id)) ? 1 : 0;
    return { url, schoolName: page.schoolName ?? message.schoolName ?? 'your school', others: Math.max(0, page.parents - own) };
  } catch (error) {
    // The send stands either way; only the offer to share is left out.
    if (!(error instanceof StoreUnavailableError) && !(error instanceof HttpError)) console.error('[school-pages] page not made for', message.id, error instanceof Error ? error.message : '');
    return undefined;
  }
}

/** The outbox message a draft makes: the parent, the school and exactly the email composed from it. */
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
 * The parent says they sent the letter themselves: recorded once per draft, so that they are asked
 * later whether the school answered. It counts, shows on the school's page and reaches other
 * parents only once staff approve it: nobody can check a claim that a letter went.
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
    review: 'pending',
  };
  await createMessage(message);
  if (!(await updateDraft({ ...draft, selfSentMessageId: message.id }, etag))) {
    await deleteMessage(message.id);
    const latest = await readDraft(draft.id);
    if (latest?.draft.selfSentMessageId) return repeatedSelfSent(latest.draft.selfSentMessageId, now);
    throw new HttpError(409, 'changed', 'This email changed meanwhile; please try again.');
  }
  await queueReview(message.id, 'self_report', 'self_report', now);
  const share = await shareOf(message, now);
  return { status: 201, body: { id: message.id, status: 'sent', ...(share ? { share } : {}) } };
}

/** A second "I've sent it myself" for a draft: the first record, and its share link again. */
async function repeatedSelfSent(id: string, now: Date): Promise<SendAnswer> {
  const found = await readMessage(id);
  const share = found ? await shareOf(found.message, now) : undefined;
  return { status: 200, body: { id, status: 'sent', ...(share ? { share } : {}) } };
}

/** Who asks: the network the request came from (a hash), and the time zone the browser said. */
export interface Requester {
  network: string;
  timeZone?: string;
}

const checkInbox = (id: string, expiresAt: string, email: string): SendAnswer => ({ status: 202, body: { id, status: 'awaiting_confirmation', confirmation: { expiresAt, email } } });

/**
 * The parent asks the platform to send the letter of draft `submissionId`. With confirmation on
 * (the default) the answer is always the same 202 "check your inbox": whether a limit will refuse
 * it, or this network asked too often today, is told only behind the link in the parent's own inbox
 * (or, over the network's bound, nowhere: nothing is sent).
 */
export async function requestPlatformSend(input: { submissionId: string; token: string; note?: string }, requester: Requester, now = new Date()): Promise<SendAnswer> {
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
  const expiresAt = new Date(now.getTime() + CONFIRM_TTL_MS).toISOString();
  const message: OutboxMessage = {
    ...messageFromDraft(draft, { channel: 'platform', status: 'awaiting_confirmation', to: school, email, note }, now),
    confirmation: { expiresAt, network: requester.network },
    ...(requester.timeZone ? { delivery: { at: now.toISOString(), timeZone: requester.timeZone } } : {}),
  };
  // A stranger's throwaway requests stop at their own network's bound; answered like any other.
  if (!(await takeRequestBound(requester.network, school, now))) return checkInbox(message.id, expiresAt, parent);
  await createMessage(message);
  // The draft takes one message only: of two requests at once, the second gives its message back.
  if (!(await updateDraft({ ...draft, note, messageId: message.id }, etag))) {
    await deleteMessage(message.id);
    throw new HttpError(409, 'already_requested', 'You have already asked us to send this email. Check your inbox for the confirmation link.');
  }
  // An older request still waiting for its confirmation is replaced (its link then sends nothing);
  // a store down here leaves it waiting, and the limits taken at confirmation still send one letter.
  await replaceWaitingRequests(parent, school, message.id, now).catch((error: unknown) => {
    if (!(error instanceof StoreUnavailableError)) throw error;
  });
  if (!confirm) return sendNow(message, now);
  const handed = await emailConfirmation(message, 'confirmation', now).catch((error: unknown) => {
    // The draft has taken the request: the scheduled run writes the email the store could not take now.
    if (!(error instanceof StoreUnavailableError)) throw error;
    return undefined;
  });
  if (handed) await updateMessage(message.id, (current) => (current.confirmation ? { ...current, confirmation: { ...current.confirmation, email: handed } } : undefined)).catch(() => undefined);
  return checkInbox(message.id, expiresAt, parent);
}

/**
 * PLATFORM_SEND_CONFIRMATION=off: takes the limits and sends. A refusal sends nothing to the school
 * and is answered like an accepted send; the parent learns why in their own inbox (a refusal email
 * whose link opens the page that says it).
 */
async function sendNow(message: OutboxMessage, now: Date): Promise<SendAnswer> {
  const refusal = await claimLimits(message.parentEmail, message.to, message.id, now);
  if (refusal) {
    const earlier = await earlierOf(message, refusal);
    // It stays waiting with its refusal, so the link in the refusal email opens the page that says it.
    const refused = await updateMessage(message.id, (current) => ({ ...current, confirmation: { ...current.confirmation!, refusal, ...earlier }, updatedAt: now.toISOString() }));
    if (refused) await emailRefusal(refused, refusalText(refused, refusal, now), now);
    return mailSender() ? { status: 200, body: { id: message.id, status: 'sent' } } : { status: 202, body: { id: message.id, status: 'queued' } };
  }
  const settled = await sendConfirmed(message, message.delivery?.timeZone, now);
  return { status: settled.status === 'sent' ? 200 : 202, body: { id: settled.id, status: settled.status === 'sent' ? 'sent' : 'queued' } };
}

/** A refusal as the message keeps it: with an earlier letter to this school, when it went (or goes). */
async function earlierOf(message: OutboxMessage, refusal: LimitRefusal): Promise<{ earlierAt?: string }> {
  if (refusal !== 'already_sent') return {};
  const earlier = await earlierLetter(message.parentEmail, message.to, message.id).catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) return undefined;
    throw error;
  });
  const at = earlier?.sentAt ?? earlier?.goesAt;
  return at ? { earlierAt: at } : {};
}

/**
 * A confirmed letter (its limits taken): written to the mail layer for the school's hours, its page
 * made for the parent to share, and sent at once when its time is now.
 */
async function sendConfirmed(message: OutboxMessage, timeZone: string | undefined, now: Date): Promise<OutboxMessage> {
  const scheduled = await queueLetter(message, timeZone, now);
  const queued = await updateMessage(message.id, (current) =>
    current.status === 'awaiting_confirmation' || current.status === 'failed'
      ? { ...current, status: 'queued', delivery: scheduled.delivery, confirmation: { ...current.confirmation!, confirmedAt: current.confirmation?.confirmedAt ?? now.toISOString() }, nextAttemptAt: scheduled.delivery!.at, updatedAt: now.toISOString() }
      : undefined,
  );
  if (!queued) return (await readMessage(message.id))?.message ?? message;
  await ensureSchoolPage(queued, now).catch(() => undefined);
  const sender = mailSender();
  if (sender && Date.parse(queued.delivery!.at) <= now.getTime()) {
    await deliverAndFollow(queued.id, sender).catch((error: unknown) => {
      // The letter waits in the mail layer; the scheduled run sends it.
      if (!(error instanceof StoreUnavailableError)) console.error('[platform-send] immediate send of', queued.id, 'failed:', error instanceof Error ? error.message : '');
    });
  }
  return (await readMessage(message.id))?.message ?? queued;
}

export type ConfirmOutcome =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage }
  | { kind: 'ready'; message: OutboxMessage }
  | { kind: 'done'; message: OutboxMessage }
  | { kind: 'refused'; message: OutboxMessage; refusal: LimitRefusal }
  | { kind: 'replaced'; message: OutboxMessage }
  | { kind: 'bounced'; message: OutboxMessage }
  | { kind: 'failed'; message: OutboxMessage };

/** What a confirmation link leads to, without changing anything (GET shows this). */
export async function inspectConfirmation(token: string, now = new Date()): Promise<ConfirmOutcome> {
  const check = verifyToken(token, 'confirm-send', now.getTime());
  if (!check.ok && check.reason !== 'expired') return { kind: 'invalid' };
  const found = await readMessage(check.claims!.id);
  if (!found || found.message.channel !== 'platform') return { kind: 'invalid' };
  const { message } = found;
  if (message.status === 'replaced') return { kind: 'replaced', message };
  if (message.status === 'bounced') return { kind: 'bounced', message };
  if (message.status === 'queued' || message.status === 'sent') return { kind: 'done', message };
  if (message.confirmation?.refusal) return { kind: 'refused', message, refusal: message.confirmation.refusal };
  if (message.status === 'failed') return message.lastError === 'not_confirmed_in_time' ? { kind: 'expired', message } : { kind: 'failed', message };
  if (!check.ok) return { kind: 'expired', message };
  return { kind: 'ready', message };
}

/**
 * The parent confirms from their inbox: exactly once, the limits are taken now (a refusal sends
 * nothing and is said on the page), and the letter goes in the school's hours. A second
 * confirmation (or one racing the first) finds it done.
 */
export async function confirmPlatformSend(token: string, options: { timeZone?: string } = {}, now = new Date()): Promise<ConfirmOutcome> {
  const outcome = await inspectConfirmation(token, now);
  if (outcome.kind === 'expired' && outcome.message?.status === 'awaiting_confirmation') {
    await updateMessage(outcome.message.id, (current) => (current.status === 'awaiting_confirmation' ? { ...current, status: 'failed', lastError: 'not_confirmed_in_time', updatedAt: now.toISOString() } : undefined));
  }
  if (outcome.kind !== 'ready') return outcome;
  const { message } = outcome;
  const refusal = await claimLimits(message.parentEmail, message.to, message.id, now);
  if (refusal) {
    const earlier = await earlierOf(message, refusal);
    const refused = await updateMessage(message.id, (current) =>
      current.status === 'awaiting_confirmation' ? { ...current, status: 'failed', lastError: refusal, confirmation: { ...current.confirmation!, refusal, ...earlier }, updatedAt: now.toISOString() } : undefined,
    );
    return refused ? { kind: 'refused', message: refused, refusal } : inspectConfirmation(token, now);
  }
  const timeZone = options.timeZone ?? message.delivery?.timeZone;
  const settled = await sendConfirmed(message, timeZone, now);
  if (settled.status === 'queued' || settled.status === 'sent') return { kind: 'done', message: settled };
  return inspectConfirmation(token, now);
}

export type CorrectionOutcome =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage }
  | { kind: 'not_bounced'; message: OutboxMessage }
  | { kind: 'corrected'; message: OutboxMessage; replacement?: OutboxMessage }
  | { kind: 'ready'; message: OutboxMessage }
  | { kind: 'refused'; message: OutboxMessage; reason: string; refusal?: LimitRefusal }
  | { kind: 'sent'; message: OutboxMessage; replacement: OutboxMessage };

/** What a "correct the address" link (the delivery-failure email's) leads to, changing nothing. */
export async function inspectCorrection(token: string, now = new Date()): Promise<CorrectionOutcome> {
  const check = verifyToken(token, 'fix-address', now.getTime());
  if (!check.ok && check.reason !== 'expired') return { kind: 'invalid' };
  const message = check.claims ? (await readMessage(check.claims.id))?.message : undefined;
  if (!message) return { kind: 'invalid' };
  if (!check.ok) return { kind: 'expired', message };
  if (message.bounce?.correctedBy) {
    const replacement = (await readMessage(message.bounce.correctedBy))?.message;
    return { kind: 'corrected', message, ...(replacement ? { replacement } : {}) };
  }
  if (message.status !== 'bounced') return { kind: 'not_bounced', message };
  return { kind: 'ready', message };
}

/**
 * Sends the parent's bounced letter, unchanged, to the address they correct it to. The link came
 * to their inbox (the proof a confirmation gives), so the new letter needs no second confirmation;
 * it takes the day's limits for the new address as a confirmation would, goes in that school's
 * hours, and the bounced letter then names it (one correction per letter).
 */
export async function correctAddress(token: string, address: string, options: { timeZone?: string } = {}, now = new Date()): Promise<CorrectionOutcome> {
  const outcome = await inspectCorrection(token, now);
  if (outcome.kind !== 'ready') return outcome;
  const { message } = outcome;
  const to = address.normalize('NFKC').trim();
  if (!isEmail(to)) return { kind: 'refused', message, reason: 'Enter the school’s email address, like head@school.org.' };
  if (mailboxKey(to) === mailboxKey(message.to)) return { kind: 'refused', message, reason: 'This is the address the letter bounced from. Enter a different one (the school’s website often lists it).' };
  if (await addressSuppressed(to, 'school_letter')) return { kind: 'refused', message, reason: 'Letters to this address bounced before. Enter a different one.' };
  const id = newMessageId(now);
  // Claim the correction first: of two corrections at once, one sends.
  const claimed = await updateMessage(message.id, (current) =>
    current.status === 'bounced' && !current.bounce?.correctedBy ? { ...current, bounce: { ...current.bounce!, correctedBy: id }, updatedAt: now.toISOString() } : undefined,
  );
  if (!claimed) return inspectCorrection(token, now);
  const { bounce: _bounce, delivery: _delivery, followUp: _followUp, lastError: _lastError, ...rest } = message;
  const replacement: OutboxMessage = {
    ...rest,
    id,
    to,
    status: 'awaiting_confirmation',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    attempts: 0,
    nextAttemptAt: now.toISOString(),
    confirmation: { ...message.confirmation!, confirmedAt: now.toISOString() },
  };
  await createMessage(replacement);
  const refusal = await claimLimits(replacement.parentEmail, replacement.to, replacement.id, now);
  if (refusal) {
    await updateMessage(id, (current) => ({ ...current, status: 'failed', lastError: refusal, updatedAt: now.toISOString() }));
    await updateMessage(message.id, (current) => ({ ...current, bounce: { ...current.bounce!, correctedBy: undefined }, updatedAt: now.toISOString() }));
    return { kind: 'refused', message, reason: limitMessages[refusal], refusal };
  }
  const sent = await sendConfirmed(replacement, options.timeZone ?? message.delivery?.timeZone, now);
  return { kind: 'sent', message: claimed, replacement: sent };
}
