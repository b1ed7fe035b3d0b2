import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { defaultLocale } from '../../config/locales';
import { dialogDate, fillParts, fillWords, toastsOf, type DialogWords } from '../../lib/shared/email/dialog-words';
import { NOTE_MAX, personalWords } from '../../lib/shared/email/personal-fields';
import { composeLinks, emailAsText } from '../../lib/shared/email/template';
import { buttonClass } from '../../lib/shared/ui';
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
import { showToast } from '../../lib/browser/frame/toast';
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

/**
 * "Your Email is Ready": the preview of the school email the server composed from the form, an
 * optional personal note (the preview follows it), copy and compose links, and "Send via our
 * platform" (which asks the parent to confirm from their inbox). Mounted only once a form has
 * been sent (src/components/islands/email-dialog-entry.tsx). Its own words are the page's
 * (`words`, content/i18n/{locale}/emailDialog.yaml); the letter keeps its own language.
 */
export default function EmailDialog({ words: dialogWords }: { words: DialogWords }) {
  const { locale, words: w } = dialogWords;
  const toasts = toastsOf(dialogWords);
  const consent = personalWords[locale];
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
  // The letter is marked with its language where it differs from the page's (an English letter on /es).
  const letterLang = (draft.letter.language ?? defaultLocale) !== locale ? (draft.letter.language ?? defaultLocale) : undefined;
  const platform = canSendViaPlatform(draft);
  const sending = send === 'sending';
  const settled = send === 'sent' || send === 'awaiting_confirmation';
  const noteLocked = send !== 'idle' && send !== 'failed';
  // Details can be fixed until the email is on its way (sent, or the parent said they sent it).
  const editable = canEditDetails() && send !== 'sent' && draft.selfSent !== 'yes';

  async function copy() {
    try {
      await navigator.clipboard.writeText(emailAsText(email, draft?.letter.language ?? defaultLocale));
      setUsedElsewhere(true);
      showToast(toasts.copied);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      showToast(toasts.copyFailed);
    }
  }

  const panelText = send === 'sent' ? w['panel.sent'] : send === 'awaiting_confirmation' ? w['panel.awaiting'] : w['panel.ready'];
  const newTab = <span className="sr-only"> {w['sendYourself.newTab']}</span>;

  return (
    <>
      {!draft.open && (
        <div className="mt-6 flex flex-col items-start gap-3 rounded-card border border-brand-200 bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-ink">{panelText}</p>
          <div className="flex flex-wrap gap-2">
            <button ref={reopen} type="button" className={buttonClass('primary', 'sm')} onClick={openDraft}>
              {w['panel.view']}
            </button>
            {editable && (
              <button type="button" className={buttonClass('secondary', 'sm')} onClick={editDetails}>
                {w.editDetails}
              </button>
            )}
          </div>
        </div>
      )}
      <ReactDialog open={draft.open} onClose={closeDraft} title={w.title} size="lg" returnFocusTo={reopen} closeLabel={w.close}>
        <div className="space-y-4">
          <dl className="space-y-2 rounded-xl border border-line bg-canvas p-4 text-sm">
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-semibold">{w.to}</dt>
              <dd className="break-all" data-testid="email-to">
                {email.toLine}
              </dd>
            </div>
            <div className="flex flex-wrap gap-x-2">
              <dt className="font-semibold">{w.subject}</dt>
              <dd data-testid="email-subject" lang={letterLang}>
                {email.subject}
              </dd>
            </div>
          </dl>
          {/* The letter reads in the dialog's own flow (the dialog scrolls), not in a box of its own. */}
          <div
            className="whitespace-pre-wrap break-words rounded-xl border border-line bg-white p-4 text-sm leading-relaxed"
            data-testid="email-body"
            lang={letterLang}
          >
            {email.body}
          </div>

          <div>
            <label htmlFor={noteId} className="block text-sm font-semibold">
              {w['note.label']} <span className="font-normal text-muted">{w['note.optional']}</span>
            </label>
            <p id={`${noteId}-help`} className="mt-1 text-sm text-muted">
              {w['note.help']}
            </p>
            <textarea
              id={noteId}
              rows={3}
              maxLength={NOTE_MAX * 2}
              value={draft.note}
              disabled={noteLocked}
              onChange={(event) => setNote(event.target.value, locale)}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={[`${noteId}-help`, `${noteId}-count`, noteError ? `${noteId}-error` : ''].filter(Boolean).join(' ')}
              className="mt-1.5 block w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-sm disabled:bg-canvas aria-[invalid=true]:border-danger-600"
              data-testid="email-note"
            />
            <p id={`${noteId}-count`} className="mt-1 text-xs text-muted" aria-live="polite">
              {fillWords(w['note.count'], { count: draft.note.length, max: NOTE_MAX })}
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
                  {consent.wordsConsentLabel}
                </label>
              </div>
              <p id={`${noteId}-quote-help`} className="mt-1 text-sm text-muted">
                {consent.wordsConsentHelp}
              </p>
            </div>
          )}

          {send === 'awaiting_confirmation' && (
            <div role="status" className="rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-ink" data-testid="check-inbox">
              <p className="font-semibold">{w['checkInbox.title']}</p>
              {confirmation ? (
                <p className="mt-1">
                  {fillParts(w['checkInbox.text'], (name) =>
                    name === 'email' ? <strong key="email">{confirmation.email}</strong> : dialogDate(confirmation.expiresAt, locale),
                  )}
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
              {w.sentNote}
            </p>
          )}

          <div className="flex flex-wrap gap-3">
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={copy} disabled={Boolean(noteError)}>
              <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M9 9h11v11H9z" />
                <path d="M5 15H4V4h11v1" />
              </svg>
              {copied ? w.copied : w.copy}
            </button>
            {editable && (
              <button type="button" className={buttonClass('secondary', 'sm')} onClick={editDetails} data-testid="edit-details">
                {w.editDetails}
              </button>
            )}
          </div>
          {/* Notices ("Copied!") appear here, below what they are about, never over the letter. */}
          <div data-toast-slot />

          {!settled && (
            <div className="grid gap-4 border-t border-line pt-4 sm:grid-cols-2" data-testid="send-options">
              <section aria-labelledby="send-yourself" className="space-y-3">
                <h3 id="send-yourself" className="text-sm font-semibold">
                  {w['sendYourself.title']}
                </h3>
                <div className="flex flex-wrap gap-2">
                  <a className={buttonClass('primary', 'sm')} href={links.mailto} onClick={() => setUsedElsewhere(true)}>
                    {w['sendYourself.openInApp']}
                  </a>
                  <a
                    className={buttonClass('secondary', 'sm')}
                    href={links.gmail}
                    target="_blank"
                    rel="noopener noreferrer"
                    onClick={() => setUsedElsewhere(true)}
                  >
                    Gmail{newTab}
                  </a>
                  <a
                    className={buttonClass('secondary', 'sm')}
                    href={links.outlook}
                    target="_blank"
                    rel="noopener noreferrer"
                    onClick={() => setUsedElsewhere(true)}
                  >
                    Outlook{newTab}
                  </a>
                </div>
                {draft.token && (usedElsewhere || draft.selfSent !== 'no') && (
                  <div className="space-y-2 rounded-xl bg-canvas p-3" data-testid="sent-myself">
                    {draft.selfSent === 'yes' ? (
                      <>
                        <p role="status" className="text-sm text-success-600">
                          {w['selfSent.thanks']}
                        </p>
                        {draft.share && <SchoolShare url={draft.share.url} schoolName={draft.share.schoolName} words={dialogWords.share} />}
                      </>
                    ) : draft.selfSent === 'check' ? (
                      <p role="status" className="text-sm text-ink" data-testid="self-check-inbox">
                        <strong>{w['selfSent.checkTitle']}</strong>{' '}
                        {fillParts(w['selfSent.check'], () =>
                          draft.selfSentMessage ? <strong key="email">{draft.selfSentMessage}</strong> : w['selfSent.yourAddress'],
                        )}
                      </p>
                    ) : (
                      <>
                        <p className="text-sm">{w['selfSent.ask']}</p>
                        <button
                          type="button"
                          className={buttonClass('secondary', 'sm')}
                          disabled={draft.selfSent === 'saving'}
                          aria-busy={draft.selfSent === 'saving'}
                          onClick={() => void markSentMyself()}
                        >
                          {w['selfSent.button']}
                        </button>
                        {draft.selfSent === 'failed' && (
                          <p role="alert" className="text-sm text-danger-600">
                            {draft.selfSentMessage ?? w['selfSent.failed']}
                          </p>
                        )}
                      </>
                    )}
                  </div>
                )}
              </section>
              <section aria-labelledby="send-platform" className="space-y-3">
                <h3 id="send-platform" className="text-sm font-semibold">
                  {w['platform.title']}
                </h3>
                {platform && send !== 'refused' ? (
                  <>
                    <button
                      type="button"
                      className={buttonClass('accent', 'sm')}
                      disabled={sending || Boolean(noteError)}
                      aria-busy={sending}
                      onClick={() => void sendDraftViaPlatform({ closeOnSuccess: true, toasts })}
                    >
                      {sending && <Spinner />}
                      {sending ? w['platform.sending'] : w['platform.send']}
                    </button>
                    <p className="text-xs text-muted">{w['platform.confirmFirst']}</p>
                  </>
                ) : send === 'refused' ? (
                  <p className="text-sm text-muted">{w['platform.refused']}</p>
                ) : (
                  <p className="text-sm text-muted">{draft.token ? w['platform.needAddresses'] : w['platform.noToken']}</p>
                )}
              </section>
            </div>
          )}
          <p className="mt-4 border-t border-line pt-3 text-xs text-muted">
            {fillParts(w['yourData.text'], () => (
              <a key="link" className="font-medium text-brand-700 underline" href={locale === defaultLocale ? '/your-data' : `/your-data?lang=${locale}`}>
                {w['yourData.link']}
              </a>
            ))}
          </p>
        </div>
      </ReactDialog>
    </>
  );
}
