/**
 * The email dialog and everything it needs (React, the draft store, the template), loaded only
 * once a parent starts on an email form (see flow.ts), so /lead-the-change and /form carry no
 * React on their first load.
 */
import { createRoot } from 'react-dom/client';
import EmailDialog from './EmailDialog';
import { dialogWordsFrom, toastsOf, type DialogWords } from '../../lib/shared/email/dialog-words';
import type { DraftAnswer } from '../../lib/browser/email/draft';
import { onEditDetails, openDraft, sendDraftViaPlatform, startDraft } from '../../stores/emailDraft';

const roots = new WeakSet<HTMLElement>();

/**
 * Shows "Your Email is Ready" for `draft` in `container`, in the page's words (its
 * `data-dialog-words`, checked here: a page without all of them fails loudly); sends at once when
 * the parent chose so. `onEdit` brings back the form the email came from ("Edit details").
 */
export async function showEmailDialog(container: HTMLElement, draft: DraftAnswer, pageWords: string, onEdit?: () => void): Promise<void> {
  const words: DialogWords = dialogWordsFrom(pageWords);
  if (!roots.has(container)) {
    roots.add(container);
    createRoot(container).render(<EmailDialog words={words} />);
  }
  onEditDetails(onEdit);
  startDraft(draft);
  openDraft();
  if (draft.wantsPlatformSend && draft.token) await sendDraftViaPlatform({ closeOnSuccess: false, toasts: toastsOf(words) });
}
