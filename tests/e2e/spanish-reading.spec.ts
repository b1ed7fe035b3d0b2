/**
 * The pages a parent reads, in Spanish (issue 48, docs/spanish.md): each at 390 and 1280 px, in
 * Spanish (`lang="es"`, its heading, no page-wide sideways scroll), with hreflang alternates both
 * ways and a switch to its English twin and back. axe, HTML_CodeSniffer, the frame and the script
 * budget check them through tests/e2e/routes.ts.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { atEachSize, desktop, pageWidth, phone } from './widths';

const alternates = (page: Page) =>
  page
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) => links.map((link) => `${link.getAttribute('hreflang')} ${new URL(link.getAttribute('href') ?? '').pathname}`));

/** Each Spanish reading page, its English twin, their headings, and a sentence of its body in Spanish. */
const pages = [
  {
    path: '/why-this-matters',
    es: 'Por qué es importante',
    en: 'Why This Matters',
    sentence: 'Solo el 26% de los alumnos de 8.º grado domina las matemáticas, y el 29% la lectura.',
  },
  {
    path: '/how-it-works',
    es: 'Cómo funciona',
    en: 'How It Works',
    sentence: 'Avanzan al dominar el 90% y terminan un grado en 80-90 días',
  },
  {
    path: '/real-stories',
    es: 'Historias reales',
    en: 'Real Stories',
    sentence: 'Ethan, de 11 años, explica cómo los bloques de 25 minutos y la respuesta inmediata le ayudaron a adelantar dos grados en matemáticas.',
  },
  {
    path: '/faqs',
    es: 'Preguntas frecuentes',
    en: 'Frequently Asked Questions',
    sentence: 'Cómo actuar y participar',
  },
];

for (const { path, es, en, sentence } of pages) {
  // /es/real-stories in the gate; the other three in the full run (their heading and fit at 390 px are
  // a11y.spec.ts's, their alternates tests/unit/i18n-paths.test.ts's, the switch this same template's).
  test(
    `/es${path} is in Spanish at 390 and 1280 px, with alternates and a switch to ${path}`,
    path === '/real-stories' ? {} : { tag: '@full' },
    async ({ page }) => {
      await page.setViewportSize(phone);
      await page.goto(`/es${path}`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
      expect(await alternates(page)).toEqual([`en ${path}`, `es /es${path}`, `x-default ${path}`]);
      await atEachSize(page, [phone, desktop], async ({ width }) => {
        await expect(page.getByRole('heading', { level: 1 }), `at ${width} px`).toHaveText(es);
        await expect(page.getByRole('main').getByText(sentence, { exact: true })).toBeVisible();
        expect(await pageWidth(page), `no sideways scroll at ${width} px`).toBeLessThanOrEqual(width);
      });

      // The footer's switch is the same link at every width; it leads to the English twin.
      const toEnglish = page.getByRole('contentinfo').getByRole('link', { name: 'Read this site in English' });
      await expect(toEnglish).toHaveAttribute('href', path);
      await toEnglish.click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(en);
      expect(await alternates(page)).toEqual([`en ${path}`, `es /es${path}`, `x-default ${path}`]);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Leer este sitio en español' }).click();
      await expect(page).toHaveURL(new RegExp(`/es${path}$`));
    },
  );
}

test('/es/why-this-matters shows the statistics in Spanish with the English figures, and links to lead the change in Spanish', async ({ page }) => {
  await page.goto('/es/why-this-matters');
  const results = page.locator('[data-stat]');
  await expect(results).toHaveCount(4);
  await expect(page.locator('[data-stat="why-improvement"]')).toContainText('85%');
  await expect(page.locator('[data-stat="why-improvement"]')).toContainText('de los alumnos mejora en lectura y matemáticas en 8 semanas');
  await expect(page.locator('[data-stat="why-growth"]')).toContainText('2x');
  const start = page.getByRole('main').getByRole('link', { name: 'Empiece aquí: su primer correo' });
  await expect(start).toHaveAttribute('href', '/es/lead-the-change#start-here-section');
  await expect(start).not.toHaveAttribute('hreflang');
});

test('/es/how-it-works: the subscribe box answers in Spanish', async ({ page }) => {
  await page.route('**/api/subscribe', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'x' } }) }),
  );
  await page.goto('/es/how-it-works');
  const email = page.getByRole('main').getByRole('textbox', { name: 'Correo electrónico' });
  await email.fill('nope');
  await page.getByRole('main').getByRole('button', { name: 'Suscribirse' }).click();
  await expect(page.locator('[data-subscribe-message]')).toHaveText('Escriba un correo electrónico válido.');
  await email.fill('madre@example.com');
  await page.getByRole('main').getByRole('button', { name: 'Suscribirse' }).click();
  await expect(page.locator('[data-subscribe-message]')).toHaveText('No pudimos suscribirle en este momento. Vuelva a intentarlo.');
  await expect(page.getByRole('table')).toContainText('Dominio: se avanza al comprender cerca del 90%');
});

