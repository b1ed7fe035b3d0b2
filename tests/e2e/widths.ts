/**
 * Checking a page at the phone width and the desktop width without loading it (and signing in,
 * and making its data) twice: the page is loaded once, checked, resized, and checked again. The
 * site's CSS is responsive and its scripts follow a resize (the header's matchMedia listener closes
 * the phone menu, the floating button listens to `resize`; nothing reads the width only at load),
 * so a page resized to a width is laid out as one loaded at that width.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type axe from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from './fixtures';
import { htmlcsErrors } from './htmlcs';

/** axe-core as its package builds it for browsers, minified (AxeBuilder evaluates the unminified source, 1.3 MB). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Size {
  width: number;
  height: number;
}

export const phone: Size = { width: 390, height: 844 };
export const desktop: Size = { width: 1280, height: 800 };

/** WCAG 2.1 A and AA. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** WCAG 2.1 A and AA and axe's best practices: what the suite's axe checks ask for. */
export const axeTags = [...wcagTags, 'best-practice'];

export interface AxeOptions {
  /** The rules' tags: axeTags (WCAG 2.1 A and AA and best practices) unless said. */
  tags?: string[];
  /** Only these parts of the page (CSS selectors), as AxeBuilder's include. */
  include?: string | string[];
}

/**
 * axe's violations on the page as it is now, one line each: the rule, then the elements.
 *
 * A page without frames is checked by `axe.run` in the page. @axe-core/playwright's default runs
 * each frame's part apart and joins them in a blank page it opens for the purpose, which only
 * frames need: on the home page that took 7 to 12 CPU seconds a check against 2 to 2.5 in the page,
 * for the same findings (tests/e2e/axe-modes.spec.ts). A page with a frame keeps the default, which
 * reaches into frames more surely than axe.run's messages to them.
 *
 * In the page, axe is put in once per document, minified (580 KB; AxeBuilder evaluates its 1.3 MB
 * source again at every check), and only violations are reported in full (`resultTypes`: the
 * passing elements are not each given a selector, which the result here never reads): a check of
 * the home page at 390 px took 0.45 s instead of 1.7-2.2 s, FAQs 0.33 s instead of 1.3-1.6 s, with
 * the same violations.
 */
export async function axeViolations(page: Page, { tags = axeTags, include }: AxeOptions = {}): Promise<string[]> {
  const options = { runOnly: { type: 'tag' as const, values: tags }, resultTypes: ['violations' as const] };
  if (axeMode(page) === 'per-frame') {
    let builder = new AxeBuilder({ page }).withTags(tags).options(options);
    if (include) builder = builder.include(include);
    const results = await builder.analyze();
    return results.violations.map(describeViolation);
  }
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async ({ include, options }) => {
      const run = (window as unknown as { axe: typeof axe }).axe;
      const results = await run.run(include === undefined ? document : { include: [include] }, options);
      return results.violations.map(({ id, nodes }) => ({ id, nodes: nodes.map(({ target }) => ({ target })) }));
    },
    { include, options },
  );
  return violations.map(describeViolation);
}

/** A violation as one line: the rule, then the elements (each by its selector). */
function describeViolation({ id, nodes }: { id: string; nodes: { target: axe.UnlabelledFrameSelector }[] }): string {
  return `${id}: ${nodes.map((n) => n.target.join(' ')).join(', ')}`;
}

/** How axeViolations checks the page: in the page when it has no frames, else frame by frame. */
export function axeMode(page: Page): 'in-page' | 'per-frame' {
  return page.frames().length === 1 ? 'in-page' : 'per-frame';
}

/**
 * Expects axe (WCAG 2.1 A and AA and best practices) and, with `htmlcs`, HTML_CodeSniffer (WCAG 2
 * AA errors, as pa11y checks by default) to find nothing on the page as it is now, at `width`.
 */
export async function expectAccessible(page: Page, width: number, { htmlcs }: { htmlcs: boolean }): Promise<void> {
  expect(await axeViolations(page), `axe at ${width} px`).toEqual([]);
  if (htmlcs)
    expect(
      (await htmlcsErrors(page)).map((e) => `${e.code}: ${e.element}`),
      `HTML_CodeSniffer at ${width} px`,
    ).toEqual([]);
}

/** The page's width; more than the viewport's means the page scrolls sideways (WCAG 1.4.10, reflow). */
export function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Waits until no animation or transition that ends is running (colours mid-transition are not what anyone reads). */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
  );
}

/**
 * Resizes the viewport and waits until the page has laid itself out at the new size: the window
 * has the new width, two frames have been drawn since (the resize and media-query listeners have
 * run, and the layout they caused is on screen), and the transitions a changed media query
 * started have ended.
 */
export async function resizeTo(page: Page, size: Size): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  await twoFrames(page);
  await animationsDone(page);
}

/**
 * Waits for two frames to be drawn, or half a second should the browser draw none: the headless
 * shell once stopped issuing frames to a page after a resize and a scroll, and a wait on
 * requestAnimationFrame alone then held its test until the five-minute timeout. What a test checks
 * next reads the layout, which the browser brings up to date when asked, frames or not.
 */
export function twoFrames(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        requestAnimationFrame(() => requestAnimationFrame(() => (clearTimeout(timer), resolve())));
      }),
  );
}

/**
 * Runs `check` on the page as it is at each of `sizes`, resizing (not reloading) between them;
 * the viewport's present size, if it is one of them, goes first, so that no resize is wasted.
 */
export async function atEachSize(page: Page, sizes: Size[], check: (size: Size) => Promise<void>): Promise<void> {
  const now = page.viewportSize();
  const isNow = (size: Size) => now !== null && size.width === now.width && size.height === now.height;
  for (const size of [...sizes.filter(isNow), ...sizes.filter((size) => !isNow(size))]) {
    const current = page.viewportSize();
    if (!current || current.width !== size.width || current.height !== size.height) await resizeTo(page, size);
    await check(size);
  }
}
