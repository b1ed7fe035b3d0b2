import { useEffect, useRef, useState } from 'react';
import type { VideoItem } from '../../lib/content';
import { VIDEO_FALLBACK_TEXT } from './VideoPlayer';

/** After playing, the overlay hides this long after the pointer leaves (§9). */
export const OVERLAY_HIDE_DELAY_MS = 1000;

interface Props {
  video: VideoItem;
  /** Opens the modal player (YouTube videos always play there). */
  onOpen: (video: VideoItem) => void;
  headingLevel?: 3 | 4;
  showDate?: string;
}

function PlayIcon({ playing }: { playing: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true">
      {playing ? <path d="M7 5h3v14H7zM14 5h3v14h-3z" /> : <path d="M8 5v14l11-7z" />}
    </svg>
  );
}

/** A story card: a click on the picture plays or pauses the video in place, with a play/pause overlay. */
export function VideoCard({ video, onOpen, headingLevel = 3, showDate }: Props) {
  const ref = useRef<HTMLVideoElement>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [playing, setPlaying] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const Heading = `h${headingLevel}` as 'h3' | 'h4';
  const overlayVisible = !playing || hovered || focused;

  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const toggle = () => {
    if (video.youtubeUrl) return onOpen(video);
    const element = ref.current;
    if (!element) return;
    if (element.paused || element.ended) {
      void element.play().catch(() => setPlaying(false));
    } else {
      element.pause();
    }
  };

  return (
    <article className="flex h-full flex-col overflow-hidden rounded-card border border-line bg-white shadow-card" data-video-card={video.id}>
      <div
        className="relative aspect-video bg-brand-900"
        onPointerEnter={() => {
          clearTimeout(hideTimer.current);
          setHovered(true);
        }}
        onPointerLeave={() => {
          clearTimeout(hideTimer.current);
          hideTimer.current = setTimeout(() => setHovered(false), OVERLAY_HIDE_DELAY_MS);
        }}
      >
        <video
          ref={ref}
          src={video.youtubeUrl ? undefined : video.mp4Url}
          poster={video.poster.src}
          width={video.poster.width}
          height={video.poster.height}
          preload="none"
          playsInline
          className="h-full w-full object-cover"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          data-state={playing ? 'playing' : 'paused'}
        >
          {VIDEO_FALLBACK_TEXT}
        </video>
        <button
          type="button"
          onClick={toggle}
          onFocus={(event) => setFocused(event.currentTarget.matches(':focus-visible'))}
          onBlur={() => setFocused(false)}
          aria-label={`${playing ? 'Pause' : 'Play'} video: ${video.title}`}
          className={`absolute inset-0 flex items-center justify-center transition-opacity duration-300 ${
            overlayVisible ? 'bg-ink/25 opacity-100' : 'opacity-0'
          }`}
          data-video-overlay={overlayVisible ? 'visible' : 'hidden'}
        >
          <span className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-white/95 text-brand-700 shadow-lg">
            <PlayIcon playing={playing} />
          </span>
        </button>
      </div>
      <div className="flex flex-1 flex-col p-5">
        <Heading className="text-lg font-bold text-ink">{video.title}</Heading>
        {showDate && <p className="mt-1 text-sm text-muted">{showDate}</p>}
        <p className="mt-2 flex-1 text-ink-soft">{video.description}</p>
        <button
          type="button"
          onClick={() => {
            ref.current?.pause();
            onOpen(video);
          }}
          className="mt-4 inline-flex min-h-11 items-center gap-2 self-start rounded-pill px-1 text-sm font-semibold text-brand-700 hover:underline"
        >
          <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
          </svg>
          Watch in the large player<span className="sr-only">: {video.title}</span>
        </button>
      </div>
    </article>
  );
}