test('/es has the home’s bands in Spanish: statistics with the English figures, cards, the comparison and the toolkit', async ({ page }) => {
  await page.goto('/es');
  const stats = page.locator('#stats');
  await expect(stats.locator('[data-stat="one-in-five"]')).toContainText('1 de cada 5');
  await expect(stats.locator('[data-stat="one-in-five"]')).toContainText('alumnos dice que las clases no responden a sus necesidades');
  await expect(stats.locator('[data-stat="top-nationally"]')).toContainText('El 1-2%');
  await expect(stats.locator('[data-stat="math-proficient"]')).toContainText('26%');
  await expect(stats.locator('[data-stat="math-proficient"]')).toContainText('Fuente: National Assessment of Educational Progress');
  await expect(page.locator('#results [data-stat="improvement-8-weeks"]')).toContainText('85%');
  await expect(page.locator('#how-it-works').getByRole('heading', { level: 3, name: 'Solo 2 horas al día' })).toBeVisible();
  await expect(page.locator('#advocacy-toolkit').getByRole('heading', { level: 3, name: 'Hojas informativas' })).toBeVisible();
  // Lead the change has its Spanish page: the toolkit's link goes there.
  await expect(page.getByRole('link', { name: 'Obtenga los materiales' })).toHaveAttribute('href', '/es/lead-the-change#amplify-section');

  const comparison = page.locator('#comparison');
  await expect(comparison.getByRole('heading', { level: 2 })).toHaveText('La escuela tradicional frente al aprendizaje por dominio');
  const divider = comparison.getByRole('slider', { name: 'Comparar la escuela tradicional con el programa' });
  await expect(divider).toHaveAttribute('aria-valuetext', '50% del programa a la vista');
  // The divider's script loads after the first paint.
  await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ready');
  await divider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(divider).not.toHaveAttribute('aria-valuenow', '50');
  await expect(divider).toHaveAttribute('aria-valuetext', /^\d+% del programa a la vista$/);
  // No English leaks into the bands built from content.
  const bands = await page.locator('#stats, #how-it-works, #results, #comparison, #advocacy-toolkit').allInnerTexts();
  expect(bands.join('\n')).not.toMatch(/Source|1 in 5|Top |Mastery Learning|Fact Sheets/);
});

test('/es/real-stories: the cards, their play buttons and the large player speak Spanish; the videos are said to be in English', async ({ page }) => {
  await page.goto('/es/real-stories');
  await expect(page.getByRole('main')).toContainText('Los videos están en inglés.');
  const parents = page.getByRole('list', { name: 'Videos de experiencias de padres' });
  await expect(parents.getByRole('heading', { level: 3 })).toHaveText([
    '“Por fin le gustan otra vez las matemáticas”',
    'Recuperamos nuestras tardes',
    'Cómo hablé con la dirección de nuestra escuela',
  ]);
  await expect(page.getByRole('list', { name: 'Videos de voces de alumnos' }).getByRole('heading', { level: 3 })).toHaveText([
    'Aprender a mi propio ritmo',
    'Tiempo para lo que me gusta',
    'Dominar, no memorizar',
  ]);
  // The card's script names its button in the page's language, playing or not.
  const play = parents.getByRole('button', { name: 'Reproducir el video: Recuperamos nuestras tardes' });
  await expect(play).toBeVisible();
  await parents.getByRole('button', { name: /^Ver en el reproductor grande\s*: Recuperamos nuestras tardes$/ }).click();
  const player = page.getByRole('dialog', { name: 'Recuperamos nuestras tardes' });
  await expect(player).toBeVisible();
  await player.getByRole('button', { name: 'Cerrar el diálogo' }).click();
  await expect(player).toBeHidden();
  await expect(parents.getByRole('button', { name: /^Ver en el reproductor grande\s*: Recuperamos nuestras tardes$/ })).toBeFocused();
});

test('/es shows the families’ stories with Spanish cards, and links to /es/real-stories from its menu', async ({ page }) => {
  await page.goto('/es');
  const outcomes = page.locator('#real-outcomes');
  await expect(outcomes.getByRole('heading', { level: 3 })).toHaveText(['Historias de padres', 'Historias de alumnos']);
  await expect(outcomes.getByRole('list', { name: 'Historias de alumnos' }).getByRole('heading', { level: 4 }).first()).toHaveText(
    'Aprender a mi propio ritmo',
  );
  await expect(page.locator('a[href="/es/real-stories"]').first()).toBeAttached();
});

