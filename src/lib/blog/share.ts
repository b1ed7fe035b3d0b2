/** The article's Share button: the Web Share API where the browser has it, else copy the link. */
import { showToast } from '../frame/toast';

export type ShareOutcome = 'shared' | 'copied' | 'cancelled' | 'failed';

export async function shareLink(data: { title: string; url: string }, nav: Pick<Navigator, 'share' | 'clipboard'> = navigator): Promise<ShareOutcome> {
  if (typeof nav.share === 'function') {
    try {
      await nav.share({ title: data.title, url: data.url });
      return 'shared';
    } catch (error) {
      // Closing the share sheet is not an error; anything else falls back to copying.
      if ((error as DOMException)?.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await nav.clipboard.writeText(data.url);
    return 'copied';
  } catch {
    return 'failed';
  }
}

export function initShareButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-share]')) {
    button.addEventListener('click', async () => {
      const url =
        button.dataset.shareUrl && location.origin === new URL(button.dataset.shareUrl).origin ? button.dataset.shareUrl : location.href.split('#')[0]!;
      const outcome = await shareLink({ title: button.dataset.shareTitle ?? document.title, url });
      if (outcome === 'copied') showToast({ title: 'Link copied!', description: 'The article link has been copied to your clipboard.' });
      if (outcome === 'failed') showToast({ title: 'Error', description: 'Failed to copy to clipboard. Please try again.', variant: 'destructive' });
    });
  }
}
