/** `<impact-figures>`: puts the live figures of GET /api/impact into a prebuilt band when it nears the viewport. */
import type { Locale } from '../../config/locales';
import { isImpactStarting, type Impact } from '../shared/answer-kinds';
import { impactKeys as KEYS, shownFigure } from '../shared/impact-words';

let live: Promise<Impact | null> | undefined;
/** One request per page, however many bands it has. */
export function liveImpact(fetchImpl: typeof fetch = fetch): Promise<Impact | null> {
  live ??= fetchImpl('/api/impact', { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<Impact>) : null))
    .catch(() => null);
  return live;
}

/**
 * Puts the figures in; and the sentence for a movement that is starting, or the four figures, as
 * they now call for. That changes the band's height, so it happens while the band is out of view,
 * or in view only when the sentence ("fewer than 5 parents") is no longer true.
 */
export function applyImpact(root: HTMLElement, impact: Impact, viewportHeight = window.innerHeight): void {
  // In the page's language: its digits, and its words for a figure below the threshold.
  const words = { locale: (root.dataset.locale ?? 'en') as Locale, fewer: root.dataset.fewer ?? '' };
  for (const key of KEYS) {
    const slot = root.querySelector<HTMLElement>(`[data-impact-figure="${key}"]`);
    const given = impact[key];
    const display = given && typeof given.display === 'string' ? (words.fewer ? shownFigure(given, words) : given.display) : undefined;
    if (slot && typeof display === 'string' && slot.textContent !== display) slot.textContent = display;
  }
  if (!KEYS.every((key) => typeof impact[key]?.display === 'string')) return;
  const sentence = root.querySelector<HTMLElement>('[data-impact-starting]');
  const list = root.querySelector<HTMLElement>('[data-impact-list]');
  const starting = isImpactStarting(impact);
  if (!sentence || !list || sentence.hidden === !starting) return;
  const { top, bottom } = root.getBoundingClientRect();
  if (starting && bottom > 0 && top < viewportHeight) return;
  sentence.hidden = !starting;
  list.hidden = starting;
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
