/**
 * The header's behaviour without React: the narrow-screen menu toggle and the
 * Parent Ambassador dropdown (a native <details>, so it also works without JavaScript).
 */
export function initSiteHeader(root: ParentNode = document): void {
  const toggle = root.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const menu = root.querySelector<HTMLElement>('[data-menu]');
  const label = toggle?.querySelector<HTMLElement>('[data-menu-label]');
  const dropdown = root.querySelector<HTMLDetailsElement>('[data-ambassador]');

  const setMenu = (open: boolean, returnFocus = false) => {
    if (!toggle || !menu) return;
    toggle.setAttribute('aria-expanded', String(open));
    if (label) label.textContent = open ? 'Close menu' : 'Open menu';
    menu.toggleAttribute('data-open', open);
    if (!open && returnFocus) toggle.focus();
  };

  toggle?.addEventListener('click', () => setMenu(toggle.getAttribute('aria-expanded') !== 'true'));

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    if (dropdown?.open) {
      dropdown.open = false;
      dropdown.querySelector('summary')?.focus();
      return;
    }
    if (toggle?.getAttribute('aria-expanded') === 'true') setMenu(false, true);
  });

  document.addEventListener('click', (event) => {
    const target = event.target as Node | null;
    if (dropdown?.open && target && !dropdown.contains(target)) dropdown.open = false;
  });

  // Leaving the narrow layout with the menu open must not leave a stale state behind.
  window.matchMedia('(min-width: 64rem)').addEventListener('change', (event) => {
    if (event.matches) setMenu(false);
  });
}
