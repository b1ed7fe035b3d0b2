/**
 * The element the modal players show: a YouTube link plays in YouTube's embed (autoplay on,
 * related videos off), anything else in a native <video> with controls.
 */
import { toYouTubeEmbedUrl } from '../youtube';

export const VIDEO_FALLBACK_TEXT = 'Your browser does not support the video tag.';

export interface PlayerSource {
  /** An mp4 or a YouTube watch, short-link, Shorts or embed URL. */
  src: string;
  title: string;
  poster?: string;
}

export function createPlayer({ src, title, poster }: PlayerSource, className = ''): HTMLIFrameElement | HTMLVideoElement {
  const classes = `aspect-video w-full rounded-xl bg-black ${className}`.trim();
  const embed = toYouTubeEmbedUrl(src);
  if (embed) {
    const frame = document.createElement('iframe');
    frame.src = embed;
    frame.title = title;
    frame.className = classes;
    frame.setAttribute('allow', 'autoplay; encrypted-media; picture-in-picture; fullscreen');
    frame.setAttribute('allowfullscreen', '');
    frame.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
    frame.dataset.videoEmbed = '';
    return frame;
  }
  const video = document.createElement('video');
  video.src = src;
  if (poster) video.poster = poster;
  video.controls = true;
  video.autoplay = true;
  video.playsInline = true;
  video.className = classes;
  video.setAttribute('aria-label', title);
  video.dataset.videoPlayer = '';
  video.textContent = VIDEO_FALLBACK_TEXT;
  return video;
}
