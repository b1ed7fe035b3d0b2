/**
 * Events and resources in Spanish (issue 48, docs/spanish.md), at 390 px: the webinar sign-up on
 * /es/events-webinars says its problems in Spanish, naming the fields as labelled, and a Spanish
 * sign-up leads to /es/webinar-thank-you, with JavaScript and without; the resources form, where
 * /es/resources' toolkit card leads, says its problems in Spanish. axe, HTML_CodeSniffer, the frame
 * and the script budget check the pages through tests/e2e/routes.ts.
 */
import { expect, test } from './fixtures';
import { phone } from './widths';

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(phone);
});

test('/es/events-webinars: the recordings in Spanish, the sign-up’s problems in Spanish, then the Spanish thank-you page', async ({ page }) => {
  await page.goto('/es/events-webinars');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Eventos y seminarios web');
  // The page's scripts have run (they come after the first paint): the player opens, the form answers in place.
  await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ready');
  const recordings = page.getByRole('list', { name: 'Seminarios web grabados' });
  // The titles as recorded, in English and marked so; the day and views in Spanish.
  await expect(recordings.locator('[lang="en"]').first()).toHaveText(/From Busy to Brilliant/);
  await expect(recordings.getByText('25 sept 2025')).toBeVisible();
  await expect(recordings.getByText('2,3 mil visualizaciones').first()).toBeVisible();
  // The player: its words in Spanish, the recording's title marked English.
  await recordings.getByRole('button', { name: /From Busy to Brilliant/ }).click();
  const player = page.getByRole('dialog', { name: /From Busy to Brilliant/ });
  await expect(player.locator('[data-dialog-title]')).toHaveAttribute('lang', 'en');
  await expect(player.getByRole('link', { name: 'Descargar' })).toBeVisible();
  await player.getByRole('button', { name: 'Cerrar el diálogo' }).click();
  await expect(player).toBeHidden();

  const region = page.locator('#join-the-conversation native-form');
  await expect(region.locator('[lang="en"]')).toHaveCount(0);
  await region.getByRole('button', { name: 'Reservar mi lugar' }).click();
  await expect(region.locator('[data-form-summary]')).toHaveText('Por favor, revise estos campos: Nombre, Correo electrónico.');
  const name = region.getByRole('textbox', { name: /^Nombre/ });
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();

  await name.fill('Ana');
  await region.getByRole('textbox', { name: /^Correo electrónico/ }).fill(`ana-${Date.now()}@example.org`);
  await region.getByRole('checkbox', { name: /^Me gustaría llevar este modelo/ }).check();
  await region.getByRole('button', { name: 'Reservar mi lugar' }).click();
  await expect(page).toHaveURL(/\/es\/webinar-thank-you$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Gracias por inscribirse!');
  await expect(page.getByRole('heading', { level: 1 }).locator('+ p')).toHaveText(
    'Está inscrito en nuestro seminario web From Busy to Brilliant (en inglés) el 25 de septiembre a las 12:00 (hora del Este).',
  );
  await page.getByRole('link', { name: 'Invitar a alguien' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Comparta la revolución!');
  // The invitation is the Spanish sign-up.
  expect(await page.getByRole('textbox', { name: 'Enlace para inscribirse al seminario web' }).inputValue()).toBe(
    new URL('/es/events-webinars#join-the-conversation', page.url()).href,
  );
});

test('without JavaScript a Spanish sign-up also leads to /es/webinar-thank-you', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: phone });
  const page = await context.newPage();
  await page.goto('/es/events-webinars');
  const form = page.locator('#join-the-conversation form');
  await form.getByRole('textbox', { name: /^Nombre/ }).fill('Ana');
  await form.getByRole('textbox', { name: /^Correo electrónico/ }).fill(`ana-sin-js-${Date.now()}@example.org`);
  await form.getByRole('button', { name: 'Reservar mi lugar' }).click();
  await expect(page).toHaveURL(/\/es\/webinar-thank-you$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Gracias por inscribirse!');
  await context.close();
});

test('/es/resources leads to the resources form in Spanish, whose problems are in Spanish', async ({ page }) => {
  await page.goto('/es/resources');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recursos');
  await expect(page.locator('main h2')).toHaveText(['Guías para padres', 'Materiales para actuar', 'Estudios y datos', 'Contacte a nuestro equipo']);
  // The guides are the Spanish blog now (issue 48).
  await expect(page.getByRole('link', { name: /^Leer las guías/ })).toHaveAttribute('href', '/es/blogs-insights');
  await page.getByRole('link', { name: /^Obtener los materiales/ }).click();
  await expect(page).toHaveURL(/\/es\/lead-the-change#amplify-section$/);

  const region = page.locator('native-form[data-purpose="resources"]');
  await expect(region.locator('[lang="en"]')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ready');
  await region.getByRole('button', { name: 'Enviarme los recursos' }).click();
  await expect(region.locator('[data-form-summary]')).toHaveText(
    'Por favor, revise estos campos: Nombre, Correo electrónico, ¿Qué recursos le gustaría recibir?',
  );
  await expect(region.getByText('Por favor, elija una opción.')).toBeVisible();
  await expect(region.getByRole('checkbox', { name: 'Hojas informativas' })).toBeVisible();
});
