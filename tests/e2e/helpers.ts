import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Waits until every island holding `selector` has hydrated (Astro drops its `ssr` attribute). */
export async function hydrated(page: Page, selector: string): Promise<void> {
  const islands = page.locator(`astro-island:has(${selector})`);
  await expect(islands.first()).toBeAttached();
  for (const island of await islands.all()) {
    await island.scrollIntoViewIfNeeded();
    await expect(island).not.toHaveAttribute('ssr', /.*/);
  }
}

/** Waits until every custom element matching `selector` has wired itself up (`data-enhanced`). */
export async function enhanced(page: Page, selector: string): Promise<void> {
  const elements = page.locator(selector);
  await expect(elements.first()).toBeAttached();
  for (const element of await elements.all()) await expect(element).toHaveAttribute('data-enhanced', 'true');
}
