/**
 * `<webinar-gallery>`: a webinar card opens the full-screen modal on its recording, with the
 * duration, views, a download link and a fullscreen button filled in from the card.
 */
import { actAsButton, openVideoModal } from './modal';

const MODAL_ID = 'webinar-modal';

class WebinarGalleryElement extends HTMLElement {
  private player: HTMLVideoElement | HTMLIFrameElement | null = null;

  connectedCallback(): void {
    if (this.dataset.enhanced) return;
    const dialog = this.querySelector<HTMLDialogElement>(`#${MODAL_ID}`);
    if (!dialog) return;
    for (const card of this.querySelectorAll<HTMLElement>('[data-webinar-card]')) {
      const link = card.querySelector<HTMLAnchorElement>('a[data-webinar-open]');
      if (link) actAsButton(link, () => this.open(dialog, card, link));
    }
    dialog.querySelector('[data-webinar-fullscreen]')?.addEventListener('click', () => {
      if (this.player && document.fullscreenEnabled) void this.player.requestFullscreen().catch(() => undefined);
    });
    this.dataset.enhanced = 'true';
  }

  private open(dialog: HTMLDialogElement, card: HTMLElement, opener: HTMLAnchorElement): void {
    const { title = '', src = '', poster, category = '', duration = '', views = '' } = card.dataset;
    const fields: Record<string, string> = { category, duration, views };
    for (const field of dialog.querySelectorAll<HTMLElement>('[data-webinar-field]')) {
      field.textContent = fields[field.dataset.webinarField ?? ''] ?? '';
    }
    const download = dialog.querySelector<HTMLAnchorElement>('[data-webinar-download]');
    if (download) download.href = src;
    this.player = openVideoModal({ src, title, poster }, opener, MODAL_ID, 'max-h-[70vh]');
    // The recording's title as recorded (English) on a page in another language.
    const heading = dialog.querySelector('[data-dialog-title]');
    if (card.dataset.titleLang) heading?.setAttribute('lang', card.dataset.titleLang);
    if (!this.player) window.location.assign(opener.href);
  }
}

if (!customElements.get('webinar-gallery')) customElements.define('webinar-gallery', WebinarGalleryElement);
