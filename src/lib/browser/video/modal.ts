/** Opens a page's modal player (`VideoModal.astro`, or the webinar dialog) on one video. */
import { openDialog } from '../dialog';
import { createPlayer, type PlayerSource } from './player';

export const VIDEO_MODAL_ID = 'video-modal';

/**
 * Puts the title and a fresh player in `dialog` and opens it; focus goes back to `opener` on close.
 * Returns the player, or null when the page has no such dialog (the caller then lets its link
 * navigate to the video instead).
 */
export function openVideoModal(
  source: PlayerSource,
  opener: HTMLElement | null,
  dialogId = VIDEO_MODAL_ID,
  playerClass = '',
): HTMLIFrameElement | HTMLVideoElement | null {
  const dialog = document.getElementById(dialogId);
  if (!(dialog instanceof HTMLDialogElement)) return null;
  const title = dialog.querySelector('[data-dialog-title]');
  const body = dialog.querySelector('[data-video-modal-body]');
  if (!title || !body) return null;
  title.textContent = source.title;
  const player = createPlayer(source, playerClass);
  // The words a browser without video shows, in the page's language (VideoModal.astro).
  const fallback = dialog.dataset.videoFallback;
  if (fallback && player instanceof HTMLVideoElement) player.textContent = fallback;
  body.replaceChildren(player);
  dialog.addEventListener('close', () => player.remove(), { once: true });
  openDialog(dialog, opener);
  return player;
}

/** Gives a link that a script turns into a dialog opener the semantics and keys of a button. */
export function actAsButton(link: HTMLAnchorElement, onActivate: () => void): void {
  link.setAttribute('role', 'button');
  link.addEventListener('click', (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onActivate();
  });
  link.addEventListener('keydown', (event) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    onActivate();
  });
}
