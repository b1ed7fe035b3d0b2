/**
 * Shows the floating call to action after 300 px of scroll until the visitor dismisses it. It keeps
 * out of the way of what it points to: hidden while the email form (#email-form) is on screen or
 * while a form field has focus (on a phone it would cover the field being typed in).
 */
export const FLOATING_CTA_THRESHOLD = 300;
export const FLOATING_CTA_STORAGE_KEY = 'floating-cta-dismissed';

function isDismissed(): boolean {
  try {
    return localStorage.getItem(FLOATING_CTA_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

const isField = (target: EventTarget | null) => target instanceof HTMLElement && target.matches('input, textarea, select, [contenteditable="true"]');

class FloatingCta extends HTMLElement {
  #onScroll = () => this.#update();
  #formOnScreen = false;
  #fieldFocused = false;
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
    this.#update();
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
    document.removeEventListener('focusin', this.#onFocusIn);
    document.removeEventListener('focusout', this.#onFocusOut);
    this.#observer?.disconnect();
  }

  #update() {
    this.hidden = window.scrollY <= FLOATING_CTA_THRESHOLD || this.#formOnScreen || this.#fieldFocused;
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

export function defineFloatingCta(): void {
  if (!customElements.get('floating-cta')) customElements.define('floating-cta', FloatingCta);
}
