/**
 * The Review and Mail tabs (issues 28 and 29) on `npm start`: a letter its parent says they sent
 * themselves (and confirmed from their inbox) waits in the queue beside its school's record, is
 * approved, and then counts on the school's page; the Mail tab previews the emails in a sandboxed
 * frame, lists the emails and the blocked addresses.
 */
import { expect as baseExpect, test } from './fixtures';
import { runMark, signInAsAdmin } from './helpers';
import { knownSchool, sentByParent } from './school-campaign-helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

test('a self-reported letter is approved from the Review tab; the Mail tab previews every email', async ({ page, request }) => {
  const run = runMark();
  const school = { name: `Review School ${run}`, email: `office-${run}@review.edu` };
  // A school staff verified: a letter its parent sent themselves counts on its page once approved.
  const record = await knownSchool(request, school);
  await sentByParent(request, `review-${run}@example.org`, school);
  expect((await (await request.get(`/api/schools/${record.pageKey}`)).json()).parents).toBe(0);

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Review', exact: true }).click();
  const panel = page.getByRole('tabpanel');
  const row = panel.getByRole('row').filter({ hasText: school.name });
  // Staff see the school's record beside the claim; its name is the record's, changed only in the Schools tab.
  await expect(row).toContainText('Verified');
  await panel.getByRole('button', { name: `Approve: sent it themselves, ${school.name}` }).click();
  await expect(page.locator('[data-toast]')).toContainText('Approved');
  await expect(panel.getByRole('button', { name: `Approve: sent it themselves, ${school.name}` })).toHaveCount(0);
  await panel.getByLabel('Show').selectOption('approved');
  await expect(panel.getByRole('row').filter({ hasText: school.name })).toContainText('Approved');
  expect((await (await request.get(`/api/schools/${record.pageKey}`)).json()).parents).toBe(1);

  await page.getByRole('tab', { name: 'Mail', exact: true }).click();
  const frame = panel.locator('iframe[title="Confirmation link: the HTML part"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe[title="Confirmation link: the HTML part"]').locator('body')).not.toBeEmpty();
  await panel.getByRole('button', { name: 'Letter to the school' }).click();
  await expect(panel.locator('iframe[title="Letter to the school: the HTML part"]')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Emails', exact: true })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Blocked addresses' })).toBeVisible();
});
