/**
 * The admin tables on a phone (issue 32.5) and a tablet: at 390 and 768 px each row is a card whose
 * Status and actions are on screen, with nothing to scroll sideways, neither the page nor the list.
 */
import { expect as baseExpect, test } from './fixtures';
import { runMark, signInAsAdmin } from './helpers';
import { sentByParent } from './school-campaign-helpers';

// Each tab is a function call or two with a database read: slow on a busy two-core machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
]) {
  const { width } = viewport;
  test.describe(`${width} px`, () => {
    test.use({ viewport });

    // At 390 px in the gate; at 768 px, with more room, in the full run (`@full`).
    test(
      `at ${width} px the Outbox and Form Submissions show each row's status and actions on screen`,
      width === 390 ? {} : { tag: '@full' },
      async ({ page, request }) => {
        const run = runMark();
        const parent = `phone-${run}@example.org`;
        const school = { name: `Phone School ${run}`, email: `office-${run}@phone.edu` };
        await sentByParent(request, parent, school);

        await signInAsAdmin(page);
        for (const { tab, table, find, status, shows, action } of [
          { tab: 'Outbox', table: 'Outbox table', find: school.email, status: 'Status', shows: 'Sent', action: 'View email' },
          { tab: 'Form Submissions', table: 'Form submissions table', find: parent, status: 'HubSpot delivery', shows: /attempt/, action: /^View/ },
        ]) {
          await test.step(tab, async () => {
            await page.getByRole('tab', { name: tab }).click();
            const panel = page.getByRole('tabpanel');
            const region = panel.getByRole('region', { name: table, exact: true });
            const row = region.getByRole('row').filter({ hasText: find });
            await row.scrollIntoViewIfNeeded();
            // The cell carries its column's name on a phone, since the header row is not shown.
            const statusCell = row.getByRole('cell').filter({ hasText: new RegExp(`^${status}`) });
            await expect(statusCell).toContainText(shows);
            await expect(statusCell).toBeInViewport({ ratio: 1 });
            await expect(row.getByRole('button', { name: action })).toBeInViewport({ ratio: 1 });
            expect(await region.evaluate((element) => element.scrollWidth - element.clientWidth), `${tab}: the list scrolls sideways`).toBeLessThanOrEqual(0);
            expect(await page.evaluate(() => document.documentElement.scrollWidth), `${tab}: the page scrolls sideways`).toBeLessThanOrEqual(width);
          });
        }
      },
    );
  });
}
