import { expect, test } from './fixtures';

const EMBED = 'https://js.hsforms.net/forms/embed/v2.js';

test.describe('embedded HubSpot forms', () => {
  test('the embed loads once, only when a form comes near the viewport, over https', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('hsforms')) requests.push(request.url());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);
    await expect(page.locator('script[data-hubspot-embed]')).toHaveCount(0);

    await page.locator('#home-newsletter').scrollIntoViewIfNeeded();
    const home = page.locator('#hs-form-newsletter-home');
    await expect(home.locator('form.hs-form')).toBeVisible();
    await page.locator('#site-footer').scrollIntoViewIfNeeded();
    await expect(page.locator('#hs-form-newsletter form.hs-form')).toBeVisible();
    expect(requests).toEqual([EMBED]);
    await expect(page.locator('script[data-hubspot-embed]')).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { __fakeHubSpotCreated: number }).__fakeHubSpotCreated)).toBe(2);
    await expect(home).toHaveAttribute('data-state', 'ready');
    await expect(home).toHaveAttribute('aria-busy', 'false');
    await expect(home.locator('[data-hubspot-status]')).toBeHidden();
  });

  test('a slot removed before it is reached never loads the embed', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('hsforms')) requests.push(request.url());
    });
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
    await expect(slot).toHaveAttribute('data-region', /^[a-z]{2}\d$/);
    await expect(slot).toHaveAttribute('data-portal-id', /^\d+$/);
    await expect(slot).toHaveAttribute('data-form-id', /^[0-9a-f-]{36}$/);
    await expect(slot.locator('form.hs-form')).toBeVisible();
    await expect(slot.locator('form.hs-form')).toHaveAttribute('data-form-id', (await slot.getAttribute('data-form-id'))!);
  });

  test('a form whose container is re-rendered is attached again', async ({ page }) => {
    await page.goto('/events-webinars');
    const slot = page.locator('[data-hubspot-form][data-purpose="webinarSignup"]');
    await slot.scrollIntoViewIfNeeded();
    await expect(slot.locator('form.hs-form')).toBeVisible();
    // The container is emptied, as a re-render would.
    await slot.evaluate((el) => el.querySelector('[data-hubspot-target]')?.replaceChildren());
    await expect(slot.locator('form.hs-form')).toHaveCount(0);
    await expect(slot.locator('form.hs-form')).toBeVisible();
    // The whole slot is re-rendered from its markup.
    await slot.evaluate((el) => el.replaceChildren());
    await expect(slot.locator('form.hs-form')).toBeVisible();
    await expect(slot.locator('form.hs-form')).toHaveCount(1);
    // A slot that arrives later (an island rendering one) is mounted too.
    await page.evaluate(() => {
      const original = document.querySelector<HTMLElement>('[data-hubspot-form][data-purpose="webinarSignup"]')!;
      const copy = document.createElement('div');
      for (const name of ['data-hubspot-form', 'data-purpose', 'data-form-id', 'data-portal-id', 'data-region', 'data-fallback-url']) {
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
    await page.evaluate(() => {
      (window as unknown as { __submitted: unknown[] }).__submitted = [];
      document.addEventListener('hubspot:submitted', (event) => (window as unknown as { __submitted: unknown[] }).__submitted.push((event as CustomEvent).detail));
    });
    await slot.getByRole('textbox', { name: 'Email', exact: true }).fill('parent@example.com');
    await slot.getByRole('button', { name: 'Submit' }).click();
    await expect(slot.getByText('Thanks for submitting the form.')).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __submitted: Array<{ values: Record<string, string> }> }).__submitted.length)).toBe(1);
    const [detail] = await page.evaluate(() => (window as unknown as { __submitted: Array<{ formId: string; values: Record<string, string> }> }).__submitted);
    expect(detail!.values.email).toBe('parent@example.com');
    // The thank-you message is not mistaken for a re-render.
    await page.waitForTimeout(600);
    await expect(slot.getByText('Thanks for submitting the form.')).toBeVisible();
  });
});

test.describe('an embed that cannot load', () => {
  test.use({ embed: 'fail' });

  test('the slot says so and offers a plain link', async ({ page }) => {
    await page.goto('/partnership-form');
    const slot = page.locator('[data-hubspot-form][data-purpose="partnership"]');
    const status = slot.locator('[data-hubspot-status]');
    await expect(status).toContainText('The form could not load right now.', { timeout: 6000 });
    await expect(status).toHaveAttribute('role', 'alert');
    const link = status.getByRole('link', { name: 'Open the form in a new tab' });
    await expect(link).toHaveAttribute('href', /^https:\/\/share\.hsforms\.com\/\d+\/[0-9a-f-]{36}$/);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(slot).toHaveAttribute('aria-busy', 'false');
  });
});

test.describe('an embed that never answers', () => {
  test('gives up after a few seconds with the fallback link', async ({ page }) => {
    await page.route(EMBED, () => {
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
