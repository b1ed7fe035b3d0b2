/**
 * A parent's letter, from the request to its confirmation: "Send via our platform" (a draft and its
 * one-time token, plus the optional note and whether their words may be quoted — never text), "I've sent it myself", the parent's
 * confirmation from their own inbox, the limits, and the correction of an address that bounced.
 * Functions `send-email`, `email-sent-myself`, `confirm-send` and `letter-address` are thin shells;
 * every change of a letter's state is a move of life.ts.
 *
 * Proof before power (DESIGN.md "Proof"): a request spends only its own network's bound (given
 * back when it is confirmed), makes no page and moves no figure. Only the confirmation, from the
 * link in the parent's inbox, takes the limits and sends; and only then does a newer letter replace
 * an older one still waiting, so a stranger's request naming a parent never touches theirs. A
 * self-report causes one email (its confirmation) and nothing else until it is confirmed.
 */
import type { Client } from '@hubspot/api-client';
import { dayInWords } from '../dates';
import { emailSubject } from '../../lib/shared/email/template';
import { noteProblem, normaliseNote } from '../../lib/shared/email/note';
import { isEmail } from '../../lib/shared/forms/values';
import { composeDraft, readDraft, updateDraft, type LetteredDraft } from './drafts';
import { serverEnv } from '../env';
import { HttpError, StoreUnavailableError } from '../http';
import { hubspotClient } from '../hubspot';
import { exactAddress, exactAddressKey, schoolGroupKey, schoolOf } from '../identity';
import { refuseBlocked } from '../abuse/blocks';
import { recordRequest } from '../abuse/watch';
import { counts } from '../schools/impact';
import { addressSuppressed, readEmail } from '../mail/queue';
import { whenLetterGoesIn } from '../mail/schedule';
import { mailSender } from '../mail/senders';
import { isTimeZone } from '../mail/window';
import { emailConfirmation, emailRefusal, emailSelfReport } from '../mail/notify';
import { CONFIRM_TTL_MS, createMessage, deleteMessage, newMessageId, readMessage, updateMessage, type OutboxMessage } from './outbox';
import { queueReview } from '../staff/review-items';
import { readSchoolPage, shareLink } from '../schools/pages';
import { pageKeyOf, schoolOfLetter, type LetterSchool } from '../schools/letters';
import { flagAddress, proposeSchool, schoolByPageKey, verifiedSchoolOfDomain } from '../schools/records';
import { setWordsConsent } from '../schools/starred-words';
import { claimLimits, earlierLetter, giveBackRequestBound, pairSchoolOf, takeRequestBound, type LimitRefusal } from './send-limits';
import { sameSecret, verifyToken } from '../tokens';
import { deliverAndFollow, queueLetter } from './delivery';
import { confirm, confirmSelfReport, expireRequest, refuse, replaceOlder } from './life';
import { endText } from './notices';
import { defaultLocale, type Locale } from '../../config/locales';
import { fillWords } from '../../lib/shared/i18n/translator';
import { serverWordsOf } from '../words';

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

/** A refusal at confirmation: a limit, or an address whose mailbox was reported not to exist. */
export type Refusal = LimitRefusal | 'address_blocked';

/** A refusal while a parent asks, in the language of their draft (content/i18n/{locale}/refusals.yaml). */
async function refusalOf(status: number, code: string, key: string, locale: Locale | undefined, values: Record<string, string> = {}): Promise<HttpError> {
  const t = await serverWordsOf(locale ?? defaultLocale);
  return new HttpError(status, code, fillWords(t(key), values));
}

/**
 * What a refusal tells the parent, behind their own link, in the language they wrote in
 * (content/i18n/{locale}/confirmSend.yaml's `refusal`): for their other letter to this school, when
 * it went, or, confirmed and waiting for the school's hours, when it goes. "Already wrote" is said
 * only of a letter that really went. Dates as that language writes them.
 */
