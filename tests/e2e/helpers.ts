import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Scrolls to every custom element matching `selector` and waits until it has wired itself up (`data-enhanced`). */
export async function enhanced(page: Page, selector: string): Promise<void> {
  const elements = page.locator(selector);
  await expect(elements.first()).toBeAttached();
  for (const element of await elements.all()) {
    await element.scrollIntoViewIfNeeded();
    await expect(element).toHaveAttribute('data-enhanced', 'true');
  }
}

/** The layout shifts the page has had so far (each a Layout Instability entry's value). */
export async function layoutShifts(page: Page): Promise<number[]> {
  return page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().map((entry) => (entry as PerformanceEntry & { value: number }).value))).observe({
          type: 'layout-shift',
          buffered: true,
        });
        // The observer reports buffered entries at once when there are any.
        setTimeout(() => resolve([]), 500);
      }),
  );
}
