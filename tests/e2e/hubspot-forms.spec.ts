/**
 * HubSpot's form embed, both generations, against the stand-ins of tests/fakes/ and the build with
 * every form embedded (tests/e2e/embed-build.ts): the legacy v2 embed for the newsletter, email,
 * partnership and resources forms, the v4 embed (updated forms editor) for the referral, toolkit,
 * webinar and contact forms.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { buildEmbedSite, serveEmbedBuild } from './embed-build';

const EMBED_V2 = 'https://js.hsforms.net/forms/embed/v2.js';
const EMBED_V4 = /^https:\/\/js\.hsforms\.net\/forms\/embed\/\d+\.js$/;

// Built once per run, by the one worker that runs this file (the embed project runs its tests in
// order); a project of its own that the specs depended on put them after every other Chromium test.
test.beforeAll(async () => {
  test.setTimeout(180_000);
  await buildEmbedSite();
});

test.beforeEach(async ({ page }) => {
  await serveEmbedBuild(page);
});

/** Every request to HubSpot's form hosts, in order. */
function embedRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('hsforms')) requests.push(request.url());
  });
  return requests;
}

/** Records every `hubspot:submitted` of the page in `window.__submitted`. */
async function recordSubmissions(page: Page) {
  await page.evaluate(() => {
    const win = window as unknown as { __submitted: unknown[] };
    win.__submitted = [];
    document.addEventListener('hubspot:submitted', (event) => win.__submitted.push((event as CustomEvent).detail));
  });
  return () => page.evaluate(() => (window as unknown as { __submitted: Array<{ formId: string; values: Record<string, string> }> }).__submitted);
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Your Email is Ready' });
const toast = (page: Page) => page.locator('[data-toast]');

const parent = {
  'Full name': 'Ana Lopez',
  Email: 'ana@example.org',
  "Child's full name": 'Maya Lopez',
  "Child's grade": '5th grade',
  'School name': 'Oakwood Academy',
  'School contact name': 'Dr. Patel',
  'School contact email': 'head@oakwood.edu',
  City: 'Austin',
};

/** Fills the email or referral form of either stand-in (v4 renders into HubSpot's frame). */
async function fillEmailForm(form: ReturnType<Page['locator']> | ReturnType<Page['frameLocator']>) {
  for (const [label, value] of Object.entries(parent)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByLabel('Choose how to send your email').selectOption('I will send it myself');
  await form.getByRole('button', { name: 'Submit' }).click();
}

async function expectTheEmail(page: Page) {
  const box = dialog(page);
  await expect(box).toBeVisible();
  await expect(box.getByTestId('email-to')).toHaveText('Dr. Patel <head@oakwood.edu>');
  await expect(box.getByTestId('email-subject')).toHaveText('How Oakwood Academy can unlock mastery learning for every student');
  await expect(box.getByTestId('email-body')).toContainText('My name is Ana Lopez, and my child, Maya Lopez, is in 5th grade at Oakwood Academy.');
}

test.describe('the legacy v2 embed', () => {
  test('loads once, only when a form comes near the viewport, over https', async ({ page, consoleErrors }) => {
    const requests = embedRequests(page);
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);
    await expect(page.locator('script[data-hubspot-embed]')).toHaveCount(0);

    await page.locator('#home-newsletter').scrollIntoViewIfNeeded();
    const home = page.locator('#form-newsletter-home');
    await expect(home.locator('form.hs-form')).toBeVisible();
    await page.locator('#site-footer').scrollIntoViewIfNeeded();
    await expect(page.locator('#form-newsletter-footer form.hs-form')).toBeVisible();
    expect(requests).toEqual([EMBED_V2]);
    await expect(page.locator('script[data-hubspot-embed="v2"]')).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { __fakeHubSpotCreated: number }).__fakeHubSpotCreated)).toBe(2);
    await expect(home).toHaveAttribute('data-state', 'ready');
    await expect(home).toHaveAttribute('aria-busy', 'false');
    await expect(home.locator('[data-hubspot-status]')).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('a slot removed before it is reached never loads the embed', async ({ page }) => {
    const requests = embedRequests(page);
    await page.goto('/');
    await page.evaluate(() => {
      for (const slot of document.querySelectorAll('[data-hubspot-form]')) slot.remove();
    });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(800);
    expect(requests).toEqual([]);
    await expect(page.locator('script[data-hubspot-embed]')).toHaveCount(0);
  });

  test('each form is named by purpose with the portal, region and form id of the configuration', async ({ page }) => {
    await page.goto('/partnership-form');
    const slot = page.locator('[data-hubspot-form][data-purpose="partnership"]');
    await expect(slot).toHaveAttribute('data-embed', 'v2');
    await expect(slot).toHaveAttribute('data-region', /^[a-z]{2}\d$/);
    await expect(slot).toHaveAttribute('data-portal-id', /^\d+$/);
    await expect(slot).toHaveAttribute('data-form-id', /^[0-9a-f-]{36}$/);
    await expect(slot.locator('form.hs-form')).toBeVisible();
    await expect(slot.locator('form.hs-form')).toHaveAttribute('data-form-id', (await slot.getAttribute('data-form-id'))!);
  });

  test('a form whose container is re-rendered is attached again', async ({ page }) => {
    await page.goto('/partnership-form');
    const slot = page.locator('[data-hubspot-form][data-purpose="partnership"]');
    await expect(slot.locator('form.hs-form')).toBeVisible();
    // The container is emptied, as a re-render would. The form is attached again at once (too soon
    // for a check to see the empty container), so the old form is marked: a new one replaces it.
    await slot.evaluate((el) => {
      el.querySelector<HTMLElement>('form.hs-form')!.dataset.before = 'emptied';
      el.querySelector('[data-hubspot-target]')?.replaceChildren();
    });
    await expect(slot.locator('form.hs-form:not([data-before])')).toBeVisible();
    await expect(slot.locator('form.hs-form')).toHaveCount(1);
    // The whole slot is re-rendered from its markup.
    await slot.evaluate((el) => el.replaceChildren());
    await expect(slot.locator('form.hs-form')).toBeVisible();
    await expect(slot.locator('form.hs-form')).toHaveCount(1);
    // A slot that arrives later (an island rendering one) is mounted too.
    await page.evaluate(() => {
      const original = document.querySelector<HTMLElement>('[data-hubspot-form][data-purpose="partnership"]')!;
      const copy = document.createElement('div');
      for (const name of [
        'data-hubspot-form',
        'data-purpose',
        'data-form-id',
        'data-portal-id',
        'data-region',
        'data-embed',
        'data-embed-src',
        'data-fallback-url',
      ]) {
        copy.setAttribute(name, original.getAttribute(name) ?? '');
      }
      copy.id = 'late-slot';
      original.after(copy);
    });
    await expect(page.locator('#late-slot form.hs-form')).toBeVisible();
    expect(await page.locator('script[data-hubspot-embed]').count()).toBe(1);
  });

  test('a submission is announced on the slot as hubspot:submitted', async ({ page }) => {
    await page.goto('/partnership-form');
    const slot = page.locator('[data-hubspot-form][data-purpose="partnership"]');
    await expect(slot.locator('form.hs-form')).toBeVisible();
    const submitted = await recordSubmissions(page);
    await slot.getByRole('textbox', { name: 'Email', exact: true }).fill('parent@example.com');
    await slot.getByRole('button', { name: 'Submit' }).click();
    await expect(slot.getByText('Thanks for submitting the form.')).toBeVisible();
    await expect.poll(async () => (await submitted()).length).toBe(1);
    const [detail] = await submitted();
    expect(detail!.formId).toBe(await slot.getAttribute('data-form-id'));
    expect(detail!.values.email).toBe('parent@example.com');
    // The thank-you message is not mistaken for a re-render.
    await page.waitForTimeout(600);
    await expect(slot.getByText('Thanks for submitting the form.')).toBeVisible();
  });

  test('the email form opens "Your Email is Ready" with the submitted values', async ({ page, consoleErrors }) => {
    await page.goto('/lead-the-change');
    const form = page.locator('#email-form [data-hubspot-form][data-embed="v2"] form.hs-form');
    await form.scrollIntoViewIfNeeded();
    await fillEmailForm(form);
    await expectTheEmail(page);
    expect(consoleErrors).toEqual([]);
  });

  test('the hsFormCallback message opens the dialog when the embed gives no callback', async ({ page }) => {
    await page.addInitScript(() => {
      (window as unknown as { __fakeHubSpot: unknown }).__fakeHubSpot = { noCallback: true };
    });
    await page.goto('/lead-the-change');
    // A message for another form is ignored.
    await page.evaluate(() =>
      window.postMessage(
        { type: 'hsFormCallback', eventName: 'onFormSubmitted', id: 'another-form', data: [{ name: 'school_name', value: 'Elsewhere' }] },
        '*',
      ),
    );
    await page.waitForTimeout(300);
    await expect(dialog(page)).toBeHidden();
    const form = page.locator('#email-form form.hs-form');
    await form.scrollIntoViewIfNeeded();
    await fillEmailForm(form);
    await expectTheEmail(page);
  });

  test('a form that is not the email form shows its success', async ({ page }) => {
    await page.goto('/form?type=newsletter');
    const slot = page.locator('[data-form-type="newsletter"] [data-hubspot-form][data-embed="v2"]');
    await slot.getByRole('textbox', { name: 'Email', exact: true }).fill('parent@example.com');
    await slot.getByRole('button', { name: 'Submit' }).click();
    await expect(slot.getByText('Thanks for submitting the form.')).toBeVisible();
    await expect(toast(page)).toContainText('Form Submitted Successfully!');
    await expect(dialog(page)).toBeHidden();
  });
});