export async function refusalTextIn(
  message: Pick<OutboxMessage, 'schoolName' | 'confirmation'> & Partial<Pick<OutboxMessage, 'delivery'>> & { to?: string },
  refusal: Refusal,
  locale: Locale = defaultLocale,
  now = new Date(),
): Promise<string> {
  const t = await serverWordsOf(locale);
  if (refusal === 'address_blocked') return fillWords(t('confirmSend.refusal.blocked'), { address: message.to ?? t('confirmSend.refusal.thisAddress') });
  if (refusal === 'school_limit') return t('confirmSend.refusal.schoolLimit');
  if (refusal === 'parent_limit') return t('confirmSend.refusal.parentLimit');
  const school = message.schoolName || t('confirmSend.refusal.thisSchool');
  const earlier = message.confirmation?.earlierAt;
  const english = locale === defaultLocale;
  if (earlier && Date.parse(earlier) > now.getTime()) {
    const when = whenLetterGoesIn({ at: earlier, timeZone: message.delivery?.timeZone }, locale, now);
    return fillWords(t('confirmSend.refusal.earlierGoes'), { school, when });
  }
  if (!earlier) return fillWords(t('confirmSend.refusal.alreadyWrote'), { school });
  const day = english
    ? dayInWords(earlier)
    : new Date(earlier).toLocaleDateString('es-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return fillWords(t('confirmSend.refusal.alreadyWroteOn'), { school, day });
}

export interface SendAnswer {
  status: 200 | 201 | 202;
  body: { id: string; status: OutboxMessage['status']; confirmation?: { expiresAt: string; email: string }; share?: SchoolShare };
}

/** The school page a parent is offered to share once their letter is confirmed. */
export interface SchoolShare {
  url: string;
  schoolName: string;
  /** How many other parents' letters count on the page so far. */
  others: number;
}

/**
 * The parent's share link to their school's page (with their referral code): only for a letter on
 * record (its school verified, its address on the record). Nothing for a school the site does not
 * know yet, or when the page cannot be read now.
 */
export async function shareOf(message: OutboxMessage): Promise<SchoolShare | undefined> {
  try {
    const key = pageKeyOf(await schoolOfLetter(message));
    const page = key ? await readSchoolPage(key) : undefined;
    if (!page) return undefined;
    const own = (await counts(message.id)) ? 1 : 0;
    return { url: shareLink(message, page), schoolName: page.schoolName, others: Math.max(0, page.parents - own) };
  } catch (error) {
    // The send stands either way; only the offer to share is left out.
    if (!(error instanceof StoreUnavailableError) && !(error instanceof HttpError))
      console.error('[school-pages] share link not made for', message.id, error instanceof Error ? error.message : '');
    return undefined;
  }
}

/**
 * The school a draft's letter goes to: the verified school the parent picked (by its page key) or
 * whose record lists the address they typed. The subject of a letter the platform sends carries the
 * record's name, never a typed one: "our school" when the letter is not on record.
 */
async function placeOfDraft(draft: LetteredDraft, to: string): Promise<{ place: LetterSchool; schoolId?: string; subject: string }> {
  const picked = draft.schoolKey ? await schoolByPageKey(draft.schoolKey) : undefined;
  const named = picked?.status === 'verified' ? picked : undefined;
  const place = await schoolOfLetter({ ...(named ? { schoolId: named.id } : {}), to });
  const id = place.school?.status === 'verified' ? place.school.id : named?.id;
  // In the letter's language: "our school" is "nuestra escuela" in a Spanish letter.
  const language = draft.letter.language ?? 'en';
  const unnamed = language === 'es' ? 'nuestra escuela' : 'our school';
  return { place, ...(id ? { schoolId: id } : {}), subject: emailSubject(place.onRecord && place.school ? place.school.name : unnamed, language) };
}

/** The outbox message a draft makes: the parent, the school and exactly the email composed from it. */
function messageFromDraft(
  draft: LetteredDraft,
  what: { channel: OutboxMessage['channel']; to: string; email: { subject: string; body: string }; note: string; schoolId?: string },
  now: Date,
): OutboxMessage {
  return {
    id: newMessageId(now),
    draftId: draft.id,
    channel: what.channel,
    status: 'awaiting_confirmation',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    parentEmail: draft.data.parentEmail.trim().toLowerCase(),
    parentName: draft.data.parentFullName,
    schoolName: draft.data.schoolName,
    ...(what.schoolId ? { schoolId: what.schoolId } : {}),
    to: what.to,
    toName: draft.data.schoolContactName,
    ...(draft.attribution ? { attribution: draft.attribution } : {}),
    subject: what.email.subject,
    body: what.email.body,
    note: what.note,
    letterId: draft.letter.id,
    ...(draft.letter.language && draft.letter.language !== 'en' ? { letterLocale: draft.letter.language } : {}),
    ...(draft.locale && draft.locale !== 'en' ? { locale: draft.locale } : {}),
    ownWords: draft.ownWords ?? '',
    attempts: 0,
    nextAttemptAt: now.toISOString(),
  };
}

/**
 * The draft a browser names, checked against its token; the refusals every caller shares. A draft
 * held as automated previews and copies, but asks for nothing on the parent's behalf.
 */
async function ownDraft(input: { submissionId: string; token: string }) {
  const found = await readDraft(input.submissionId);
  if (!found) throw new HttpError(404, 'unknown_submission', 'We could not find a school email for this submission. Please fill in the form again.');
  if (!sameSecret(input.token, found.draft.tokenHash))
    throw new HttpError(403, 'invalid_token', 'This send request is not valid for this email. Please fill in the form again.');
  if (found.held) throw await refusalOf(409, 'held_for_review', 'refusals.heldForReview', found.draft.locale);
  return found;
}

/** Who asks: the network the request came from (a hash), and the time zone the browser said. */
export interface Requester {
  network: string;
  timeZone?: string;
  /** The caller's IP, for the blocks staff set and the abuse watch (kept there only as its network prefix). */
  ip?: string;
}

/** A block on the requester's network, the parent's address or its domain refuses a new request before anything is kept. */
const refuseIfBlocked = (requester: Requester, parent: string, locale: Locale | undefined, now: Date) =>
  refuseBlocked({ ip: requester.ip ?? 'unknown', email: parent }, now, locale);

/** The abuse watch's row of a request that made a letter (the letter named, so that staff can void it). */
const watch = (kind: 'send' | 'self_report', requester: Requester, message: OutboxMessage) =>
  recordRequest({ kind, ip: requester.ip ?? 'unknown', email: message.parentEmail, school: schoolOf(message.to), subject: message.id });

const networkBusy = (locale: Locale | undefined) => refusalOf(429, 'network_busy', 'refusals.networkBusy', locale);
const alreadyRequested = (locale: Locale | undefined) => refusalOf(409, 'already_requested', 'refusals.alreadyRequested', locale);

/**
 * The parent says they sent the letter themselves. Nothing is recorded but the request, and one
 * email asks them to confirm it from their inbox: only then does it count (once staff approve it)
 * and get its follow-up. The answer says nothing about any school page.
 */
export async function recordSelfSent(
  input: { submissionId: string; token: string; note?: string; wordsConsent?: boolean },
  requester: Requester,
  now = new Date(),
): Promise<SendAnswer> {
  const { draft, etag } = await ownDraft(input);
  const parent = draft.data.parentEmail.trim().toLowerCase();
  if (draft.selfSentMessageId) {
    const existing = (await readMessage(draft.selfSentMessageId))?.message;
    return {
      status: 200,
      body: {
        id: draft.selfSentMessageId,
        status: existing?.status === 'sent' ? 'sent' : 'awaiting_confirmation',
        ...(existing?.confirmation ? { confirmation: { expiresAt: existing.confirmation.expiresAt, email: parent } } : {}),
      },
    };
  }
  const note = normaliseNote(input.note ?? draft.note);
  const problem = noteProblem(note, draft.locale);
  if (problem) throw new HttpError(400, 'invalid_note', problem);
  const school = draft.data.schoolContactEmail.trim().toLowerCase();
  if (!isEmail(school) || !isEmail(parent)) throw await refusalOf(400, 'missing_address', 'refusals.missingAddressSelf', draft.locale);
  await refuseIfBlocked(requester, parent, draft.locale, now);
  const { schoolId } = await placeOfDraft(draft, school);
  const expiresAt = new Date(now.getTime() + CONFIRM_TTL_MS).toISOString();
  const message: OutboxMessage = {
    ...messageFromDraft(draft, { channel: 'self', to: school, email: composeDraft(draft, note), note, schoolId }, now),
    confirmation: { expiresAt, network: requester.network },
  };
  if (!(await takeRequestBound(requester.network, now))) throw await networkBusy(draft.locale);
  await createMessage(message);
  const wordsConsent = input.wordsConsent ?? draft.wordsConsent ?? false;
  if (!(await updateDraft({ ...draft, wordsConsent, selfSentMessageId: message.id }, etag))) {
    await deleteMessage(message.id);
    const latest = await readDraft(draft.id);
    if (latest?.draft.selfSentMessageId) return recordSelfSent(input, requester, now);
    throw await refusalOf(409, 'changed', 'refusals.changed', draft.locale);
  }
  if (wordsConsent) await setWordsConsent(message, 'letter', true, now);
  await watch('self_report', requester, message);
  const email = await emailSelfReport(message, requester.network, now);
  await updateMessage(message.id, (current) => (current.confirmation ? { ...current, confirmation: { ...current.confirmation, email } } : undefined)).catch(
    () => undefined,
  );
  return { status: 202, body: { id: message.id, status: 'awaiting_confirmation', confirmation: { expiresAt, email: parent } } };
}

const checkInbox = (id: string, expiresAt: string, email: string): SendAnswer => ({
  status: 202,
  body: { id, status: 'awaiting_confirmation', confirmation: { expiresAt, email } },
});

/**
 * The parent asks the platform to send the letter of draft `submissionId`. An address whose mailbox
 * was reported not to exist is said now, before they confirm (with their own mail app offered). With
 * confirmation on (the default) the answer is "check your inbox": whether a limit will refuse it is
 * told only behind the link in the parent's own inbox. A network past its bound is told so plainly.
 */
export async function requestPlatformSend(
  input: { submissionId: string; token: string; note?: string; wordsConsent?: boolean },
  requester: Requester,
  now = new Date(),
): Promise<SendAnswer> {
  const { draft, etag } = await ownDraft(input);
  if (draft.messageId) throw await alreadyRequested(draft.locale);
  const note = normaliseNote(input.note ?? draft.note);
  const problem = noteProblem(note, draft.locale);
  if (problem) throw new HttpError(400, 'invalid_note', problem);
  const parent = draft.data.parentEmail.trim().toLowerCase();
  const school = draft.data.schoolContactEmail.trim().toLowerCase();
  if (!isEmail(parent) || !isEmail(school)) {
    throw await refusalOf(400, 'missing_address', 'refusals.missingAddress', draft.locale);
  }
  await refuseIfBlocked(requester, parent, draft.locale, now);
  if ((await addressSuppressed(school, 'school_letter', now)) !== undefined)
    throw await refusalOf(409, 'address_blocked', 'confirmSend.refusal.blocked', draft.locale, { address: school });
  const { schoolId, subject } = await placeOfDraft(draft, school);
  const email = { ...composeDraft(draft, note), subject };
  const confirmByEmail = serverEnv.platformSendConfirmation === 'email';
  const expiresAt = new Date(now.getTime() + CONFIRM_TTL_MS).toISOString();
  const message: OutboxMessage = {
    ...messageFromDraft(draft, { channel: 'platform', to: school, email, note, schoolId }, now),
    confirmation: { expiresAt, network: requester.network },
    ...(requester.timeZone ? { delivery: { at: now.toISOString(), timeZone: requester.timeZone } } : {}),
  };
  // A stranger's throwaway requests stop at their own network's bound, said plainly.
  if (!(await takeRequestBound(requester.network, now))) throw await networkBusy(draft.locale);
  await createMessage(message);
  // The draft takes one message only: of two requests at once, the second gives its message back.
  const wordsConsent = input.wordsConsent ?? draft.wordsConsent ?? false;
  if (!(await updateDraft({ ...draft, note, wordsConsent, messageId: message.id }, etag))) {
    await deleteMessage(message.id);
    await giveBackRequestBound(requester.network, now);
    throw await alreadyRequested(draft.locale);
  }
  // Asked apart from the letter (the box under the parent's words): kept with the letter, never in it.
  if (wordsConsent) await setWordsConsent(message, 'letter', true, now);
  await watch('send', requester, message);
  if (!confirmByEmail) return sendNow(message, now);
  const handed = await emailConfirmation(message, 'confirmation', now).catch((error: unknown) => {
    // The draft has taken the request: the scheduled run writes the email the store could not take now.
    if (!(error instanceof StoreUnavailableError)) throw error;
    return undefined;
  });
  if (handed)
    await updateMessage(message.id, (current) =>
      current.confirmation ? { ...current, confirmation: { ...current.confirmation, email: handed } } : undefined,
    ).catch(() => undefined);
  return checkInbox(message.id, expiresAt, parent);
}

/**
 * PLATFORM_SEND_CONFIRMATION=off: takes the limits and sends. A refusal sends nothing to the school
 * and is answered like an accepted send; the parent learns why in their own inbox (a refusal email
 * whose link opens the page that says it).
 */
async function sendNow(message: OutboxMessage, now: Date): Promise<SendAnswer> {
  const outcome = await takeAndSend(message, message.delivery?.timeZone, now);
  if (outcome.kind === 'refused') {
    await emailRefusal(outcome.message, await refusalTextIn(outcome.message, outcome.refusal, outcome.message.locale, now), now);
    return mailSender() ? { status: 200, body: { id: message.id, status: 'sent' } } : { status: 202, body: { id: message.id, status: 'queued' } };
  }
  const settled = outcome.message;
  return { status: settled.status === 'sent' ? 200 : 202, body: { id: settled.id, status: settled.status === 'sent' ? 'sent' : 'queued' } };
}

/** A refusal as the message keeps it: with an earlier letter to this school, when it went (or goes). */
async function earlierOf(parent: string, school: string, id: string, refusal: Refusal): Promise<{ earlierAt?: string }> {
  if (refusal !== 'already_sent') return {};
  const earlier = await earlierLetter(parent, school, id).catch((error: unknown) => {
    if (error instanceof StoreUnavailableError) return undefined;
    throw error;
  });
  const at = earlier?.sentAt ?? earlier?.goesAt;
  return at ? { earlierAt: at } : {};
}

/**
 * The heart of a confirmation: the school the letter rests on (a school the site does not know
 * becomes a proposal for staff; an address a verified school's record does not list is flagged),
 * the limits taken for that school, the letter written to the mail layer in its hours and moved to
 * `queued`, older waiting requests of this parent to this school replaced, the network's bound
 * given back, and the letter sent at once when its time is now.
 */
async function takeAndSend(
  message: OutboxMessage,
  timeZone: string | undefined,
  now: Date,
): Promise<{ kind: 'done'; message: OutboxMessage } | { kind: 'refused'; message: OutboxMessage; refusal: Refusal }> {
  if ((await addressSuppressed(message.to, 'school_letter', now)) !== undefined) {
    const refused = await refuse(message.id, 'address_blocked', {}, now);
    return { kind: 'refused', message: refused ?? message, refusal: 'address_blocked' };
  }
  let place = await schoolOfLetter(message);
  let schoolId = message.schoolId;
  if (place.school?.status !== 'verified') {
    // Another address at a known school's own domain is that school's: flagged below, not proposed.
    const known = await verifiedSchoolOfDomain(message.to);
    if (known) {
      schoolId = known.id;
      place = { school: known, onRecord: false };
    }
  }
  if (!place.school || (place.school.status !== 'verified' && !place.onRecord)) {
    // A school the site does not know: its letter goes to the typed address, and it is proposed to staff once.
    const proposal = await proposeSchool(
      { kind: 'letter', address: message.to, name: message.schoolName, contactName: message.toName, timeZone: timeZone ?? serverEnv.schoolTimeZone },
      now,
    );
    schoolId = proposal.id;
    place = await schoolOfLetter({ schoolId, to: message.to });
  } else if (place.school.status === 'verified' && !place.onRecord) {
    // The parent's own address for a verified school: theirs to write to, flagged for staff, never offered to others.
    await flagAddress(place.school.id, message.to, now);
  }
  const located = { schoolId: place.school?.id, onRecord: place.onRecord, to: message.to };
  const school = { day: schoolGroupKey(located), pair: pairSchoolOf(located) };
  const refusal = await claimLimits(message.parentEmail, school, message.id, now);
  if (refusal) {
    const refused = await refuse(message.id, refusal, await earlierOf(message.parentEmail, school.pair, message.id, refusal), now);
    return { kind: 'refused', message: refused ?? message, refusal };
  }
  const delivery = await queueLetter({ ...message, ...(schoolId ? { schoolId } : {}) }, timeZone ?? message.delivery?.timeZone, now);
  const queued = await confirm(message.id, { delivery, ...(schoolId ? { schoolId } : {}) }, now);
  if (!queued) return { kind: 'done', message: (await readMessage(message.id))?.message ?? message };
  await replaceOlder(queued, now).catch((error: unknown) => {
    if (!(error instanceof StoreUnavailableError)) throw error;
  });
  if (queued.confirmation?.network) await giveBackRequestBound(queued.confirmation.network, new Date(queued.createdAt)).catch(() => undefined);
  const sender = mailSender();
  if (sender && Date.parse(delivery.at) <= now.getTime()) {
    await deliverAndFollow(queued.id, sender).catch((error: unknown) => {
      // The letter waits in the mail layer; the scheduled run sends it.
      if (!(error instanceof StoreUnavailableError))
        console.error('[letter] immediate send of', queued.id, 'failed:', error instanceof Error ? error.message : '');
    });
  }
  return { kind: 'done', message: (await readMessage(message.id))?.message ?? queued };
}

export type ConfirmOutcome =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage }
  | { kind: 'ready'; message: OutboxMessage }
  /** Confirmed: `goesAt` when its email waits (the mail layer's time, re-checked at every claim), `checking` when its outcome is unknown. */
  | { kind: 'done'; message: OutboxMessage; goesAt?: string; checking?: boolean }
  | { kind: 'refused'; message: OutboxMessage; refusal: Refusal }
  | { kind: 'replaced'; message: OutboxMessage }
  | { kind: 'bounced'; message: OutboxMessage }
  | { kind: 'ended'; message: OutboxMessage; reason: string }
  | { kind: 'self_ready'; message: OutboxMessage }
  | { kind: 'self_done'; message: OutboxMessage };

