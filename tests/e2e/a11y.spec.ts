import { expect, test } from './fixtures';
import { routes } from './routes';
import { atEachSize, desktop, expectAccessible, pageWidth, phone } from './widths';

// Each page is loaded once, at the phone width, checked, then resized to the desktop width and
// checked again (tests/e2e/widths.ts).
test.describe('axe and HTML_CodeSniffer at 390 px, axe at 1280 px', () => {
  test.use({ viewport: phone });
  // The home page is the longest: both engines at both widths take more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 120_000 });
  for (const route of [...routes, { path: '/search?q=mastery' }, { path: '/es/search?q=matematicas' }, { path: '/no-such-page' }]) {
    test(`${route.path} has no violations at 390 and 1280 px`, async ({ page }) => {
      await page.goto(route.path);
      await page.waitForLoadState('networkidle');
      await atEachSize(page, [phone, desktop], async ({ width }) => {
        // HTML_CodeSniffer's checks read the markup and the colours, which the two widths share, so it
        // runs at the phone width only (axe runs at both).
        await expectAccessible(page, width, { htmlcs: width === phone.width });
        // WCAG 1.4.10 (reflow): nothing makes the page scroll sideways; wide tables scroll in their own region.
        expect(await pageWidth(page), `page width at ${width} px`).toBeLessThanOrEqual(width);
      });
    });
  }
});
