/**
 * Issue 32.2, "nothing covers what matters": what a fixed or sticky element lies over, and a page
 * scrolled through and checked at each stop. Used by covering.spec.ts (the dialog, /your-email, the
 * other widths) and every-route.spec.ts (every route at 390 px, in the load that checks the rest).
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from './fixtures';
import { twoFrames } from './widths';

/** The floating button's FLOATING_CTA_REVEAL_MS (its module defines a custom element, which Node cannot load). */
const revealMs = Number(
  /FLOATING_CTA_REVEAL_MS = (\d+);/.exec(readFileSync(join(import.meta.dirname, '../../src/lib/browser/frame/floating-cta.ts'), 'utf8'))![1],
);

/**
 * "<what covers> covers <what>", for each fixed or sticky element over something that matters.
 * With `asShown`, the floating button counts as shown even while it keeps itself hidden
 * (`data-covering`): what it would cover if it came back.
 */
export function coverings(page: Page, { asShown = false, atEnd = true } = {}): Promise<string[]> {
  return page.evaluate(
    ({ asShown, atEnd }) => {
      const MATTERS =
        'h1,h2,h3,h4,h5,h6,input:not([type="hidden"]),select,textarea,button,summary,[role="button"],[data-testid="email-body"],[data-email-text]';
      const seen = (element: Element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
      const name = (element: Element) =>
        `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}> "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
      // With a modal dialog open, only the dialog is on top: what covers its content is inside it.
      const dialog = [...document.querySelectorAll('dialog[open]')].find((element) => element.matches(':modal'));
      const scope: ParentNode = dialog ?? document;
      const header = document.querySelector('[data-site-header]');
      const screenTop = dialog ? 0 : Math.max(0, header?.getBoundingClientRect().bottom ?? 0);
      const cta = document.querySelector('floating-cta');
      const ctaBox = cta && seen(cta) ? cta.getBoundingClientRect() : undefined;
      const bar = !dialog && !atEnd && ctaBox && ctaBox.width >= window.innerWidth && Math.round(ctaBox.bottom) >= window.innerHeight ? cta : undefined;
      const screenBottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
      const overlays = [...scope.querySelectorAll('*')].filter((element) => {
        // Decoration no one reads or uses (the 3-second confetti of a booking) is not in the way.
        if (element === header || element === bar || element === dialog || element.closest('[aria-hidden="true"]')) return false;
        const { position } = getComputedStyle(element);
        return (position === 'fixed' || position === 'sticky') && ((asShown && element.matches('floating-cta[data-covering]')) || seen(element));
      });
      const found: string[] = [];
      for (const overlay of overlays) {
        const o = overlay.getBoundingClientRect();
        if (o.width === 0 || o.height === 0) continue;
        for (const target of scope.querySelectorAll(MATTERS)) {
          if (overlay.contains(target) || target.contains(overlay) || !seen(target)) continue;
          const t = target.getBoundingClientRect();
          // Only what is on screen (below the header) can be covered.
          if (t.bottom <= screenTop || t.top >= screenBottom || t.width === 0) continue;
          const width = Math.min(o.right, t.right) - Math.max(o.left, t.left);
          const height = Math.min(o.bottom, t.bottom, screenBottom) - Math.max(o.top, t.top, screenTop);
          if (width > 1 && height > 1) found.push(`${name(overlay)} covers ${name(target)}`);
        }
      }
      return found;
    },
    { asShown, atEnd },
  );
}

/**
 * Waits until the page has settled after a scroll, for what is decided after it: the scroll's
 * frame drawn and the form's visibility observed (two frames), then the floating button's own
 * decision (src/lib/browser/frame/floating-cta.ts): it hides at once while something is under it and shows
 * again FLOATING_CTA_REVEAL_MS after the place under it is clear, fading in. It used to be a fixed
 * 450 ms after every scroll; now the reveal is waited for only where it would matter, that is
 * where the button, were it shown, would lie over something that matters, and the fade only while
 * one runs.
 */
export async function settle(page: Page): Promise<void> {
  const frames = () => twoFrames(page);
  await frames();
  if ((await coverings(page, { asShown: true })).some((found) => found.startsWith('<floating-cta>'))) {
    await page.evaluate(
      (wait) =>
        new Promise<void>((resolve) => {
          const button = document.querySelector('floating-cta')!;
          const observer = new MutationObserver(() => !button.hasAttribute('data-covering') && done());
          const timer = setTimeout(() => done(), wait);
          const done = () => (observer.disconnect(), clearTimeout(timer), resolve());
          observer.observe(button, { attributes: true, attributeFilter: ['data-covering'] });
        }),
      revealMs + 150,
    );
  }
  // The fades and slides of the moment (the button's 150 ms), not the endless ones; a second at
  // most, as animations advance only with the frames (see twoFrames).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]),
  );
  await frames();
}

/** At the top, a third of the way, two thirds and at the end of the page, each once it has settled. */
export async function expectNothingCoveredWhileScrolling(page: Page, label: string) {
  for (const share of [0, 0.35, 0.7, 1]) {
    await page.evaluate((fraction) => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) * fraction), share);
    await settle(page);
    expect(await coverings(page, { atEnd: share === 1 }), `${label}, scrolled to ${share * 100}%`).toEqual([]);
  }
}
