/**
 * The Review and Mail tabs (issues 28 and 29) on `npm start`: a letter its parent says they sent
 * themselves waits in the queue, is approved under the name staff confirm, and is then listed as
 * approved; the Mail tab previews the emails in a sandboxed frame, lists the emails and the bounced
 * addresses.
 */
import { expect as baseExpect, test } from './fixtures';
import { signInAsAdmin } from './helpers';
import { sentByParent } from './school-campaign-helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

test('a self-reported letter is approved from the Review tab; the Mail tab previews every email', async ({ page, request }) => {
  const run = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const school = { name: `Review School ${run}`, email: `office-${run}@review.edu` };
  await sentByParent(request, `review-${run}@example.org`, school);

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Review', exact: true }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('button', { name: `Approve: sent it themselves, ${school.name}` }).click();
  // The page has no name yet: staff confirm the one it is published under, in a dialog that has focus.
  const dialog = page.getByRole('dialog', { name: 'Approve and publish the school’s page?' });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await expect(dialog.getByLabel('School’s name')).toHaveValue(school.name);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Approved');
  await expect(panel.getByRole('button', { name: `Approve: sent it themselves, ${school.name}` })).toHaveCount(0);
  await panel.getByLabel('Show').selectOption('approved');
  await expect(panel.getByRole('row').filter({ hasText: school.name })).toContainText('Approved');

  await page.getByRole('tab', { name: 'Mail', exact: true }).click();
  const frame = panel.locator('iframe[title="Confirmation link: the HTML part"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe[title="Confirmation link: the HTML part"]').locator('body')).not.toBeEmpty();
  await panel.getByRole('button', { name: 'Letter to the school' }).click();
  await expect(panel.locator('iframe[title="Letter to the school: the HTML part"]')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Emails', exact: true })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Schools whose address bounced' })).toBeVisible();
});
