/** Shows the floating call to action after 300 px of scroll until the visitor dismisses it. */
export const FLOATING_CTA_THRESHOLD = 300;
export const FLOATING_CTA_STORAGE_KEY = 'floating-cta-dismissed';

function isDismissed(): boolean {
  try {
    return localStorage.getItem(FLOATING_CTA_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

class FloatingCta extends HTMLElement {
  #onScroll = () => this.#update();

  connectedCallback() {
    if (isDismissed()) return this.remove();
    window.addEventListener('scroll', this.#onScroll, { passive: true });
    this.#update();
    this.querySelector('[data-floating-dismiss]')?.addEventListener('click', () => this.#dismiss());
    this.querySelector<HTMLAnchorElement>('[data-floating-link]')?.addEventListener('click', (event) => {
      // On the page of the form itself, scroll there instead of reloading.
      const target = document.getElementById('email-form');
      if (location.pathname.replace(/\/+$/, '') === '/lead-the-change' && target) {
        event.preventDefault();
        target.scrollIntoView({ behavior: 'smooth', block: 'start' });
        history.replaceState(null, '', '#email-form');
      }
    });
  }

  disconnectedCallback() {
    window.removeEventListener('scroll', this.#onScroll);
  }

  #update() {
    this.hidden = window.scrollY <= FLOATING_CTA_THRESHOLD;
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
