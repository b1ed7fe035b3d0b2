/**
 * Parents' words on a school page only with their agreement (issue 46.4; DESIGN.md "Proof"): two
 * parents write to a verified school with words of their own; one ticks "You may quote my words on
 * our school's page (first name only)", the other does not. Once both letters went, staff see only
 * the first parent's words, cut the child's name from the copy and star it; only then does the
 * quote show on the school's page, with the first name and the sentence that says how it got there,
 * at 390 and 1280 px. The second parent's words appear nowhere. Serial: staff read what the
 * parents wrote.
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures';
import { fillEmailForm, runMark, signInAsAdmin } from './helpers';
import { linkTo, runMail, waitForEmail } from './mail';
import { knownSchool } from './school-campaign-helpers';
import { desktop, expectAccessible, phone, resizeTo } from './widths';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const run = runMark();
const school = { name: `Willow Academy ${run}`, email: `head@willow-${run}.edu` };
const agreeing = { email: `agrees-${run}@example.org`, words: `Maya would stop waiting for the class ${run}.` };
const declining = { email: `declines-${run}@example.org`, words: `Private words nobody may quote ${run}.` };
let pagePath = '';

/** The parent writes on /lead-the-change with their own words, ticks the box or not, and confirms the platform's send from their inbox. */
async function writeAndSend(page: Page, parent: { email: string; words: string }, agree: boolean) {
  await page.goto('/lead-the-change');
  const form = page.locator('#email-form form[data-native-form]');
  await form.getByLabel(/What would this change for your child/).fill(parent.words);
  const box = form.getByRole('checkbox', { name: 'You may quote my words on our school’s page (first name only)' });
  // Asked apart from the letter, and never ticked for the parent.
  await expect(box).not.toBeChecked();
  if (agree) await box.check();
  await fillEmailForm(page, '#email-form', { email: parent.email, choice: 'Send via our platform', school: school.name, schoolEmail: school.email });
  const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
  // The form chose the platform: the dialog asks for the send at once, with the box as the parent left it.
  await expect(dialog.getByTestId('check-inbox')).toContainText(`We sent a link to ${parent.email}`, { timeout: 20_000 });
  const inDialog = dialog.getByRole('checkbox', { name: 'You may quote my words on our school’s page (first name only)' });
  if (agree) await expect(inDialog).toBeChecked();
  else await expect(inDialog).not.toBeChecked();
  await expect(dialog.getByTestId('email-body')).toContainText(parent.words);
  await page.goto(linkTo(await waitForEmail(parent.email, { subject: /^Please confirm your email to /, timeout: 20_000 }), '/confirm-send'));
  await page.getByRole('button', { name: 'Send my email' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/, { timeout: 20_000 });
  await runMail();
  await waitForEmail(school.email, { runs: true, timeout: 20_000 });
}

test('two parents write with words of their own; only one agrees to be quoted', async ({ page, request }) => {
  const known = await knownSchool(request, school);
  pagePath = `/schools/${known.pageKey}`;
  await writeAndSend(page, agreeing, true);
  await writeAndSend(page, declining, false);
  // Both letters count; neither parent's words are on the page before staff choose them.
  await page.goto(pagePath);
  await expect(page.locator('[data-school-count]')).toHaveText('2 parents have written');
  await expect(page.locator('[data-parents-words]')).toHaveCount(0);
  expect(await page.content()).not.toContain(agreeing.words);
});

test('staff see only the agreed words, cut the child’s name and star them; then the page quotes them, first name only', async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Insights' }).click();
  const section = page.getByRole('region', { name: 'Parents’ words' });
  await section.getByRole('button', { name: 'Read parents’ words' }).click();
  const entry = section.getByRole('listitem').filter({ hasText: agreeing.words });
  await expect(entry).toHaveCount(1);
  await expect(section.getByRole('listitem').filter({ hasText: declining.words })).toHaveCount(0);
  await entry.getByRole('textbox', { name: /Copy for the school page/ }).fill(`[name] would stop waiting for the class ${run}.`);
  await entry.getByRole('button', { name: '☆ Star for the school page' }).click();
  await expect(entry.getByRole('button', { name: '★ Starred for the school page' })).toHaveAttribute('aria-pressed', 'true');

  await page.goto(pagePath);
  const words = page.locator('[data-parents-words]');
  for (const size of [phone, desktop]) {
    await resizeTo(page, size);
    await expect(words.getByRole('heading', { name: 'In parents’ own words' })).toBeVisible();
    await expect(words.locator('[data-parents-words-terms]')).toHaveText(/^Quoted with each parent’s agreement; first names only\./);
    await expect(words.locator('blockquote')).toHaveText(`“[name] would stop waiting for the class ${run}.”`);
    await expect(words.locator('figcaption')).toHaveText(`Ana, a parent at ${school.name}`);
    await expectAccessible(page, size.width, { htmlcs: false });
  }
  const html = await page.content();
  expect(html).not.toContain('Maya would stop');
  expect(html).not.toContain(declining.words);
});
