/**
 * The statistics counters: from 0 to the target over 2000 ms in 50 ms steps (§9). The final
 * figure is already in the HTML; the count only replays it once the number scrolls into view.
 */
export const COUNTER_DURATION_MS = 2000;
export const COUNTER_STEP_MS = 50;

/** The values shown at each step, the last one being the target itself. */
export function counterFrames(target: number, durationMs = COUNTER_DURATION_MS, stepMs = COUNTER_STEP_MS): number[] {
  const steps = Math.max(1, Math.ceil(durationMs / stepMs));
  const decimals = decimalsOf(target);
  const frames: number[] = [];
  for (let i = 1; i <= steps; i++) {
    const value = (target * i) / steps;
    frames.push(i === steps ? target : Number(value.toFixed(decimals)));
  }
  return frames;
}

export function decimalsOf(value: number): number {
  const text = String(value);
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

export function formatCount(value: number, prefix = '', suffix = '', decimals = 0): string {
  return `${prefix}${value.toFixed(decimals)}${suffix}`;
}

interface CounterElement extends HTMLElement {
  dataset: DOMStringMap & { target?: string; prefix?: string; suffix?: string; duration?: string; counted?: string };
}

/** Plays one counter; returns a function that stops it and shows the target. */
export function playCounter(el: CounterElement): () => void {
  const target = Number(el.dataset.target);
  const prefix = el.dataset.prefix ?? '';
  const suffix = el.dataset.suffix ?? '';
  const decimals = decimalsOf(target);
  const frames = counterFrames(target, Number(el.dataset.duration) || COUNTER_DURATION_MS);
  let index = 0;
  el.textContent = formatCount(0, prefix, suffix, decimals);
  const timer = setInterval(() => {
    const value = frames[index++];
    if (value === undefined) return finish();
    el.textContent = formatCount(value, prefix, suffix, decimals);
    if (index >= frames.length) finish();
  }, COUNTER_STEP_MS);
  function finish() {
    clearInterval(timer);
    el.textContent = formatCount(target, prefix, suffix, decimals);
  }
  return finish;
}

/**
 * Counts every `[data-counter]` up once, when it comes into view. Under reduced motion, or without
 * IntersectionObserver, the final figures in the HTML simply stay.
 */
export function initCounters(root: ParentNode = document): void {
  const counters = [...root.querySelectorAll<CounterElement>('[data-counter]:not([data-counted])')];
  if (!counters.length || !('IntersectionObserver' in window)) return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const el = entry.target as CounterElement;
        observer.unobserve(el);
        el.dataset.counted = 'true';
        playCounter(el);
      }
    },
    { rootMargin: '0px 0px -50px 0px' },
  );
  for (const el of counters) observer.observe(el);
}
