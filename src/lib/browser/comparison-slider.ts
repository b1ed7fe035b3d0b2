/**
 * `<comparison-slider>`: the programme side is revealed over the traditional side up to a divider
 * that follows the pointer (mouse hover, or a finger while pressed, clamped to the box); the
 * divider is an ARIA slider for the keyboard. The markup is ComparisonSection.astro's.
 */
import { percentAt, percentForKey } from './comparison';

class ComparisonSliderElement extends HTMLElement {
  private percent = 50;

  connectedCallback(): void {
    if (this.dataset.enhanced) return;
    const box = this.querySelector<HTMLElement>('[data-comparison]');
    const divider = this.querySelector<HTMLElement>('[data-divider]');
    if (!box || !divider) return;
    this.percent = Number(divider.getAttribute('aria-valuenow') ?? 50);
    const follow = (event: PointerEvent) => {
      const rect = box.getBoundingClientRect();
      this.set(Math.round(percentAt(event.clientX, rect.left, rect.width)));
    };
    box.addEventListener('pointermove', follow);
    box.addEventListener('pointerdown', (event) => {
      follow(event);
      // While pressed, the divider keeps following outside the box (clamped to 0-100%).
      box.setPointerCapture(event.pointerId);
    });
    divider.addEventListener('keydown', (event) => {
      const next = percentForKey(event.key, this.percent);
      if (next === null) return;
      event.preventDefault();
      this.set(next);
    });
    this.dataset.enhanced = 'true';
  }

  private set(percent: number): void {
    if (percent === this.percent) return;
    this.percent = percent;
    const programme = this.querySelector<HTMLElement>('[data-side="programme"]');
    const divider = this.querySelector<HTMLElement>('[data-divider]');
    if (programme) programme.style.clipPath = `inset(0 ${100 - percent}% 0 0)`;
    if (divider) {
      divider.style.left = `${percent}%`;
      divider.setAttribute('aria-valuenow', String(percent));
      // The page's words, `{percent}` standing for the number (content/i18n/{locale}/comparison.yaml).
      divider.setAttribute('aria-valuetext', (divider.dataset.valuetext ?? '{percent}% programme shown').replace('{percent}', String(percent)));
    }
  }
}

if (!customElements.get('comparison-slider')) customElements.define('comparison-slider', ComparisonSliderElement);
