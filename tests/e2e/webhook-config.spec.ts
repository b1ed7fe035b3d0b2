import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { e2eAdminPassword, fakeUrls } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { animationsDone, atEachSize, axeViolations, pageWidth, wcagTags } from './widths';

// Each step is a function call with a database read or two: on a busy two-core machine that is slow.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

async function signIn(page: Page) {
  await page.goto('/webhook-config');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible();
}

const toast = (page: Page) => page.locator('toast-region');

test('sign-in refuses a wrong password, then signs in and out', async ({ page, consoleErrors }) => {
  await page.goto('/webhook-config');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhook Configuration');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Nothing of the admin page is there before signing in.
  await expect(page.getByRole('tablist')).toHaveCount(0);

  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await expect(page.getByRole('tablist')).toHaveCount(0);

  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('tablist', { name: 'Admin sections' })).toBeVisible();
  // The form is gone: focus moves to the signed-in view instead of falling to the page's body.
  await expect(page.getByText('Signed in as')).toBeFocused();
  // Over plain http to this machine the cookie has no __Host- prefix and is not Secure (Firefox and
  // Safari refuse those there); over https it is `__Host-admin_session`, Secure (unit-tested).
  const cookie = (await page.context().cookies()).find((c) => c.name === 'admin_session');
  expect(cookie).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Strict', path: '/' });

  // The session survives a reload, and signing out ends it. The first tab's list is held on its way
  // until then: its answer, a 401 after the sign-out, must not replace the notice the person was given.
  let release = () => {};
  const signedOut = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/calendly-webhooks', async (route) => {
    await signedOut;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByText('Signed in as')).toBeVisible();
  // Opening the page signed in takes no focus; only a person's own action moves it.
  await expect(page.getByText('Signed in as')).not.toBeFocused();
  const sessionCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/admin/session') sessionCalls.push(request.method());
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeFocused();
  await expect(page.getByText('You have signed out.')).toBeVisible();
  const late = page.waitForResponse('**/api/calendly-webhooks');
  release();
  const answer = await late;
  expect(answer.status()).toBe(401);
  await answer.finished();
  // The page has read that answer (a few of its tasks later): no new check of the session followed.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
  expect(sessionCalls).toEqual(['DELETE', 'GET']);
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await page.unroute('**/api/calendly-webhooks');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeEnabled();
  expect(consoleErrors.filter((e) => !/401/.test(e))).toEqual([]);
});

test('without JavaScript the sign-in does not guess whether the site has an owner', async ({ browser }) => {
  // (Its <noscript> line, "This page needs JavaScript…", Chromium shows only when scripting is off
  // for the whole browser, not a context: the engines' no-script proxy is where a browser shows it.)
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/webhook-config');
  const signIn = page.getByRole('region', { name: 'Sign in' });
  await expect(signIn).toContainText('Staff sign in with their own passkey.');
  // What the server knows (owner or not) is asked by the script; the prerendered page claims neither.
  await expect(signIn).not.toContainText('no owner yet');
  await expect(page.getByLabel('Password')).toBeDisabled();
  await context.close();
});

test('the tabs work with the keyboard', async ({ page }) => {
  await signIn(page);
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveText([
    'Webhooks',
    'CRM Config',
    'Activity Logs',
    'Test Connections',
    'Form Submissions',
    'Outbox',
    'Schools',
    'Review',
    'Mail',
    'Impact',
    'Insights',
    'Abuse',
    'Audit',
    'Staff',
  ]);
  // All fourteen fit inside their bar at 1280 px (they wrap; "Staff" once stuck out past its edge).
  const bar = (await page.getByRole('tablist').boundingBox())!;
  for (const box of await tabs.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect))) {
    expect(box.x).toBeGreaterThanOrEqual(bar.x);
    expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  }
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Webhooks' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'CRM Config' })).toBeFocused();
  await expect(page.getByRole('tabpanel')).toContainText('HubSpot Configuration');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tabpanel')).toContainText('Activity Logs');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Test Connections' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('Calendly connection');
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Staff' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', (await page.getByRole('tab', { name: 'Webhooks' }).getAttribute('id')) ?? '');
});

