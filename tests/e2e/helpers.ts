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
