/**
 * Nominate and the partnership application in Spanish (issue 48, docs/spanish.md), at 390 px:
 * /es/nominate-school's paths, its school finder speaking Spanish and opening a school's Spanish
 * page, the way to /es/partnership-form; the application's problems in Spanish naming the fields as
 * the page labels them (the script's, and the server's on /es/form-response without JavaScript) and
 * its Spanish thanks. axe, HTML_CodeSniffer, the frame and the script budget check the pages through
 * tests/e2e/routes.ts.
 */
import { expect as baseExpect, test } from './fixtures';
import { expectAccessible, phone } from './widths';

// The first call of a function under `netlify serve` bundles it, which is slow on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 60_000 });

test('/es/nominate-school in Spanish: its paths, the school finder’s words and the Spanish school page it opens, the way to the Spanish application', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await page.goto('/es/nominate-school');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Proponga su escuela');
  await expect(page.getByRole('link', { name: 'Impulse el cambio y prepare su correo' })).toHaveAttribute('href', '/es/lead-the-change#email-form');

  // The finder's list and live line speak Spanish (the page's words, data-words).
  const finder = page.locator('#nominate-find-school');
  await expect(page.getByRole('searchbox', { name: '¿Conocemos su escuela?' })).toBeVisible();
  await finder.fill('zzqx escuela inexistente');
  await expect(finder).toHaveAttribute('role', 'combobox');
  await expect(page.locator('form[data-school-finder] [role="status"]')).toHaveText(
    'Ninguna escuela que conocemos coincide. Puede escribir el nombre de su escuela de todos modos.',
  );
  await expect(page.locator('form[data-school-finder] [role="listbox"]')).toHaveAttribute('aria-label', 'Escuelas que conocemos');
  // A school it knows (npm start's sample Oakwood Academy) opens that school's page in Spanish, at its form.
  await finder.fill('oakwood');
  await page
    .getByRole('option', { name: /^Oakwood Academy/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/es\/schools\/[0-9a-f]{32}#email-form$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oakwood Academy');
  await page.goBack();

  await page.getByRole('link', { name: 'Llenar el formulario y reservar una llamada' }).click();
  await expect(page).toHaveURL(/\/es\/partnership-form$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Solicitud de colaboración');
});

test('without JavaScript the finder leads to /es/find-school, in Spanish, whose result opens the school’s Spanish page; axe and HTML_CodeSniffer at 390 px', async ({
  browser,
  page,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: phone });
  const plain = await context.newPage();
  await plain.goto('/es/nominate-school');
  await plain.getByRole('searchbox', { name: '¿Conocemos su escuela?' }).fill('oakwood');
  await plain.locator('form[data-school-finder]').getByRole('button', { name: 'Buscar mi escuela' }).click();
  await expect(plain).toHaveURL(/\/es\/find-school\?q=oakwood$/);
  await expect(plain.locator('html')).toHaveAttribute('lang', 'es');
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Busque su escuela');
  await expect(plain.getByRole('main').getByRole('status').first()).toContainText('con «oakwood».');
  await plain.getByRole('link', { name: 'Escribir a Oakwood Academy' }).first().click();
  await expect(plain).toHaveURL(/\/es\/schools\/[0-9a-f]{32}#email-form$/);
  await expect(plain.locator('html')).toHaveAttribute('lang', 'es');
  await context.close();

  await page.setViewportSize(phone);
  await page.goto('/es/find-school?q=oakwood');
  await expectAccessible(page, phone.width, { htmlcs: true });
});

test('/es/partnership-form: an empty application is answered in Spanish naming the fields; a filled one is thanked in Spanish', async ({ page }) => {
  await page.setViewportSize(phone);
  await page.goto('/es/partnership-form');
  const region = page.locator('native-form#form-partnership');
  await region.getByRole('button', { name: 'Enviar la solicitud' }).click();
  const firstName = region.getByRole('textbox', { name: 'Nombre', exact: true });
  await expect(firstName).toBeFocused();
  await expect(region.locator('[data-form-summary]')).toContainText(
    'Por favor, revise estos campos: Nombre, Apellido, Correo electrónico, Número de teléfono, Nombre de la escuela, Ciudad, Estado, Su relación con la escuela',
  );
  await expect(region.locator('[data-field="firstname"] [data-field-error]')).toHaveText('Por favor, llene este campo.');

  await firstName.fill('Ana');
  await region.getByLabel(/^Apellido/).fill('López');
  await region.getByLabel(/^Correo electrónico/).fill(`ana-${Date.now()}@example.org`);
  await region.getByLabel(/^Número de teléfono/).fill('12');
  await region.getByLabel(/^Nombre de la escuela/).fill('Oakwood Academy');
  await region.getByLabel(/^Ciudad/).fill('Austin');
  await region.getByLabel(/^Estado/).fill('TX');
  await region.getByLabel('Madre, padre o tutor').check();
  await region.getByLabel(/^El grado de su hijo o hija/).fill('5.º grado');
  await region.getByRole('button', { name: 'Enviar la solicitud' }).click();
  await expect(region.locator('[data-field="phone"] [data-field-error]')).toHaveText('Por favor, escriba un número de teléfono de 7 a 20 dígitos.');
  await region.getByLabel(/^Número de teléfono/).fill('+1 555 010 2030');
  await region.getByRole('button', { name: 'Enviar la solicitud' }).click();
  await expect(region.locator('[data-form-success]')).toBeVisible();
  await expect(region.locator('[data-form-success]')).toHaveText(
    '¡Gracias por su solicitud! Nos pondremos en contacto con usted en un plazo de dos días hábiles para acordar una primera llamada.',
  );
});

test('/es/partnership-form without JavaScript: the server answers on /es/form-response in Spanish, then thanks in Spanish', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: phone });
  const page = await context.newPage();
  try {
    await page.goto('/es/partnership-form');
    const form = page.locator('#form-partnership form');
    await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana');
    await form.getByLabel(/^Apellido/).fill('López');
    await form.getByLabel(/^Correo electrónico/).fill(`ana-nojs-${Date.now()}@example.org`);
    // The browser checks what it can; a phone too short is the server's to answer.
    await form.getByLabel(/^Número de teléfono/).fill('12');
    await form.getByLabel(/^Nombre de la escuela/).fill('Oakwood Academy');
    await form.getByLabel(/^Ciudad/).fill('Austin');
    await form.getByLabel(/^Estado/).fill('TX');
    await form.getByLabel('Maestro o personal de la escuela').check();
    await form.getByRole('button', { name: 'Enviar la solicitud' }).click();

    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    const answer = page.locator('native-form#form-response-form');
    await expect(page.getByRole('alert').first()).toContainText('Por favor, revise este campo: Número de teléfono.');
    await expect(answer.getByLabel(/^Número de teléfono/)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Por favor, escriba un número de teléfono de 7 a 20 dígitos.')).toBeVisible();
    await expect(answer.getByLabel(/^Nombre de la escuela/)).toHaveValue('Oakwood Academy');

    await answer.getByLabel(/^Número de teléfono/).fill('+1 555 010 2030');
    await answer.getByRole('button', { name: 'Enviar la solicitud' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('status').filter({ hasText: '¡Gracias por su solicitud!' })).toBeVisible();
    await expect(page.getByRole('main').locator('a[href="/es/partnership-form"]')).toHaveText('Volver a la página donde estaba');
  } finally {
    await context.close();
  }
});

test.describe('/es/thank-you', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('confirms a booking in Spanish at 390 px, the meeting time in Spanish; without one, the ways on lead to the Spanish pages', async ({ page }) => {
    await page.setViewportSize(phone);
    await page.goto(
      '/es/thank-you?event_type_name=Intro%20Call&event_start_time=2025-09-25T16%3A00%3A00Z&invitee_full_name=Ana%20Lopez&invitee_first_name=Ana&meeting_url=https%3A%2F%2Fus02web.zoom.us%2Fj%2F123',
    );
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Su llamada está reservada!');
    await expect(page.getByTestId('booking-confirmation')).toContainText('¡Gracias, Ana!');
    const details = page.locator('section', { has: page.getByRole('heading', { name: 'Datos de la reunión' }) }).locator('dl');
    await expect(details).toContainText('ParticipanteAna Lopez');
    await expect(details).toContainText(/Hora de la reuniónjueves, 25 de septiembre de 2025/);
    await expect(page.getByRole('link', { name: /Unirse a la reunión/ })).toHaveAttribute('href', 'https://us02web.zoom.us/j/123');

    await page.goto('/es/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('¿Busca su cita?');
    await expect(page.getByRole('link', { name: 'Reservar una llamada sobre su escuela' })).toHaveAttribute('href', '/es/partnership-form');
  });
});