test.describe('the v4 embed (forms of the updated editor)', () => {
  test('loads once, only when a form comes near the viewport, over https, and renders HubSpot’s frame', async ({ page, consoleErrors }) => {
    const requests = embedRequests(page);
    await page.goto('/events-webinars');
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);

    const slot = page.locator('[data-hubspot-form][data-purpose="webinarSignup"]');
    await expect(slot).toHaveAttribute('data-embed', 'v4');
    const frame = slot.locator('.hs-form-frame');
    await expect(frame).toHaveAttribute('data-form-id', (await slot.getAttribute('data-form-id'))!);
    await expect(frame).toHaveAttribute('data-portal-id', (await slot.getAttribute('data-portal-id'))!);
    await expect(frame).toHaveAttribute('data-region', (await slot.getAttribute('data-region'))!);
    await expect(frame).toBeEmpty();

    await slot.scrollIntoViewIfNeeded();
    await expect(slot).toHaveAttribute('data-state', 'ready');
    await expect(slot).toHaveAttribute('aria-busy', 'false');
    await expect(slot.locator('[data-hubspot-status]')).toBeHidden();
    await expect(slot.frameLocator('iframe.hs-form-iframe').getByLabel('Email', { exact: true })).toBeVisible();
    expect(requests.filter((url) => EMBED_V4.test(url))).toHaveLength(1);
    expect(requests.every((url) => url === EMBED_V2 || EMBED_V4.test(url))).toBe(true);
    expect(new Set(requests).size).toBe(requests.length);
    expect(consoleErrors).toEqual([]);
  });

  test('each script loads once on a page with both generations', async ({ page }) => {
    const requests = embedRequests(page);
    await page.goto('/form?type=toolkit');
    await expect(page.locator('[data-form-type="toolkit"] [data-hubspot-form]')).toHaveAttribute('data-state', 'ready');
    await page.locator('#site-footer').scrollIntoViewIfNeeded();
    await expect(page.locator('#form-newsletter-footer form.hs-form')).toBeVisible();
    expect(requests.filter((url) => url === EMBED_V2)).toHaveLength(1);
    expect(requests.filter((url) => EMBED_V4.test(url))).toHaveLength(1);
    await expect(page.locator('script[data-hubspot-embed="v4"]')).toHaveCount(1);
  });

  test('the referral form opens "Your Email is Ready" with the submitted values, and tracks the referral', async ({ page, consoleErrors }) => {
    const tracked: unknown[] = [];
    await page.route('**/api/referal-tracking', (route) => {
      tracked.push(route.request().postDataJSON());
      return route.fulfill({ json: { ok: true } });
    });
    await page.goto('/form?type=referSchool&ambassadorId=amb-7');
    const slot = page.locator('[data-form-type="referSchool"] [data-hubspot-form]');
    await expect(slot).toHaveAttribute('data-embed', 'v4');
    await expect(slot).toHaveAttribute('data-state', 'ready');
    // The hidden referral field is filled through HubSpot's form API (the form is in its frame).
    await expect
      .poll(() =>
        page.evaluate(async () => {
          type Form = { getFormId(): string; getFormFieldValues(): Promise<Array<{ name: string; value: unknown }>> };
          const api = (window as unknown as { HubSpotFormsV4: { getForms(): Form[] } }).HubSpotFormsV4;
          const formId = document.querySelector<HTMLElement>('[data-form-type="referSchool"]')!.dataset.formId;
          const form = api.getForms().find((item) => item.getFormId() === formId);
          return (await form!.getFormFieldValues()).find((field) => field.name === '0-1/referral_source')?.value;
        }),
      )
      .toBe('/form|ambassador:amb-7');

    const submitted = await recordSubmissions(page);
    await fillEmailForm(slot.frameLocator('iframe.hs-form-iframe'));
    await expectTheEmail(page);
    const [detail] = await submitted();
    expect(detail!.values).toMatchObject({
      email: 'ana@example.org',
      school_name: 'Oakwood Academy',
      city: 'Austin',
      referral_source: '/form|ambassador:amb-7',
    });
    expect(Object.keys(detail!.values).some((name) => name.includes('/'))).toBe(false);
    await expect
      .poll(() => tracked)
      .toEqual([
        { ambassadorId: 'amb-7', referralType: 'referSchool', formDetails: { school_name: 'Oakwood Academy', city: 'Austin', child_grade: '5th grade' } },
      ]);
    expect(consoleErrors).toEqual([]);
  });

  test('a form that is not the email form shows its success', async ({ page }) => {
    await page.goto('/form?type=toolkit');
    const form = page.locator('[data-form-type="toolkit"] [data-hubspot-form]').frameLocator('iframe.hs-form-iframe');
    await form.getByLabel('Email', { exact: true }).fill('parent@example.com');
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByText('Thanks for submitting the form.')).toBeVisible();
    await expect(toast(page)).toContainText('Form Submitted Successfully!');
    await expect(dialog(page)).toBeHidden();
  });

  test('a failed submission keeps the form and announces nothing', async ({ page, consoleErrors }) => {
    await page.addInitScript(() => {
      (window as unknown as { __fakeHubSpotV4: unknown }).__fakeHubSpotV4 = { fail: true };
    });
    await page.goto('/form?type=referSchool');
    const slot = page.locator('[data-form-type="referSchool"] [data-hubspot-form]');
    await expect(slot).toHaveAttribute('data-state', 'ready');
    await page.evaluate(() => {
      const win = window as unknown as { __failed: number };
      win.__failed = 0;
      window.addEventListener('hs-form-event:on-submission:failed', () => (win.__failed += 1));
    });
    const submitted = await recordSubmissions(page);
    const form = slot.frameLocator('iframe.hs-form-iframe');
    await fillEmailForm(form);
    await expect(form.getByRole('alert')).toHaveText('We could not submit the form. Please try again.');
    expect(await page.evaluate(() => (window as unknown as { __failed: number }).__failed)).toBe(1);
    await page.waitForTimeout(500);
    await expect(form.getByLabel('School name')).toHaveValue('Oakwood Academy');
    await expect(dialog(page)).toBeHidden();
    await expect(toast(page)).toHaveCount(0);
    await expect(slot).toHaveAttribute('data-state', 'ready');
    await expect(slot.locator('[data-hubspot-status]')).toBeHidden();
    expect(await submitted()).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('an embed that cannot load', () => {
  test.use({ embed: 'fail' });

  for (const { generation, path, purpose } of [
    { generation: 'v2', path: '/partnership-form', purpose: 'partnership' },
    { generation: 'v4', path: '/form?type=toolkit', purpose: 'toolkit' },
  ]) {
    test(`${generation}: the slot says so and offers a plain link`, async ({ page }) => {
      await page.goto(path);
      const slot = page.locator(`[data-hubspot-form][data-purpose="${purpose}"]`);
      await expect(slot).toHaveAttribute('data-embed', generation);
      const status = slot.locator('[data-hubspot-status]');
      await expect(status).toContainText('The form could not load right now.', { timeout: 6000 });
      await expect(status).toHaveAttribute('role', 'alert');
      const link = status.getByRole('link', { name: 'Open the form in a new tab' });
      await expect(link).toHaveAttribute('href', /^https:\/\/share\.hsforms\.com\/\d+\/[0-9a-f-]{36}$/);
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(slot).toHaveAttribute('aria-busy', 'false');
    });
  }
});

test.describe('an embed that never answers', () => {
  test('gives up after a few seconds with the fallback link', async ({ page }) => {
    await page.route(EMBED_V2, () => {
      // never fulfilled: the request hangs
    });
    // A script added before the load event holds it back: wait for the DOM only.
    await page.goto('/partnership-form', { waitUntil: 'domcontentloaded' });
    const status = page.locator('[data-hubspot-form][data-purpose="partnership"] [data-hubspot-status]');
    await expect(status).toContainText('Loading the form');
    await expect(status).toContainText('The form could not load right now.', { timeout: 8000 });
    await expect(status.getByRole('link', { name: 'Open the form in a new tab' })).toBeVisible();
  });
});
