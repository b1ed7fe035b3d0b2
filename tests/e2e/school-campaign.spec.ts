/**
 * The outcome reaches everyone, and the admin sees the campaign: two parents write to one school
 * (the second through the first's share link), both confirm through their follow-up links, the
 * first reports a meeting, and the second's update reaches their HubSpot contact exactly once;
 * the admin opens the school in the Impact tab and sees both parents and how they came.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { e2eAdminPassword } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { runMark } from './helpers';
import { axeViolations, wcagTags } from './widths';
import { runScheduled } from './mail';
import { approveClaims, followUpToken, knownSchool, openSchoolCampaign, platformSentByParent, updatesTo } from './school-campaign-helpers';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

function axe(page: Page): Promise<string[]> {
  return axeViolations(page, { include: '[data-testid="school-campaign"]', tags: wcagTags });
}

test('a meeting one parent reports reaches the other parent once; the admin opens the school and sees both and how they came', async ({ page, request }) => {
  const run = runMark();
  const school = { name: `Birch Academy ${run}`, email: `head@birch-${run}.edu` };
  const first = `first-${run}@example.org`;
  const second = `second-${run}@example.org`;

  // A school staff verified: only its letters count, and only its outcomes reach other parents.
  await knownSchool(request, school);
  // Both letters go through the platform after each parent confirms from their inbox; the second
  // parent came through the first's link.
  const share = await platformSentByParent(request, first, school);
  expect(share).toMatch(/\/schools\/[a-z0-9-]+-[0-9a-f]{32}\?ref=/);
  await platformSentByParent(request, second, school, new URL(share).searchParams.get('ref')!);

  // Both answer from their follow-up links; the second has no news yet.
  const secondToken = await followUpToken(second);
  expect((await request.post('/school-answer', { form: { token: secondToken, answer: 'no_answer', comment: '' } })).status()).toBe(200);
  const firstToken = await followUpToken(first);
  expect((await request.post('/school-answer', { form: { token: firstToken, answer: 'meeting', comment: 'We meet on Friday.' } })).status()).toBe(200);
  // A meeting speaks for the school: nobody hears of it until staff approve it in the Review tab.
  await runScheduled('school-updates');
  expect(await updatesTo(second)).toHaveLength(0);
  expect(await approveClaims(request, school.name, ['meeting'])).toBe(1);

  // The scheduled run emails the update; running it again sends nothing more.
  await expect
    .poll(
      async () => {
        await runScheduled('school-updates');
        return (await updatesTo(second)).length;
      },
      { intervals: [1000] },
    )
    .toBe(1);
  await runScheduled('school-updates');
  await runScheduled('school-updates');
  const [update] = await updatesTo(second);
  expect(await updatesTo(second)).toHaveLength(1);
  expect(await updatesTo(first)).toHaveLength(0);
  expect(update!.subject).toBe(`News from ${school.name}`);
  expect(update!.text).toContain(`${school.name} agreed to meet`);
  expect(update!.text).toMatch(/\/school-updates\/stop\?token=/);

  // The admin opens the school in the Impact tab.
  await page.goto('/webhook-config');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('tab', { name: 'Impact' }).click();
  const panel = page.getByRole('tabpanel');
  await openSchoolCampaign(panel, school.name);
  const campaign = panel.getByTestId('school-campaign');
  const rows = campaign.getByRole('region', { name: `Parents who wrote to ${school.name}` }).getByRole('row');
  const rowOf = (masked: string) => rows.filter({ has: page.getByRole('rowheader', { name: masked, exact: true }) });
  await expect(rows).toHaveCount(3);
  await expect(rowOf('f•••@example.org')).toContainText('Direct');
  await expect(rowOf('f•••@example.org')).toContainText('We have a meeting');
  await expect(rowOf('s•••@example.org')).toContainText('Shared by another parent (f•••@example.org)');
  await expect(rowOf('s•••@example.org')).toContainText('No reply yet');
  await expect(campaign).toContainText('Sent: 1');
  await expect(campaign).not.toContainText(first);
  expect(await axe(page)).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent('download'), campaign.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('parent,channel,sent_at,came,referrer,ambassador_id,letter_id,answer,updates_sent');
  expect(csv).toContain('"s•••@example.org"');
  await campaign.getByRole('button', { name: 'Back to all schools' }).click();
  await expect(panel.getByRole('button', { name: `Open ${school.name}` })).toBeFocused();
});
