/**
 * The only form code every page carries: it waits until a form slot comes near the viewport and
 * only then loads the embed loader (and, through it, HubSpot's script).
 */
export function observeHubSpotSlots(root: ParentNode = document): void {
  const slots = [...root.querySelectorAll<HTMLElement>('[data-hubspot-form]:not([data-mounted])')];
  if (!slots.length) return;
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      void import('./hubspot-embed').then(({ initHubSpotForms }) => initHubSpotForms(root));
    },
    { rootMargin: '600px 0px' },
  );
  for (const slot of slots) observer.observe(slot);
}
