import { expect, test } from './fixtures';
import { routes } from './routes';
import { desktop, expectAccessible, pageWidth } from './widths';

// axe at the desktop width on every route, in the full run (`npm run test:full`, the `@full` tag).
// In the gate (`npm test`) every-route.spec.ts checks every route with axe and HTML_CodeSniffer at
// 390 px, and with axe at 1280 px one page of each kind (a section page in both languages, a form
// page, the FAQs, an article, the results), in the same load: the pages of a kind share their
// layout and colours.
const checked = [...routes, { path: '/search?q=mastery' }, { path: '/es/search?q=matematicas' }, { path: '/no-such-page' }];

test.describe('axe at 1280 px', () => {
  test.use({ viewport: desktop });
  test.describe.configure({ timeout: 120_000 });
  for (const route of checked) {
    test(`${route.path} has no violations at ${desktop.width} px`, { tag: '@full' }, async ({ page }) => {
      await page.goto(route.path);
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, desktop.width, { htmlcs: false });
      // WCAG 1.4.10 (reflow): nothing makes the page scroll sideways; wide tables scroll in their own region.
      expect(await pageWidth(page), `page width at ${desktop.width} px`).toBeLessThanOrEqual(desktop.width);
    });
  }
});
