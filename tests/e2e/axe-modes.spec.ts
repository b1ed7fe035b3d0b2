import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { axeMode, axeViolations } from './widths';

// axeViolations checks a page without frames with axe.run in the page, not @axe-core/playwright's
// default (each frame apart, joined in a blank page): a quarter of the CPU. This proves the cheaper
// way finds what the default finds, and that a page with a frame still gets the default. The pages are made up here (routed, nothing is fetched): each has a picture without a
// text alternative and grey text on white.

const broken = `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#bbb;background:#fff">Hard to read</p>`;

const page = (body: string) => `<!doctype html><html lang="en"><head><title>Axe modes</title></head><body><main><h1>Axe modes</h1>${body}</main></body></html>`;

async function serve(tab: Page): Promise<void> {
  await tab.route('http://axe-home.test/**', (route) => {
    const { pathname } = new URL(route.request().url());
    const body =
      pathname === '/inner' ? page(broken) : pathname === '/no-frame' ? page(broken) : page(`${broken}<iframe title="Our own frame" src="/inner"></iframe>`);
    return route.fulfill({ contentType: 'text/html', body });
  });
}

/** The default way, as @axe-core/playwright runs it when not told otherwise. */
async function defaultWay(tab: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page: tab }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe in the page finds what the default way finds', async ({ page: tab }) => {
  await serve(tab);
  await tab.goto('http://axe-home.test/no-frame');
  expect(axeMode(tab)).toBe('in-page');
  const found = await axeViolations(tab);
  expect(found).toEqual(['color-contrast: p', 'image-alt: img']);
  expect(found).toEqual(await defaultWay(tab));
});

test('a page with a frame is checked the default way', async ({ page: tab }) => {
  await serve(tab);
  await tab.goto('http://axe-home.test/');
  await expect(tab.frameLocator('iframe').locator('p')).toBeVisible();
  expect(axeMode(tab)).toBe('per-frame');
});
