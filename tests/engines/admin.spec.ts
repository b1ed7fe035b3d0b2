/**
 * In Firefox and WebKitGTK: the admin signs in on /webhook-config and opens a tab; without JavaScript, the sign-in claims nothing it cannot know.
 * In the full run only (`@full`): staff use the admin in a browser of their choosing, and the gate proves the same sign-in in Chromium
 * (webhook-config.spec.ts, admin-phone.spec.ts); docs/testing.md, "The gate and the full run".
 */
import { e2eAdminPassword } from '../../playwright.config';
import { expect, named, seen, test } from './fixtures';

test('the admin signs in and opens the Form Submissions tab', { tag: '@full' }, async ({ site }) => {
  await site.goto('/webhook-config');
  await expect.poll(() => seen(site, 'h1, h2')).toMatch(/Sign in|Webhook/);
  await expect.poll(() => site.evaluate(() => (document.querySelector('input[name="username"]') as HTMLInputElement | null)?.value)).toBe('admin');
  // The form is enabled (its fieldset) once the page has asked the server whether anyone is signed in.
  await expect.poll(() => site.evaluate(() => document.querySelector('input[type="password"]')?.matches(':disabled'))).toBe(false);
  await site.type('input[type="password"]', e2eAdminPassword);
  await site.click(await named(site, 'button', 'Sign in'));
  const tab = await named(site, '[role="tab"]', 'Form Submissions');
  await site.click(tab);
  await expect.poll(() => site.evaluate((css: string) => document.querySelector(css)?.getAttribute('aria-selected'), tab)).toBe('true');
  await expect.poll(() => seen(site, '[role="tabpanel"]')).toMatch(/submission|form/i);
});

test('a session opened from the page is kept by the browser over http://localhost and survives a reload', { tag: '@full' }, async ({ site }) => {
  await site.goto('/webhook-config');
  await expect.poll(() => site.evaluate(() => document.querySelector('input[type="password"]')?.matches(':disabled'))).toBe(false);
  // The same request the form sends, from the page (same origin).
  const status = await site.evaluate(
    (password: string) =>
      fetch('/api/admin/session', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      }).then((r) => r.status),
    e2eAdminPassword,
  );
  expect(status).toBe(200);
  await site.goto('/webhook-config');
  await expect.poll(() => seen(site, '[role="tablist"]')).toMatch(/Form Submissions/);
});

test('without JavaScript the sign-in does not guess whether the site has an owner', { tag: '@full' }, async ({ noScript }) => {
  // (Scripts forbidden by the proxy's policy leave scripting on, so the page's <noscript> line does
  // not show here; a browser with JavaScript turned off shows it.)
  await noScript.goto('/webhook-config');
  await expect.poll(() => seen(noScript, 'section[aria-labelledby="sign-in-title"]')).toContain('Sign in');
  const signIn = await seen(noScript, 'section[aria-labelledby="sign-in-title"]');
  expect(signIn).toContain('Staff sign in with their own passkey.');
  expect(signIn).not.toContain('no owner yet');
});
