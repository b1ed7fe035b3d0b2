/**
 * In-page links marked `data-smooth-scroll` glide to their #target (instantly under reduced
 * motion) and move keyboard focus there; without JavaScript they are ordinary anchor links.
 */
import { scrollToId } from './frame/scroll';

export function initSmoothLinks(root: ParentNode = document): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-smooth-scroll]')) {
    link.addEventListener('click', (event) => {
      const id = decodeURIComponent(link.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (!target) return;
      event.preventDefault();
      history.replaceState(null, '', `#${id}`);
      scrollToId(id);
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    });
  }
}
