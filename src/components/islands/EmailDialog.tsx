import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { emailMessages } from '../../lib/email/messages';
import { composeLinks, emailAsText } from '../../lib/email/template';
import { buttonClass } from '../../lib/ui';
import { $emailDraft, closeDraft, openDraft, sendDraftViaPlatform } from '../../stores/emailDraft';
import { showToast } from '../../stores/toast';
import { ReactDialog } from '../ui/ReactDialog';

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
 * "Your Email is Ready": the preview of the generated school email with copy, compose links and
 * "Send via our platform". The draft comes from the page's form through the emailDraft store.
 */
export default function EmailDialog() {
  const draft = useStore($emailDraft);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  if (!draft) return null;
  const { email, sending, sent, sendError } = draft;
  const links = composeLinks(email);
  const canSendViaPlatform = draft.data.parentEmail.trim() !== '';

  async function copy() {
    try {
      await navigator.clipboard.writeText(emailAsText(email));
      showToast(emailMessages.copied);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      showToast(emailMessages.copyFailed);
    }
  }

  return (
    <>
      {!draft.open && (
        <div className="mt-6 flex flex-col items-start gap-3 rounded-card border border-brand-200 bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-ink">
            {sent ? 'Your email has been sent via our platform.' : 'Your email to the school is ready to send.'}
          </p>
          <button type="button" className={buttonClass('primary', 'sm')} onClick={openDraft}>
            View your email
          </button>
        </div>
      )}
      <ReactDialog open={draft.open} onClose={closeDraft} title="Your Email is Ready" size="lg">
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
          <div
            className="max-h-[30vh] overflow-y-auto sm:max-h-[45vh] whitespace-pre-wrap break-words rounded-xl border border-line bg-white p-4 text-sm leading-relaxed"
            data-testid="email-body"
            tabIndex={0}
            role="region"
            aria-label="Email body"
          >
            {email.body}
          </div>

          {sendError && (
            <p role="alert" className="rounded-xl border border-danger-600 bg-danger-50 p-3 text-sm text-danger-600">
              {sendError}
            </p>
          )}
          {sent && (
            <p role="status" className="rounded-xl border border-success-600 bg-white p-3 text-sm text-success-600">
              Sent via our platform. We&apos;ll handle the follow-up process.
            </p>
          )}

          <div className="flex flex-wrap gap-3">
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={copy}>
              <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M9 9h11v11H9z" />
                <path d="M5 15H4V4h11v1" />
              </svg>
              {copied ? 'Copied!' : 'Copy'}
            </button>
          </div>

          {!sent && (
            <div className="grid gap-4 border-t border-line pt-4 sm:grid-cols-2" data-testid="send-options">
              <section aria-labelledby="send-yourself" className="space-y-3">
                <h3 id="send-yourself" className="text-sm font-semibold">
                  Send it yourself
                </h3>
                <div className="flex flex-wrap gap-2">
                  <a className={buttonClass('primary', 'sm')} href={links.mailto}>
                    Open in my email app
                  </a>
                  <a className={buttonClass('secondary', 'sm')} href={links.gmail} target="_blank" rel="noopener noreferrer">
                    Gmail<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  <a className={buttonClass('secondary', 'sm')} href={links.outlook} target="_blank" rel="noopener noreferrer">
                    Outlook<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </div>
              </section>
              <section aria-labelledby="send-platform" className="space-y-3">
                <h3 id="send-platform" className="text-sm font-semibold">
                  Or let us send it
                </h3>
                {canSendViaPlatform ? (
                  <button
                    type="button"
                    className={buttonClass('accent', 'sm')}
                    disabled={sending}
                    aria-busy={sending}
                    onClick={() => void sendDraftViaPlatform({ closeOnSuccess: true })}
                  >
                    {sending && <Spinner />}
                    {sending ? 'Sending…' : 'Send via our platform'}
                  </button>
                ) : (
                  <p className="text-sm text-muted">Add your own email address in the form to send it via our platform.</p>
                )}
              </section>
            </div>
          )}
        </div>
      </ReactDialog>
    </>
  );
}
