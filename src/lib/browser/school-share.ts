/**
 * The share block offered after a confirmed send (the /confirm-send page; the email dialog draws
 * its own): without JavaScript it is the link and plain WhatsApp, SMS and email links; with it,
 * "Copy link" and, where the device has one, its share sheet (Web Share API). No third-party script.
 */
import { showToast } from './frame/toast';
import type { ShareToasts } from '../shared/share-words';

/** Copies the link and says so in the block's words (`shareToastsOf`). */
export async function copyShareLink(url: string, toasts: ShareToasts): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(url);
    showToast(toasts.copied);
    return true;
  } catch {
    showToast(toasts.failed);
    return false;
  }
}

/** Opens the device's share sheet; false where there is none (or the parent closed it). */
export async function nativeShare(data: { title: string; text: string; url: string }): Promise<boolean> {
  if (typeof navigator.share !== 'function' || (navigator.canShare && !navigator.canShare(data))) return false;
  try {
    await navigator.share(data);
    return true;
  } catch {
    return false;
  }
}

export const canShareNatively = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Wires every `[data-share]` block of the page drawn by the server. */
export function enhanceShareBlocks(root: ParentNode = document): void {
  for (const block of root.querySelectorAll<HTMLElement>('[data-share]')) {
    const url = block.dataset.shareUrl ?? '';
    const text = block.dataset.shareText ?? '';
    const title = block.dataset.shareTitle ?? '';
    const toasts = JSON.parse(block.dataset.shareToasts ?? 'null') as ShareToasts | null;
    const copy = block.querySelector<HTMLButtonElement>('[data-share-copy]');
    const native = block.querySelector<HTMLButtonElement>('[data-share-native]');
    if (copy && toasts) {
      copy.hidden = false;
      copy.addEventListener('click', async () => {
        if (!(await copyShareLink(url, toasts))) block.querySelector<HTMLInputElement>('[data-share-link]')?.select();
      });
    }
    if (native && canShareNatively()) {
      native.hidden = false;
      native.addEventListener('click', () => void nativeShare({ title, text, url }));
    }
  }
}
