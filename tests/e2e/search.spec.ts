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