/** A confirmed letter as its page tells it: when its email goes now, or that its outcome is being checked. */
async function done(message: OutboxMessage): Promise<ConfirmOutcome> {
  if (message.status !== 'queued') return { kind: 'done', message };
  const email = await readEmail(message.id);
  const carrier = email?.digestId ? await readEmail(email.digestId) : email;
  if (carrier?.state === 'unknown') return { kind: 'done', message, checking: true };
  return { kind: 'done', message, ...(carrier && (carrier.state === 'scheduled' || carrier.state === 'preparing') ? { goesAt: carrier.nextAttemptAt } : {}) };
}

/** What a letter's link leads to, without changing anything (GET shows this). */
export async function inspectConfirmation(token: string, now = new Date()): Promise<ConfirmOutcome> {
  const check = verifyToken(token, 'confirm-send', now.getTime());
  if (!check.ok && check.reason !== 'expired') return { kind: 'invalid' };
  const found = await readMessage(check.claims!.id);
  if (!found) return { kind: 'invalid' };
  const { message } = found;
  if (message.status === 'voided') return { kind: 'ended', message, reason: await endText(message) };
  if (message.channel === 'self') {
    if (message.status === 'sent') return { kind: 'self_done', message };
    if (message.status !== 'awaiting_confirmation' || !check.ok || Date.parse(message.confirmation?.expiresAt ?? '') <= now.getTime())
      return { kind: 'expired', message };
    return { kind: 'self_ready', message };
  }
  if (message.status === 'replaced') return { kind: 'replaced', message };
  if (message.status === 'bounced') return { kind: 'bounced', message };
  if (message.status === 'queued' || message.status === 'sent' || message.status === 'delivered') return done(message);
  if (message.confirmation?.refusal) return { kind: 'refused', message, refusal: message.confirmation.refusal };
  if (message.status === 'expired' && message.lastError === 'not_confirmed_in_time') return { kind: 'expired', message };
  if (message.status === 'failed' || message.status === 'withdrawn' || message.status === 'expired')
    return { kind: 'ended', message, reason: await endText(message) };
  if (!check.ok || Date.parse(message.confirmation?.expiresAt ?? '') <= now.getTime()) return { kind: 'expired', message };
  return { kind: 'ready', message };
}

