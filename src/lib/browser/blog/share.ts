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

const englishToasts = {
  copiedTitle: 'Link copied!',
  copiedBody: 'The article link has been copied to your clipboard.',
  failedTitle: 'Error',
  failedBody: 'Failed to copy to clipboard. Please try again.',
};

export function initShareButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-share]')) {
    button.addEventListener('click', async () => {
      const url =
        button.dataset.shareUrl && location.origin === new URL(button.dataset.shareUrl).origin ? button.dataset.shareUrl : location.href.split('#')[0]!;
      const outcome = await shareLink({ title: button.dataset.shareTitle ?? document.title, url });
      // The toasts' words are the page's (`data-share-words`, blog.yaml's `shareToasts`), English when none.
      const words = { ...englishToasts, ...(JSON.parse(button.dataset.shareWords ?? '{}') as Partial<typeof englishToasts>) };
      if (outcome === 'copied') showToast({ title: words.copiedTitle, description: words.copiedBody });
      if (outcome === 'failed') showToast({ title: words.failedTitle, description: words.failedBody, variant: 'destructive' });
    });
  }
}
