import { expect, test } from './fixtures';

test.describe('/blogs-insights', () => {
  test('lists every article with the count line, and a tag filter updates it', async ({ page, request, consoleErrors }) => {
    const { totalPosts } = await (await request.get('/api/hubspot-blogs')).json();
    await page.goto('/blogs-insights');
    await expect(page.getByRole('heading', { name: 'Latest Articles' })).toBeVisible();
    await expect(page.getByText(`Showing ${totalPosts} of ${totalPosts} articles`)).toBeVisible();
    const cards = page.locator('[data-blog-card]');
    await expect(cards).toHaveCount(totalPosts);
    const filter = page.getByRole('group', { name: 'Filter articles by tag' });
    const tag = filter.getByRole('button').nth(1);
    const name = (await tag.textContent())!.trim();
    await tag.click();
    await expect(tag).toHaveAttribute('aria-pressed', 'true');
    const shown = await page.locator('[data-blog-card]:visible').count();
    expect(shown).toBeLessThan(totalPosts);
    await expect(page.getByText(`Showing ${shown} of ${totalPosts} articles`)).toBeVisible();
    for (const card of await page.locator('[data-blog-card]:visible').all()) await expect(card).toContainText(name);
    await filter.getByRole('button', { name: 'All' }).click();
    await expect(page.getByText(`Showing ${totalPosts} of ${totalPosts} articles`)).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a card leads to its article; the subscribe call to action scrolls to the footer', async ({ page }) => {
    await page.goto('/blogs-insights');
    await page.getByRole('link', { name: /Subscribe/ }).click();
    await expect(page.locator('#newsletter')).toBeInViewport();
    await page.locator('[data-blog-card] h3 a').first().click();
    await expect(page).toHaveURL(/\/blogs-insights\/[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

test.describe('/blogs-insights/{slug}', () => {
  test('title, long US date, read time, content, tags, back link and Article data', async ({ page, request }) => {
    const post = await (await request.get('/api/hubspot-blog/what-mastery-really-means')).json();
    await page.goto('/blogs-insights/what-mastery-really-means');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
    await expect(page.locator('article time')).toHaveText('September 18, 2025');
    await expect(page.getByText(`${post.readTime} min read`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'The gap that compounds' })).toBeVisible();
    const tags = page.getByRole('list', { name: 'Tags' });
    for (const tag of post.tags) await expect(tags).toContainText(tag);
    await expect(page).toHaveTitle(new RegExp(post.title));
    const blocks = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));
    const article = blocks.find((block) => block['@type'] === 'Article');
    expect(article).toMatchObject({ headline: post.title, datePublished: post.publishedAt });
    await page.getByRole('link', { name: 'Back to Blog' }).last().click();
    await expect(page).toHaveURL(/\/blogs-insights$/);
  });

  test('Share copies the link and says so where the Web Share API is missing', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
    });
    await page.goto('/blogs-insights/why-two-hours-is-enough');
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByText('Link copied!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/blogs-insights\/why-two-hours-is-enough$/);
  });

  test('Share uses the Web Share API where the browser has it', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { shared: unknown[] }).shared = [];
      Object.defineProperty(Navigator.prototype, 'share', {
        value: async (data: unknown) => void (window as unknown as { shared: unknown[] }).shared.push(data),
        configurable: true,
      });
    });
    await page.goto('/blogs-insights/why-two-hours-is-enough');
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared: Array<{ url: string }> }).shared)).toHaveLength(1);
    const shared = await page.evaluate(() => (window as unknown as { shared: Array<{ url: string; title: string }> }).shared[0]);
    expect(shared?.url).toMatch(/\/blogs-insights\/why-two-hours-is-enough$/);
    await expect(page.getByText('Link copied!')).toHaveCount(0);
  });

  test('an unknown slug answers 404 with "Blog post not found" and a way back, in Spanish under /es', async ({ page }) => {
    const response = await page.goto('/blogs-insights/no-such-article');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog post not found');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blogs-insights$/);
    // A Spanish one: the Spanish "post not found", its way back the Spanish blog.
    expect((await page.goto('/es/blogs-insights/no-existe'))?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artículo no encontrado');
    await expect(page.getByRole('link', { name: 'Volver al blog' })).toHaveAttribute('href', '/es/blogs-insights');
  });

  test('the RSS feed lists the posts', async ({ request }) => {
    const { posts } = await (await request.get('/api/hubspot-blogs')).json();
    const feed = await request.get('/rss.xml');
    expect(feed.status()).toBe(200);
    const xml = await feed.text();
    expect(xml.match(/<item>/g)).toHaveLength(posts.length);
    expect(xml).toContain('/blogs-insights/why-two-hours-is-enough</link>');
  });
});

test('/es/blogs-insights at 390 px: the Spanish posts, the English ones below marked so, a post and its translation', async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/es/blogs-insights');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog y artículos');
  await expect(page.getByText('Mostrando 1 de 1 artículos')).toBeVisible();
  const english = page.locator('[data-blog-other]');
  await expect(english.getByRole('heading', { name: 'Más artículos en inglés' })).toBeVisible();
  await expect(english.locator('h3 a').first()).toHaveAttribute('hreflang', 'en');
  await page.getByRole('link', { name: /dos horas de concentración/ }).click();
  await expect(page).toHaveURL(/\/es\/blogs-insights\/why-two-hours-is-enough$/);
  await expect(page.getByText('2 de octubre de 2025')).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Read this site in English' }).click();
  await expect(page).toHaveURL(/\/blogs-insights\/why-two-hours-is-enough$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(consoleErrors).toEqual([]);
});
