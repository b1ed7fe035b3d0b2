/**
 * Opens the site search dialog: the header button, `/` and Ctrl/Cmd+K. Only this small piece loads
 * with every page; the search UI (`./dialog`) loads the first time it opens.
 */
import { openDialog } from '../dialog';

/** True when a key press belongs to a field the visitor is typing in. */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element?.tagName) return false;
  return element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName);
}

/** Which shortcut, if any, a key press is. */
export function isSearchShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): boolean {
  if (event.altKey) return false;
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') return true;
  return event.key === '/' && !event.ctrlKey && !event.metaKey && !isTyping(event.target);
}

export function initSiteSearch(root: Document = document): void {
  const dialog = root.getElementById('site-search');
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-search-open]')];
  if (!(dialog instanceof HTMLDialogElement)) return;
  let ui: Promise<typeof import('./dialog')> | undefined;

  const input = dialog.querySelector<HTMLInputElement>('[data-search-input]');
  const open = (opener: HTMLElement | null) => {
    openDialog(dialog, opener);
    // At once, not when the code below arrives: the last query is selected so that typing replaces
    // it, and keys pressed meanwhile are not selected away.
    input?.focus();
    input?.select();
    ui ??= import('./dialog');
    void ui.then((module) => module.startSearch(dialog));
  };

  for (const button of buttons) {
    // Without JavaScript the button submits the header's form to /search; with it, it opens the dialog.
    button.setAttribute('aria-haspopup', 'dialog');
    button.setAttribute('aria-controls', dialog.id);
    button.setAttribute('aria-keyshortcuts', '/ Control+K Meta+K');
    button.addEventListener('click', (event) => {
      event.preventDefault();
      open(button);
    });
  }
  // In a search field Escape would only clear the text; here it closes the dialog at once.
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    dialog.close();
  });
  root.addEventListener('keydown', (event) => {
    if (dialog.open || !isSearchShortcut(event)) return;
    event.preventDefault();
    open(root.activeElement as HTMLElement | null);
  });
}
