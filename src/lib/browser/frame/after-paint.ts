/**
 * Runs `go` once the page's first paint is on the screen: through the head's `whenPainted`
 * (src/lib/build/first-paint.ts), or in a task of its own on a page without it. For what a script
 * does at start that reads the layout: read before the first paint, it makes the browser lay the
 * page out in the script's task, which Lighthouse's simulation of a phone counts into the largest
 * paint and not into the first (issue 48: the floating call's first check put 40 ms of style and
 * layout there on `/`).
 */
export function afterPaint(go: () => void): void {
  const whenPainted = (window as Window & { whenPainted?: (go: () => void) => void }).whenPainted;
  if (whenPainted) whenPainted(go);
  else setTimeout(go);
}
