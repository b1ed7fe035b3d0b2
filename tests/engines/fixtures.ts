/**
 * The cross-engine `test`: the Playwright runner (the same server, fakes, workers and report as the
 * Chromium suite), but each test drives Firefox or WebKitGTK (./driver.ts), launched once per
 * worker. `site` is a fresh tab; `noScript` one that runs no script. After each test, any console
 * error, uncaught exception or policy violation the pages had fails it.
 */
import { test as base, expect, type TestInfo } from '@playwright/test';
import { launch, type Engine, type EngineName, type EnginePage } from './driver';

/** A failed test carries its tab's steps, so that a timeout names the step that never returned. */
async function attachStepsIfFailed(page: EnginePage, testInfo: TestInfo): Promise<void> {
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('engine steps', { body: page.steps().join('\n') });
}

export const test = base.extend<{ site: EnginePage; noScript: EnginePage }, { engineName: EngineName; engine: Engine }>({
  engineName: ['firefox', { option: true, scope: 'worker' }],
  engine: [
    async ({ engineName }, use) => {
      const engine = await launch(engineName);
      await use(engine);
      await engine.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  site: async ({ engine, baseURL }, use, testInfo) => {
    const page = await engine.newPage(baseURL!);
    await use(page);
    await attachStepsIfFailed(page, testInfo);
    const errors = await page.errors();
    await page.close();
    expect(errors, `console errors in ${engine.name}`).toEqual([]);
  },
  noScript: async ({ engine, baseURL }, use, testInfo) => {
    const page = await engine.newPage(baseURL!, { javaScript: false });
    await use(page);
    await attachStepsIfFailed(page, testInfo);
    await page.close();
  },
});

export { expect };

/** In-page: the text of the first element matching `selector` that a person can see, or null. */
export function seen(page: EnginePage, selector: string): Promise<string | null> {
  return page.evaluate((css: string) => {
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(css))) {
      const box = element.getBoundingClientRect();
      // checkVisibility: Firefox keeps a box for what a closed <details> hides (content-visibility).
      if (box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden' && element.checkVisibility?.() !== false)
        return element.innerText.trim();
    }
    return null;
  }, selector);
}

/**
 * A selector for the first visible element matching `css` whose accessible name (aria-label or
 * text) contains `name`, for a real click or typing; fails if there is none.
 */
export async function named(page: EnginePage, css: string, name: string): Promise<string> {
  let mark: string | null = null;
  await expect
    .poll(
      async () => {
        mark = await page.evaluate(
          (selector: string, wanted: string) => {
            const element = Array.from(document.querySelectorAll<HTMLElement>(selector)).find((candidate) => {
              const box = candidate.getBoundingClientRect();
              const label = candidate.getAttribute('aria-label') ?? candidate.innerText ?? '';
              return box.width > 0 && box.height > 0 && label.replace(/\s+/g, ' ').trim().includes(wanted);
            });
            if (!element) return null;
            const id = element.dataset.engineMark ?? String(Math.random()).slice(2);
            element.dataset.engineMark = id;
            return `[data-engine-mark="${id}"]`;
          },
          css,
          name,
        );
        return mark;
      },
      { message: `a visible ${css} named "${name}"` },
    )
    .not.toBeNull();
  return mark!;
}

/**
 * Types the email form in #email-form as a person does ("I will send it myself") and sends it. The
 * school's name and address only when given: a school's page fills them in itself.
 */
export async function sendEmailForm(page: EnginePage, parent: string, school?: { name: string; email: string }): Promise<void> {
  const form = '#email-form form[data-native-form]';
  const fields: Array<[string, string]> = [
    ['full_name', 'Ana Lopez'],
    ['email', parent],
    ['child_full_name', 'Maya Lopez'],
    ['child_grade', '5th grade'],
    ...(school
      ? ([
          ['school_name', school.name],
          ['school_contact_email', school.email],
        ] as Array<[string, string]>)
      : []),
    ['school_contact_name', 'Dr. Patel'],
  ];
  for (const [name, value] of fields) await page.type(`${form} [name="${name}"]`, value);
  await page.click(`${form} input[name="choose_how_to_send_your_email"][value="I will send it myself"]`);
  await page.click(`${form} [data-submit]`);
}
