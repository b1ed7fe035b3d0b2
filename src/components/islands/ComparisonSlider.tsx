import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { percentAt, percentForKey } from '../../lib/comparison';

interface Side {
  title: string;
  items: readonly string[];
}

interface Props {
  traditional: Side;
  programme: Side;
  initial?: number;
}

function List({ side, tone }: { side: Side; tone: 'programme' | 'traditional' }) {
  const dark = tone === 'programme';
  return (
    <div className="w-1/2 p-4 sm:p-8">
      <h3 className={`text-base font-bold sm:text-xl ${dark ? 'text-white' : 'text-ink'}`}>{side.title}</h3>
      <ul className="mt-4 space-y-3">
        {side.items.map((item) => (
          <li key={item} className={`flex gap-2 text-sm sm:text-base ${dark ? 'text-brand-50' : 'text-ink-soft'}`}>
            <svg viewBox="0 0 24 24" width="20" height="20" className={`mt-0.5 shrink-0 ${dark ? 'text-accent-400' : 'text-muted'}`} fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
              {dark ? <path d="M5 12l5 5 9-10" /> : <path d="M6 12h12" />}
            </svg>
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Traditional school under, the programme revealed over it up to a divider that follows the
 * pointer (mouse hover or a finger dragging). The divider is an ARIA slider for the keyboard.
 * At the initial 50% both lists are fully visible, also without JavaScript.
 */
export default function ComparisonSlider({ traditional, programme, initial = 50 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [percent, setPercent] = useState(initial);

  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const rect = box.current?.getBoundingClientRect();
    if (rect) setPercent(Math.round(percentAt(event.clientX, rect.left, rect.width)));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = percentForKey(event.key, percent);
    if (next === null) return;
    event.preventDefault();
    setPercent(next);
  };

  return (
    <div
      ref={box}
      className="relative select-none overflow-hidden rounded-card border border-line bg-white shadow-card [touch-action:pan-y]"
      onPointerMove={follow}
      onPointerDown={(event) => {
        follow(event);
        // While pressed, the divider keeps following outside the box (clamped to 0-100%).
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      data-comparison
    >
      <div className="flex min-h-72 justify-end bg-canvas" data-side="traditional">
        <List side={traditional} tone="traditional" />
      </div>
      <div
        className="absolute inset-0 flex bg-brand-700"
        style={{ clipPath: `inset(0 ${100 - percent}% 0 0)` }}
        data-side="programme"
      >
        <List side={programme} tone="programme" />
      </div>
      <div
        role="slider"
        tabIndex={0}
        aria-label="Compare traditional school with the programme"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% programme shown`}
        aria-orientation="horizontal"
        onKeyDown={onKeyDown}
        className="absolute inset-y-0 -ml-5 flex w-10 cursor-ew-resize items-center justify-center"
        style={{ left: `${percent}%` }}
        data-divider
      >
        <span className="absolute inset-y-0 left-1/2 w-1 -translate-x-1/2 bg-accent-500" aria-hidden="true" />
        <span className="relative inline-flex h-10 w-10 items-center justify-center rounded-full bg-accent-500 text-white shadow-lg" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2.5">
            <path d="M9 6l-6 6 6 6M15 6l6 6-6 6" />
          </svg>
        </span>
      </div>
    </div>
  );
}
