/**
 * Behaviour shared by every native <dialog> on the site. `showModal()` makes the rest of the page
 * inert (the focus trap) and Escape closes it; we add backdrop clicks and focus return.
 */
const returnFocus = new WeakMap<HTMLDialogElement, HTMLElement | null>();

export function openDialog(dialog: HTMLDialogElement, opener?: HTMLElement | null): void {
  if (dialog.open) return;
  returnFocus.set(dialog, opener ?? (document.activeElement as HTMLElement | null));
  dialog.showModal();
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (dialog.open) dialog.close();
}

/** True when a click landed on the backdrop, i.e. outside the dialog's box. */
export function isBackdropClick(dialog: HTMLElement, event: MouseEvent): boolean {
  if (event.target !== dialog) return false;
  const rect = dialog.getBoundingClientRect();
  return event.clientX < rect.left || event.clientX > rect.right || event.clientY < rect.top || event.clientY > rect.bottom;
}

function wire(dialog: HTMLDialogElement): void {
  if (dialog.dataset.wired) return;
  dialog.dataset.wired = 'true';
  dialog.addEventListener('click', (event) => {
    if (isBackdropClick(dialog, event)) closeDialog(dialog);
  });
  dialog.addEventListener('close', () => {
    const opener = returnFocus.get(dialog);
    if (opener?.isConnected) opener.focus();
  });
  for (const button of dialog.querySelectorAll<HTMLElement>('[data-dialog-close]')) {
    button.addEventListener('click', () => closeDialog(dialog));
  }
}

export function initDialogs(root: ParentNode = document): void {
  for (const dialog of root.querySelectorAll<HTMLDialogElement>('dialog[data-dialog]')) wire(dialog);
  for (const trigger of root.querySelectorAll<HTMLElement>('[data-dialog-open]')) {
    if (trigger.dataset.dialogWired) continue;
    trigger.dataset.dialogWired = 'true';
    trigger.addEventListener('click', () => {
      const dialog = document.getElementById(trigger.dataset.dialogOpen ?? '');
      if (dialog instanceof HTMLDialogElement) openDialog(dialog, trigger);
    });
  }
}
