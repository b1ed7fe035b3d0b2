/**
 * Staff with passkeys, end to end, with Chromium's virtual authenticators (WebAuthn over CDP): the
 * bootstrap owner signs in with the admin password and registers a passkey; the password no longer
 * opens the page; the owner invites a staff member, who registers on another browser with their
 * own authenticator; staff cannot open owner settings (hidden, and 403 from the server); the owner
 * removes them and their next request is signed out; a stranger's guesses do not lock the owner
 * out; the audit log lists each step once.
 *
 * Once this spec has run, the site has an owner and the admin password is refused, so it runs in
 * its own project after every other one that signs in with the password (playwright.config.ts,
 * "passkeys"); it needs a site with no owner yet (npm test starts one from an empty database).
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { e2eAdminPassword } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { signInAsAdmin } from './helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
// One long walk: registrations, invitations, removals and a stranger's twelve refused guesses.
test.describe.configure({ timeout: 240_000 });
test.use({ actionTimeout: 20_000 });

const OWNER = 'owner@passkeys.example';
const STAFF = 'helper@passkeys.example';

/** A browser of its own with a virtual platform authenticator (resident keys, user verification). */
async function browserWithPasskeys(browser: Browser): Promise<{ context: BrowserContext; page: Page; credentials: () => Promise<number> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length;
  return { context, page, credentials };
}

