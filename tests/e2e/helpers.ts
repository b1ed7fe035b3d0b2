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
