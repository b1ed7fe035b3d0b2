/**
 * The abuse watch (issue 46.5), on `npm start`: a burst of drafts and "I've sent it myself" from one
 * network (its requests leave from several loopback addresses of one /24: the network the site sees
 * is `context.ip`'s prefix) shows in the Abuse tab as trending, at 1280 and 390 px; staff block the
 * network there and its next request is refused with a plain message; they void what it left and
 * the school page's count is what it was before the burst; lifting the block lets the network in.
 */
import { baseURL } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { from, sendEmailForm } from './networks';
import { runMark, signInAsAdmin } from './helpers';
import { linkTo, waitForEmail } from './mail';
import { approveClaims, knownSchool } from './school-campaign-helpers';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 240_000 });

/** The count a school's page shows ("" while nobody counts there). */
async function pageCount(path: string): Promise<string> {
  const response = await fetch(new URL(path, baseURL));
  expect(response.status).toBe(200);
  return /data-school-count>([^<]*)</.exec(await response.text())?.[1]?.trim() ?? '';
}

test('a burst shows in the Abuse tab, a block refuses its next request, and voiding it puts the figures back', async ({ page, request }) => {
  const run = runMark();
  const octet = 100 + (Date.now() % 150);
  const network = `127.0.${octet}.0/24`;
  const address = (n: number) => `127.0.${octet}.${(n % 250) + 1}`;
  const school = { name: `Burst Academy ${run}`, email: `head@burst-${run}.edu` };
  const record = await knownSchool(request, school);
  const schoolPath = `/schools/${record.slug}-${record.pageKey}`;
  const before = await pageCount(schoolPath);

  // The burst: eleven "parents" from one network, each a draft and "I've sent it myself" (22 requests).
  const parents = Array.from({ length: 11 }, (_, n) => `burst-${n}-${run}@example.org`);
  for (const [n, parent] of parents.entries()) {
    const form = await sendEmailForm(address(n), parent, school);
    expect(form.status, form.text).toBe(201);
    const draft = (JSON.parse(form.text) as { draft: { id: string; token: string } }).draft;
    const self = await from(address(n), 'POST', '/api/email-sent-myself', JSON.stringify({ submissionId: draft.id, token: draft.token }), 'application/json');
    expect(self.status, self.text).toBe(202);
  }
  // Two of them confirm from the inbox and staff approve: they count on the school's page.
  for (const parent of parents.slice(0, 2)) {
    const link = linkTo(await waitForEmail(parent, { subject: /^Did you send your letter/, timeout: 30_000 }), '/confirm-send');
    const token = new URL(link, baseURL).searchParams.get('token')!;
    expect(
      (await from(address(0), 'POST', '/confirm-send', new URLSearchParams({ token, tz: '' }).toString(), 'application/x-www-form-urlencoded')).status,
    ).toBe(200);
  }
  expect(await approveClaims(request, school.name, ['self_report'])).toBe(2);
  const counted = await pageCount(schoolPath);
  expect(counted).not.toBe(before);
  expect(counted).toContain('2');

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Abuse' }).click();
  const panel = page.getByRole('tabpanel');
  const trending = panel.getByRole('region', { name: 'Trending now', exact: true });
  const row = trending.getByRole('row').filter({ hasText: network });

  for (const width of [1280, 390]) {
    await test.step(`the burst at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width > 1000 ? 800 : 844 });
      await row.scrollIntoViewIfNeeded();
      await expect(row).toContainText('trending');
      await expect(row.getByRole('button', { name: `Block ${network}` })).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page scrolls sideways').toBeLessThanOrEqual(width);
    });
  }

  await test.step('block it: the next request from the network is refused with the message', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('button', { name: `Block ${network}` }).click();
    const form = panel.getByRole('form', { name: 'Add a block' });
    await expect(form.getByLabel('Network, domain or address')).toHaveValue(network);
    await form.getByLabel('Why').fill(`A burst of self-reports (${run})`);
    await form.getByRole('button', { name: 'Add the block' }).click();
    const blocks = panel.getByRole('region', { name: 'Blocks in force', exact: true });
    await expect(blocks.getByRole('row').filter({ hasText: network })).toContainText(run);
    const refused = await sendEmailForm(address(42), `late-${run}@example.org`, school);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({ error: { code: 'blocked', message: expect.stringContaining('paused requests from this internet connection') } });
  });

  await test.step('void what it left: the school page counts what it did before the burst', async () => {
    await row.getByRole('button', { name: `Void… what ${network} left` }).click();
    const form = panel.getByRole('form', { name: 'Void a set' });
    await expect(form.getByLabel('Key')).toHaveValue(network);
    await form.getByLabel('Why').fill(`The burst of ${run}`);
    await form.getByRole('button', { name: 'Check what it takes' }).click();
    await expect(form.getByRole('status')).toContainText('This voids 0 letters not sent yet and 11 self-reports');
    await form.getByRole('button', { name: 'Void them' }).click();
    await expect(form.getByRole('status')).toContainText('Voided 0 letters not sent yet and 11 self-reports; 2 no longer count in the figures.');
    expect(await pageCount(schoolPath)).toBe(before);
  });

  await test.step('at 390 px the block is listed with its action; lifting it lets the network in again', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const blocks = panel.getByRole('region', { name: 'Blocks in force', exact: true });
    const blocked = blocks.getByRole('row').filter({ hasText: network });
    await blocked.scrollIntoViewIfNeeded();
    const lift = blocked.getByRole('button', { name: `Lift the block of ${network}` });
    await expect(lift).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await lift.click();
    await expect(blocks.getByRole('row').filter({ hasText: network })).toHaveCount(0);
    const again = await sendEmailForm(address(43), `after-${run}@example.org`, school);
    expect(again.status, again.text).toBe(201);
  });
});
