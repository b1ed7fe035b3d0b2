/**
 * The school email being prepared on /lead-the-change and /form: the draft the server made from
 * the accepted form (with the one-time token to send it), the parent's note, and where sending
 * stands. Loaded with the dialog, only once a form has been sent (src/components/islands/email-dialog-entry.tsx).
 */
import { atom } from 'nanostores';
import { defaultLocale, type Locale } from '../config/locales';
import type { DialogToasts } from '../lib/shared/email/dialog-words';
import { emailMessages } from '../lib/shared/email/messages';
import { noteProblem } from '../lib/shared/email/note';
import { generateEmail, type GeneratedEmail } from '../lib/shared/email/template';
import type { DraftAnswer } from '../lib/browser/email/draft';
import { showToast } from '../lib/browser/frame/toast';

export type SendState = 'idle' | 'sending' | 'awaiting_confirmation' | 'sent' | 'refused' | 'failed';

export interface EmailDraft extends DraftAnswer {
  /** The email as it reads now, the note in its place: exactly what the server composes. */
  email: GeneratedEmail;
  noteError: string | null;
  open: boolean;
  send: SendState;
  /** What the dialog says about sending (the server's words for a refusal, §8 otherwise). */
  sendMessage: string | null;
  /** Where the confirmation link went, and until when it works. */
  confirmation: { email: string; expiresAt: string } | null;
  /**
   * The parent said they sent it themselves: 'check' while they confirm it from their inbox (only
   * then is it recorded, so we ask later whether the school answered).
   */
  selfSent: 'no' | 'saving' | 'check' | 'yes' | 'failed';
  /** What the self-report's answer says: where its confirmation link went, or why it was refused. */
  selfSentMessage: string | null;
  /** Once sent: the school's page to share, with this parent's referral code. */
  share: { url: string; schoolName: string } | null;
}

export const $emailDraft = atom<EmailDraft | null>(null);

function update(patch: Partial<EmailDraft>): void {
  const current = $emailDraft.get();
  if (current) $emailDraft.set({ ...current, ...patch });
}

export function startDraft(answer: DraftAnswer): EmailDraft {
  const draft: EmailDraft = {
    ...answer,
    email: generateEmail(answer.data, answer.links, answer.letter, { ownWords: answer.ownWords, note: answer.note }),
    noteError: null,
    open: false,
    send: 'idle',
    sendMessage: null,
    confirmation: null,
    selfSent: 'no',
    selfSentMessage: null,
    share: null,
  };
  $emailDraft.set(draft);
  return draft;
}

export const openDraft = () => update({ open: true });
export const closeDraft = () => update({ open: false });

let editHandler: (() => void) | undefined;

/** What "Edit details" does on this page: its form comes back, filled in (src/lib/browser/email/flow.ts). */
export function onEditDetails(handler: (() => void) | undefined): void {
  editHandler = handler;
}

export const canEditDetails = (): boolean => editHandler !== undefined;

/**
 * "Edit details": the dialog and its panel go, and the form the email came from comes back with
 * what the parent typed. Sending the form again makes a new email (the server lets it replace
 * this one while neither was confirmed).
 */
export function editDetails(): void {
  const handler = editHandler;
  $emailDraft.set(null);
  if (!handler) return;
  // Once the dialog has left the page (which is inert, so unfocusable, while a modal dialog is
  // open): React removes it on its next render.
  let frames = 0;
  const run = () => (document.querySelector('dialog:modal') && frames++ < 30 ? requestAnimationFrame(run) : handler());
  requestAnimationFrame(run);
}

/** The parent edits their note: the preview follows, and a problem is said at once (in the dialog's language). */
export function setNote(note: string, locale: Locale = defaultLocale): void {
  const draft = $emailDraft.get();
  if (!draft || (draft.send !== 'idle' && draft.send !== 'failed')) return;
  update({
    note,
    noteError: noteProblem(note, locale) ?? null,
    email: generateEmail(draft.data, draft.links, draft.letter, { ownWords: draft.ownWords, note }),
  });
}

/** The parent ticks or unticks "You may quote my words…" (sent with the letter's request, never in it). */
export function setWordsConsent(wordsConsent: boolean): void {
  const draft = $emailDraft.get();
  if (!draft || (draft.send !== 'idle' && draft.send !== 'failed') || draft.selfSent === 'check' || draft.selfSent === 'yes') return;
  update({ wordsConsent });
}

/** Whether the platform can be asked to send this draft. */
export function canSendViaPlatform(draft: EmailDraft): boolean {
  return Boolean(draft.token) && draft.data.parentEmail.trim() !== '' && draft.data.schoolContactEmail.trim() !== '';
}

interface SendAnswer {
  status?: string;
  confirmation?: { email: string; expiresAt: string };
  error?: { code?: string; message?: string };
}

