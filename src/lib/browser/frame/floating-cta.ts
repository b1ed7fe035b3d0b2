/**
 * Shows the "Lead The Change" call after 300 px of scroll until the visitor dismisses it. It keeps
 * out of the way of what it points to: hidden while the email form (#email-form) is on screen or
 * while a form field has focus (on a phone it would cover the field being typed in).
 *
 * On a phone (below BAR_BELOW) it is a bar with room of its own (src/components/site/FloatingCta.astro):
 * the page leaves its height free at the end, so it shows at every depth. On wider screens it is a
 * pill in the corner that never lies over the page's text, headings, fields or buttons: while any is
 * under it, it is hidden (`data-covering`), and it shows again once the place under it has stayed
 * clear for a moment, so that scrolling past a gap does not make it flicker.
 */
declare global {
  /**
   * Calls `go` once the page's first paint is on the screen: the head's inline script defines it on
   * every page (src/lib/build/first-paint.ts `whenPaintedScript`, src/layouts/BaseLayout.astro).
   */
  function whenPainted(go: () => void): void;
}

export const FLOATING_CTA_THRESHOLD = 300;
export const FLOATING_CTA_STORAGE_KEY = 'floating-cta-dismissed';
/** How long the place under it must stay clear before it shows again. */
export const FLOATING_CTA_REVEAL_MS = 250;
/** The spacing of the points under it that are checked for content. */
const PROBE_STEP = 12;
/** Below this width it is a bar (Tailwind's `md`, 48rem). */
export const BAR_BELOW = '(max-width: 47.99rem)';

/** What a reader reads or uses: text, headings, fields, buttons, links, media. */
const CONTENT =
  'h1,h2,h3,h4,h5,h6,p,li,dt,dd,th,td,a,button,input,select,textarea,label,summary,img,video,iframe,figcaption,blockquote,pre,[role="button"],[role="slider"]';

/** Whether this element (the topmost at a point) is or holds something a reader reads or uses. */
export function isContent(element: Element | null | undefined): boolean {
  if (!element || element === document.documentElement || element === document.body) return false;
  if (element.closest(CONTENT)) return true;
  return [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '');
}

function isDismissed(): boolean {
  try {
    return localStorage.getItem(FLOATING_CTA_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

const isField = (target: EventTarget | null) => target instanceof HTMLElement && target.matches('input, textarea, select, [contenteditable="true"]');

class FloatingCta extends HTMLElement {
  #frame = 0;
  #onScroll = () => {
    this.#frame ||= requestAnimationFrame(() => {
      this.#frame = 0;
      this.#update();
    });
  };
  #formOnScreen = false;
  #fieldFocused = false;
  #reveal: ReturnType<typeof setTimeout> | undefined;
  #observer?: IntersectionObserver;
  #onFocusIn = (event: FocusEvent) => {
    this.#fieldFocused = isField(event.target);
    this.#update();
  };
  #onFocusOut = (event: FocusEvent) => {
    if (!isField(event.relatedTarget)) this.#fieldFocused = false;
    this.#update();
  };

  connectedCallback() {
    if (isDismissed()) return this.remove();
    window.addEventListener('scroll', this.#onScroll, { passive: true });
    window.addEventListener('resize', this.#onScroll, { passive: true });
    document.addEventListener('focusin', this.#onFocusIn);
    document.addEventListener('focusout', this.#onFocusOut);
    const form = document.getElementById('email-form');
    if (form && 'IntersectionObserver' in window) {
      this.#observer = new IntersectionObserver((entries) => {
        this.#formOnScreen = entries.some((entry) => entry.isIntersecting);
        this.#update();
      });
      this.#observer.observe(form);
    }
    // Its first check waits for the first paint (it is hidden until then anyway): it reads the scroll
    // position and what lies under it, and read before the paint that makes the browser lay the whole
    // page out in this script's task, which Lighthouse's simulation counts into the largest paint
    // and not the first (issue 48: 25 ms of style and 15 of layout on `/`). Called bare, not through
    // a helper: /webinar-thank-you is within a few bytes of its 25 KB of script.
    whenPainted(() => this.#update());
    this.querySelector('[data-floating-dismiss]')?.addEventListener('click', () => this.#dismiss());
    this.querySelector<HTMLAnchorElement>('[data-floating-link]')?.addEventListener('click', (event) => {
      // On a page with the form itself (/lead-the-change, a school page), scroll there instead of leaving.
      const target = document.getElementById('email-form');
      if (target) {
        event.preventDefault();
        const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
        history.replaceState(null, '', '#email-form');
      }
    });
  }

  disconnectedCallback() {
    window.removeEventListener('scroll', this.#onScroll);
    window.removeEventListener('resize', this.#onScroll);
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#reveal);
    document.removeEventListener('focusin', this.#onFocusIn);
    document.removeEventListener('focusout', this.#onFocusOut);
    this.#observer?.disconnect();
  }

  #update() {
    this.hidden = window.scrollY <= FLOATING_CTA_THRESHOLD || this.#formOnScreen || this.#fieldFocused;
    // A bar (on a phone) has room of its own: what passes under it can be scrolled above it.
    const bar = !this.hidden && window.matchMedia(BAR_BELOW).matches;
    if (this.hidden || bar || this.#covers()) {
      clearTimeout(this.#reveal);
      this.#reveal = undefined;
      this.toggleAttribute('data-covering', !bar);
    } else if (this.hasAttribute('data-covering')) {
      this.#reveal ??= setTimeout(() => {
        this.#reveal = undefined;
        if (!this.hidden && !this.#covers()) this.removeAttribute('data-covering');
      }, FLOATING_CTA_REVEAL_MS);
    }
  }

  /** Whether anything a reader reads or uses lies under it (its own box, at a few points). */
  #covers(): boolean {
    const box = this.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const xs = steps(box.left, box.right);
    const ys = steps(box.top, box.bottom);
    return ys.some((y) => xs.some((x) => isContent(document.elementsFromPoint(x, y).find((element) => !this.contains(element)))));
  }

  #dismiss() {
    try {
      localStorage.setItem(FLOATING_CTA_STORAGE_KEY, '1');
    } catch {
      // Private mode without storage: it stays hidden for this page only.
    }
    this.remove();
    document.querySelector<HTMLElement>('#main')?.focus({ preventScroll: true });
  }
}

/** Points from `start` to `end` (both just inside), PROBE_STEP apart. */
function steps(start: number, end: number): number[] {
  const points: number[] = [];
  for (let at = start + 1; at < end - 1; at += PROBE_STEP) points.push(at);
  points.push(end - 1);
  return points;
}

export function defineFloatingCta(): void {
  if (!customElements.get('floating-cta')) customElements.define('floating-cta', FloatingCta);
}
