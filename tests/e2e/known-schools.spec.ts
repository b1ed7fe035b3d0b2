/**
 * Known schools (issue 44), on `npm start`: a parent types a school the site does not know; their
 * letter goes to the address they typed, but no page, count or share link appears, and /find-school
 * does not offer it. Staff verify it in the Schools tab (a dialog that takes focus, with the evidence
 * they relied on); its page then opens with the letter it already had, and parents find it.
 * (A parent picking a known school from the field's suggestions: school-page.spec.ts, and in
 * Firefox and WebKit tests/engines/email.spec.ts.)
 */
import { expect as baseExpect, test } from './fixtures';
import { runMark, signInAsAdmin } from './helpers';
import { linkTo, waitForEmail } from './mail';
import { atEachSize, expectAccessible } from './widths';
import { dialog, fillEmailForm } from './email-form';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const run = runMark();
const school = { name: `Hazelwood Prep ${run}`, email: `head@hazelwood-${run}.edu` };
const parent = `typed-${run}@example.org`;

test('a school the parent types: the letter goes to the address typed, and nothing public appears', async ({ page }) => {
  await page.goto('/lead-the-change');
  await fillEmailForm(page, '#email-form', { email: parent, choice: 'Send via our platform', school: school.name, schoolEmail: school.email });
  await expect(dialog(page).getByTestId('check-inbox')).toContainText(`We sent a link to ${parent}`, { timeout: 20_000 });
  await page.goto(linkTo(await waitForEmail(parent, { subject: 'Please confirm your email to your school' }), '/confirm-send'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Confirm your email to ${school.name}`);
  await page.getByRole('button', { name: 'Send my email' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Your email has been sent|Your email is confirmed/, { timeout: 20_000 });
  // No page to share: the school is a proposal until staff check it.
  await expect(page.locator('[data-share]')).toHaveCount(0);
  await waitForEmail(school.email, { runs: true });

  await page.goto(`/find-school?q=${encodeURIComponent(school.name)}`);
  await expect(page.getByRole('main').getByRole('status').first()).toContainText(`We don’t know a school called “${school.name}” yet`);
  await expect(page.getByRole('link', { name: 'Write to a school we don’t know yet' })).toHaveAttribute('href', '/lead-the-change#email-form');
});

test('staff verify it in the Schools tab: its page opens with the letter it had, and parents find it', async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Schools' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Name or city').fill(school.name);
  const row = panel.getByRole('row').filter({ hasText: school.name });
  await expect(row).toContainText('A parent’s letter');
  await expect(row).toContainText('1 confirmed');
  await expect(row).toContainText(school.email);
  await row.getByRole('button', { name: `Verify ${school.name}` }).click();
  const verify = page.getByRole('dialog', { name: 'Verify this school' });
  await expect(verify).toBeVisible();
  expect(await verify.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  // Without the evidence, it says what is missing, and keeps the dialog.
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(verify.getByText(/^Say what you checked/)).toBeVisible();
  await verify.getByLabel('Verified on').selectOption({ label: 'The school’s website lists the address' });
  await verify.getByLabel('What you checked').fill(`hazelwood-${run}.edu/contact lists ${school.email}`);
  await verify.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.locator('[data-toast]')).toContainText(`${school.name} is verified; its page opened with 1 letter.`);
  await expect(verify).toBeHidden();

  await page.goto(`/find-school?q=${encodeURIComponent(school.name)}`);
  await page.getByRole('link', { name: `Write to ${school.name}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(school.name);
  await expect(page.locator('[data-school-count]')).toHaveText('1 parent has written');
  expect(await page.content()).not.toContain(school.email);
});

test('on /es/lead-the-change the suggestions speak Spanish: the list’s name and what matches (issue 48)', async ({ page }) => {
  await page.goto('/es/lead-the-change');
  const form = page.locator('#email-form form[data-native-form]');
  await form.getByLabel(/^Nombre de la escuela/).focus();
  await page.keyboard.type('oakwood');
  const options = form.getByRole('listbox', { name: 'Escuelas que conocemos' }).getByRole('option');
  await expect(options).toHaveCount(2);
  await expect(form.getByRole('status').filter({ hasText: 'Coincide una escuela que conocemos' })).toHaveCount(1);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('zzzz no such school');
  await expect(form.getByRole('status').filter({ hasText: 'Ninguna escuela que conocemos coincide' })).toHaveCount(1);
});

test('the school field with the keyboard alone: suggestions, arrows, Enter fills the leader and address; Escape closes; editing the name forgets the pick', async ({
  page,
}) => {
  await page.goto('/lead-the-change');
  const form = page.locator('#email-form form[data-native-form]');
  const field = form.getByLabel(/^School name/);
  await field.focus();
  await page.keyboard.type('oakwood');
  const box = form.getByRole('combobox', { name: /^School name/ });
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const options = form.getByRole('listbox', { name: 'Schools we know' }).getByRole('option');
  // The sample school Oakwood Academy (npm start's records) has two leaders: one option each.
  await expect(options).toHaveCount(2);
  await expect(form.getByRole('status').filter({ hasText: 'One school we know matches' })).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('Oakwood Academy');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toBeFocused();
  await expect(form.getByLabel(/School contact name/)).toHaveValue('Tom Reyes');
  await expect(form.getByLabel(/School contact email/)).toHaveValue('dean@oakwood-academy.example');
  expect(await form.locator('input[data-school-key]').inputValue()).toMatch(/^[0-9a-f]{32}$/);
  // Typing on: a school of the parent's own; the pick is forgotten. Escape closes what opens.
  await page.keyboard.type(' Lower');
  expect(await form.locator('input[data-school-key]').inputValue()).toBe('');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('pine');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(box).toHaveValue('pine');
});

test('without JavaScript the school field is a plain field with a way to the list of schools', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/lead-the-change');
  const form = page.locator('#email-form form[data-native-form]');
  await expect(form.getByRole('combobox')).toHaveCount(0);
  await form.getByRole('link', { name: /Find your school in the list of schools we know/ }).click();
  await expect(page).toHaveURL(/\/find-school/);
  await page.getByLabel('Your school’s name or city').fill('pine ridge');
  await page.getByRole('button', { name: 'Find my school' }).click();
  await expect(page.getByRole('link', { name: 'Write to Pine Ridge School' })).toBeVisible();
  await context.close();
});

test('axe and HTML_CodeSniffer on the Schools tab at 390 and 1280 px', async ({ page }) => {
  const sizes = [390, 1280].map((width) => ({ width, height: 900 }));
  await page.setViewportSize(sizes[0]!);
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Schools' }).click();
  await expect(page.getByRole('tabpanel').getByRole('heading', { name: 'Schools', exact: true })).toBeVisible();
  await atEachSize(page, sizes, ({ width }) => expectAccessible(page, width, { htmlcs: true }));
});
