/**
 * Insights (issue 30): a parent arrives from a campaign link, writes, asks the platform to send,
 * confirms from their inbox, the email is delivered and they tell us the school agreed to meet;
 * every step appears in the Insights tab under that campaign, walked at 1280 and 390 px. The
 * browser here says it is a person's Chrome (headless Chromium says so itself and is counted as
 * a bot), with a user agent of its own so that its daily visitor is not another test's (and
 * without the word "insights", which `isbot` counts as a crawler's).
 */
import type { Browser, Page } from '@playwright/test';
import { followUpLink, linkTo, runMail, waitForEmail } from './mail';
import { personAgent, runMark, signInAsAdmin } from './helpers';
import { expect as baseExpect, test } from './fixtures';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const run = runMark();
const campaign = `insights-${run}`;
const person = (tag: string) => personAgent(`parent-${tag}`);

async function personPage(browser: Browser, tag: string, width: number): Promise<Page> {
  const context = await browser.newContext({ userAgent: person(tag), viewport: { width, height: 900 }, baseURL: test.info().project.use.baseURL });
  return context.newPage();
}

test('a campaign visit, a form, a confirmed send and an answer appear in the funnel, and the tab reads well at 1280 and 390 px', async ({ browser }) => {
  const parent = `insights-${run}@example.org`;
  const schoolEmail = `head-${run}@insights.edu`;
  const page = await personPage(browser, 'parent', 1280);

  // The campaign link: its page view goes out in the beacon once the page has loaded.
  const beacon = page.waitForRequest((req) => req.url().endsWith('/api/event') && req.method() === 'POST');
  await page.goto(`/lead-the-change?utm_source=${campaign}&utm_medium=email&utm_campaign=${campaign}`);
  expect(JSON.parse((await beacon).postData() ?? '{}')).toMatchObject({ n: 'page_view', p: '/lead-the-change' });
  // The visit is stored before the form is sent, as it is for a person who takes more than a moment
  // to write (the form's journey takes its campaign from the visitor's first page view that day).
  expect((await (await beacon).response())?.status()).toBe(204);
  expect(await page.context().cookies()).toEqual([]);

  const form = page.locator('#email-form form[data-native-form]');
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(parent);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill('5th grade');
  await form.getByLabel(/^School name/).fill('Insight Academy');
  await form.getByLabel(/School contact name/).fill('Dr. Patel');
  await form.getByLabel(/School contact email/).fill(schoolEmail);
  for (const label of [/^City/, /^State/]) if (await form.getByLabel(label).count()) await form.getByLabel(label).fill('Austin');
  if (await form.getByLabel(/Your role to the student/).count()) await form.getByLabel(/Your role to the student/).selectOption('Parent');
  await form.getByLabel("I'll send it myself").check();
  await form.locator('[data-submit]').click();
  const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
  await dialog.getByRole('button', { name: 'Send via our platform' }).click();
  await expect(dialog.getByTestId('check-inbox')).toContainText(`We sent a link to ${parent}`);

  // The parent confirms from their inbox; the outbox run delivers if the request did not.
  await page.goto(linkTo(await waitForEmail(parent, { subject: /^Please confirm your email to /, timeout: 20_000 }), '/confirm-send'));
  await page.getByRole('button', { name: 'Send my email' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/);
  await runMail();

  // "Did your school answer?" (the follow-up is due at once in this run).
  await page.goto(await followUpLink(parent));
  await page.getByLabel('We have a meeting').check();
  await page.getByRole('button', { name: 'Save my answer' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('meeting');
  await page.context().close();

  for (const width of [1280, 390]) {
    const admin = await personPage(browser, `admin-${width}`, width);
    await signInAsAdmin(admin);
    await admin.getByRole('tab', { name: 'Insights' }).click();
    const panel = admin.getByRole('tabpanel');
    const source = panel.getByRole('region', { name: 'Figures by source' });
    const row = source.getByRole('row').filter({ hasText: `${campaign} / email` });
    // Visitors, forms sent, confirmed, delivered, answers: one each, from this campaign.
    await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '1', '1']);
    const funnel = panel.getByRole('region', { name: 'Funnel figures' });
    for (const step of ['Visited', 'Sent the form', 'Asked us to send', 'Confirmed from their inbox', 'Delivered to the school', 'Told us the answer']) {
      await expect(funnel.getByRole('row').filter({ hasText: step }).getByRole('cell').first()).not.toHaveText('0');
    }
    await expect(panel.getByRole('img', { name: /^Funnel: Visited/ })).toBeVisible();
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await admin.screenshot({ path: test.info().outputPath(`insights-${width}.png`), fullPage: true });
    const csv = await admin.request.get('/api/admin/insights?format=csv');
    expect(await csv.text()).toContain(`${campaign} / email,1,1,1,1,1`);
    await admin.context().close();
  }
});

test('an experiment is started, measured and ended; a second one on the same place is refused', async ({ browser }) => {
  const admin = await personPage(browser, 'experiments', 1280);
  await signInAsAdmin(admin);
  await admin.getByRole('tab', { name: 'Insights' }).click();
  const panel = admin.getByRole('tabpanel');
  const start = panel.getByRole('form', { name: 'Start an experiment' });
  await start.getByLabel('Place').selectOption('school-page-cta');
  await start.getByLabel('Name').fill(`CTA ${run}`);
  await start.getByRole('button', { name: 'Start the experiment' }).click();
  await expect(panel.getByRole('heading', { name: `CTA ${run}` })).toBeVisible();
  await start.getByLabel('Name').fill(`Second ${run}`);
  await start.getByRole('button', { name: 'Start the experiment' }).click();
  await expect(panel.getByRole('alert')).toContainText('already running');
  const end = panel.getByRole('form', { name: `End CTA ${run}` });
  await end.getByLabel('Winner').selectOption('together');
  await end.getByRole('button', { name: /End and show the winner/ }).click();
  await expect(panel.getByText('Ended: together won')).toBeVisible();
  await admin.context().close();
});

test('staff add an ambassador and copy their link; the link opens their page, a forged one is a 404', async ({ browser }) => {
  const admin = await personPage(browser, 'ambassadors', 390);
  await signInAsAdmin(admin);
  await admin.getByRole('tab', { name: 'Insights' }).click();
  const panel = admin.getByRole('tabpanel');
  const add = panel.getByRole('form', { name: 'Add an ambassador' });
  await add.getByLabel(/^Id/).fill(`amb-${run}`);
  await add.getByLabel('Name').fill(`Rosa ${run}`);
  await add.getByLabel('Email').fill(`rosa-${run}@example.org`);
  await add.getByRole('button', { name: 'Add the ambassador' }).click();
  await panel.getByRole('button', { name: `Copy link to Rosa ${run}’s page` }).click();
  const url = await panel.getByLabel(`Link to amb-${run}’s page`).inputValue();
  const page = await admin.context().newPage();
  await page.goto(new URL(url).pathname + new URL(url).search);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Thank you, Rosa ${run}`);
  await expect(page.getByText('Parents you brought', { exact: true })).toBeVisible();
  const forged = await page.goto(`/ambassador?t=${new URL(url).searchParams.get('t')!.slice(0, -2)}xx`);
  expect(forged?.status()).toBe(404);
  await admin.context().close();
});