async function auditCount(request: APIRequestContext, action: string, actor?: string): Promise<Array<{ actor: string; target: string | null }>> {
  const params = new URLSearchParams({ action, limit: '200' });
  if (actor) params.set('actor', actor);
  const answer = await request.get(`/api/admin/audit?${params}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { entries: Array<{ actor: string; target: string | null }> }).entries;
}

test('staff sign in with their own passkeys; the admin password only made the first owner', async ({ browser, playwright, baseURL }) => {
  const owner = await browserWithPasskeys(browser);
  const staff = await browserWithPasskeys(browser);
  try {
    await test.step('the bootstrap owner signs in with the password and registers a passkey', async () => {
      await signInAsAdmin(owner.page);
      const firstOwner = owner.page.getByRole('region', { name: "Become this site's first owner" });
      await expect(firstOwner).toBeVisible();
      await firstOwner.getByRole('textbox', { name: 'Your email address' }).fill(OWNER);
      await firstOwner.getByRole('button', { name: 'Register a passkey' }).click();
      await expect(owner.page.getByText(`Signed in as ${OWNER} (owner)`)).toBeVisible();
      await expect(firstOwner).toHaveCount(0);
      // The registration's button is gone with its card: focus moves to the signed-in line.
      await expect(owner.page.getByText(`Signed in as ${OWNER} (owner)`)).toBeFocused();
      expect(await owner.credentials()).toBe(1);
      await expect(owner.page.getByRole('tab', { name: 'Staff' })).toBeVisible();
    });

    await test.step('the old password no longer opens the page', async () => {
      const fresh = await browser.newContext();
      try {
        const page = await fresh.newPage();
        await page.goto('/webhook-config');
        await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
        await expect(page.getByLabel('Password')).toHaveCount(0);
        const answer = await page.request.post('/api/admin/session', {
          data: { username: 'admin', password: e2eAdminPassword },
          headers: { origin: baseURL! },
        });
        expect(answer.status()).toBe(403);
        expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/This site's staff sign in with passkeys/);
      } finally {
        await fresh.close();
      }
    });

    let invitation = '';
    await test.step('the owner invites a staff member and is shown the link', async () => {
      await owner.page.getByRole('tab', { name: 'Staff' }).click();
      const panel = owner.page.getByRole('tabpanel');
      await panel.getByRole('textbox', { name: 'Email address' }).fill(STAFF);
      await panel.getByRole('combobox', { name: 'Role' }).selectOption('staff');
      await panel.getByRole('button', { name: 'Invite', exact: true }).click();
      const link = panel.getByLabel(/Invitation link for/);
      await expect(link).toBeFocused();
      invitation = new URL(await link.inputValue()).searchParams.get('invite')!;
      expect(invitation).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    await test.step('the staff member registers a passkey on their own browser and is signed in', async () => {
      await staff.page.goto(`/webhook-config?invite=${invitation}`);
      await expect(staff.page.getByRole('heading', { name: 'Join the staff' })).toBeVisible();
      await expect(staff.page.getByText(STAFF)).toBeVisible();
      await staff.page.getByRole('button', { name: 'Create a passkey' }).click();
      await expect(staff.page.getByText(`Signed in as ${STAFF} (staff)`)).toBeFocused();
      expect(new URL(staff.page.url()).searchParams.has('invite')).toBe(false);
      expect(await staff.credentials()).toBe(1);
    });

    await test.step('the link works once', async () => {
      const fresh = await browser.newContext();
      try {
        const answer = await fresh.request.post('/api/admin/invitation', { data: { token: invitation }, headers: { origin: baseURL! } });
        expect(answer.status()).toBe(410);
      } finally {
        await fresh.close();
      }
    });

    await test.step('staff cannot open owner settings: the tabs are hidden and the server refuses', async () => {
      const tabs = staff.page.getByRole('tab');
      await expect(tabs.first()).toBeVisible();
      for (const name of ['Webhooks', 'CRM Config', 'Test Connections', 'Audit', 'Staff'])
        await expect(staff.page.getByRole('tab', { name, exact: true })).toHaveCount(0);
      for (const name of ['Activity Logs', 'Form Submissions', 'Outbox', 'Impact'])
        await expect(staff.page.getByRole('tab', { name, exact: true })).toBeVisible();
      await expect(staff.page.getByRole('button', { name: 'Sign everyone out' })).toHaveCount(0);
      expect((await staff.page.request.get('/api/hubspot-config')).status()).toBe(403);
      expect((await staff.page.request.get('/api/admin/outbox')).status()).toBe(200);
    });

    await test.step('the owner removes the staff member: their next request is signed out', async () => {
      await owner.page.getByRole('tab', { name: 'Outbox' }).click();
      await owner.page.getByRole('tab', { name: 'Staff' }).click();
      const panel = owner.page.getByRole('tabpanel');
      await panel.getByRole('button', { name: `Remove ${STAFF}`, exact: true }).click();
      const dialog = owner.page.getByRole('dialog', { name: `Remove ${STAFF}?` });
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect(panel.getByText(`${STAFF} was removed; their sessions have ended.`)).toBeAttached();
      await expect(panel.getByRole('rowheader', { name: STAFF })).toHaveCount(0);

      expect((await staff.page.request.get('/api/admin/outbox')).status()).toBe(401);
      await staff.page.getByRole('tab', { name: 'Impact' }).click();
      await expect(staff.page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      // The tab they were on is gone: focus moves to the sign-in's heading.
      await expect(staff.page.getByRole('heading', { name: 'Sign in' })).toBeFocused();
      // Their passkey no longer signs in.
      await staff.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(staff.page.getByRole('alert')).toContainText('This passkey could not sign you in');
    });

    await test.step("a stranger's failed guesses do not lock the owner out", async () => {
      for (const address of ['192.0.2.78', undefined]) {
        const stranger = await playwright.request.newContext({
          baseURL,
          extraHTTPHeaders: { origin: baseURL!, ...(address ? { 'x-forwarded-for': address } : {}) },
        });
        try {
          // Six from each, twelve in all: past the five for one username from one address and the
          // ten for one username from anywhere, had the refused password still counted.
          for (let i = 0; i < 6; i++) {
            const status = (await stranger.post('/api/admin/session', { data: { username: 'admin', password: `guess-${i}` } })).status();
            expect([403, 429]).toContain(status);
          }
        } finally {
          await stranger.dispose();
        }
      }
      await owner.page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await owner.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(owner.page.getByText(`Signed in as ${OWNER} (owner)`)).toBeFocused();
    });

    await test.step('the audit log lists each step once', async () => {
      const request = owner.page.request;
      expect(await auditCount(request, 'staff.first_owner')).toEqual([expect.objectContaining({ actor: OWNER })]);
      expect(await auditCount(request, 'invitation.created')).toEqual([expect.objectContaining({ actor: OWNER, target: `${STAFF} as staff` })]);
      expect(await auditCount(request, 'invitation.used')).toEqual([expect.objectContaining({ actor: STAFF, target: 'as staff' })]);
      expect(await auditCount(request, 'invitation.refused')).toEqual([expect.objectContaining({ actor: STAFF, target: 'already used' })]);
      expect((await auditCount(request, 'passkey.added')).map((entry) => entry.actor).sort()).toEqual([STAFF, OWNER].sort());
      expect(await auditCount(request, 'staff.forbidden')).toEqual([expect.objectContaining({ actor: STAFF, target: 'GET /api/hubspot-config' })]);
      expect(await auditCount(request, 'staff.removed')).toEqual([expect.objectContaining({ actor: OWNER, target: `${STAFF} (staff)` })]);
      expect(await auditCount(request, 'sign_in.passkey', OWNER)).toHaveLength(1);
      expect(await auditCount(request, 'sign_in.passkey_failed', STAFF)).toHaveLength(0);
      expect((await auditCount(request, 'sign_in.passkey_failed')).length).toBeGreaterThanOrEqual(1);
      // The password tried once the owner existed: refusals folded per network and window.
      expect(await auditCount(request, 'sign_in.password_refused')).not.toHaveLength(0);

      // And the Audit tab shows them.
      await owner.page.getByRole('tab', { name: 'Audit' }).click();
      const panel = owner.page.getByRole('tabpanel');
      await panel.getByLabel('Action').selectOption({ label: 'Person removed' });
      await panel.getByRole('button', { name: 'Show' }).click();
      await expect(panel.getByRole('row').filter({ hasText: `${STAFF} (staff)` })).toHaveCount(1);
    });
  } finally {
    await owner.context.close();
    await staff.context.close();
  }
});
