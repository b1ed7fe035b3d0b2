import { useState } from 'react';
import type { VideoItem } from '../../lib/content';
import { shortDate } from '../../lib/dates';
import { VideoCard } from './VideoCard';
import { VideoModal, type ModalVideo } from './VideoModal';

interface Props {
  videos: VideoItem[];
  /** Accessible name of the list, e.g. "Parent stories". */
  label: string;
  headingLevel?: 3 | 4;
  showDates?: boolean;
}

/** A grid of story cards (3 columns on wide screens) sharing one modal player. */
export default function VideoGrid({ videos, label, headingLevel = 3, showDates = false }: Props) {
  const [open, setOpen] = useState<ModalVideo | null>(null);
  return (
    <>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label={label} data-video-grid>
        {videos.map((video) => (
          <li key={video.id}>
            <VideoCard
              video={video}
              headingLevel={headingLevel}
              showDate={showDates && video.createdAt ? shortDate(video.createdAt) : undefined}
              onOpen={(v) => setOpen({ title: v.title, src: v.youtubeUrl ?? v.mp4Url, poster: v.poster.src })}
            />
          </li>
        ))}
      </ul>
      <VideoModal video={open} onClose={() => setOpen(null)} />
    </>
  );
}
