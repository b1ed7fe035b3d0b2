import { expect as baseExpect, test } from './fixtures';
import { auditFor, signInAsAdmin } from './helpers';

// Each step is a function call with a database read or two: on a busy two-core machine that is slow.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

test('an export and a deletion each show once on the Audit tab', async ({ page, consoleErrors }) => {
  await signInAsAdmin(page);

  // An export: the Impact CSV of a period no other test asks for.
  const start = Date.UTC(1900, 0, 1) + (Date.now() % 36_500) * 86_400_000;
  const from = new Date(start).toISOString().slice(0, 10);
  const to = new Date(start + 86_400_000).toISOString().slice(0, 10);
  await page.getByRole('tab', { name: 'Impact' }).click();
  await page.getByLabel('From').fill(from);
  await page.getByLabel('To').fill(to);
  await page.getByRole('button', { name: 'Show' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`impact-${from}-to-${to}.csv`);

  // A deletion: a webhook added and deleted.
  const name = `Audited ${Date.now()}`;
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add Webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Webhook' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Calendly webhook URL').fill('https://example.org/api/calendly/webhook');
  await dialog.getByLabel('invitee.created').check();
  await dialog.getByLabel('Scope').selectOption('organization');
  await dialog.getByLabel('Organization').fill('https://api.calendly.com/organizations/FAKEORG000000001');
  const creating = page.waitForResponse((response) => response.url().endsWith('/api/calendly-webhooks') && response.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Create Webhook' }).click();
  const { webhook } = (await (await creating).json()) as { webhook: { id: string } };
  const card = page.getByRole('listitem').filter({ hasText: name });
  await card.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);

  // Each once, with who did it.
  let panel = await auditFor(page, 'Impact CSV downloaded');
  const exported = panel.getByRole('row').filter({ hasText: `impact-${from}-to-${to}.csv` });
  await expect(exported).toHaveCount(1);
  await expect(exported).toContainText('admin');
  panel = await auditFor(page, 'Webhook deleted');
  const deleted = panel.getByRole('row').filter({ hasText: webhook.id });
  await expect(deleted).toHaveCount(1);
  await expect(deleted).toContainText('admin');
  panel = await auditFor(page, 'Webhook added');
  await expect(panel.getByRole('row').filter({ hasText: webhook.id })).toHaveCount(1);

  // The CSV of the log is a download of its own.
  const auditDownload = page.waitForEvent('download');
  await panel.getByRole('link', { name: 'Download CSV' }).click();
  expect((await auditDownload).suggestedFilename()).toMatch(/^audit-start-to-now\.csv$/);
  expect(consoleErrors).toEqual([]);
});

// The Audit tab and its "Sign everyone out?" confirmation at 390 and 1280 px (axe, and that the page
// fits) are checked in tests/e2e/webhook-config.spec.ts, in the same sign-in as every other tab.
