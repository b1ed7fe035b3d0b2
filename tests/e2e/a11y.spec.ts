import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { htmlcsErrors } from './htmlcs';
import { routes } from './routes';

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`${viewport.width === 390 ? 'axe and HTML_CodeSniffer' : 'axe'} at ${viewport.width} px`, () => {
    test.use({ viewport });
    // The home page is the longest: both engines over it take more than the default 30 s on a busy machine.
    test.describe.configure({ timeout: 90_000 });
    for (const route of [...routes, { path: '/search?q=mastery' }, { path: '/no-such-page' }]) {
      test(`${route.path} has no violations`, async ({ page }) => {
        await page.goto(route.path);
        await page.waitForLoadState('networkidle');
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(summary, 'axe').toEqual([]);
        // WCAG 2 AA as pa11y checks it by default: errors only. Its checks read the markup and the colours,
        // which the two widths share, so it runs at the phone width only (axe runs at both).
        if (viewport.width === 390) {
          const errors = (await htmlcsErrors(page)).map((e) => `${e.code}: ${e.element}`);
          expect(errors, 'HTML_CodeSniffer').toEqual([]);
        }
        // WCAG 1.4.10 (reflow): nothing makes the page scroll sideways; wide tables scroll in their own region.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page width').toBeLessThanOrEqual(viewport.width);
      });
    }
  });
}
