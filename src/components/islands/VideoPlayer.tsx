import { forwardRef } from 'react';
import { toYouTubeEmbedUrl } from '../../lib/youtube';

export const VIDEO_FALLBACK_TEXT = 'Your browser does not support the video tag.';

interface Props {
  src: string;
  title: string;
  poster?: string;
  autoPlay?: boolean;
  className?: string;
}

/** A YouTube link plays in YouTube's embed (autoplay, no related videos); anything else in <video>. */
export const VideoPlayer = forwardRef<HTMLVideoElement, Props>(function VideoPlayer({ src, title, poster, autoPlay = true, className }, ref) {
  const embed = toYouTubeEmbedUrl(src);
  if (embed) {
    return (
      <iframe
        src={embed}
        title={title}
        className={`aspect-video w-full rounded-xl bg-black ${className ?? ''}`}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        data-video-embed
      />
    );
  }
  return (
    <video
      ref={ref}
      src={src}
      poster={poster}
      controls
      autoPlay={autoPlay}
      playsInline
      className={`aspect-video w-full rounded-xl bg-black ${className ?? ''}`}
      aria-label={title}
      data-video-player
    >
      {VIDEO_FALLBACK_TEXT}
    </video>
  );
});
