/**
 * `<video-card>`: a click on the picture plays or pauses the video in place. The overlay shows
 * the play/pause control; after playing it shows while the pointer is over the video (or the
 * control has keyboard focus) and hides 1 s after the pointer leaves. YouTube videos, and the
 * "Watch in the large player" link, open the page's modal player.
 */
import { actAsButton, openVideoModal } from './modal';

/** After playing, the overlay hides this long after the pointer leaves (§9). */
export const OVERLAY_HIDE_DELAY_MS = 1000;

const VISIBLE = ['bg-ink/25', 'opacity-100'];

class VideoCardElement extends HTMLElement {
  private hideTimer: ReturnType<typeof setTimeout> | undefined;
  private playing = false;
  private hovered = false;
  private focused = false;

  connectedCallback(): void {
    if (this.dataset.enhanced) return;
    const video = this.querySelector<HTMLVideoElement>('video[data-video-inline]');
    const overlay = this.querySelector<HTMLButtonElement>('[data-video-overlay]');
    const frame = this.querySelector<HTMLElement>('[data-video-frame]');
    const open = this.querySelector<HTMLAnchorElement>('a[data-video-open]');
    if (!video || !overlay || !frame || !open) return;

    const source = { src: this.dataset.src ?? '', title: this.dataset.title ?? '', poster: this.dataset.poster };
    const openModal = () => {
      video.pause();
      if (!openVideoModal(source, open)) window.location.assign(open.href);
    };

    overlay.hidden = false;
    overlay.addEventListener('click', () => {
      if (this.dataset.youtube !== undefined) return openModal();
      if (video.paused || video.ended) void video.play().catch(() => this.update({ playing: false }));
      else video.pause();
    });
    overlay.addEventListener('focus', () => this.update({ focused: overlay.matches(':focus-visible') }));
    overlay.addEventListener('blur', () => this.update({ focused: false }));
    frame.addEventListener('pointerenter', () => {
      clearTimeout(this.hideTimer);
      this.update({ hovered: true });
    });
    frame.addEventListener('pointerleave', () => {
      clearTimeout(this.hideTimer);
      this.hideTimer = setTimeout(() => this.update({ hovered: false }), OVERLAY_HIDE_DELAY_MS);
    });
    video.addEventListener('play', () => this.update({ playing: true }));
    video.addEventListener('pause', () => this.update({ playing: false }));
    video.addEventListener('ended', () => this.update({ playing: false }));
    actAsButton(open, openModal);
    this.dataset.enhanced = 'true';
  }

  disconnectedCallback(): void {
    clearTimeout(this.hideTimer);
  }

  private update(change: { playing?: boolean; hovered?: boolean; focused?: boolean }): void {
    this.playing = change.playing ?? this.playing;
    this.hovered = change.hovered ?? this.hovered;
    this.focused = change.focused ?? this.focused;
    const video = this.querySelector<HTMLVideoElement>('video[data-video-inline]');
    const overlay = this.querySelector<HTMLButtonElement>('[data-video-overlay]');
    if (!video || !overlay) return;
    const visible = !this.playing || this.hovered || this.focused;
    video.dataset.state = this.playing ? 'playing' : 'paused';
    overlay.dataset.videoOverlay = visible ? 'visible' : 'hidden';
    overlay.classList.toggle('opacity-0', !visible);
    for (const name of VISIBLE) overlay.classList.toggle(name, visible);
    // The card's words are its page's language's (data-play-label, data-pause-label; VideoCard.astro).
    const action = this.playing ? (this.dataset.pauseLabel ?? 'Pause video') : (this.dataset.playLabel ?? 'Play video');
    overlay.setAttribute('aria-label', `${action}: ${this.dataset.title ?? ''}`);
    overlay.querySelector<HTMLElement>('[data-icon="play"]')!.hidden = this.playing;
    overlay.querySelector<HTMLElement>('[data-icon="pause"]')!.hidden = !this.playing;
  }
}

if (!customElements.get('video-card')) customElements.define('video-card', VideoCardElement);
