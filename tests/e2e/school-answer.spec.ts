/**
 * "Did your school answer?": a parent who sent their school email is asked later (here at once:
 * FOLLOWUP_AFTER_DAYS=0), answers with one tap from the link in the follow-up email (read from MailDev), and
 * is thanked with the next step; the answers move the public figures and the admin's Impact tab,
 * which downloads as CSV. Serial: the figures count every answer of the run.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { e2eAdminPassword, fakeUrls } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { runMark } from './helpers';
import { axeViolations, wcagTags } from './widths';
import { emailsTo, followUpLink, linkTo, waitForEmail } from './mail';
import { approveClaims, knownSchool, platformSentByParent } from './school-campaign-helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const run = runMark();

async function contactOf(email: string): Promise<Record<string, string> | undefined> {
  const response = await fetch(`${fakeUrls.hubspot}/__fake/contacts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { contacts } = (await response.json()) as { contacts: Array<{ properties: Record<string, string> }> };
  return contacts.find((contact) => contact.properties.email === email)?.properties;
}

function axe(page: Page): Promise<string[]> {
  return axeViolations(page, { tags: wcagTags });
}

test('the parent is asked, answers with one tap, is thanked with the next step; the answer reaches the contact', async ({ page, request }) => {
  // The dialog's "I've sent it myself", as a parent uses it.
  const parent = `answer-${run}@example.org`;
  await page.goto('/lead-the-change');
  const form = page.locator('#email-form form[data-native-form]');
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(parent);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill('Grade 5');
  await form.getByLabel(/^School name/).fill('Cedar Academy');
  await form.getByLabel(/School contact name/).fill('Ms. Cole');
  await form.getByLabel(/School contact email/).fill(`head@cedar-${run}.edu`);
  await form.getByLabel("I'll send it myself").check();
  await form.locator('[data-submit]').click();
  const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await dialog.getByRole('button', { name: "I've sent it myself" }).click();
  // Nothing is recorded until the parent confirms it from their own inbox.
  await expect(dialog.getByTestId('self-check-inbox')).toContainText('Check your inbox.');
  const check = linkTo(await waitForEmail(parent, { subject: /^Did you send your letter/, timeout: 20_000 }), '/confirm-send');
  await page.goto(check);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Did you send your letter to Ms\. Cole\?$/);
  await page.getByRole('button', { name: 'Yes, I sent it' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for writing to your school');

  const link = await followUpLink(parent);
  // Cedar Academy is a school the site does not know: its typed name is in no subject the site sends.
  expect((await emailsTo(parent)).map((email) => email.subject)).toContain('Did your school answer your letter?');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Did Cedar Academy answer?');
  expect(await axe(page)).toEqual([]);
  await page.getByLabel('We have a meeting').check();
  await page.getByLabel(/Anything to add/).fill('Meeting with the head on Monday.');
  await page.getByRole('button', { name: 'Save my answer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Wonderful: you have a meeting!');
  await expect(page.getByRole('link', { name: /Book a call with our team/ })).toBeVisible();
  expect(await axe(page)).toEqual([]);
  await expect
    .poll(async () => {
      await request.post('/.netlify/functions/school-followup');
      return (await contactOf(parent))?.school_answer;
    })
    .toBe('meeting');

  // "No reply yet" instead: a ready follow-up email to copy. The same link changes the answer.
  await page.goto(link);
  await expect(page.getByLabel('We have a meeting')).toBeChecked();
  await page.getByLabel('No reply yet').check();
  await page.getByRole('button', { name: 'Save my answer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('a gentle nudge');
  await expect(page.getByRole('link', { name: /Open in my email app/ })).toHaveAttribute('href', /^mailto:head@cedar-/);
});

test('without JavaScript the answer page works the same', async ({ browser, request }) => {
  const parent = `nojs-${run}@example.org`;
  await platformSentByParent(request, parent, { name: 'Elm School', email: `office@elm-${run}.edu` });
  const link = await followUpLink(parent);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel('They replied and answered').check();
  await page.getByRole('button', { name: 'Save my answer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Great news: they replied!');
  await context.close();
});

test('a forged or broken link gets a clear page, and the stored answer stays', async ({ page }) => {
  await page.goto('/school-answer?token=forged.token.value');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/not valid|expired/i);
  await page.goto('/school-answer');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/not valid|expired/i);
});

test('answers from five schools move the public figures; the Impact tab shows them and downloads a CSV', async ({ page, request }) => {
  for (let n = 0; n < 5; n++) {
    const parent = `impact-${n}-${run}@example.org`;
    // Only letters the platform delivered after the parent confirmed, to a school staff verified, count;
    // a meeting counts once staff approve it.
    const school = { name: `Oak ${n} ${run}`, email: `head@oak-${n}-${run}.edu` };
    await knownSchool(request, school);
    await platformSentByParent(request, parent, school);
    const link = await followUpLink(parent);
    const token = new URLSearchParams(link.split('?')[1]).get('token')!;
    const answered = await request.post('/school-answer', { form: { token, answer: 'meeting', comment: `Meeting ${n}` } });
    expect(answered.status()).toBe(200);
    expect(await approveClaims(request, school.name, ['meeting'])).toBe(1);
  }
  const impact = await (await request.get('/api/impact')).json();
  expect(impact.meetings.value).toBeGreaterThanOrEqual(5);
  expect(impact.schoolsAnswered.value).toBeGreaterThanOrEqual(5);
  expect(JSON.stringify(impact)).not.toMatch(/oak-|example\.org|Ana Lopez/);

  // The home page puts the live figures into its band: built when every figure was below 5, it
  // said so in one sentence, and now shows the figures.
  await page.goto('/');
  await page.locator('impact-figures').first().scrollIntoViewIfNeeded();
  const meetings = page.locator('[data-impact-figure="meetings"]').first();
  // The figures are the whole site's: a test in the other worker may report a meeting meanwhile, so
  // the page shows at least what the API said, and what the API says now.
  await expect.poll(async () => Number(await meetings.textContent())).toBeGreaterThanOrEqual(impact.meetings.value);
  const now = (await (await request.get('/api/impact')).json()).meetings.value;
  await expect.poll(async () => Number(await meetings.textContent())).toBeLessThanOrEqual(now);
  await expect(page.locator('[data-impact-starting]').first()).toBeHidden();

  await page.goto('/webhook-config');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('tab', { name: 'Impact' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('row').filter({ hasText: `oak-0-${run}.edu` })).toContainText('Meeting 0');
  expect(await axe(page)).toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel
      .getByRole('link', { name: /CSV/ })
      .or(panel.getByRole('button', { name: /CSV/ }))
      .click(),
  ]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\n')[0]).toMatch(/school/i);
  expect(csv).toContain(`oak-3-${run}.edu`);
});
