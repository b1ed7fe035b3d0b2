/** `<impact-figures>`: puts the live figures of GET /api/impact into a prebuilt band when it nears the viewport. */
import type { Impact } from './school-answers';

const KEYS = ['schoolsReached', 'schoolsAnswered', 'meetings', 'parentsWrote'] as const;

let live: Promise<Impact | null> | undefined;
/** One request per page, however many bands it has. */
export function liveImpact(fetchImpl: typeof fetch = fetch): Promise<Impact | null> {
  live ??= fetchImpl('/api/impact', { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<Impact>) : null))
    .catch(() => null);
  return live;
}

export function applyImpact(root: ParentNode, impact: Impact): void {
  for (const key of KEYS) {
    const slot = root.querySelector<HTMLElement>(`[data-impact-figure="${key}"]`);
    const display = impact[key]?.display;
    if (slot && typeof display === 'string' && slot.textContent !== display) slot.textContent = display;
  }
}

export function defineImpactFigures(): void {
  if (customElements.get('impact-figures')) return;
  customElements.define(
    'impact-figures',
    class extends HTMLElement {
      connectedCallback() {
        const observer = new IntersectionObserver(
          (entries) => {
            if (!entries.some((entry) => entry.isIntersecting)) return;
            observer.disconnect();
            void liveImpact().then((impact) => impact && applyImpact(this, impact));
          },
          { rootMargin: '200px 0px' },
        );
        observer.observe(this);
      }
    },
  );
}
