import { $toast, dismissToast, type Toast } from './toast';

const closeIcon =
  '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg>';

function render(toast: Toast): HTMLElement {
  const card = document.createElement('div');
  card.dataset.toast = toast.variant;
  card.className = [
    'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg',
    toast.variant === 'destructive' ? 'border-danger-600 bg-danger-50 text-danger-600' : 'border-line bg-white text-ink',
  ].join(' ');
  const text = document.createElement('div');
  text.className = 'flex-1';
  const title = document.createElement('p');
  title.className = 'text-sm font-semibold';
  title.textContent = toast.title;
  text.append(title);
  if (toast.description) {
    const description = document.createElement('p');
    description.className = 'mt-1 text-sm opacity-90';
    description.textContent = toast.description;
    text.append(description);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'rounded p-1 opacity-70 hover:opacity-100';
  close.setAttribute('aria-label', 'Dismiss notification');
  close.innerHTML = closeIcon;
  close.addEventListener('click', () => dismissToast(toast.id));
  card.append(text, close);
  return card;
}

/** The modal dialog on top, if one is open: while it is, the rest of the page is inert and below it. */
export function topModalDialog(root: ParentNode = document): HTMLDialogElement | undefined {
  return [...root.querySelectorAll<HTMLDialogElement>('dialog[open]')].filter((dialog) => dialog.matches(':modal')).at(-1);
}

/**
 * The toast live regions. While a modal dialog is open they live inside it (moved there as it
 * opens, so the regions exist before any toast and are announced), which is the only place a toast
 * can be seen, read and dismissed; they return to their place in the page when it closes. In a
 * dialog they sit in its flow, where it keeps a place for them (`[data-toast-slot]`, else at its
 * end), never on top of what the parent is reading (`data-in-dialog` drops the fixed position).
 */
class ToastRegion extends HTMLElement {
  #home: ParentNode | null = null;
  #started = false;

  connectedCallback() {
    // Moving the element into a dialog and back calls this again: start once.
    if (this.#started) return;
    this.#started = true;
    this.#home = this.parentNode;
    const polite = this.querySelector<HTMLElement>('[data-toast-polite]');
    const assertive = this.querySelector<HTMLElement>('[data-toast-assertive]');
    $toast.subscribe((toast) => {
      polite?.replaceChildren();
      assertive?.replaceChildren();
      if (!toast) return;
      (toast.variant === 'destructive' ? assertive : polite)?.append(render(toast));
    });
    new MutationObserver(() => this.#follow()).observe(document.documentElement, { subtree: true, childList: true, attributeFilter: ['open'] });
    this.#follow();
  }

  /** Into the modal dialog on top, or home when none is open (or the dialog it was in went away). */
  #follow() {
    const dialog = topModalDialog();
    const place = dialog ? (dialog.querySelector('[data-toast-slot]') ?? dialog) : this.#home;
    this.toggleAttribute('data-in-dialog', Boolean(dialog));
    if (place && this.parentNode !== place) place.appendChild(this);
  }
}

export function defineToastRegion(): void {
  if (!customElements.get('toast-region')) customElements.define('toast-region', ToastRegion);
}
