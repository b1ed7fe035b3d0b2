/**
 * In Firefox and WebKitGTK (./driver.ts): every route renders its heading without console errors;
 * the narrow-screen menu; the search dialog and /search.
 */
import { routes } from '../e2e/routes';
import { expect, named, seen, test } from './fixtures';

/**
 * All in the full run (`npm run test:full`, the `@full` tag): the gate (`npm test`, at most 12
 * minutes on two cores) walks the parent's flows in Firefox and WebKitGTK (./email.spec.ts,
 * ./spanish.spec.ts, ./school.spec.ts's share link); what these add is the same pages' scripts and
 * the frame's controls in the other engines, which the gate proves in Chromium (every-route.spec.ts,
 * frame.spec.ts, search.spec.ts, first-paint.spec.ts). docs/testing.md, "The gate and the full run".
 */
const full = { tag: '@full' };

for (const { path, heading } of routes) {
  test(`${path} renders its heading without console errors`, full, async ({ site }) => {
    await site.goto(path);
    await expect.poll(() => seen(site, 'h1')).toMatch(heading);
    // Scrolled to the end, so that what loads near the viewport loads (and could fail) too.
    await site.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await site.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  });
}

test('the picture a page opens with, written into the page, is drawn (the policy allows it)', full, async ({ site }) => {
  await site.goto('/real-stories');
  const picture = () =>
    site.evaluate(() => {
      const img = document.querySelector<HTMLImageElement>('img#opening-picture');
      return img && { inline: img.src.startsWith('data:image/webp;base64,'), width: img.complete ? img.naturalWidth : 0 };
    });
  await expect.poll(picture).toEqual({ inline: true, width: 640 });
});

test('on a narrow screen the menu button opens the links, Escape closes them and focus returns', full, async ({ site }) => {
  await site.setWidth(390);
  await site.goto('/');
  expect(await site.evaluate(() => innerWidth)).toBeLessThan(1024);
  expect(await seen(site, '#site-menu a[href="/how-it-works"]')).toBeNull();
  const toggle = '[data-menu-toggle]';
  expect(await site.evaluate(() => (document.querySelector('#site-menu') as HTMLDetailsElement).open)).toBe(false);
  await site.click(toggle);
  await expect.poll(() => seen(site, '#site-menu a[href="/how-it-works"]')).toBe('How It Works');
  expect(await site.evaluate(() => (document.querySelector('#site-menu') as HTMLDetailsElement).open)).toBe(true);
  // A vertical list: FAQs is below How It Works, at the same left edge.
  const [a, b] = await site.evaluate(() =>
    ['/how-it-works', '/faqs'].map((href) => document.querySelector(`#site-menu a[href="${href}"]`)!.getBoundingClientRect().toJSON()),
  );
  expect(b.y).toBeGreaterThan(a.y);
  expect(Math.abs(b.x - a.x)).toBeLessThan(2);
  await site.press('Escape');
  await expect.poll(() => seen(site, '#site-menu a[href="/how-it-works"]')).toBeNull();
  expect(await site.evaluate(() => document.activeElement?.matches('[data-menu-toggle]'))).toBe(true);
  // A link of the menu goes where it says.
  await site.click(toggle);
  await site.click(await named(site, '#site-menu a', 'FAQs'));
  await expect.poll(() => site.path()).toBe('/faqs');
});

test('the search dialog opens focused, finds an FAQ and leads to it and to /search', full, async ({ site }) => {
  await site.goto('/how-it-works');
  // Until the page's script has wired it, the button submits the header's form to /search (the
  // page without JavaScript): a person clicking that early lands there, so wait for the wiring.
  await expect.poll(() => site.evaluate(() => document.querySelector('[data-search-open]')?.getAttribute('aria-haspopup'))).toBe('dialog');
  await site.click(await named(site, 'button', 'Search the site'));
  await expect.poll(() => site.evaluate(() => (document.querySelector('dialog#site-search') as HTMLDialogElement).open)).toBe(true);
  await expect.poll(() => site.evaluate(() => document.activeElement?.id)).toBe('site-search-input');
  await site.type('#site-search-input', 'mastery threshold');
  const result = 'dialog#site-search a[href="/faqs#what-is-the-mastery-threshold"]';
  await expect.poll(() => seen(site, result), { timeout: 15_000 }).toContain('What score counts as mastery?');
  expect(await seen(site, `${result} mark`)).toBeTruthy();
  await site.click(result);
  await expect.poll(() => site.path()).toBe('/faqs#what-is-the-mastery-threshold');
  await expect.poll(() => seen(site, 'details[data-faq]:has(#what-is-the-mastery-threshold) .rich-text')).toBeTruthy();

  // Escape closes it; "All results" opens /search for what was typed.
  await site.click(await named(site, 'button', 'Search the site'));
  await expect.poll(() => site.evaluate(() => (document.querySelector('dialog#site-search') as HTMLDialogElement).open)).toBe(true);
  await site.press('Escape');
  await expect.poll(() => site.evaluate(() => (document.querySelector('dialog#site-search') as HTMLDialogElement).open)).toBe(false);
  await site.click(await named(site, 'button', 'Search the site'));
  await site.type('#site-search-input', 'afternoons');
  await site.click(await named(site, 'dialog#site-search button', 'All results'));
  await expect.poll(() => site.path()).toBe('/search?q=afternoons');
  await expect.poll(() => seen(site, '[data-search-page-status]'), { timeout: 15_000 }).toMatch(/^Found \d+ results for "afternoons"$/);
  await expect.poll(() => seen(site, '[data-search-page-results] a')).toBeTruthy();
  expect(await seen(site, '[data-search-page-fallback]')).toBeNull();
});
