import { expect, test } from './fixtures';

test.describe('site search', () => {
  test('loads nothing until opened, then finds an FAQ and opens it', async ({ page, consoleErrors }) => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto('/how-it-works');
    await page.waitForLoadState('networkidle');
    expect(requests.filter((path) => path.startsWith('/pagefind/'))).toEqual([]);

    await page.getByRole('button', { name: 'Search the site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the site' });
    await expect(dialog).toBeVisible();
    const box = dialog.getByRole('searchbox');
    await expect(box).toBeFocused();
    await box.fill('mastery threshold');
    const result = dialog.getByRole('link', { name: /What score counts as mastery\?/ });
    await expect(result).toBeVisible();
    await expect(result).toHaveAttribute('href', '/faqs#what-is-the-mastery-threshold');
    await expect(result.locator('mark').first()).toBeVisible();
    expect(requests.some((path) => path === '/pagefind/pagefind.js')).toBe(true);
    await result.click();
    await expect(page).toHaveURL(/\/faqs#what-is-the-mastery-threshold$/);
    await expect(page.locator('details[data-faq]:has(#what-is-the-mastery-threshold) .rich-text')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('finds blog posts with titles and excerpts', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Search the site' }).click();
    await page.getByRole('dialog', { name: 'Search the site' }).getByRole('searchbox').fill('afternoons');
    const links = page.getByRole('dialog').getByRole('link');
    await expect(links.filter({ hasText: 'What students do with their afternoons' }).first()).toBeVisible();
    await expect(page.getByRole('dialog').locator('[data-search-status]')).toHaveText(/^Found \d+ results for "afternoons"$/);
  });

  test('"/" and Ctrl+K open it, Escape closes it and focus returns', async ({ page }) => {
    await page.goto('/faqs');
    const dialog = page.getByRole('dialog', { name: 'Search the site' });
    await page.keyboard.press('/');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.keyboard.press('Control+k');
    await expect(dialog).toBeVisible();
    await page.keyboard.type('zzqxj');
    await expect(dialog.locator('[data-search-status]')).toHaveText('No results found for "zzqxj"');
    await page.keyboard.press('Escape');
    // Typing "/" inside a field types it, it does not open the search.
    const faqBox = page.getByRole('searchbox', { name: 'Search FAQs', exact: true });
    await faqBox.fill('');
    await faqBox.press('/');
    await expect(dialog).toBeHidden();
    await expect(faqBox).toHaveValue('/');
  });

  test('is reachable from the header on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Search the site' }).click();
    await expect(page.getByRole('dialog', { name: 'Search the site' })).toBeVisible();
  });
});

test.describe('search without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the header form goes to /search, which says why and lists the sections', async ({ page }) => {
    await page.goto('/how-it-works');
    const form = page.getByRole('search', { name: 'Site' });
    await form.getByRole('searchbox', { name: 'Search FAQs, articles and pages' }).fill('mastery');
    await form.getByRole('button', { name: 'Search the site' }).click();
    await expect(page).toHaveURL(/\/search\?q=mastery$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
    await expect(page.getByText('Search needs JavaScript, which is turned off in this browser.')).toBeVisible();
    const sections = page.locator('[data-search-page-fallback]').getByRole('link');
    await expect(sections.filter({ hasText: 'FAQs' })).toHaveAttribute('href', '/faqs');
    expect(await sections.count()).toBeGreaterThanOrEqual(9);
    // A form that could not search is not offered.
    await expect(page.getByRole('search', { name: 'Search page' })).toBeHidden();
    // No button that needs JavaScript is left to do nothing.
    await expect(page.locator('[data-menu-toggle]')).toBeHidden();
  });

  test('the FAQ search submits to /faqs?q= and says every question is listed', async ({ page }) => {
    await page.goto('/faqs');
    await page.getByRole('searchbox', { name: 'Search FAQs', exact: true }).fill('mastery');
    await page.getByRole('search', { name: 'FAQs' }).getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/faqs\?q=mastery$/);
    await expect(page.getByText(/Searching the questions needs JavaScript.*All 44 questions are below/)).toBeVisible();
    await expect(page.locator('[data-faq]')).toHaveCount(44);
  });
});

test.describe('the /search page', () => {
  test('lists results for ?q= from the same index, and the dialog leads to it', async ({ page, consoleErrors }) => {
    await page.goto('/search?q=mastery+threshold');
    await expect(page.getByRole('searchbox', { name: 'Search FAQs, articles and pages' }).last()).toHaveValue('mastery threshold');
    await expect(page.locator('[data-search-page-status]')).toHaveText(/^Found \d+ results for "mastery threshold"$/);
    const result = page.locator('[data-search-page-results]').getByRole('link', { name: /What score counts as mastery\?/ });
    await expect(result).toHaveAttribute('href', '/faqs#what-is-the-mastery-threshold');
    await expect(page.getByText('Search needs JavaScript')).toBeHidden();
    await expect(page.locator('[data-search-page-fallback]')).toBeHidden();

    // "All results" in the dialog opens this page for what was typed.
    await page.goto('/faqs');
    await page.getByRole('button', { name: 'Search the site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the site' });
    await dialog.getByRole('searchbox').fill('afternoons');
    await dialog.getByRole('button', { name: 'All results' }).click();
    await expect(page).toHaveURL(/\/search\?q=afternoons$/);
    await expect(page.locator('[data-search-page-results]').getByRole('link').first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  const long = 'mastery '.repeat(250);
  for (const [name, query, shown] of [
    ['nothing', '', null],
    ['blanks', '   ', null],
    ['markup', '<img src=x onerror="window.__searchPwned=1"><script>window.__searchPwned=1</script>', '<img src=x onerror="window.__searchPwned=1"><script>window.__searchPwned=1</script>'],
    ['2,000 characters', long, long.trim().slice(0, 200).trim()],
  ] as const) {
    test(`a query of ${name} gives a clear page, shown as text only`, async ({ page, consoleErrors }) => {
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs++;
        void dialog.dismiss();
      });
      const response = await page.goto(`/search?q=${encodeURIComponent(query)}`);
      expect(response?.status()).toBe(200);
      const status = page.locator('[data-search-page-status]');
      if (shown === null) {
        await expect(status).toHaveText('Type a word or two to search the FAQs, articles and pages.');
        await expect(page.locator('[data-search-page-fallback]').getByRole('link', { name: 'FAQs' })).toBeVisible();
      } else {
        await expect(status).toHaveText(/^(Found \d+ results|No results found) for "/);
        await expect(status).toContainText(`for "${shown}"`);
      }
      expect(await page.evaluate(() => (window as unknown as { __searchPwned?: number }).__searchPwned)).toBeUndefined();
      await expect(page.locator('[data-search-page-status] img, [data-search-page-status] script')).toHaveCount(0);
      expect(dialogs).toBe(0);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test('/faqs?q= fills in the FAQ search and filters', async ({ page }) => {
  await page.goto('/faqs?q=mastery%20threshold');
  await expect(page.getByRole('searchbox', { name: 'Search FAQs', exact: true })).toHaveValue('mastery threshold');
  await expect(page.locator('[data-faq-status]')).toHaveText(/^Found \d+ results$/);
  await expect(page.locator('[data-faq]:visible')).not.toHaveCount(44);
});
