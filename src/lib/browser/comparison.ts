/** The comparison divider's position, in percent of the widget's width (§9: 0-100). */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** The divider position under a pointer at `clientX` over a box starting at `left`, `width` wide. */
export function percentAt(clientX: number, left: number, width: number): number {
  if (width <= 0) return 0;
  return clampPercent(((clientX - left) / width) * 100);
}

/** The slider's keyboard steps, as the ARIA slider pattern describes them. */
export function percentForKey(key: string, current: number, step = 5, page = 20): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampPercent(current - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampPercent(current + step);
    case 'PageDown':
      return clampPercent(current - page);
    case 'PageUp':
      return clampPercent(current + page);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}
