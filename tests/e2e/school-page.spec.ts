/**
 * School pages (/schools/{key}): a parent who sent their email shares their school's page from the
 * dialog; a second parent comes through that link, writes with the school filled in (its address
 * never on the page), and is attributed to the first; the count moves only when a send is
 * confirmed; the page works without JavaScript, passes axe and HTML_CodeSniffer at 390 and 1280
 * px in English and in Spanish (/es/schools/{key}, the same page and figures, the language switch
 * between the two), and an unknown key is a 404 that offers the form, in the path's language.
 * Serial: the second parent follows the first.
 */
import type { Page } from '@playwright/test';
import { baseURL, e2eAdminPassword } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { layoutShifts, runMark } from './helpers';
import { linkTo, runMail, waitForEmail } from './mail';
import { approveClaims, followUpToken, knownSchool, platformSentByParent } from './school-campaign-helpers';
import { atEachSize, expectAccessible } from './widths';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const run = runMark();
const school = { name: `Springfield Academy ${run}`, email: `head@springfield-${run}.edu` };
const first = `first-${run}@example.org`;
const second = `second-${run}@example.org`;
let shareUrl = '';

/** Fills the email form in `#email-form` (the school's fields only when `withSchool`). */
async function fillEmailForm(page: Page, parent: string, withSchool: boolean) {
  const form = page.locator('#email-form form[data-native-form]');
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(parent);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill('Grade 5');
  if (withSchool) {
    // A school the site knows: typing its name suggests it, and picking it fills its leader and address from its record.
    await form.getByRole('combobox', { name: /^School name/ }).pressSequentially(`Springf ${run}`);
    await page.getByRole('option', { name: new RegExp(`^${school.name}`) }).click();
    await expect(form.getByLabel(/School contact email/)).toHaveValue(school.email);
    await expect(form.getByLabel(/School contact name/)).toHaveValue('Dr. Patel');
    await expect(form.getByRole('combobox', { name: /^School name/ })).toHaveValue(school.name);
  } else {
    await form.getByLabel(/School contact name/).fill('Dr. Patel');
  }
  await form.getByLabel("I'll send it myself").check();
  return form;
}

/** Sends the form, and in the dialog says "I've sent it myself"; returns the dialog. */
async function sendItMyself(page: Page) {
  await page.locator('#email-form form[data-native-form] [data-submit]').click();
  const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await dialog.getByRole('button', { name: "I've sent it myself" }).click();
  // Recorded once the parent confirms it from their inbox.
  await expect(dialog.getByTestId('self-check-inbox')).toContainText('Check your inbox.');
  return dialog;
}

test('after confirming from their inbox and the letter going, the parent is offered the school page to share', async ({ page, request }) => {
  // Springfield Academy is a school staff verified (the Schools tab): its page counts its letters.
  await knownSchool(request, school);
  await page.goto('/lead-the-change');
  await fillEmailForm(page, first, true);
  await page.locator('#email-form form[data-native-form] [data-submit]').click();
  const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
  await dialog.getByRole('button', { name: 'Send via our platform' }).click();
  await expect(dialog.getByTestId('check-inbox')).toContainText(`We sent a link to ${first}`, { timeout: 20_000 });
  // Nothing public yet: the page waits for the first delivered letter.
  const link = linkTo(await waitForEmail(first, { subject: /^Please confirm your email to /, timeout: 20_000 }), '/confirm-send');
  await page.goto(link);
  await page.getByRole('button', { name: 'Send my email' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/, { timeout: 20_000 });
  await runMail();
  const share = page.locator('[data-share]');
  await expect(share).toContainText(`Bring the other parents at ${school.name}`);
  shareUrl = await share.getByRole('textbox').inputValue();
  expect(shareUrl).toMatch(/\/schools\/springfield-academy-[a-z0-9-]+-[0-9a-f]{32}\?ref=/);
  await expect(share.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/\?text=.*schools/);
  await expect(share.getByRole('link', { name: 'Text message' })).toHaveAttribute('href', /^sms:/);
  await expect(share.getByRole('link', { name: 'Email' })).toHaveAttribute('href', /^mailto:\?subject=/);
});

test('the shared link brings a second parent: the school is filled in, the address is not on the page, and the draft is attributed', async ({
  page,
  request,
}) => {
  const link = new URL(shareUrl);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(school.name);
  // The first parent's letter went: counted.
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '5');
  expect(await page.content()).not.toContain(school.email);
  await expect(page.locator('#email-form').getByLabel(/School contact email/)).toHaveCount(0);
  await expect(page.locator('#email-form').getByLabel(/^School name/)).toHaveValue(school.name);
  await fillEmailForm(page, second, false);
  await sendItMyself(page);

  // The admin's outbox shows who recruited whom.
  const signedIn = await request.post('/api/admin/session', { data: { username: 'admin', password: e2eAdminPassword }, headers: { origin: baseURL } });
  expect(signedIn.ok()).toBe(true);
  const { messages } = (await (await request.get('/api/admin/outbox?limit=100')).json()) as {
    messages: Array<{ id: string; parentEmail: string; to: string; attribution?: unknown }>;
  };
  const firstMessage = messages.find((message) => message.parentEmail === first)!;
  const secondMessage = messages.find((message) => message.parentEmail === second)!;
  expect(firstMessage.attribution).toEqual({ via: 'direct' });
  expect(secondMessage.to).toBe(school.email);
  expect(secondMessage.attribution).toEqual({ via: 'parent', referrerMessageId: firstMessage.id });
});

