import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { emailMessages } from '../../lib/email/messages';
import { NOTE_MAX, wordsConsentHelp, wordsConsentLabel } from '../../lib/email/personal-fields';
import { composeLinks, emailAsText } from '../../lib/email/template';
import { buttonClass } from '../../lib/ui';
import {
  $emailDraft,
  canEditDetails,
  canSendViaPlatform,
  closeDraft,
  editDetails,
  markSentMyself,
  openDraft,
  sendDraftViaPlatform,
  setNote,
  setWordsConsent,
} from '../../stores/emailDraft';
import { showToast } from '../../lib/frame/toast';
import { ReactDialog } from '../ui/ReactDialog';
import { SchoolShare } from './SchoolShare';

/** How long the Copy button says "Copied!" (§9). */
const COPIED_MS = 3000;

function Spinner() {
  return (
    <svg className="h-4 w-4 animate-spin" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

const longDate = (iso: string) => new Date(iso).toLocaleString('en-US', { weekday: 'long', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * "Your Email is Ready": the preview of the school email the server composed from the form, an
 * optional personal note (the preview follows it), copy and compose links, and "Send via our
 * platform" (which asks the parent to confirm from their inbox). Mounted only once a form has
 * been sent (src/components/islands/email-dialog-entry.tsx).
 */
export default function EmailDialog() {
  const draft = useStore($emailDraft);
  const [copied, setCopied] = useState(false);
  // Copying or opening the email elsewhere is when "I've sent it" becomes a fair question.
  const [usedElsewhere, setUsedElsewhere] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const noteId = useId();
  useEffect(() => () => clearTimeout(copiedTimer.current), []);
  // When the dialog closes, focus goes to the button that reopens it: the form it came from is
  // replaced by its thank-you text, so the element that had focus before is gone.
  const reopen = useRef<HTMLButtonElement>(null);

  if (!draft) return null;
  const { email, send, sendMessage, confirmation, noteError } = draft;
  const links = composeLinks(email);
  const platform = canSendViaPlatform(draft);
  const sending = send === 'sending';
  const settled = send === 'sent' || send === 'awaiting_confirmation';
  const noteLocked = send !== 'idle' && send !== 'failed';
  // Details can be fixed until the email is on its way (sent, or the parent said they sent it).
  const editable = canEditDetails() && send !== 'sent' && draft.selfSent !== 'yes';

  async function copy() {
    try {
      await navigator.clipboard.writeText(emailAsText(email));
      setUsedElsewhere(true);
      showToast(emailMessages.copied);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      showToast(emailMessages.copyFailed);
    }
  }

  const panelText =
    send === 'sent'
      ? 'Your email has been sent via our platform.'
      : send === 'awaiting_confirmation'
        ? 'Check your inbox to confirm your email, and we will send it.'
        : 'Your email to the school is ready to send.';

  return (
    <>
      {!draft.open && (
        <div className="mt-6 flex flex-col items-start gap-3 rounded-card border border-brand-200 bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-ink">{panelText}</p>
          <div className="flex flex-wrap gap-2">
            <button ref={reopen} type="button" className={buttonClass('primary', 'sm')} onClick={openDraft}>
              View your email
            </button>
            {editable && (
              <button type="button" className={buttonClass('secondary', 'sm')} onClick={editDetails}>
                Edit details
              </button>
            )}
          </div>
        </div>
      )}
      <ReactDialog open={draft.open} onClose={closeDraft} title="Your Email is Ready" size="lg" returnFocusTo={reopen}>
        <div className="space-y-4">
          <dl className="space-y-2 rounded-xl border border-line bg-canvas p-4 text-sm">
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-semibold">To:</dt>
              <dd className="break-all" data-testid="email-to">
                {email.toLine}
              </dd>
            </div>
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-semibold">Subject:</dt>
              <dd data-testid="email-subject">{email.subject}</dd>
            </div>
          </dl>
          {/* The letter reads in the dialog's own flow (the dialog scrolls), not in a box of its own. */}
          <div className="whitespace-pre-wrap break-words rounded-xl border border-line bg-white p-4 text-sm leading-relaxed" data-testid="email-body">
            {email.body}
          </div>

          <div>
            <label htmlFor={noteId} className="block text-sm font-semibold">
              Add a personal note <span className="font-normal text-muted">(optional)</span>
            </label>
            <p id={`${noteId}-help`} className="mt-1 text-sm text-muted">
              A few words of your own, shown after your introduction. Plain text, no links or email addresses.
            </p>
            <textarea
              id={noteId}
              rows={3}
              maxLength={NOTE_MAX * 2}
              value={draft.note}
              disabled={noteLocked}
              onChange={(event) => setNote(event.target.value)}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={[`${noteId}-help`, `${noteId}-count`, noteError ? `${noteId}-error` : ''].filter(Boolean).join(' ')}
              className="mt-1.5 block w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-sm disabled:bg-canvas aria-[invalid=true]:border-danger-600"
              data-testid="email-note"
            />
            <p id={`${noteId}-count`} className="mt-1 text-xs text-muted" aria-live="polite">
              {draft.note.length} of {NOTE_MAX} characters
            </p>
            {noteError && (
              <p id={`${noteId}-error`} className="mt-1 text-sm font-medium text-danger-600" role="alert">
                {noteError}
              </p>
            )}
          </div>

          {draft.token && (draft.ownWords || draft.note) && (
            <div>
              <div className="flex items-start gap-3">
                <input
                  id={`${noteId}-quote`}
                  type="checkbox"
                  className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
                  checked={draft.wordsConsent}
                  disabled={noteLocked || draft.selfSent === 'check' || draft.selfSent === 'yes'}
                  onChange={(event) => setWordsConsent(event.target.checked)}
                  aria-describedby={`${noteId}-quote-help`}
                  data-testid="email-quote-words"
                />
                <label htmlFor={`${noteId}-quote`} className="text-sm text-ink">
                  {wordsConsentLabel}
                </label>
              </div>
              <p id={`${noteId}-quote-help`} className="mt-1 text-sm text-muted">
                {wordsConsentHelp}
              </p>
            </div>
          )}

          {send === 'awaiting_confirmation' && (
            <div role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-ink" data-testid="check-inbox">
              <p className="font-semibold">Check your inbox</p>
              {confirmation ? (
                <p className="mt-1">
                  We sent a link to <strong>{confirmation.email}</strong>. Open it by {longDate(confirmation.expiresAt)} to confirm, and our platform sends your
                  email to the school once. Nothing is sent until you do.
                </p>
              ) : (
                <p className="mt-1">{sendMessage}</p>
              )}
            </div>
          )}
          {(send === 'failed' || send === 'refused') && sendMessage && (
            <p role="alert" className="rounded-xl border border-danger-600 bg-danger-50 p-3 text-sm text-danger-600">
              {sendMessage}
            </p>
          )}
          {send === 'sent' && (
            <p role="status" className="rounded-xl border border-success-600 bg-white p-3 text-sm text-success-600">
              Sent via our platform. We&apos;ll handle the follow-up process.
            </p>
          )}

          <div className="flex flex-wrap gap-3">
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={copy} disabled={Boolean(noteError)}>
              <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M9 9h11v11H9z" />
                <path d="M5 15H4V4h11v1" />
              </svg>
              {copied ? 'Copied!' : 'Copy'}
            </button>
            {editable && (
              <button type="button" className={buttonClass('secondary', 'sm')} onClick={editDetails} data-testid="edit-details">
                Edit details
              </button>
            )}
          </div>
          {/* Notices ("Copied!") appear here, below what they are about, never over the letter. */}
          <div data-toast-slot />

          {!settled && (
            <div className="grid gap-4 border-t border-line pt-4 sm:grid-cols-2" data-testid="send-options">
              <section aria-labelledby="send-yourself" className="space-y-3">
                <h3 id="send-yourself" className="text-sm font-semibold">
                  Send it yourself
                </h3>
                <div className="flex flex-wrap gap-2">
                  <a className={buttonClass('primary', 'sm')} href={links.mailto} onClick={() => setUsedElsewhere(true)}>
                    Open in my email app
                  </a>
                  <a
                    className={buttonClass('secondary', 'sm')}
                    href={links.gmail}
                    target="_blank"
                    rel="noopener noreferrer"
                    onClick={() => setUsedElsewhere(true)}
                  >
                    Gmail<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  <a
                    className={buttonClass('secondary', 'sm')}
                    href={links.outlook}
                    target="_blank"
                    rel="noopener noreferrer"
                    onClick={() => setUsedElsewhere(true)}
                  >
                    Outlook<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </div>
                {draft.token && (usedElsewhere || draft.selfSent !== 'no') && (
                  <div className="space-y-2 rounded-xl bg-canvas p-3" data-testid="sent-myself">
                    {draft.selfSent === 'yes' ? (
                      <>
                        <p role="status" className="text-sm text-success-600">
                          Thank you! In about ten days we&apos;ll ask you whether the school answered.
                        </p>
                        {draft.share && <SchoolShare url={draft.share.url} schoolName={draft.share.schoolName} />}
                      </>
                    ) : draft.selfSent === 'check' ? (
                      <p role="status" className="text-sm text-ink" data-testid="self-check-inbox">
                        <strong>Check your inbox.</strong> We sent a link to {draft.selfSentMessage ? <strong>{draft.selfSentMessage}</strong> : 'your address'}
                        : open it to confirm you sent your letter, and in about ten days we&apos;ll ask whether the school answered.
                      </p>
                    ) : (
                      <>
                        <p className="text-sm">Sent it? Tell us, and we&apos;ll check in with you in about ten days.</p>
                        <button
                          type="button"
                          className={buttonClass('secondary', 'sm')}
                          disabled={draft.selfSent === 'saving'}
                          aria-busy={draft.selfSent === 'saving'}
                          onClick={() => void markSentMyself()}
                        >
                          I&apos;ve sent it myself
                        </button>
                        {draft.selfSent === 'failed' && (
                          <p role="alert" className="text-sm text-danger-600">
                            {draft.selfSentMessage ?? 'We could not note that just now. Please try again.'}
                          </p>
                        )}
                      </>
                    )}
                  </div>
                )}
              </section>
              <section aria-labelledby="send-platform" className="space-y-3">
                <h3 id="send-platform" className="text-sm font-semibold">
                  Or let us send it
                </h3>
                {platform && send !== 'refused' ? (
                  <>
                    <button
                      type="button"
                      className={buttonClass('accent', 'sm')}
                      disabled={sending || Boolean(noteError)}
                      aria-busy={sending}
                      onClick={() => void sendDraftViaPlatform({ closeOnSuccess: true })}
                    >
                      {sending && <Spinner />}
                      {sending ? 'Sending…' : 'Send via our platform'}
                    </button>
                    <p className="text-xs text-muted">We email you a link to confirm first. Nothing is sent until you do.</p>
                  </>
                ) : send === 'refused' ? (
                  <p className="text-sm text-muted">Please use one of the options on the left.</p>
                ) : (
                  <p className="text-sm text-muted">
                    {draft.token
                      ? 'Add your own email address and the school contact’s in the form to send it via our platform.'
                      : 'Copy your email or open it in your email app to send it.'}
                  </p>
                )}
              </section>
            </div>
          )}
          <p className="mt-4 border-t border-line pt-3 text-xs text-muted">
            <a className="font-medium text-brand-700 underline" href="/your-data">
              Your data
            </a>
            : ask for a link to see, download or delete what we keep about you. We send it to your own inbox.
          </p>
        </div>
      </ReactDialog>
    </>
  );
}
