/**
 * "Copy Webinar Link" on /webinar-share: copies the link, says "Link Copied!" for 3 s, and toasts.
 * The words are the page's (webinarShare.yaml), handed to this script in the button's
 * `data-copied-label`, `data-copied-toast`, `data-failed-title` and `data-failed-toast`; without them,
 * English.
 */
import { showToast } from './frame/toast';

export const COPIED_STATE_MS = 3000;

export const COPY_TOASTS = {
  success: { title: 'Link Copied!', description: 'The webinar link has been copied to your clipboard.' },
  failure: { title: 'Copy Failed', description: 'Please copy the link manually from the URL shown.', variant: 'destructive' },
} as const;

export function initCopyLink(root: ParentNode = document): void {
  const button = root.querySelector<HTMLButtonElement>('[data-copy-link]');
  const label = button?.querySelector<HTMLElement>('[data-copy-label]');
  const input = root.querySelector<HTMLTextAreaElement>('[data-share-link]');
  if (!button || !label || !input) return;
  const idle = label.textContent ?? COPY_TOASTS.success.title;
  const words = button.dataset;
  const copied = words.copiedLabel ?? COPY_TOASTS.success.title;
  const success = { title: copied, description: words.copiedToast ?? COPY_TOASTS.success.description };
  const failure = {
    ...COPY_TOASTS.failure,
    title: words.failedTitle ?? COPY_TOASTS.failure.title,
    description: words.failedToast ?? COPY_TOASTS.failure.description,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener('click', async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(input.value);
    } catch {
      showToast(failure);
      input.focus();
      input.select();
      return;
    }
    label.textContent = copied;
    button.dataset.copied = 'true';
    showToast(success);
    clearTimeout(timer);
    timer = setTimeout(() => {
      label.textContent = idle;
      delete button.dataset.copied;
    }, COPIED_STATE_MS);
  });
}
