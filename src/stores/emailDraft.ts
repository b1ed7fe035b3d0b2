/**
 * The school email being prepared on /lead-the-change and /form: what the form gave, the email
 * generated from it, and where sending stands. Written by the page script that hears the form's
 * submission, read by the EmailDialog island.
 */
import { atom } from 'nanostores';
import { generateEmail, type EmailLinks, type GeneratedEmail } from '../lib/email/template';
import { emailMessages } from '../lib/email/messages';
import type { ReferralData } from '../lib/schemas';
import { showToast } from './toast';

export interface EmailDraft {
  data: ReferralData;
  email: GeneratedEmail;
  /** Sent with the request so that a double click or a retry sends the email once. */
  idempotencyKey: string;
  open: boolean;
  sending: boolean;
  sent: boolean;
  /** The last send failure, repeated inside the dialog (toasts sit beneath a modal). */
  sendError: string | null;
}

export const $emailDraft = atom<EmailDraft | null>(null);

function newKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

function update(patch: Partial<EmailDraft>): void {
  const current = $emailDraft.get();
  if (current) $emailDraft.set({ ...current, ...patch });
}

export function startDraft(data: ReferralData, links: EmailLinks): EmailDraft {
  const draft: EmailDraft = {
    data,
    email: generateEmail(data, links),
    idempotencyKey: newKey(),
    open: false,
    sending: false,
    sent: false,
    sendError: null,
  };
  $emailDraft.set(draft);
  return draft;
}

export const openDraft = () => update({ open: true });
export const closeDraft = () => update({ open: false });

/**
 * Sends the current draft through the platform. On success the email is marked sent and the
 * 5-second success toast shows; `closeOnSuccess` closes the dialog (the manual path). On failure
 * the destructive toast shows and the dialog stays as it is. Returns whether it was sent.
 */
export async function sendDraftViaPlatform(options: { closeOnSuccess: boolean }): Promise<boolean> {
  const draft = $emailDraft.get();
  if (!draft || draft.sending || draft.sent) return draft?.sent ?? false;
  update({ sending: true, sendError: null });
  let ok = false;
  try {
    const response = await fetch('/api/send-email', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        idempotencyKey: draft.idempotencyKey,
        parentEmail: draft.data.parentEmail,
        to: draft.email.to,
        subject: draft.email.subject,
        body: draft.email.body,
      }),
    });
    ok = response.ok;
    if (!ok) console.warn('send-email answered', response.status, await response.text().catch(() => ''));
  } catch (error) {
    console.warn('send-email failed', error instanceof Error ? error.message : error);
  }
  if (ok) {
    update({ sending: false, sent: true, sendError: null, ...(options.closeOnSuccess ? { open: false } : {}) });
    showToast(emailMessages.sent);
  } else {
    update({ sending: false, sendError: emailMessages.sendFailed.description });
    showToast(emailMessages.sendFailed);
  }
  return ok;
}
