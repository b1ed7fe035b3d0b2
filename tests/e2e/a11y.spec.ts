import { expect, test } from './fixtures';
import { routes } from './routes';
import { desktop, expectAccessible, pageWidth, phone, type Size } from './widths';

// Every route through axe and HTML_CodeSniffer at the phone width, where most parents read, in the
// gate (`npm test`). axe at the desktop width, where the header shows its row of links and the
// sections their grids, runs in the gate on one page of each kind (a section page in both
// languages, a form page, the FAQs, an article, the results) and on every route in the full run
// (`npm run test:full`, the `@full` tag): the pages of a kind share their layout and colours.
const checked = [...routes, { path: '/search?q=mastery' }, { path: '/es/search?q=matematicas' }, { path: '/no-such-page' }];
const desktopInGate = new Set(['/', '/es', '/lead-the-change', '/faqs', '/blogs-insights/why-two-hours-is-enough', '/search?q=mastery']);

for (const size of [phone, desktop] as Size[]) {
  const atPhone = size.width === phone.width;
  test.describe(atPhone ? 'axe and HTML_CodeSniffer at 390 px' : 'axe at 1280 px', () => {
    test.use({ viewport: size });
    // The home page is the longest: both engines take more than the default 30 s on a busy machine.
    test.describe.configure({ timeout: 120_000 });
    for (const route of checked) {
      test(`${route.path} has no violations at ${size.width} px`, atPhone || desktopInGate.has(route.path) ? {} : { tag: '@full' }, async ({ page }) => {
        await page.goto(route.path);
        await page.waitForLoadState('networkidle');
        // HTML_CodeSniffer's checks read the markup and the colours, which the two widths share, so it
        // runs at the phone width only.
        await expectAccessible(page, size.width, { htmlcs: atPhone });
        // WCAG 1.4.10 (reflow): nothing makes the page scroll sideways; wide tables scroll in their own region.
        expect(await pageWidth(page), `page width at ${size.width} px`).toBeLessThanOrEqual(size.width);
      });
    }
  });
}
