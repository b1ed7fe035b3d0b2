/**
 * HTML_CodeSniffer, a second accessibility engine beside axe (the one pa11y runs by default). Its
 * script is evaluated in the page over DevTools, which the page's Content-Security-Policy does not
 * govern, so nothing about the site changes for it. Only errors count: its warnings and notices are
 * "check this by hand" prompts, not findings.
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
                // A <noscript>'s content is text the browser does not draw while scripts run (as
                // here); HTML_CodeSniffer still measures its contrast. Pages without JavaScript have
                // their own checks.
                .filter((message) => !message.element?.closest('noscript'))
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
