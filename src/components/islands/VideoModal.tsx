import { ReactDialog } from '../ui/ReactDialog';
import { VideoPlayer } from './VideoPlayer';

export interface ModalVideo {
  title: string;
  /** An mp4 or a YouTube watch, short-link, Shorts or embed URL. */
  src: string;
  poster?: string;
}

interface Props {
  video: ModalVideo | null;
  onClose: () => void;
}

/**
 * The site's modal player: the title on top, the video playing. Closes on the close button,
 * a backdrop click or Escape, and gives focus back to the control that opened it.
 */
export function VideoModal({ video, onClose }: Props) {
  return (
    <ReactDialog open={video !== null} onClose={onClose} title={video?.title ?? ''} size="lg">
      {video && <VideoPlayer src={video.src} title={video.title} poster={video.poster} />}
    </ReactDialog>
  );
}
