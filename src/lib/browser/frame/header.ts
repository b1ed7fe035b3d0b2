/**
 * The header's two disclosures, the narrow-screen menu and the Parent Ambassador dropdown, are
 * native <details>, so they open and close without JavaScript. This adds what a menu is expected
 * to do besides: Escape closes the open one and returns focus to its button, a click outside
 * closes it, and leaving the narrow layout closes the menu.
 */
export function initSiteHeader(root: ParentNode = document): void {
  const disclosures = [...root.querySelectorAll<HTMLDetailsElement>('details[data-menu], details[data-ambassador]')];
  const menu = root.querySelector<HTMLDetailsElement>('details[data-menu]');

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    // The dropdown sits in front of the menu when both are open.
    const open = disclosures.filter((details) => details.open).at(-1);
    if (!open) return;
    open.open = false;
    open.querySelector('summary')?.focus();
  });

  document.addEventListener('click', (event) => {
    const target = event.target as Node | null;
    for (const details of disclosures) if (details.open && target && !details.contains(target)) details.open = false;
  });

  // Leaving the narrow layout with the menu open must not leave a stale state behind.
  window.matchMedia('(min-width: 64rem)').addEventListener('change', (event) => {
    if (event.matches && menu) menu.open = false;
  });
}
