/**
 * HTML_CodeSniffer, a second accessibility engine beside axe (the one pa11y runs by default). Its
 * script is evaluated in the page over DevTools, which the page's Content-Security-Policy does not
 * govern, so nothing about the site changes for it. Only errors count: its warnings and notices are
 * "check this by hand" prompts, not findings. Nothing is left out: a <noscript> is measured too
 * (its text is not drawn while scripts run, but the stock engine, as pa11y runs it, counts it), so
 * whatever holds text over a picture has a background colour of its own.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const htmlcsSource = readFileSync(createRequire(import.meta.url).resolve('html_codesniffer/build/HTMLCS.js'), 'utf8');

export interface HtmlcsError {
  code: string;
  message: string;
  element: string;
}

/** Runs the WCAG 2 AA sniffs on the page as it is now and returns the errors. */
export async function htmlcsErrors(page: Page): Promise<HtmlcsError[]> {
  await page.evaluate(htmlcsSource);
  return page.evaluate(
    () =>
      new Promise<HtmlcsError[]>((resolve, reject) => {
        const htmlcs = (window as unknown as { HTMLCS: HtmlcsApi }).HTMLCS;
        htmlcs.process(
          'WCAG2AA',
          document,
          () =>
            resolve(
              htmlcs
                .getMessages()
                .filter((message) => message.type === htmlcs.ERROR)
                .map((message) => ({
                  code: message.code,
                  message: message.msg,
                  element: message.element?.outerHTML?.slice(0, 160) ?? '',
                })),
            ),
          () => reject(new Error('HTML_CodeSniffer could not run')),
          'en',
        );
      }),
  );
}

interface HtmlcsApi {
  ERROR: number;
  process(standard: string, content: Document, done: () => void, failed: () => void, language: string): void;
  getMessages(): Array<{ type: number; code: string; msg: string; element?: Element }>;
}
