/**
 * The email dialog and everything it needs (React, the draft store, the template), loaded only
 * once a parent starts on an email form (see flow.ts), so /lead-the-change and /form carry no
 * React on their first load.
 */
import { createRoot } from 'react-dom/client';
import EmailDialog from './EmailDialog';
import type { DraftAnswer } from '../../lib/email/draft';
import { onEditDetails, openDraft, sendDraftViaPlatform, startDraft } from '../../stores/emailDraft';

const roots = new WeakSet<HTMLElement>();

/**
 * Shows "Your Email is Ready" for `draft` in `container`; sends at once when the parent chose so.
 * `onEdit` brings back the form the email came from ("Edit details").
 */
export async function showEmailDialog(container: HTMLElement, draft: DraftAnswer, onEdit?: () => void): Promise<void> {
  if (!roots.has(container)) {
    roots.add(container);
    createRoot(container).render(<EmailDialog />);
  }
  onEditDetails(onEdit);
  startDraft(draft);
  openDraft();
  if (draft.wantsPlatformSend && draft.token) await sendDraftViaPlatform({ closeOnSuccess: false });
}
