/**
 * The site's own forms, as a visitor uses them: every form of the site filled in and sent with
 * JavaScript on and off, at a phone's and a desktop's width; bad input shown next to its field
 * (by the script, and by the server's page without it); nothing lost while HubSpot is down and
 * delivered once after; and what was received, on the admin page.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { e2eAdminPassword, fakeUrls } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { axeViolations, wcagTags } from './widths';

// The first call of a function under `netlify serve` bundles it, which is slow on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 60_000 });

/** Every form of the site, on a page where it appears. */
const siteForms = [
  { purpose: 'newsletter', path: '/', instance: 'form-newsletter-home' },
  { purpose: 'newsletter (footer)', path: '/why-this-matters', instance: 'form-newsletter-footer' },
  { purpose: 'emailGenerator', path: '/lead-the-change', instance: 'form-emailGenerator', email: true },
  { purpose: 'resources', path: '/lead-the-change', instance: 'form-resources' },
  { purpose: 'partnership', path: '/partnership-form', instance: 'form-partnership' },
  // Its HubSpot post-submit action sends the visitor to another page.
  { purpose: 'webinarSignup', path: '/events-webinars', instance: 'form-webinarSignup', redirect: '/webinar-thank-you' },
  { purpose: 'contact', path: '/faqs', instance: 'form-contact' },
  { purpose: 'referSchool', path: '/form?type=referSchool', instance: 'form-page-referSchool', email: true },
  { purpose: 'toolkit', path: '/form?type=toolkit', instance: 'form-page-toolkit' },
] as const;

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

