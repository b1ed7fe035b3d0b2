import { scrollToId } from '../frame/scroll';

/** §2 /lead-the-change: the hash target after 500 ms on load (top without one), smooth to the form on #email-form. */
export const LOAD_SCROLL_DELAY_MS = 500;
export const HASH_SCROLL_DELAY_MS = 100;

function hashId(): string {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return '';
  }
}

export function initLeadTheChangeScroll(): void {
  setTimeout(() => {
    const id = hashId();
    // Without a hash the frame has already put the page at the top.
    if (id && document.getElementById(id)) scrollToId(id);
  }, LOAD_SCROLL_DELAY_MS);
  window.addEventListener('hashchange', () => {
    if (hashId() === 'email-form') scrollToId('email-form', { delay: HASH_SCROLL_DELAY_MS });
  });
}