/**
 * The parent confirms from their inbox: exactly once, the limits are taken now (a refusal sends
 * nothing and is said on the page), and the letter goes in its school's hours. A self-report is
 * confirmed as sent. A second confirmation (or one racing the first) finds it done.
 */
export async function confirmPlatformSend(token: string, options: { timeZone?: string } = {}, now = new Date()): Promise<ConfirmOutcome> {
  const outcome = await inspectConfirmation(token, now);
  if (outcome.kind === 'expired' && outcome.message?.status === 'awaiting_confirmation') await expireRequest(outcome.message.id, now);
  if (outcome.kind === 'self_ready') {
    const confirmed = await confirmSelfReport(outcome.message.id, now);
    if (!confirmed) return inspectConfirmation(token, now);
    await queueReview(confirmed.id, 'self_report', 'self_report', now);
    // A self-report to a school the site does not know proposes it to staff, once.
    const place = await schoolOfLetter(confirmed);
    if (place.school?.status !== 'verified') {
      await proposeSchool(
        {
          kind: 'letter',
          address: confirmed.to,
          name: confirmed.schoolName,
          contactName: confirmed.toName,
          timeZone: options.timeZone ?? serverEnv.schoolTimeZone,
        },
        now,
      );
    }
    if (confirmed.confirmation?.network) await giveBackRequestBound(confirmed.confirmation.network, new Date(confirmed.createdAt)).catch(() => undefined);
    return { kind: 'self_done', message: confirmed };
  }
  if (outcome.kind !== 'ready') return outcome;
  const result = await takeAndSend(outcome.message, options.timeZone ?? outcome.message.delivery?.timeZone, now);
  if (result.kind === 'refused') return result;
  const settled = result.message;
  if (settled.status === 'queued' || settled.status === 'sent' || settled.status === 'delivered') return done(settled);
  return inspectConfirmation(token, now);
}