async function fake(path: string, body?: unknown) {
  const response = await fetch(`${fakeUrls.hubspot}/__fake/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return response.json();
}

/** What HubSpot received for a form from one address, by the authenticated endpoint. */
async function receivedBy(formId: string, email: string): Promise<Array<Record<string, string>>> {
  const { formSubmissions } = (await fake('calls')) as {
    formSubmissions: Array<{ formGuid: string; authenticated?: boolean; body: { fields: Array<{ name: string; value: string }> } }>;
  };
  return formSubmissions
    .filter((entry) => entry.formGuid === formId && entry.authenticated)
    .map((entry) => Object.fromEntries(entry.body.fields.map((field) => [field.name, field.value])))
    .filter((values) => values.email === email);
}

/** Fills every field a person can see with an acceptable answer; returns the email used. */
async function fillForm(form: Locator, options: { email?: string } = {}): Promise<string> {
  const email = options.email ?? unique('visitor');
  await form.scrollIntoViewIfNeeded();
  for (const field of await form.locator('[data-field]').all()) {
    if (!(await field.isVisible())) continue;
    const type = await field.getAttribute('data-field-type');
    const name = await field.getAttribute('data-field');
    const control = field.locator('input:not([type=hidden]), select, textarea').first();
    switch (type) {
      case 'email':
        await control.fill(name === 'email' ? email : 'head@oakwood.edu');
        break;
      case 'phone':
      case 'mobile_phone':
        await control.fill('+1 555 010 2030');
        break;
      case 'number':
        await control.fill('120');
        break;
      case 'datepicker':
        await control.fill('2026-12-01');
        break;
      case 'multi_line_text':
        await control.fill(name === '_note' ? 'We would love to talk at the next parents evening.' : 'A question sent by the end-to-end test.');
        break;
      case 'dropdown':
        await control.selectOption({ index: 1 });
        break;
      case 'radio':
        // The last choice: on the email forms, "I'll send it myself".
        await field.locator('input[type=radio]').last().check();
        break;
      case 'multiple_checkboxes':
        await field.locator('input[type=checkbox]').first().check();
        break;
      case 'single_checkbox':
        await control.check();
        break;
      default:
        await control.fill(name === 'child_grade' ? '5th grade' : `Test ${name}`);
    }
  }
  return email;
}

async function withoutJavaScript(browser: Browser, width: number, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 844 } });
  const page = await context.newPage();
  try {
    await run(page);
  } finally {
    await context.close();
  }
}

// Each form is sent once with JavaScript on a phone (its error state checked by axe first) and once
// without JavaScript at desktop width: both paths and both layouts, without repeating either.
//
// The full run's (`@full`), where the gate walks the same form and path elsewhere:
// - without JavaScript, the email form: your-data.spec.ts (/lead-the-change → /your-email, JS off)
//   and edit-details.spec.ts "Edit details on /your-email leads to the form filled in…";
// - without JavaScript, the webinar sign-up: spanish-events.spec.ts "without JavaScript a Spanish
//   sign-up also leads to /es/webinar-thank-you" (the same form and redirect);
// - without JavaScript, the partnership form: spanish-nominate.spec.ts "/es/partnership-form
//   without JavaScript…" (the server's answer, then the thanks);
// - the footer's newsletter, both ways: the same form, fields and function as the newsletter on /
//   (kept); spanish-reading.spec.ts "the newsletter in a Spanish footer…" sends the footer's
//   instance with JavaScript and sees it reach HubSpot. What HubSpot receives from a form sent
//   without JavaScript is tests/unit/forms-function.test.ts's.
// - with JavaScript, the forms whose answer is of a kind the gate sends elsewhere here (the one
//   component, <native-form>, and its three answers: in place, newsletter and partnership; "Your
//   Email is Ready", emailGenerator; another page, webinarSignup): resources and contact (in place),
//   referSchool (the dialog, also form-page.spec.ts "referSchool: a manual choice opens…"), toolkit
//   (in place); each form's fields, as the server checks them, are forms-function.test.ts's;
// - without JavaScript, resources and toolkit: the same answer page (/forms/submitted) as contact,
//   which the gate sends so.
const fullRunOnly = {
  withScript: new Set<string>(['newsletter (footer)', 'resources', 'contact', 'referSchool', 'toolkit']),
  withoutScript: new Set<string>(['newsletter (footer)', 'emailGenerator', 'webinarSignup', 'partnership', 'resources', 'toolkit']),
};
const tagged = (full: boolean) => (full ? { tag: '@full' } : {});

for (const entry of siteForms) {
  test.describe(`${entry.purpose} on ${entry.path}`, () => {
    test('sent with JavaScript at 390 px, answered in place', tagged(fullRunOnly.withScript.has(entry.purpose)), async ({ page, consoleErrors }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(entry.path);
      const region = page.locator(`native-form#${entry.instance}`);
      const formId = (await region.getAttribute('data-form-id'))!;
      // Sent empty first: its error state, as a screen reader meets it, has nothing axe objects to.
      await region.locator('[data-submit]').click();
      await expect(region.locator('[data-form-summary]')).toBeVisible();
      expect(await axeViolations(page, { include: `#${entry.instance}`, tags: wcagTags })).toEqual([]);
      const email = await fillForm(region.locator('form'));
      await region.locator('[data-submit]').click();
      if ('email' in entry) {
        await expect(page.getByRole('dialog', { name: 'Your Email is Ready' })).toBeVisible();
      } else if ('redirect' in entry) {
        await expect(page).toHaveURL(new RegExp(`${entry.redirect}$`));
      } else {
        const success = region.locator('[data-form-success]');
        await expect(success).toBeVisible();
        await expect(success).toBeFocused();
        await expect(region.locator('form')).toBeHidden();
      }
      await expect.poll(() => receivedBy(formId, email)).toHaveLength(1);
      expect(consoleErrors).toEqual([]);
    });

    test('sent without JavaScript at 1280 px, answered with a page', tagged(fullRunOnly.withoutScript.has(entry.purpose)), async ({ browser }) => {
      await withoutJavaScript(browser, 1280, async (page) => {
        await page.goto(entry.path);
        const region = page.locator(`native-form#${entry.instance}`);
        const formId = (await region.getAttribute('data-form-id'))!;
        const email = await fillForm(region.locator('form'));
        await region.locator('[data-submit]').click();
        if ('email' in entry) {
          await expect(page).toHaveURL(/\/your-email\?id=/);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your Email is Ready');
          await expect(page.locator('[data-email-text]')).toContainText('Test school_name');
        } else if ('redirect' in entry) {
          await expect(page).toHaveURL(new RegExp(`${entry.redirect}$`));
        } else {
          await expect(page).toHaveURL(/\/forms\/submitted\?form=/);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you!');
          await expect(page.getByRole('link', { name: /Back to the page you were on|Go to the home page/ })).toBeVisible();
        }
        await expect.poll(() => receivedBy(formId, email)).toHaveLength(1);
      });
    });
  });
}

