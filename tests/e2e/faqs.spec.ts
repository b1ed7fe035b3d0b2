import { expect, test } from './fixtures';

const categories = [
  ['How It Works', 11],
  ['Personalization, Curriculum & Academic Progress', 13],
  ['Support, Motivation & Student Experience', 9],
  ['Outcomes, Readiness & Research', 6],
  ['Advocacy & Getting Involved', 5],
] as const;

test.describe('/faqs', () => {
  test('hero badge, buttons and the five categories with their counts', async ({ page, consoleErrors }) => {
    await page.goto('/faqs');
    await expect(page.getByText('44 Questions Answered')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse FAQs' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ask a Question' })).toBeVisible();
    const summaries = page.locator('[data-faq-category] > summary');
    await expect(summaries).toHaveCount(5);
    for (const [index, [name, count]] of categories.entries()) {
      const summary = summaries.nth(index);
      await expect(summary.getByRole('heading', { level: 2 })).toHaveText(name);
      await expect(summary).toContainText(`${count} questions`);
      const questions = page.locator('[data-faq-category]').nth(index).locator('[data-faq]');
      await expect(questions).toHaveCount(count);
      await expect(questions.first()).toBeHidden();
      await summary.click();
      await expect(questions.first()).toBeVisible();
    }
    // A question opens to its answer.
    const first = page.locator('[data-faq]').first();
    await first.locator('summary').click();
    await expect(first.locator('.rich-text')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  for (const [query, expected] of [
    ['90%', /^Found \d+ results$/],
    ['MASTERY', /^Found \d+ results$/],
    ['quantum physics', /^No results found for "quantum physics"$/],
  ] as const) {
    test(`searching "${query}" filters questions and answers`, async ({ page }) => {
      await page.goto('/faqs');
      const box = page.getByRole('searchbox', { name: 'Search FAQs', exact: true });
      await expect(box).toHaveAttribute('placeholder', 'Search FAQs...');
      await box.fill(query);
      const status = page.locator('[data-faq-status]');
      await expect(status).toHaveText(expected);
      const visible = page.locator('[data-faq]:visible');
      const count = await visible.count();
      const reported = Number((await status.textContent())?.match(/\d+/)?.[0] ?? 0);
      if (/No results/.test(String(expected))) expect(count).toBe(0);
      else {
        expect(count).toBe(reported);
        expect(count).toBeGreaterThan(0);
        for (const text of await visible.allTextContents()) expect(text.toLowerCase()).toContain(query.toLowerCase());
      }
    });
  }

  test('case does not matter, and a blank query shows everything again', async ({ page }) => {
    await page.goto('/faqs');
    const box = page.getByRole('searchbox', { name: 'Search FAQs', exact: true });
    await box.fill('mastery');
    const lower = await page.locator('[data-faq-status]').textContent();
    await box.fill('MaStErY');
    await expect(page.locator('[data-faq-status]')).toHaveText(lower!);
    // "SAT 1470+" is only in answers.
    await box.fill('1470+');
    await expect(page.locator('[data-faq]:visible').first().locator('.rich-text')).toContainText('1470+');
    await box.fill('   ');
    await expect(page.locator('[data-faq-status]')).toHaveText('');
    await expect(page.locator('[data-faq-category]:visible')).toHaveCount(5);
    await expect(page.locator('[data-faq][hidden]')).toHaveCount(0);
  });

  test('every question has an anchor that opens it', async ({ page }) => {
    await page.goto('/faqs#what-is-the-mastery-threshold');
    const heading = page.getByRole('heading', { name: 'What score counts as mastery?' });
    await expect(heading).toBeInViewport();
    await expect(page.locator('details[data-faq]:has(#what-is-the-mastery-threshold) .rich-text')).toContainText('90%');
    // In-page navigation to another question's anchor opens that one too.
    await page.evaluate(() => (location.hash = '#how-fast-can-a-grade-be-finished'));
    await expect(page.locator('details[data-faq]:has(#how-fast-can-a-grade-be-finished) .rich-text')).toContainText('80-90 days');
  });

  test('"Ask a Question" scrolls to the embedded contact form', async ({ page }) => {
    await page.goto('/faqs');
    await page.getByRole('link', { name: 'Ask a Question' }).click();
    await expect(page.locator('#ask-a-question native-form[data-purpose="contact"]')).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'Browse FAQs' }).click();
    await expect(page.getByRole('searchbox', { name: 'Search FAQs', exact: true })).toBeInViewport();
  });

  test('FAQPage structured data lists all 44 questions with answers', async ({ page }) => {
    await page.goto('/faqs');
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const faq = blocks.map((text) => JSON.parse(text)).find((block) => block['@type'] === 'FAQPage');
    expect(faq.mainEntity).toHaveLength(44);
    const threshold = faq.mainEntity.find((q: { name: string }) => q.name === 'What score counts as mastery?');
    expect(threshold.acceptedAnswer.text).toMatch(/usually 90%/);
    expect(threshold.acceptedAnswer.text).not.toMatch(/\*\*/);
  });

  test('without JavaScript every answer is in the page and an anchor still reaches its question', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/faqs');
    await expect(page.locator('[data-faq]')).toHaveCount(44);
    expect(await page.locator('[data-faq] .rich-text').allTextContents()).toHaveLength(44);
    await expect(page.locator('[data-faq] .rich-text').filter({ hasText: 'three times a year' }).first()).toBeAttached();
    await page.goto('/faqs#why-25-minute-blocks');
    await expect(page.getByRole('heading', { name: 'Why 25-minute blocks with 5-minute breaks?' })).toBeVisible();
    await context.close();
  });
});