export type CorrectionOutcome =
  | { kind: 'invalid' }
  | { kind: 'expired'; message?: OutboxMessage }
  | { kind: 'not_bounced'; message: OutboxMessage }
  | { kind: 'corrected'; message: OutboxMessage; replacement?: OutboxMessage }
  | { kind: 'ready'; message: OutboxMessage }
  | { kind: 'refused'; message: OutboxMessage; problem: AddressProblem }
  | { kind: 'refused'; message: OutboxMessage; refusal: Refusal }
  | { kind: 'sent'; message: OutboxMessage; replacement: OutboxMessage };

/** Why a corrected address is refused before anything is tried: its words are letterAddress.yaml's `problem`. */
export type AddressProblem = 'notEmail' | 'sameAddress' | 'bouncedBefore';

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
  if (!isEmail(to)) return { kind: 'refused', message, problem: 'notEmail' };
  if (exactAddressKey(to) === exactAddressKey(message.to)) return { kind: 'refused', message, problem: 'sameAddress' };
  if (await addressSuppressed(to, 'school_letter', now)) return { kind: 'refused', message, problem: 'bouncedBefore' };
  const id = newMessageId(now);
  // Claim the correction first: of two corrections at once, one sends.
  const claimed = await updateMessage(message.id, (current) =>
    current.status === 'bounced' && !current.bounce?.correctedBy
      ? { ...current, bounce: { ...current.bounce!, correctedBy: id }, updatedAt: now.toISOString() }
      : undefined,
  );
  if (!claimed) return inspectCorrection(token, now);
  const { bounce: _bounce, delivery: _delivery, followUp: _followUp, lastError: _lastError, schoolId: _schoolId, ...rest } = message;
  const replacement: OutboxMessage = {
    ...rest,
    id,
    to: exactAddress(to),
    status: 'awaiting_confirmation',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    attempts: 0,
    nextAttemptAt: now.toISOString(),
    confirmation: { ...message.confirmation!, confirmedAt: now.toISOString() },
  };
  await createMessage(replacement);
  const result = await takeAndSend(replacement, options.timeZone ?? message.delivery?.timeZone, now);
  if (result.kind === 'refused') {
    await updateMessage(message.id, (current) => ({ ...current, bounce: { ...current.bounce!, correctedBy: undefined }, updatedAt: now.toISOString() }));
    return { kind: 'refused', message, refusal: result.refusal };
  }
  return { kind: 'sent', message: claimed, replacement: result.message };
}