test('a dependent field shows while its condition holds, and only then is required', async ({ page }) => {
  await page.goto('/partnership-form');
  const region = page.locator('native-form#form-partnership');
  const grade = region.locator('[data-field="child_grade"]');
  await expect(grade).toBeHidden();
  await region.getByLabel('Parent', { exact: true }).check();
  await expect(grade).toBeVisible();
  await expect(grade.getByRole('textbox')).toBeEnabled();
  await region.getByLabel('School leader').check();
  await expect(grade).toBeHidden();
});

test.describe('bad input', () => {
  test('with JavaScript: each problem next to its field, focus on the first, nothing sent; axe finds nothing', async ({ page }) => {
    await page.goto('/partnership-form');
    const region = page.locator('native-form#form-partnership');
    await region.locator('[data-submit]').click();
    const firstName = region.getByLabel(/First name/);
    await expect(firstName).toBeFocused();
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    const errorId = (await firstName.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    await expect(page.locator(`#${errorId}`)).toHaveText('Please fill in this field.');
    await expect(region.locator('[data-form-summary]')).toContainText('Please check these fields: First name, Last name');

    await fillForm(region.locator('form'));
    await region.getByLabel(/Phone number/).fill('12');
    await region.locator('[data-submit]').click();
    await expect(region.getByLabel(/Phone number/)).toBeFocused();
    await expect(region.locator('[data-field="phone"] [data-field-error]')).toHaveText('Please enter a phone number of 7 to 20 digits.');
    // Typing clears the problem.
    await region.getByLabel(/Phone number/).fill('+1 555 010 2030');
    await expect(region.locator('[data-field="phone"] [data-field-error]')).toBeHidden();
    await region.getByLabel(/Phone number/).fill('12');
    await region.locator('[data-submit]').click();
    expect(await axeViolations(page, { include: '#form-partnership', tags: wcagTags })).toEqual([]);
  });

  test('the server’s answer is shown next to the field (what only the server knows)', async ({ page }) => {
    await page.goto('/lead-the-change');
    const region = page.locator('native-form#form-emailGenerator');
    await fillForm(region.locator('form'));
    await region.getByLabel(/Add a personal note/).fill('Read more at www.example.com');
    await region.locator('[data-submit]').click();
    const note = region.getByLabel(/Add a personal note/);
    await expect(note).toHaveAttribute('aria-invalid', 'true');
    await expect(note).toBeFocused();
    await expect(region.locator(`[data-field="_note"] [data-field-error]`)).toContainText('Please leave links out of your note');
    await expect(page.getByRole('dialog', { name: 'Your Email is Ready' })).toHaveCount(0);
  });

  // Issue 21: the fields the school email interpolates are names, in the browser as on the server.
  test('the email form: a link or an address in a name is shown next to its field, with and without JavaScript', async ({ page, browser }) => {
    await page.goto('/lead-the-change');
    const region = page.locator('native-form#form-emailGenerator');
    await fillForm(region.locator('form'));
    await region.getByLabel(/^School name/).fill('Springfield goo.gl/x');
    await region.getByLabel(/School contact name/).fill('Principal boss＠evil.ru');
    await region.locator('[data-submit]').click();
    await expect(region.getByLabel(/^School name/)).toBeFocused();
    await expect(region.locator('[data-field="school_name"] [data-field-error]')).toHaveText('Please write only the name here, without a web address.');
    await expect(region.locator('[data-field="school_contact_name"] [data-field-error]')).toHaveText(
      'Please write only the name here; the email address has its own field.',
    );
    await expect(page.getByRole('dialog', { name: 'Your Email is Ready' })).toHaveCount(0);

    await withoutJavaScript(browser, 390, async (plain) => {
      await plain.goto('/lead-the-change');
      const form = plain.locator('native-form#form-emailGenerator');
      await fillForm(form.locator('form'));
      await form.getByLabel(/^School name/).fill('Springfield evil。com');
      await form.locator('[data-submit]').click();
      await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Please check your answers');
      const school = plain.locator('native-form#form-response-form').getByLabel(/^School name/);
      await expect(school).toHaveAttribute('aria-invalid', 'true');
      await expect(school).toHaveValue('Springfield evil。com');
      await expect(plain.getByText('Please write only the name here, without a web address.')).toBeVisible();
    });
  });

  test('without JavaScript: the form comes back with the answers kept and the problem next to its field; axe finds nothing', async ({ browser }) => {
    await withoutJavaScript(browser, 390, async (page) => {
      await page.goto('/partnership-form');
      const region = page.locator('native-form#form-partnership');
      await fillForm(region.locator('form'), { email: 'kept@example.org' });
      await region.getByLabel(/Phone number/).fill('12');
      await region.locator('[data-submit]').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check your answers');
      const answer = page.locator('native-form#form-response-form');
      const phone = answer.getByLabel(/Phone number/);
      await expect(phone).toHaveAttribute('aria-invalid', 'true');
      await expect(phone).toHaveValue('12');
      await expect(answer.getByLabel(/^Email/)).toHaveValue('kept@example.org');
      await expect(page.getByText('Please enter a phone number of 7 to 20 digits.')).toBeVisible();
      await expect(page.getByRole('alert').first()).toContainText('Phone number');
      // axe needs script; it checks the same markup in a page that may run it.
      const markup = await page.content();
      const checkerContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const checker = await checkerContext.newPage();
      await checker.route('**/*', (route) =>
        route.request().resourceType() === 'document' ? route.fulfill({ body: markup, contentType: 'text/html' }) : route.continue(),
      );
      await checker.goto(page.url());
      const violations = await axeViolations(checker, { tags: wcagTags });
      await checkerContext.close();
      expect(violations).toEqual([]);
      // Corrected, it goes through.
      await phone.fill('+1 555 010 2030');
      await answer.locator('[data-submit]').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you!');
    });
  });
});

// HubSpot is down for this visitor's calls only (the fake's `downFor`): the tests running beside it,
// this file's admin list among them, see HubSpot up.
test.describe('HubSpot down', () => {
  test.describe.configure({ mode: 'serial' });
  test.afterEach(async () => {
    await fake('config', { downFor: '' });
  });

  // The full run's: tests/unit/forms-function.test.ts ("HubSpot down: accepted and stored; delivered
  // exactly once by the scheduled run after it is back"); the thanks shown are the success proven above.
  test('the visitor is thanked, nothing is lost, and the retry run delivers it exactly once when HubSpot is back', { tag: '@full' }, async ({
    page,
    request,
  }) => {
    await page.goto('/faqs');
    const region = page.locator('native-form#form-contact');
    const formId = (await region.getAttribute('data-form-id'))!;
    const email = unique('visitor');
    await fake('config', { downFor: email });
    await fillForm(region.locator('form'), { email });
    await region.locator('[data-submit]').click();
    await expect(region.locator('[data-form-success]')).toBeVisible();
    expect(await receivedBy(formId, email)).toHaveLength(0);

    // Still down: the run leaves it waiting.
    await page.waitForTimeout(1100);
    expect((await request.post('/.netlify/functions/forms-deliver')).ok()).toBe(true);
    expect(await receivedBy(formId, email)).toHaveLength(0);

    await fake('config', { downFor: '' });
    await expect
      .poll(
        async () => {
          await request.post('/.netlify/functions/forms-deliver');
          return (await receivedBy(formId, email)).length;
        },
        { intervals: [1500], timeout: 30_000 },
      )
      .toBe(1);
    await request.post('/.netlify/functions/forms-deliver');
    expect(await receivedBy(formId, email)).toHaveLength(1);
  });
});

test('the admin page lists what a form received, shows one, and deletes it', async ({ page }) => {
  await page.goto('/faqs');
  const region = page.locator('native-form#form-contact');
  const email = await fillForm(region.locator('form'));
  await region.locator('[data-submit]').click();
  await expect(region.locator('[data-form-success]')).toBeVisible();

  // On a phone: the table scrolls in its own region, the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/webhook-config');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('tab', { name: 'Form Submissions' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Form', { exact: true }).selectOption('contact');
  const row = panel.getByRole('row').filter({ hasText: email });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(row).toContainText('Delivered to HubSpot');
  await row.getByRole('button', { name: /View/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Form submission' });
  await expect(dialog).toContainText(email);
  await dialog.getByRole('button', { name: /Close/ }).click();
  await row.getByRole('button', { name: /Delete/ }).click();
  await page.getByRole('dialog', { name: 'Delete this submission?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByRole('row').filter({ hasText: email })).toHaveCount(0);
  expect(await axeViolations(page, { tags: wcagTags })).toEqual([]);
});
