import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { isBackdropClick } from '../../lib/browser/dialog';

interface Props {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  size?: 'md' | 'lg' | 'full';
  /** Extra content beside the title, e.g. a badge. */
  titleAside?: ReactNode;
  className?: string;
  /** Where focus goes when the dialog closes, when not back to the element that opened it. */
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** The close button's accessible name, in the page's language. */
  closeLabel?: string;
}

const widths = { md: 'max-w-lg', lg: 'max-w-3xl', full: 'max-w-[min(96vw,80rem)]' };

/**
 * The islands' modal, on the native <dialog> like `Dialog.astro`: focus is trapped by
 * `showModal()`, Escape and backdrop clicks close it, and focus returns to the opener.
 */
export function ReactDialog({ open, onClose, title, children, size = 'md', titleAside, className, returnFocusTo, closeLabel = 'Close dialog' }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes it; the keyboard closes it with Escape, the dialog's own
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={`m-auto w-[calc(100vw-2rem)] rounded-card bg-white p-0 text-ink shadow-2xl ${widths[size]} ${className ?? ''}`}
      onClose={() => {
        // The close event comes after React has rendered the closed state, so a control that
        // only exists then (e.g. "View your email") can take focus.
        const target = returnFocusTo?.current ?? opener.current;
        if (target?.isConnected) target.focus();
        onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (ref.current && isBackdropClick(ref.current, event.nativeEvent)) onClose();
      }}
    >
      {open && (
        <>
          <div className="flex items-start justify-between gap-4 border-b border-line px-6 py-4">
            <div className="flex items-center gap-3">
              <h2 id={titleId} className="text-lg font-bold">
                {title}
              </h2>
              {titleAside}
            </div>
            <button type="button" className="-mr-2 rounded-lg p-2 text-muted hover:bg-canvas hover:text-ink" aria-label={closeLabel} onClick={onClose}>
              <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          <div className="px-6 py-5">{children}</div>
        </>
      )}
    </dialog>
  );
}
