/**
 * In Firefox and WebKitGTK: a school's page, as a parent meets it. A delivered letter's share link
 * (to a school staff verified)
 * opens the page with the school's name, its count and goal, and "Add your voice" with the school
 * filled in (its address never on the page); the second parent writes from there; an unknown key is
 * a 404 page that offers the form.
 */
import { request } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { knownSchool, platformSentByParent } from '../e2e/school-campaign-helpers';
import type { EnginePage } from './driver';
import { expect, seen, sendEmailForm, test } from './fixtures';

const run = () => `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

const openDialogText = (site: EnginePage) =>
  site.evaluate(
    () =>
      Array.from(document.querySelectorAll('dialog'))
        .find((dialog) => dialog.open)
        ?.textContent?.replace(/\s+/g, ' ') ?? '',
  );

test("the share link of a delivered letter opens the school's page, where a second parent adds their voice", async ({ site }) => {
  const id = run();
  const school = { name: 'Juniper Academy', email: `head@juniper-${id}.edu` };
  // Juniper Academy is a school staff verified; a letter delivered to it counts on its page. The
  // first parent's goes through the platform the real way (the form, the confirmation link from
  // their inbox in MailDev, the mail run).
  const api = await request.newContext({ baseURL });
  await knownSchool(api, school);
  const shareUrl = await platformSentByParent(api, `engines-first-${id}@example.org`, school);
  await api.dispose();
  expect(shareUrl).toMatch(/\/schools\/juniper-academy-[0-9a-f]{32}\?ref=/);

  const link = new URL(shareUrl);
  await site.goto(link.pathname + link.search);
  await expect.poll(() => seen(site, 'h1')).toBe(school.name);
  // The first parent's letter went: counted.
  expect(await seen(site, '[data-school-count]')).toBe('1 parent has written');
  expect(await site.evaluate(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuemax'))).toBe('5');
  expect(await site.evaluate((address: string) => document.documentElement.outerHTML.includes(address), school.email)).toBe(false);
  expect(await site.evaluate(() => document.querySelector('#email-form [name="school_contact_email"]:not([type="hidden"])'))).toBeNull();
  expect(await site.evaluate(() => (document.querySelector('#email-form [name="school_name"]') as HTMLInputElement | null)?.value)).toBe(school.name);

  await sendEmailForm(site, `engines-second-${id}@example.org`);
  await expect.poll(() => openDialogText(site), { timeout: 20_000 }).toContain('Your Email is Ready');
  const to = await seen(site, '[data-testid="email-to"]');
  expect(to).toBe(`Dr. Patel <${school.email}>`);
});

test('an unknown school key is a 404 page that offers the email form', { tag: '@full' }, async ({ site }) => {
  await site.goto(`/schools/${'0'.repeat(32)}`);
  await expect.poll(() => seen(site, 'h1')).toBe('We could not find this school’s page');
  expect(await site.evaluate(() => Boolean(document.querySelector('#email-form form[data-native-form]')))).toBe(true);
});
