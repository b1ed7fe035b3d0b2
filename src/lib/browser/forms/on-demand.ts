/**
 * The native forms' enhancement (`<native-form>`, enhance.ts, about 11 KB) loads when a visitor
 * first turns to a form: a focus or a press inside one, or its submit. A page with only the
 * footer's newsletter form carries this loader, not the enhancement. Until it has loaded, a
 * submit waits for it (and, should it fail to load, the form posts as it would without
 * JavaScript); the fill time is measured from the page's load, as the enhancement always did.
 */
import type { NativeFormElement } from './enhance';
import { fillReferralSource } from './referral';

let loading: Promise<unknown> | undefined;
const load = () => (loading ??= import('./enhance'));

const regionOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('native-form') : null);

export function loadFormsOnDemand(root: Document = document): void {
  const readyAt = String(performance.now());
  for (const region of root.querySelectorAll<HTMLElement>('native-form')) {
    region.dataset.readyAt ??= readyAt;
    // The enhancement shows its own messages beside each field; the browser's bubbles would stop
    // the submit before it could.
    const form = region.querySelector('form');
    if (form) {
      form.noValidate = true;
      fillReferralSource(form);
    }
  }
  const warm = (event: Event) => {
    if (regionOf(event.target)) void load();
  };
  root.addEventListener('focusin', warm);
  root.addEventListener('pointerdown', warm);
  root.addEventListener('submit', (event) => {
    const region = regionOf(event.target);
    if (!region || customElements.get('native-form')) return;
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    load().then(
      () => void (region as NativeFormElement).submit(),
      () => form.submit(),
    );
  });
}
