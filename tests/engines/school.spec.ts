/**
 * In Firefox and WebKitGTK: a school's page, as a parent meets it. A delivered letter's share link
 * opens the page with the school's name, its
 * count and goal, and "Add your voice" with the school filled in (its address never on the page);
 * the second parent writes from there; an unknown key is a 404 page that offers the form.
 */
import { readFileSync } from 'node:fs';
import { baseURL } from '../../playwright.config';
import { linkTo, runMail, waitForEmail } from '../e2e/mail';
import type { EnginePage } from './driver';
import { expect, seen, sendEmailForm, test } from './fixtures';

const run = () => `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

const openDialogText = (site: EnginePage) =>
  site.evaluate(() => Array.from(document.querySelectorAll('dialog')).find((dialog) => dialog.open)?.textContent?.replace(/\s+/g, ' ') ?? '');

/**
 * The first parent's letter, sent by the platform the real way (the form's endpoint, "Send via our
 * platform", the confirmation link from their inbox in MailDev, confirmed, the mail run): only a
 * delivered letter publishes the school's page. Returns the share link the confirmation page offers.
 */
async function deliveredLetter(parent: string, school: { name: string; email: string }): Promise<string> {
  const definitions = JSON.parse(readFileSync('dist/api/form-definitions.json', 'utf8')) as Record<string, { purpose: string }>;
  const formId = Object.entries(definitions).find(([, definition]) => definition.purpose === 'emailGenerator')![0];
  const post = (path: string, body: string, type: string) => fetch(new URL(path, baseURL), { method: 'POST', headers: { 'content-type': type }, body });
  const submitted = await post(
    `/api/forms/${formId}`,
    JSON.stringify({ full_name: 'Ana Lopez', email: parent, child_full_name: 'Maya Lopez', child_grade: '5', school_name: school.name, school_contact_name: 'Dr. Patel', school_contact_email: school.email, choose_how_to_send_your_email: 'Send via our platform', _page: '/lead-the-change' }),
    'application/json',
  );
  expect(submitted.status).toBe(201);
  const { draft } = (await submitted.json()) as { draft: { id: string; token: string } };
  expect((await post('/api/send-email', JSON.stringify({ submissionId: draft.id, token: draft.token }), 'application/json')).status).toBe(202);
  const link = linkTo(await waitForEmail(parent, { subject: /^Please confirm your email to /, timeout: 20_000 }), '/confirm-send');
  const token = new URL(link, baseURL).searchParams.get('token')!;
  const confirmed = await post('/confirm-send', new URLSearchParams({ token, tz: '' }).toString(), 'application/x-www-form-urlencoded');
  expect(confirmed.status).toBe(200);
  const html = await confirmed.text();
  await runMail();
  await waitForEmail(school.email, { runs: true, timeout: 20_000 });
  return (/data-share-url="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&amp;/g, '&');
}

test('the share link of a delivered letter opens the school\'s page, where a second parent adds their voice', async ({ site }) => {
  const id = run();
  const school = { name: 'Juniper Academy', email: `head@juniper-${id}.edu` };
  const shareUrl = await deliveredLetter(`engines-first-${id}@example.org`, school);
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

test('an unknown school key is a 404 page that offers the email form', async ({ site }) => {
  await site.goto(`/schools/${'0'.repeat(32)}`);
  await expect.poll(() => seen(site, 'h1')).toBe('We could not find this school’s page');
  expect(await site.evaluate(() => Boolean(document.querySelector('#email-form form[data-native-form]')))).toBe(true);
});