// The full run's: the page is the server's (tests/unit/school-page.test.ts, "shows its record’s name,
// the count of delivered letters, the goal and the latest outcome staff accepted…").
test('a confirmed send and its outcome show on the page, for both parents', { tag: '@full' }, async ({ page, request }) => {
  const token = await followUpToken(first);
  expect((await request.post('/school-answer', { form: { token, answer: 'meeting', comment: '' } })).status()).toBe(200);
  const link = new URL(shareUrl);
  // A meeting a parent reports speaks for the school: the page says it once staff approve it.
  await page.goto(link.pathname);
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  await expect(page.locator('[data-school-outcome]')).toHaveText(`No answer from ${school.name} yet`);
  expect(await approveClaims(request, school.name, ['meeting'])).toBe(1);
  await page.goto(link.pathname);
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  await expect(page.locator('[data-school-goal]')).toHaveText('4 more to reach 5');
  await expect(page.locator('[data-school-outcome]')).toHaveText(`${school.name} agreed to meet`);
  const api = await (await request.get(`/api/schools/${link.pathname.split('/').pop()}`)).json();
  expect(api).toMatchObject({ parents: 1, goal: 5, outcome: 'meeting' });
});

test('without JavaScript the page shows its figures and its form sends the email', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const link = new URL(shareUrl);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(school.name);
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  await fillEmailForm(page, `nojs-${run}@example.org`, false);
  await page.locator('#email-form form[data-native-form] [data-submit]').click();
  await expect(page).toHaveURL(/\/your-email\?/);
  // The address was filled in on the server, from the page's key.
  await expect(page.getByRole('link', { name: 'Open in my email app' })).toHaveAttribute('href', /^mailto:head@springfield-/);
  await context.close();
});

test('with JavaScript the count moves live, in the space the page reserved', async ({ page, request }) => {
  const link = new URL(shareUrl);
  await page.goto(link.pathname);
  const live = page.locator('[data-school-live]');
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  const before = await live.boundingBox();
  // A third parent's letter goes through the platform, and they report a reply. (The second
  // parent's "I've sent it myself" waits for review and moves nothing.)
  const third = `third-${run}@example.org`;
  await platformSentByParent(request, third, school);
  const token = await followUpToken(third);
  expect((await request.post('/school-answer', { form: { token, answer: 'replied', comment: '' } })).status()).toBe(200);
  expect(await approveClaims(request, school.name, ['replied'])).toBe(1);
  // The page asks again every 30 s while visible, and when it becomes visible again.
  await expect
    .poll(
      async () => {
        await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        return page.locator('[data-school-count]').textContent();
      },
      { timeout: 45_000, intervals: [1000] },
    )
    .toBe('2 parents have written');
  await expect(page.locator('[data-school-goal]')).toHaveText('3 more to reach 5');
  await expect(page.locator('[data-school-outcome]')).toHaveText(`${school.name} replied`);
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
  expect(await live.boundingBox()).toEqual(before);
  expect((await layoutShifts(page)).reduce((sum, shift) => sum + shift, 0)).toBeLessThan(0.01);
});

