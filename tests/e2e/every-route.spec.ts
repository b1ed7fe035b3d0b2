/**
 * Every route, loaded once at the phone width and checked for all that a route must be, in one visit
 * (each used to be a load of its own in frame.spec.ts, a11y.spec.ts, covering.spec.ts and
 * bytes.spec.ts; the assertions are theirs, unchanged):
 * - it answers 200 with its title, its heading, a canonical link and "index, follow" (§1), and
 *   loads at most 25 KB of script (issue 31; tests/e2e/script-budget.ts); its head expects the
 *   picture it opens with exactly when it has one (issue 48);
 * - axe and HTML_CodeSniffer find nothing at 390 px, and it does not scroll sideways (WCAG 1.4.10);
 * - nothing fixed lies over what matters at 390 px, at its top or scrolled (issue 32.2; ./covering.ts);
 * - at 1280 px its main navigation and footer show, and, for one page of each kind (a section page
 *   in both languages, a form page, the FAQs, an article, the results), axe finds nothing there
 *   either (every route at 1280 px: a11y.spec.ts, in `npm run test:full`); the Spanish routes other
 *   than one of each kind have axe, HTML_CodeSniffer and the covering check in the full run only
 *   (`checkedWhole`, below);
 * - scrolled to its end, so that what loads on view runs too, it has logged no console error and
 *   no policy violation.
 */
import { firstScreenEnd, heroEnd, openingPicture } from '../../src/lib/build/first-paint';
import { expectNothingCoveredWhileScrolling } from './covering';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { watchErrors, watchRequests } from './helpers';
import { oneOfEachKind, routes } from './routes';
import { expectWithinScriptBudget, heldToScriptBudget, watchScripts } from './script-budget';
import { desktop, expectAccessible, pageWidth, phone, resizeTo } from './widths';

interface Visit {
  path: string;
  /** A route of the specification's table (./routes.ts): its frame is checked. */
  route?: (typeof routes)[number];
  /** Checked by axe and HTML_CodeSniffer (every route, the results with a query, the 404 page). */
  accessible: boolean;
  /** Checked for what lies over what matters (every route, the results, /your-data, the referral form). */
  covering: boolean;
}

/**
 * The Spanish routes share their English twins' layouts, frame and scripts: the gate (`npm test`)
 * checks axe, HTML_CodeSniffer and what lies over what matters on every English route and on these
 * Spanish ones (the home, the letter's page, the FAQs, a page that opens with a picture, the
 * results), and the full run (`npm run test:full`, E2E_FULL) on the other Spanish routes too; their
 * status, title, heading, frame and script budget are checked in both.
 */
const spanishInGate = new Set(['/es', '/es/lead-the-change', '/es/faqs', '/es/real-stories']);
const checkedWhole = (path: string) => process.env.E2E_FULL === '1' || !path.startsWith('/es') || spanishInGate.has(path);

/**
 * The routes whose first frame waits for no mark: the staff's page, and the form page, whose form is
 * chosen after the parser has read them all (any of its forms can be the one on screen).
 */
const firstScreenUnmarked = new Set(['/webhook-config', '/form']);

