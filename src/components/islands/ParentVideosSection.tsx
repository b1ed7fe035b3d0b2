import type { VideoItem } from '../../lib/content';
import VideoGrid from './VideoGrid';

export const PARENT_VIDEOS_UNAVAILABLE = 'Videos are temporarily unavailable. Please check back soon.';

interface Props {
  videos: VideoItem[];
}

/** The home parent-videos section (switched off by default), with the dates the videos were added. */
export default function ParentVideosSection({ videos }: Props) {
  return (
    <section id="parent-videos" aria-labelledby="parent-videos-title" className="bg-canvas px-4 py-section" data-parent-videos-section>
      <div className="mx-auto max-w-7xl">
        <h2 id="parent-videos-title" className="text-center text-title font-extrabold tracking-tight">
          Parent Success Stories
        </h2>
        {videos.length === 0 ? (
          <p role="status" className="mx-auto mt-6 max-w-xl rounded-card border border-line bg-white p-6 text-center text-ink-soft">
            {`Parent Success Stories - ${PARENT_VIDEOS_UNAVAILABLE}`}
          </p>
        ) : (
          <div className="mt-10">
            <VideoGrid videos={videos} label="Parent success stories" showDates />
          </div>
        )}
      </div>
    </section>
  );
}
