/**
 * A stranger's failed guesses for the owner's username do not lock the owner's known device out.
 * The guesses count against the username for every device without that cookie, so this file runs
 * in its own project after the others (playwright.config.ts, "lockout"): a test signing in at the
 * same moment from a fresh browser would otherwise meet the lock it provokes.
 */
import { e2eAdminPassword } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { auditFor, signInAsAdmin } from './helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

test("a stranger's failed guesses do not lock the signed-in device out", async ({ page, playwright, baseURL }) => {
  await signInAsAdmin(page);
  // `admin_device` over plain http to this machine; `__Host-admin_device`, Secure, over https.
  const device = (await page.context().cookies()).find((cookie) => cookie.name === 'admin_device');
  expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

  // A stranger (no cookies) on another network guesses the owner's password until refused.
  const stranger = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL!, 'x-forwarded-for': '192.0.2.77' } });
  try {
    const guess = async (i: number) => (await stranger.post('/api/admin/session', { data: { username: 'admin', password: `guess-${i}` } })).status();
    const statuses = [await guess(0)];
    // The local server takes the client's address from X-Forwarded-For; if it did not, every guess
    // would come from the browser's own address, and locking that would lock every other test out.
    // A failed or refused sign-in is logged with actor "unknown" and the name typed (a stranger is
    // not the admin); a sign-in that succeeded, under the admin's name.
    const newest = async (action: string, actor?: string) =>
      (
        (await (await page.request.get(`/api/admin/audit?${actor ? `actor=${actor}&` : ''}action=${action}&limit=1`)).json()) as {
          entries: Array<{ id: string; addressHash: string }>;
        }
      ).entries[0];
    const [failed, refused] = [await newest('sign_in.failed'), await newest('sign_in.refused')];
    const strangerAddress = (failed && refused ? (Number(failed.id) > Number(refused.id) ? failed : refused) : (failed ?? refused))?.addressHash;
    const ownerAddress = (await newest('sign_in.succeeded', 'admin'))?.addressHash;
    expect(strangerAddress, "the stranger's failed guess is on the audit log").toBeTruthy();
    test.skip(!strangerAddress || strangerAddress === ownerAddress, 'the local server does not take the client address from X-Forwarded-For');
    while (statuses.length < 7) statuses.push(await guess(statuses.length));
    // Refused after at most five wrong guesses (at once, if an earlier run locked that address).
    const locked = statuses.indexOf(429);
    expect(locked, statuses.join(' ')).toBeGreaterThanOrEqual(0);
    expect(locked).toBeLessThanOrEqual(5);
    expect(statuses.slice(0, locked).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(locked).every((status) => status === 429)).toBe(true);
  } finally {
    await stranger.dispose();
  }

  // The owner's device is still signed in, and can sign out and in again at once (which also
  // lifts what the stranger counted against the username for the owner's other devices).
  await page.reload();
  await expect(page.getByText('Signed in as')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible();

  // The stranger's failures are on the log.
  const panel = await auditFor(page, 'Sign-in refused (too many attempts)');
  await expect(panel.getByRole('row').filter({ hasText: 'admin' }).first()).toBeVisible();
});
