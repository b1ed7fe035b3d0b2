/**
 * Spanish, first step (issue 48, docs/spanish.md): the home and the frame at /es, the language
 * switch, hreflang, a Spanish 404 for unknown /es paths, and the quiet suggestion an English page
 * makes to a browser that reads Spanish first. axe and HTML_CodeSniffer check /es itself in
 * a11y.spec.ts (tests/e2e/routes.ts lists it); here, the pages only this feature makes.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { layoutShifts } from './helpers';
import { atEachSize, axeViolations, desktop, expectAccessible, phone } from './widths';

/** The page's scripts, which load after its first paint, have run (the suggestion's decision among them). */
async function scriptsRan(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ready');
  expect(await page.evaluate(() => Boolean(customElements.get('language-suggestion')))).toBe(true);
}

const alternates = (page: Page) =>
  page
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) => links.map((link) => `${link.getAttribute('hreflang')} ${new URL(link.getAttribute('href') ?? '').pathname}`));

test('/es is the home in Spanish: lang, headings, navigation, and hreflang both ways', async ({ page }) => {
  await page.goto('/es');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transforme el aprendizaje. Impulse a su hijo. Influya en su escuela.');
  await expect(page.getByRole('heading', { level: 2, name: 'Por qué las familias piden un cambio' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Blog y artículos' })).toHaveAttribute('href', '/es/blogs-insights');
  await expect(nav.getByRole('link', { name: 'Blog y artículos' })).not.toHaveAttribute('hreflang', 'en');
  await expect(page.getByRole('link', { name: 'Ir al contenido' })).toBeAttached();
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'es_US');
  expect(await alternates(page)).toEqual(['en /', 'es /es', 'x-default /']);

  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await alternates(page)).toEqual(['en /', 'es /es', 'x-default /']);
  // A page only English has names no alternates.
  await page.goto('/form');
  expect(await alternates(page)).toEqual([]);
});

test('the switch in the header goes from / to /es and back; the footer has one too', async ({ page }) => {
  await page.goto('/');
  const toSpanish = page.getByRole('banner').getByRole('link', { name: 'Leer este sitio en español' });
  await expect(toSpanish).toHaveAttribute('lang', 'es');
  await expect(toSpanish).toHaveAttribute('hreflang', 'es');
  // Seen: the language's own name; heard: the sentence (WCAG 2.5.3, the seen name is in it).
  await expect(toSpanish.locator('[aria-hidden="true"]')).toHaveText('Español');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Leer este sitio en español' })).toHaveAttribute('href', '/es');
  await toSpanish.click();
  await expect(page).toHaveURL(/\/es$/);

  const toEnglish = page.getByRole('banner').getByRole('link', { name: 'Read this site in English' });
  await expect(toEnglish).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Read this site in English' })).toHaveAttribute('href', '/');
  await toEnglish.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transform Learning. Empower your Child. Influence your school.');

  // A page Spanish does not have yet: its switch goes to the Spanish home.
  await page.goto('/form');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Leer este sitio en español' })).toHaveAttribute('href', '/es');
});

test('an unknown /es path is a Spanish 404, with status 404, that passes axe at 390 and 1280 px', async ({ page }) => {
  const response = await page.goto('/es/nope');
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404: página no encontrada');
  await expect(page.getByRole('link', { name: 'Ir a la página de inicio' })).toHaveAttribute('href', '/es');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await page.setViewportSize(phone);
  await atEachSize(page, [phone, desktop], ({ width }) => expectAccessible(page, width, { htmlcs: false }));
});

test.describe('a browser that reads Spanish first', () => {
  test.use({ locale: 'es-ES' });

  test('sees the suggestion on /, without a layout shift, accessible, and can dismiss it for good', async ({ page }) => {
    await page.goto('/');
    const suggestion = page.getByRole('complementary', { name: 'Idioma' });
    await expect(suggestion).toBeVisible();
    await expect(suggestion).toContainText('Esta página también está en español.');
    await expect(suggestion.getByRole('link', { name: 'Leer en español' })).toHaveAttribute('href', '/es');
    expect(await layoutShifts(page)).toEqual([]);
    await expect(page).toHaveURL(/\/$/);
    // axe on the suggestion itself at both widths (the rest of the home is a11y.spec.ts's; all of it
    // twice more took longer than a test may on a busy machine).
    await atEachSize(page, [phone, desktop], async ({ width }) => {
      expect(await axeViolations(page, { include: 'language-suggestion' }), `axe at ${width} px`).toEqual([]);
    });

    await suggestion.getByRole('button', { name: 'Cerrar' }).click();
    await expect(suggestion).toBeHidden();
    await page.reload();
    await scriptsRan(page);
    await expect(page.locator('language-suggestion')).toBeHidden();
  });

  test('sees it on an English school page, leading to that school’s Spanish page, without a layout shift', async ({ page, request }) => {
    // npm start's sample Oakwood Academy, a verified school.
    const { schools } = (await (await request.get('/api/school-suggestions?q=oakwood')).json()) as { schools: Array<{ key: string }> };
    const key = schools[0]!.key;
    await page.goto(`/schools/${key}`);
    const suggestion = page.getByRole('complementary', { name: 'Idioma' });
    await expect(suggestion).toBeVisible();
    const link = suggestion.getByRole('link', { name: 'Leer en español' });
    await expect(link).toHaveAttribute('href', new RegExp(`^/es/schools/(?:[a-z0-9-]+-)?${key}$`));
    expect(await layoutShifts(page)).toEqual([]);
    await link.click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page).toHaveURL(new RegExp(`/es/schools/(?:[a-z0-9-]+-)?${key}$`));
  });

  test('sees none where Spanish has no version of the page', async ({ page }) => {
    await page.goto('/form');
    await expect(page.locator('language-suggestion')).toHaveCount(0);
  });
});

test('an English browser sees no suggestion', async ({ page }) => {
  await page.goto('/');
  await scriptsRan(page);
  await expect(page.locator('language-suggestion')).toBeAttached();
  await expect(page.locator('language-suggestion')).toBeHidden();
});
