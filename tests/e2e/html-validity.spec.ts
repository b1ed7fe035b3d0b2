/**
 * Every built page is valid HTML (html-validate with the rules in tests/html/config.mjs). It reads
 * dist/ when the test runs, after this suite's web server has built it (test files are loaded
 * before that, so the pages are listed in the test, not per test), and needs no browser.
 */
import { HtmlValidate, StaticConfigLoader } from 'html-validate';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlValidateConfig } from '../html/config.mjs';
import { expect, test } from './fixtures';

const dist = join(import.meta.dirname, '..', '..', 'dist');

test('every built page is valid HTML (html-validate)', async () => {
  const validator = new HtmlValidate(new StaticConfigLoader(htmlValidateConfig));
  // Pagefind's own files aside.
  const pages = (readdirSync(dist, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.html') && !file.startsWith('pagefind'))
    .sort();
  expect(pages.length).toBeGreaterThan(15);
  const problems: Record<string, string[]> = {};
  for (const file of pages) {
    const report = await validator.validateString(readFileSync(join(dist, file), 'utf8'), file);
    const messages = report.results.flatMap((result) =>
      result.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message} (${message.selector ?? ''})`),
    );
    if (messages.length) problems[file] = messages;
  }
  expect(problems).toEqual({});
});
