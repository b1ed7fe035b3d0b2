/**
 * In Firefox and WebKitGTK: a school's page, as a parent meets it. After "I've sent it myself" the
 * dialog offers the school's page to share; the link opens the page with the school's name, its
 * count and goal, and "Add your voice" with the school filled in (its address never on the page);
 * the second parent writes from there; an unknown key is a 404 page that offers the form.
 */
import type { EnginePage } from './driver';
import { expect, named, seen, sendEmailForm, test } from './fixtures';

const run = () => `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

const openDialogText = (site: EnginePage) =>
  site.evaluate(() => Array.from(document.querySelectorAll('dialog')).find((dialog) => dialog.open)?.textContent?.replace(/\s+/g, ' ') ?? '');

test('the share link after "I\'ve sent it myself" opens the school\'s page, where a second parent adds their voice', async ({ site }) => {
  const id = run();
  const school = { name: 'Juniper Academy', email: `head@juniper-${id}.edu` };
  await site.goto('/lead-the-change');
  await sendEmailForm(site, `engines-first-${id}@example.org`, school);
  await expect.poll(() => openDialogText(site), { timeout: 20_000 }).toContain('Your Email is Ready');
  // "I've sent it myself" appears once the parent has copied the email or opened it in their mail app.
  await site.click(await named(site, 'dialog[open] button', 'Copy'));
  await site.click(await named(site, 'dialog[open] button', "I've sent it myself"));
  await expect.poll(() => seen(site, '[data-testid="school-share"]'), { timeout: 15_000 }).toContain(`Bring the other parents at ${school.name}`);
  const shareUrl = await site.evaluate(() => (document.querySelector('[data-testid="school-share"] input') as HTMLInputElement | null)?.value ?? '');
  expect(shareUrl).toMatch(/\/schools\/[0-9a-f]{32}\?ref=/);

  const link = new URL(shareUrl);
  await site.goto(link.pathname + link.search);
  await expect.poll(() => seen(site, 'h1')).toBe(school.name);
  // The first parent's self-report is not confirmed yet: not counted.
  expect(await seen(site, '[data-school-count]')).toBe('0 parents have written');
  expect(await site.evaluate(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuemax'))).toBe('5');
  expect(await site.evaluate((address: string) => document.documentElement.outerHTML.includes(address), school.email)).toBe(false);
  expect(await site.evaluate(() => document.querySelector('#email-form [name="school_contact_email"]:not([type="hidden"])'))).toBeNull();
  expect(await site.evaluate(() => (document.querySelector('#email-form [name="school_name"]') as HTMLInputElement | null)?.value)).toBe(school.name);

  await sendEmailForm(site, `engines-second-${id}@example.org`);
  await expect.poll(() => openDialogText(site), { timeout: 20_000 }).toContain('Your Email is Ready');
  const to = await seen(site, '[data-testid="email-to"]');
  expect(to).toBe(`Dr. Patel <${school.email}>`);
});

test('an unknown school key is a 404 page that offers the email form', async ({ site }) => {
  await site.goto(`/schools/${'0'.repeat(32)}`);
  await expect.poll(() => seen(site, 'h1')).toBe('We could not find this school’s page');
  expect(await site.evaluate(() => Boolean(document.querySelector('#email-form form[data-native-form]')))).toBe(true);
});
