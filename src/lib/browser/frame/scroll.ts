/** Smooth-scrolls to an element by id; instant under reduced motion. */
export function scrollToId(id: string, options: { delay?: number } = {}): void {
  const run = () => {
    const target = document.getElementById(id);
    if (!target) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  };
  if (options.delay) setTimeout(run, options.delay);
  else run();
}
