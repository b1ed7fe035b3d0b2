/**
 * "In their own words" (issue 22): the letters of content/letters go round per school, so two
 * parents writing to one school see different bodies; the answer to "What would this change for
 * your child?" stands in the letter right after the introduction; and /your-email, without
 * JavaScript, shows the parent's own letter.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.describe.configure({ timeout: 60_000 });

/** A school address nobody has written to: its rotation starts at the first letter. */
const uniqueSchool = () => `head-${Date.now()}-${Math.floor(Math.random() * 1e6)}@letters.example.org`;
const uniqueParent = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

/** The introductions of the first two letters, as Ana Lopez writing about Maya at Oakwood Academy reads them. */
const FIRST_INTRO = 'My name is Ana Lopez, and my child, Maya Lopez, is in 5th grade at Oakwood Academy.';
const SECOND_INTRO = 'I am Ana Lopez, a parent at Oakwood Academy; my child, Maya Lopez, is in 5th grade.';

const ANSWER = 'Maya would stop waiting for the class and finally get to go further in maths.';

async function fillEmailForm(page: Page, values: { parent: string; school: string; ownWords?: string }) {
  const form = page.locator('#email-form form[data-native-form]');
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(values.parent);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill('5th grade');
  await form.getByLabel(/^School name/).fill('Oakwood Academy');
  await form.getByLabel(/School contact name/).fill('Dr. Patel');
  await form.getByLabel(/School contact email/).fill(values.school);
  if (values.ownWords) await form.getByLabel('What would this change for your child?').fill(values.ownWords);
  await form.getByLabel("I'll send it myself").check();
}

/** One parent writes to `school` on /lead-the-change and reads the dialog's body. */
async function writeWithJavaScript(page: Page, values: { parent: string; school: string; ownWords?: string }): Promise<string> {
  await page.goto('/lead-the-change');
  await fillEmailForm(page, values);
  // A person takes more than a moment to fill the form.
  await page.waitForTimeout(2_500);
  await page.locator('#email-form [data-submit]').click();
  const box = page.getByRole('dialog', { name: 'Your Email is Ready' });
  await expect(box).toBeVisible({ timeout: 20_000 });
  await expect(box.getByTestId('email-body')).toContainText('Parent of Maya Lopez, 5th grade');
  return (await box.getByTestId('email-body').textContent()) ?? '';
}

async function withoutJavaScript<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    return await run(page);
  } finally {
    await context.close();
  }
}

// The full run's: which letter a parent gets is the server's choice (tests/unit/letters.test.ts, "two
// parents at one school get different letters…"); the dialog showing what the server composed is
// advocacy-crm.spec.ts's, in the gate.
test('two parents writing to one school see different letters in "Your Email is Ready"', { tag: '@full' }, async ({ page, browser, consoleErrors }) => {
  const school = uniqueSchool();
  const first = await writeWithJavaScript(page, { parent: uniqueParent('first'), school });
  expect(first).toContain(FIRST_INTRO);

  const other = await browser.newContext();
  const second = await other.newPage();
  try {
    // The same school, written as the school's own address in another case and with a +tag.
    const body = await writeWithJavaScript(second, { parent: uniqueParent('second'), school: school.replace('head-', 'Head-').replace('@', '+office@') });
    expect(body).toContain(SECOND_INTRO);
    expect(body).not.toContain(FIRST_INTRO);
    expect(body).not.toBe(first);
  } finally {
    await other.close();
  }
  expect(consoleErrors).toEqual([]);
});

test("the answer in the parent's own words stands in the letter right after the introduction, in the preview, the copy and the mail link", async ({
  page,
  context,
  consoleErrors,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const body = await writeWithJavaScript(page, { parent: uniqueParent('words'), school: uniqueSchool(), ownWords: ANSWER });
  const box = page.getByRole('dialog', { name: 'Your Email is Ready' });
  const text = (await box.getByTestId('email-body').innerText()).replace(/\r\n/g, '\n');
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) => paragraph.trim());
  expect(paragraphs[1]).toContain(FIRST_INTRO);
  expect(paragraphs[2]).toBe(ANSWER);
  expect(body).toContain(ANSWER);

  await box.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`${FIRST_INTRO}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(ANSWER);
  const mailto = await box.getByRole('link', { name: 'Open in my email app' }).getAttribute('href');
  expect(decodeURIComponent(mailto!)).toContain(ANSWER);
  expect(consoleErrors).toEqual([]);
});

test('an answer with a link is refused next to the question, before anything is sent', async ({ page }) => {
  await page.goto('/lead-the-change');
  await fillEmailForm(page, { parent: uniqueParent('link'), school: uniqueSchool(), ownWords: 'Read more at www.example.org' });
  await page.locator('#email-form [data-submit]').click();
  const field = page.locator('#email-form [data-field="_own_words"]');
  await expect(field.locator('[data-field-error]')).toHaveText(/Please leave links out of your answer/);
  await expect(field.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog', { name: 'Your Email is Ready' })).toHaveCount(0);
});

// The full run's: tests/unit/letters.test.ts ("/your-email without JavaScript shows the parent’s
// letter") and the gate's walks without JavaScript to /your-email (your-data.spec.ts, edit-details.spec.ts).
test('without JavaScript, /your-email shows each parent their own letter', { tag: '@full' }, async ({ browser }) => {
  const school = uniqueSchool();
  const read = () =>
    withoutJavaScript(browser, async (page) => {
      await page.goto('/lead-the-change');
      await fillEmailForm(page, { parent: uniqueParent('nojs'), school, ownWords: ANSWER });
      await page.locator('#email-form [data-submit]').click();
      await expect(page).toHaveURL(/\/your-email\?id=/, { timeout: 20_000 });
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your Email is Ready');
      const text = (await page.locator('[data-email-text]').textContent()) ?? '';
      const mailto = await page.getByRole('link', { name: 'Open in my email app' }).getAttribute('href');
      return { text, mailto: decodeURIComponent(mailto!) };
    });
  const first = await read();
  const second = await read();
  expect(first.text).toContain(FIRST_INTRO);
  expect(second.text).toContain(SECOND_INTRO);
  expect(second.text).not.toContain(FIRST_INTRO);
  for (const { text, mailto } of [first, second]) {
    expect(text).toContain(`\n\n${ANSWER}\n\n`);
    expect(mailto).toContain(ANSWER);
  }
  // The mail link carries the same letter as the page.
  expect(second.mailto).toContain(SECOND_INTRO);
});