/** Where the page's largest paint lies against the marks its head expects: "before a mark", or what it is. */
function largestPaintAgainstMarks(page: Page): Promise<string> {
  return page.evaluate(
    (ids) =>
      new Promise<string>((resolve) => {
        setTimeout(() => resolve('no largest paint reported'), 3000);
        new PerformanceObserver((list) => {
          const { element } = list.getEntries().at(-1) as PerformanceEntry & { element: Element | null };
          if (!element) return resolve('a largest paint of an element no longer in the page');
          const marks = ids.map((id) => document.getElementById(id)).filter((mark) => mark !== null);
          const before = marks.some(
            (mark) => mark === element || mark.contains(element) || element.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING,
          );
          resolve(before ? 'before a mark' : `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 60)}" after ${marks.length} marks`);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
    [openingPicture, heroEnd, firstScreenEnd],
  );
}

const visits: Visit[] = [
  ...routes.map((route) => ({ path: route.path, route, accessible: checkedWhole(route.path), covering: checkedWhole(route.path) })),
  { path: '/search?q=mastery', accessible: true, covering: true },
  { path: '/es/search?q=matematicas', accessible: true, covering: false },
  { path: '/no-such-page', accessible: true, covering: false },
  { path: '/your-data', accessible: false, covering: true },
  { path: '/form?type=referSchool', accessible: false, covering: true },
];

test.describe('every route at 390 px, then 1280 px', () => {
  test.use({ viewport: phone });
  // The home page is the longest: both engines and the scroll through it take more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  for (const visit of visits) {
    const { path, route } = visit;
    const budget = route !== undefined && heldToScriptBudget(path);
    test(`${path}${route ? ': 200, its title, heading and frame' : ''}${budget ? ', at most 25 KB of script' : ''}${visit.accessible ? ', nothing for axe or HTML_CodeSniffer' : ''}${visit.covering ? ', nothing fixed over what matters' : ''}`, async ({
      page,
    }) => {
      const errors = watchErrors(page);
      const scripts = watchScripts(page);
      const requests = watchRequests(page);
      const response = await page.goto(path);
      if (route) {
        expect(response?.status()).toBe(200);
        await expect(page).toHaveTitle(/\S/);
        await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(route.heading);
        const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
        expect(canonical).toMatch(/^https?:\/\//);
        // §1: every route is 'index, follow' unless the host is a staging one (the e2e build is not).
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'index, follow');
        // The picture a page opens with and its head's expectation of it come together or not at all
        // (src/lib/build/first-paint.ts openingPicture): the page and its list each say it.
        // So do the home hero's card and the expectation of its end, and a page's mark of the end of
        // its first screen and the expectation of it.
        for (const [id, what] of [
          [openingPicture, 'the opening picture'],
          [heroEnd, "the hero card's end"],
          [firstScreenEnd, "the first screen's end"],
        ]) {
          const present = await page.locator(`#${id}`).count();
          await expect(page.locator(`head link[rel="expect"][blocking="render"][href="#${id}"]`), `the head expects ${what}`).toHaveCount(present);
        }
        // Its first frame holds its first screen (issue 48): the largest paint at 390 px is one of
        // those marks or lies before one, so the frame that waited for it drew the largest paint too.
        if (!firstScreenUnmarked.has(path))
          expect(await largestPaintAgainstMarks(page), 'the largest paint and the marks the head expects').toBe('before a mark');
      }
      // Issue 31, before any scrolling brings a form's enhancement (bytes.spec.ts).
      if (budget) await expectWithinScriptBudget(page, path, scripts);
      await page.waitForLoadState('networkidle');
      if (visit.accessible) {
        await expectAccessible(page, phone.width, { htmlcs: true });
        // WCAG 1.4.10 (reflow): nothing makes the page scroll sideways; wide tables scroll in their own region.
        expect(await pageWidth(page), `page width at ${phone.width} px`).toBeLessThanOrEqual(phone.width);
      }
      // The page's scripts have run (./fixtures.ts); its pictures have their size in the HTML and its
      // fonts are the system's, so nothing arriving later moves what is on screen.
      if (visit.covering) await expectNothingCoveredWhileScrolling(page, `${path} at ${phone.width} px`);

      await page.evaluate(() => window.scrollTo(0, 0));
      await resizeTo(page, desktop);
      if (route && route.path !== '/webhook-config') {
        await expect(page.getByRole('navigation', { name: route.navigation ?? 'Main' })).toBeVisible();
        await expect(page.getByRole('contentinfo')).toBeVisible();
      }
      if (oneOfEachKind.has(path)) {
        await expectAccessible(page, desktop.width, { htmlcs: false });
        expect(await pageWidth(page), `page width at ${desktop.width} px`).toBeLessThanOrEqual(desktop.width);
      }
      // Scrolled through, so that everything loaded on view (islands, forms) runs under the policy.
      await page.mouse.wheel(0, 30_000);
      // (waitForLoadState('networkidle') would answer at once: the page reached it after loading.)
      await requests.quiet();
      // A route's (the 404 page's own status is logged as a failed load).
      if (route) expect(errors).toEqual([]);
    });
  }
});
