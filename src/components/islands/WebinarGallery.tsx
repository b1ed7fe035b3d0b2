import { useRef, useState } from 'react';
import type { WebinarItem } from '../../lib/content';
import { shortDate } from '../../lib/dates';
import { buttonClass } from '../../lib/ui';
import { ReactDialog } from '../ui/ReactDialog';
import { VideoPlayer } from './VideoPlayer';

interface Props {
  webinars: WebinarItem[];
}

function Meta({ icon, children }: { icon: string; children: React.ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d={icon} />
      </svg>
      {children}
    </span>
  );
}

const icons = {
  clock: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 6v6l4 2',
  eye: 'M1 12s4-8 11-8 11 8 11 8-4 8-11 8S1 12 1 12zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  calendar: 'M4 5h16v16H4zM16 3v4M8 3v4M4 11h16',
};

/** The recorded webinars: a card opens a full-screen player with download and fullscreen. */
export default function WebinarGallery({ webinars }: Props) {
  const [open, setOpen] = useState<WebinarItem | null>(null);
  const video = useRef<HTMLVideoElement>(null);

  return (
    <>
      <ul className="grid gap-6 md:grid-cols-2" aria-label="Recorded webinars">
        {webinars.map((webinar) => (
          <li key={webinar.id}>
            <article className="group relative flex h-full flex-col overflow-hidden rounded-card border border-line bg-white shadow-card transition-shadow hover:shadow-xl" data-webinar-card={webinar.id}>
              <div className="relative aspect-video bg-brand-900">
                <img
                  src={webinar.thumbnail.src}
                  width={webinar.thumbnail.width}
                  height={webinar.thumbnail.height}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  className="h-full w-full object-cover"
                />
                <span className="absolute inset-0 flex items-center justify-center" aria-hidden="true">
                  <span className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-white/95 text-brand-700 shadow-lg transition-transform group-hover:scale-110">
                    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor">
                      <path d="M8 5v14l11-7z" />
                    </svg>
                  </span>
                </span>
                <span className="absolute bottom-3 right-3 rounded-md bg-ink/85 px-2 py-1 text-xs font-semibold text-white">{webinar.duration} min</span>
              </div>
              <div className="flex flex-1 flex-col p-6">
                <p className="self-start rounded-pill bg-accent-100 px-3 py-1 text-xs font-semibold text-ink">{webinar.category}</p>
                <h3 className="mt-3 text-xl font-bold">
                  <button
                    type="button"
                    className="text-left after:absolute after:inset-0 after:content-[''] focus-visible:outline-none [&:focus-visible]:after:outline [&:focus-visible]:after:outline-3 [&:focus-visible]:after:outline-brand-500"
                    onClick={() => setOpen(webinar)}
                  >
                    {webinar.title}
                    <span className="sr-only"> (play the recording)</span>
                  </button>
                </h3>
                <p className="mt-2 flex-1 text-ink-soft">{webinar.description}</p>
                <p className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
                  <Meta icon={icons.clock}>{webinar.duration} min</Meta>
                  <Meta icon={icons.eye}>{webinar.views} views</Meta>
                  <Meta icon={icons.calendar}>
                    <time dateTime={webinar.publishedDate.slice(0, 10)}>{shortDate(webinar.publishedDate)}</time>
                  </Meta>
                </p>
              </div>
            </article>
          </li>
        ))}
      </ul>

      <ReactDialog
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open?.title ?? ''}
        size="full"
        titleAside={open && <span className="hidden rounded-pill bg-accent-100 px-3 py-1 text-xs font-semibold text-ink sm:inline">{open.category}</span>}
      >
        {open && (
          <div data-webinar-modal>
            <VideoPlayer ref={video} src={open.videoUrl} title={open.title} poster={open.thumbnail.src} className="max-h-[70vh]" />
            <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-soft">
                <span className="inline-flex items-center gap-1 font-semibold text-ink">
                  <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" className="text-accent-500" aria-hidden="true">
                    <path d="M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" />
                  </svg>
                  4.9/5 rating
                </span>
                <span>Free to watch</span>
                <span>{open.duration} min</span>
                <span>{open.views} views</span>
              </p>
              <div className="flex flex-wrap gap-2">
                <a href={open.videoUrl} download className={buttonClass('secondary', 'sm')}>
                  Download
                </a>
                <button
                  type="button"
                  className={buttonClass('primary', 'sm')}
                  onClick={() => {
                    const element = video.current;
                    if (element && document.fullscreenEnabled) void element.requestFullscreen().catch(() => undefined);
                  }}
                >
                  Fullscreen
                </button>
              </div>
            </div>
          </div>
        )}
      </ReactDialog>
    </>
  );
}