test('Add Webhook shows the validation messages, then creates, deactivates and deletes a webhook', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Add Webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Webhook' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Calendly webhook URL').fill('not a url');
  await dialog.getByRole('button', { name: 'Create Webhook' }).click();
  for (const message of ['Name is required', 'Must be a valid URL', 'At least one event must be selected', 'Scope is required', 'Organization is required']) {
    await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

  const name = `Strategy calls ${Date.now()}`;
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('Intro call bookings');
  await dialog.getByLabel('Calendly webhook URL').fill('https://example.org/api/calendly/webhook');
  await dialog.getByLabel('invitee.created').check();
  await dialog.getByLabel('Scope').selectOption('organization');
  await dialog.getByLabel('Organization').fill('https://api.calendly.com/organizations/FAKEORG000000001');
  await expect(dialog.getByLabel('Active')).toBeChecked();
  await dialog.getByRole('button', { name: 'Create Webhook' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page)).toContainText('Webhook configuration created successfully');

  const card = page.getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Active');
  await expect(card).toContainText('invitee.created');
  await expect(card).toContainText('https://example.org/api/calendly/webhook');
  await expect(card).toContainText('organization');

  await card.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(card.getByText('Inactive', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
});

test('a signed Calendly delivery shows as a log row and reaches the HubSpot contact', async ({ page, request }) => {
  await signIn(page);
  const signingKey = `e2e-signing-key-${Date.now()}-0123456789`;
  const name = `Receiver ${Date.now()}`;
  await page.getByRole('button', { name: 'Add Webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Webhook' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('invitee.created').check();
  await dialog.getByLabel('Scope').selectOption('organization');
  await dialog.getByLabel('Organization').fill('https://api.calendly.com/organizations/FAKEORG000000001');
  await dialog.getByLabel('Signing key').fill(signingKey);
  await dialog.getByRole('button', { name: 'Create Webhook' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toBeVisible();

  const email = `booked-${Date.now()}@example.org`;
  const inviteeUuid = `E2EINVITEE${Date.now()}`;
  await request.post(`${fakeUrls.hubspot}/__fake/contacts`, { data: { email } });
  const body = JSON.stringify({
    event: 'invitee.created',
    created_at: new Date().toISOString(),
    payload: {
      uri: `https://api.calendly.com/scheduled_events/E2E/invitees/${inviteeUuid}`,
      email,
      name: 'E2E Parent',
      scheduled_event: {
        start_time: '2026-03-01T15:00:00.000000Z',
        location: { type: 'zoom', join_url: 'https://zoom.example/j/e2e' },
        event_memberships: [{ user_name: 'Robin Host' }],
      },
    },
  });
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', signingKey).update(`${t}.${body}`).digest('hex');
  const unsigned = await request.post('/api/calendly/webhook', { data: body, headers: { 'content-type': 'application/json' } });
  expect(unsigned.status()).toBe(401);
  const delivered = await request.post('/api/calendly/webhook', {
    data: body,
    headers: { 'content-type': 'application/json', 'calendly-webhook-signature': `t=${t},v1=${signature}` },
  });
  expect(delivered.status()).toBe(200);

  const contacts = (await (await request.get(`${fakeUrls.hubspot}/__fake/contacts`)).json()) as { contacts: Array<{ properties: Record<string, string> }> };
  expect(contacts.contacts.find((c) => c.properties.email === email)?.properties).toMatchObject({
    meeting_link: 'https://zoom.example/j/e2e',
    calendly_assigned_host: 'Robin Host',
  });

  // Issue 21: /thank-you gets the meeting link for this booking (its invitee_uuid and email), from
  // the logged signed delivery; the same email with another uuid gets nothing.
  const thanks = await page.context().newPage();
  await thanks.goto(`/thank-you?invitee_full_name=E2E%20Parent&invitee_email=${encodeURIComponent(email)}&invitee_uuid=${inviteeUuid}`);
  await expect(thanks.getByRole('link', { name: /Join Meeting/ })).toHaveAttribute('href', 'https://zoom.example/j/e2e');
  const other = await request.post('/api/hubspot/search-contact', { data: { email, inviteeUuid: `${inviteeUuid}X` } });
  expect(await other.json()).toEqual({ found: false });
  await thanks.close();

  await page.getByRole('tab', { name: 'Activity Logs' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Timestamp', 'Event Type', 'Status', 'HubSpot Sync', 'Actions']);
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText('invitee.created');
  await expect(row.getByText('success')).toHaveCount(2);
  await row.getByRole('button', { name: 'View payload' }).click();
  await expect(page.getByRole('dialog', { name: 'Webhook payload' })).toContainText(email);
  await page.keyboard.press('Escape');

  // Tidy up, and a delivery signed with a deleted webhook's key is refused.
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
  const later = Math.floor(Date.now() / 1000);
  const afterDelete = await request.post('/api/calendly/webhook', {
    data: body,
    headers: {
      'content-type': 'application/json',
      'calendly-webhook-signature': `t=${later},v1=${createHmac('sha256', signingKey).update(`${later}.${body}`).digest('hex')}`,
    },
  });
  expect(afterDelete.status()).toBe(401);
});

test('CRM Config stores a token and shows it masked', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'CRM Config' }).click();
  await page.getByRole('button', { name: 'Add Configuration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add HubSpot Configuration' });
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(dialog.getByText('Name is required', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Access token is required', { exact: true })).toBeVisible();
  const name = `Main portal ${Date.now()}`;
  await dialog.getByLabel('Name').fill(name);
  // The same token as the environment's, so other tests' HubSpot sync keeps working.
  await dialog.getByLabel('Access token').fill('fake-hubspot-token');
  await dialog.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(toast(page)).toContainText('HubSpot configuration created successfully');
  const card = page.getByRole('article').filter({ hasText: name });
  await expect(card).toContainText('Active');
  await expect(card).toContainText('••••••••oken');
  await expect(card).toContainText('Last updated');
  expect(await page.content()).not.toContain('fake-hubspot-token');
});

test('Test Connections asks for a token and reports both outcomes', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Test Connections' }).click();
  await page.getByRole('button', { name: 'Test HubSpot Connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Test HubSpot Connection' });
  await dialog.getByRole('button', { name: 'Test Connection' }).click();
  await expect(dialog.getByText('Access token is required', { exact: true })).toBeVisible();
  await dialog.getByLabel('Access token').fill('fake-hubspot-token');
  await dialog.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toast(page)).toContainText('HubSpot connection test successful');

  await page.getByRole('button', { name: 'Test Calendly Connection' }).click();
  const calendly = page.getByRole('dialog', { name: 'Test Calendly Connection' });
  await calendly.getByLabel('Access token').fill('not-a-calendly-token');
  await calendly.getByRole('button', { name: 'Test Connection' }).click();
  await expect(toast(page)).toContainText('Connection Failed');
  await expect(toast(page)).toContainText('Calendly refused this access token');
});

// One sign-in for both widths: each tab is opened once, checked at one width, resized to the other
// and checked again (tests/e2e/widths.ts). The tabs are in two tests, one a worker, each signing in
// once. The Audit tab's "Sign everyone out?" confirmation is checked here too (it was a test of its
// own in audit.spec.ts, at each width, each signing in again for it).
// At 390 px, where a tab must also fit, in the gate (`npm test`); at 1280 px in the full run (`npm
// run test:full`, the `@full` tag): the tabs' markup and colours are the same at both widths.
for (const width of [390, 1280]) {
  test.describe(`signed in, at ${width} px`, () => {
    test.describe.configure({ timeout: 180_000 });
    const sizes = [{ width, height: 844 }];
    const tag = width === 390 ? {} : { tag: '@full' };

    /**
     * Opens each tab, waits for its content, and checks it: axe, and that the page
     * fits; `ready` waits for more of a tab, `after` checks more once it has been checked.
     */
    async function checkTabs(
      page: Page,
      tabs: ReadonlyArray<readonly [string, RegExp]>,
      { ready: readyMore, after }: { ready?: (tab: string) => Promise<void>; after?: (tab: string) => Promise<void> } = {},
    ) {
      const panel = page.getByRole('tabpanel');
      for (const [tab, ready] of tabs) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(panel).toContainText(ready);
        await expect(panel.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
        await readyMore?.(tab);
        await atEachSize(page, sizes, async ({ width }) => {
          await animationsDone(page);
          expect(await axeViolations(page), `${tab}: axe at ${width} px`).toEqual([]);
          expect(await pageWidth(page), `${tab}: page width at ${width} px`).toBeLessThanOrEqual(width);
        });
        await after?.(tab);
      }
    }

    test(
      `the Webhooks, CRM Config, Activity Logs, Test Connections and Form Submissions tabs and the Add Webhook dialog have no axe violations and fit at ${width} px`,
      tag,
      async ({ page }) => {
        await page.setViewportSize(sizes[0]!);
        await signIn(page);
        await checkTabs(page, [
          ['Webhooks', /Calendly Webhooks/],
          ['CRM Config', /HubSpot Configuration/],
          ['Activity Logs', /Activity Logs/],
          ['Test Connections', /Nothing you enter here is stored/],
          ['Form Submissions', /What the site’s forms received/],
        ]);
        await page.getByRole('tab', { name: 'Webhooks' }).click();
        await page.getByRole('button', { name: 'Add Webhook' }).click();
        await page.getByRole('dialog', { name: 'Add Webhook' }).getByRole('button', { name: 'Create Webhook' }).click();
        await expect(page.getByText('Name is required')).toBeVisible();
        await atEachSize(page, sizes, async ({ width }) => {
          await animationsDone(page);
          expect(await axeViolations(page), `Add Webhook: axe at ${width} px`).toEqual([]);
        });
      },
    );

    test(
      `the Outbox, Impact, Abuse, Audit and Staff tabs and the "Sign everyone out?" confirmation have no axe violations and fit at ${width} px`,
      tag,
      async ({ page }) => {
        await page.setViewportSize(sizes[0]!);
        await signIn(page);
        await checkTabs(
          page,
          [
            ['Outbox', /School emails, newest first/],
            ['Impact', /Impact/],
            ['Abuse', /Abuse watch/],
            ['Audit', /Kept for one year/],
            ['Staff', /Invite a person/],
          ],
          {
            // The Audit tab is checked with an entry in its table (this sign-in's, at least).
            ready: async (tab) => {
              if (tab === 'Audit') await expect(page.getByRole('tabpanel').getByRole('row').nth(1)).toBeVisible();
            },
            // The confirmation of "Sign everyone out", cancelled.
            after: async (tab) => {
              if (tab !== 'Audit') return;
              await page.getByRole('button', { name: 'Sign everyone out' }).click();
              const confirm = page.getByRole('dialog', { name: 'Sign everyone out?' });
              await expect(confirm).toBeVisible();
              await atEachSize(page, sizes, async ({ width }) => {
                expect(await axeViolations(page, { tags: wcagTags }), `Sign everyone out?: axe at ${width} px`).toEqual([]);
              });
              await confirm.getByRole('button', { name: 'Cancel' }).click();
            },
          },
        );
      },
    );
  });
}