test('the same page in Spanish: its frame, figures and form in Spanish, the switch between the two keeping the share link, the live count in Spanish, a parent writing from it', async ({
  page,
}) => {
  const link = new URL(shareUrl);
  await page.goto(`/es${link.pathname}${link.search}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(school.name);
  await expect(page.locator('[data-school-count]')).toHaveText('2 padres y madres han escrito');
  await expect(page.locator('[data-school-goal]')).toHaveText('Faltan 3 para llegar a 5');
  await expect(page.locator('[data-school-outcome]')).toHaveText(`${school.name} respondió`);
  await expect(page.getByRole('progressbar', { name: 'Padres y madres que escribieron, hacia la próxima meta' })).toHaveAttribute('aria-valuenow', '2');
  expect(await page.content()).not.toContain(school.email);
  await expect(page.locator('head link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', new RegExp(`${link.pathname}$`));
  await expect(page.locator('head link[rel="alternate"][hreflang="es"]')).toHaveAttribute('href', new RegExp(`/es${link.pathname}$`));
  // The Spanish email form: the school filled in, its address not on the page.
  const form = page.locator('#email-form form[data-native-form]');
  await expect(form.getByLabel(/^Nombre de la escuela/)).toHaveValue(school.name);
  await expect(form.getByLabel(/Correo electrónico del contacto/)).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Preparar mi correo' })).toBeVisible();
  // The switch leads to the English page and back, the sharing parent's code with it.
  await page.getByRole('banner').getByRole('link', { name: 'Read this site in English' }).click();
  await expect(page).toHaveURL(`${baseURL}${link.pathname}${link.search}`);
  await expect(page.locator('[data-school-count]')).toHaveText('2 parents have written');
  await page.getByRole('banner').getByRole('link', { name: 'Leer este sitio en español' }).click();
  await expect(page).toHaveURL(`${baseURL}/es${link.pathname}${link.search}`);
  // The live count is written in Spanish, whatever the figures' endpoint says in English.
  await page.route('**/api/schools/*', (route) =>
    route.fulfill({
      json: {
        schoolName: school.name,
        published: true,
        parents: 7,
        goal: 10,
        percent: 70,
        countText: '7 parents have written',
        goalText: '3 more to reach 10',
        outcome: 'meeting',
        outcomeText: `${school.name} agreed to meet`,
      },
    }),
  );
  await expect
    .poll(
      async () => {
        await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        return page.locator('[data-school-count]').textContent();
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toBe('7 padres y madres han escrito');
  await expect(page.locator('[data-school-goal]')).toHaveText('Faltan 3 para llegar a 10');
  await expect(page.locator('[data-school-outcome]')).toHaveText(`${school.name} aceptó reunirse`);
  // A parent writes from it: the Spanish form, and the dialog in Spanish with the letter to the school's recorded contact.
  await form.getByLabel(/^Su nombre completo/).fill('Ana López');
  await form.getByLabel(/^Su correo electrónico/).fill(`madre-${run}@example.org`);
  await form.getByLabel(/^Nombre completo de su hijo o hija/).fill('Leo López');
  await form.getByLabel(/^Grado de su hijo o hija/).fill('5');
  await form.getByLabel(/^Nombre del contacto en la escuela/).fill('Dr. Patel');
  await form.getByLabel('Lo enviaré yo').check();
  await form.getByRole('button', { name: 'Preparar mi correo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Su correo está listo' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('email-to')).toHaveText(`Dr. Patel <${school.email}>`);
});

// Each page is loaded once, checked at one width, resized to the other and checked again (tests/e2e/widths.ts).
test('axe and HTML_CodeSniffer on a school page, in English and in Spanish, at 390 and 1280 px', async ({ page }) => {
  const sizes = [390, 1280].map((width) => ({ width, height: 900 }));
  const { pathname } = new URL(shareUrl);
  for (const path of [pathname, `/es${pathname}`]) {
    await page.setViewportSize(sizes[0]!);
    await page.goto(path);
    await expect(page.locator('[data-school-count]')).toBeVisible();
    await atEachSize(page, sizes, ({ width }) => expectAccessible(page, width, { htmlcs: true }));
  }
});

test("on a phone the floating button keeps away from the school page's form, and leads to it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL(shareUrl).pathname);
  const cta = page.locator('[data-floating-link]');
  const form = page.locator('#email-form');
  // The form on screen, past the 300 px threshold: the button would cover its fields.
  await form.evaluate((element) => element.scrollIntoView({ behavior: 'instant', block: 'start' }));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await expect(form).toBeInViewport();
  await expect(cta).toBeHidden();
  // Far below the form, where nothing lies under it, it comes back, and takes the parent to the
  // form on this page.
  await page.evaluate(() => {
    document.body.style.minHeight = '8000px';
    window.scrollTo(0, 7000);
  });
  await expect(cta).toBeVisible();
  await cta.click();
  await expect(form).toBeInViewport();
  await expect(page).toHaveURL(/\/schools\/springfield-academy-[a-z0-9-]+-[0-9a-f]{32}#email-form$/);
});

test('an unknown or forged key is a 404 page that offers the email form, in the path’s language', async ({ page }) => {
  for (const key of ['0'.repeat(32), 'not-a-key']) {
    const response = await page.goto(`/schools/${key}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not find this school’s page');
    await expect(page.locator('#email-form').getByLabel(/School contact email/)).toBeVisible();
    const spanish = await page.goto(`/es/schools/${key}`);
    expect(spanish?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos la página de esta escuela');
    await expect(page.locator('#email-form').getByLabel(/Correo electrónico del contacto en la escuela/)).toBeVisible();
  }
  // Nothing after /es/schools/: the site's Spanish 404.
  const nothing = await page.goto('/es/schools/');
  expect(nothing?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  const api = await page.request.get(`/api/schools/${'0'.repeat(32)}`);
  expect(api.status()).toBe(404);
});