/** Refusals the dialog says in its flow, with the ways to send it yourself beside them. */
const REFUSALS = new Set(['already_sent', 'school_limit', 'parent_limit', 'address_blocked', 'network_busy', 'held_for_review', 'blocked']);

/**
 * Asks the platform to send the draft. With confirmation on (the default) the dialog then says to
 * check the inbox; sent at once, the 5-second success toast shows and `closeOnSuccess` closes the
 * dialog. A limit is said plainly and copying stays open; any other failure shows §8's message
 * (`toasts`: the dialog's notices in its language, English by default).
 */
export async function sendDraftViaPlatform(options: { closeOnSuccess: boolean; toasts?: Pick<DialogToasts, 'sent' | 'sendFailed'> }): Promise<SendState> {
  const toasts = options.toasts ?? emailMessages;
  const draft = $emailDraft.get();
  if (!draft || draft.send === 'sending' || draft.send === 'awaiting_confirmation' || draft.send === 'sent') return draft?.send ?? 'idle';
  if (draft.noteError) return draft.send;
  update({ send: 'sending', sendMessage: null });
  let status = 0;
  let body: SendAnswer | null = null;
  try {
    const response = await fetch('/api/send-email', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ submissionId: draft.id, token: draft.token, note: draft.note, wordsConsent: draft.wordsConsent }),
    });
    status = response.status;
    body = (await response.json().catch(() => null)) as SendAnswer | null;
  } catch (error) {
    console.warn('send-email failed', error instanceof Error ? error.message : error);
  }
  const code = body?.error?.code ?? '';
  if (body?.status === 'awaiting_confirmation' && body.confirmation) {
    // The dialog says so in its own flow ("Check your inbox"); a notice over it would cover the letter.
    update({ send: 'awaiting_confirmation', confirmation: body.confirmation, sendMessage: null });
    return 'awaiting_confirmation';
  }
  if (status >= 200 && status < 300) {
    update({ send: 'sent', sendMessage: null, ...(options.closeOnSuccess ? { open: false } : {}) });
    showToast(toasts.sent);
    return 'sent';
  }
  if (code === 'already_requested') {
    update({ send: 'awaiting_confirmation', sendMessage: body?.error?.message ?? null });
    return 'awaiting_confirmation';
  }
  if (code === 'invalid_note') {
    update({ send: 'idle', noteError: body?.error?.message ?? null });
    return 'idle';
  }
  if (REFUSALS.has(code)) {
    // Said in the dialog's flow, with the ways to send it yourself beside it.
    update({ send: 'refused', sendMessage: body?.error?.message ?? toasts.sendFailed.description });
    return 'refused';
  }
  update({ send: 'failed', sendMessage: toasts.sendFailed.description });
  showToast(toasts.sendFailed);
  return 'failed';
}

/** The share link in an answer, when it is one of this site's school pages. */
function shareOf(body: unknown): EmailDraft['share'] {
  const share = (body as { share?: { url?: unknown; schoolName?: unknown } } | null)?.share;
  if (!share || typeof share.url !== 'string' || typeof share.schoolName !== 'string') return null;
  try {
    const url = new URL(share.url);
    return url.protocol === 'https:' || url.protocol === 'http:' ? { url: url.toString(), schoolName: share.schoolName } : null;
  } catch {
    return null;
  }
}

/**
 * The parent says they sent the email themselves: the server emails them one link to confirm it,
 * and only then records it (so about ten days later we ask whether the school answered). Only a
 * draft the server made (with its token) can be reported.
 */
export async function markSentMyself(): Promise<boolean> {
  const draft = $emailDraft.get();
  if (!draft?.token || draft.selfSent === 'saving' || draft.selfSent === 'yes' || draft.selfSent === 'check')
    return draft?.selfSent === 'yes' || draft?.selfSent === 'check';
  update({ selfSent: 'saving', selfSentMessage: null });
  let status = 0;
  type Answer = { status?: string; confirmation?: { email: string }; error?: { message?: string } };
  let body: Answer | null = null;
  try {
    const response = await fetch('/api/email-sent-myself', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ submissionId: draft.id, token: draft.token, note: draft.note, wordsConsent: draft.wordsConsent }),
    });
    status = response.status;
    body = (await response.json().catch(() => null)) as Answer | null;
  } catch (error) {
    console.warn('email-sent-myself failed', error instanceof Error ? error.message : error);
  }
  if (status >= 200 && status < 300) {
    const confirmed = body?.status === 'sent';
    update({ selfSent: confirmed ? 'yes' : 'check', selfSentMessage: confirmed ? null : (body?.confirmation?.email ?? null), share: shareOf(body) });
    return true;
  }
  update({ selfSent: 'failed', selfSentMessage: status >= 400 && status < 500 ? (body?.error?.message ?? null) : null });
  return false;
}