test('the newsletter in a Spanish footer: its problems and its thanks in Spanish, and the subscription reaches HubSpot', async ({ page }) => {
  await page.goto('/es/real-stories');
  const box = page.locator('#form-newsletter-footer');
  await expect(box.locator('[lang="en"]')).toHaveCount(0);
  const email = box.getByRole('textbox', { name: /^Correo electrónico/ });
  await email.fill('no es un correo');
  await box.getByRole('button', { name: 'Suscribirme' }).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(box.getByText('Por favor, escriba un correo electrónico válido, como nombre@ejemplo.com.')).toBeVisible();
  await email.fill(`suscrita-${Date.now()}@example.org`);
  await box.getByRole('checkbox', { name: /^Envíenme ideas y consejos/ }).check();
  await box.getByRole('button', { name: 'Suscribirme' }).click();
  await expect(box.getByText('¡Listo, ya está suscrito! Pronto recibirá ideas y consejos para abogar por sus hijos.')).toBeVisible();
});

test.describe('/es/faqs', () => {
  test('the questions and their categories in Spanish, in the English order, with the same anchors', async ({ page }) => {
    await page.goto('/es/faqs');
    await expect(page.getByText('44 preguntas respondidas')).toBeVisible();
    await expect(page.locator('[data-faq]')).toHaveCount(44);
    await expect(page.locator('[data-faq-category] > summary h2')).toHaveText([
      'Cómo funciona',
      'Personalización, plan de estudios y progreso académico',
      'Apoyo, motivación y experiencia del alumno',
      'Resultados, preparación y estudios',
      'Cómo actuar y participar',
    ]);
    // An anchor opens its question, in Spanish.
    await page.goto('/es/faqs#what-is-the-mastery-threshold');
    const question = page.getByRole('heading', { level: 3, name: '¿Qué calificación cuenta como dominio?' });
    await expect(question).toBeVisible();
    await expect(page.locator('#what-is-the-mastery-threshold').locator('xpath=ancestor::details[1]')).toContainText('El umbral de dominio suele ser del 90%.');
    // A link in an answer to a page Spanish has goes to the Spanish page (every page the answers
    // link to has Spanish now; a link to one without it goes to the English page marked as English,
    // tests/unit/i18n-paths.test.ts).
    const answerLink = page.locator('[data-faq] .rich-text a', { hasText: 'Impulse el cambio' }).first();
    await expect(answerLink).toHaveAttribute('href', '/es/lead-the-change');
    await expect(answerLink).not.toHaveAttribute('hreflang');
    await expect(page.locator('[data-faq] .rich-text a[href="/es/nominate-school"]').first()).not.toHaveAttribute('hreflang');
    await expect(page.locator('[data-faq] .rich-text a[href="/es/events-webinars"]').first()).not.toHaveAttribute('hreflang');
    // The contact form is English for now, and says so to screen readers.
    await expect(page.locator('#ask-a-question [lang="en"] form')).toHaveCount(1);
  });

  test('the search box filters in Spanish, whatever the accents and case, at 390 and 1280 px', async ({ page }) => {
    await page.setViewportSize(phone);
    await page.goto('/es/faqs');
    await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ready');
    const box = page.getByRole('searchbox', { name: 'Buscar en las preguntas frecuentes', exact: true });
    await expect(box).toHaveAttribute('placeholder', 'Buscar preguntas...');
    const status = page.locator('[data-faq-status]');
    await atEachSize(page, [phone, desktop], async ({ width }) => {
      await box.fill('pantalla');
      await expect(status, `at ${width} px`).toHaveText(/^\d+ resultados encontrados$/);
      const visible = page.locator('[data-faq]:visible');
      const count = await visible.count();
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThan(44);
      expect(count).toBe(Number((await status.textContent())?.match(/\d+/)?.[0]));
      for (const text of await visible.allTextContents()) expect(text.toLowerCase()).toContain('pantalla');
      // Without its accent and in capitals, "matemáticas" finds the same questions.
      await box.fill('matemáticas');
      const accented = await status.textContent();
      await box.fill('MATEMATICAS');
      await expect(status).toHaveText(accented!);
      await box.fill('física cuántica');
      await expect(status).toHaveText('No hay resultados para «física cuántica»');
      await expect(page.locator('[data-faq]:visible')).toHaveCount(0);
      await box.fill('');
      await expect(page.locator('[data-faq][hidden]')).toHaveCount(0);
    });
    // Enter keeps the page and puts the query in the address, as on /faqs.
    await box.fill('tareas');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/es\/faqs\?q=tareas$/);
  });

  test('without JavaScript every answer is there, a Spanish note says so, and the search goes to /es/faqs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/es/faqs');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.locator('[data-faq]')).toHaveCount(44);
    await expect(page.getByText('Para buscar entre las preguntas hace falta JavaScript')).toBeVisible();
    await expect(page.locator('form[role="search"][action="/es/faqs"]')).toHaveCount(1);
    await page.goto('/es/faqs#why-25-minute-blocks');
    await expect(page.getByRole('heading', { name: '¿Por qué bloques de 25 minutos con descansos de 5 minutos?' })).toBeVisible();
    await context.close();
  });
});
