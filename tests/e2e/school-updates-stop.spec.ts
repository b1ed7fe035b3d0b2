/**
 * The one-click stop link in a school update: taken from a real update email, it stops the
 * parent's further updates (an update queued for them is withdrawn, and the scheduled run sends
 * them nothing more: the admin's campaign view shows it), with JavaScript on and off; using it
 * again changes nothing and says so; a forged or cut-short link gets a clear page. axe and
 * HTML_CodeSniffer on the stop pages at 390 and 1280 px.
 */
import { expect as baseExpect, test } from './fixtures';
import { runMark, signInAsAdmin } from './helpers';
import { linkTo, runScheduled } from './mail';
import { approveClaims, followUpToken, knownSchool, openSchoolCampaign, platformSentByParent, updatesTo } from './school-campaign-helpers';
import { atEachSize, expectAccessible } from './widths';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** The stop link of the parent whose updates were stopped with JavaScript on (for the later checks). */
let stopPath = '';

/** What the last scheduled run answered (its counts: sent, waiting, …), said when a wait fails. */
let lastRun = '';
const runUpdates = async () => {
  try {
    await runScheduled('school-updates');
    lastRun = 'ran';
  } catch (error) {
    lastRun = (error as Error).message;
  }
};

test('the stop link from a real update stops further updates, with JavaScript on and off', async ({ page, request, browser }) => {
  const run = runMark();
  const school = { name: `Rowan Academy ${run}`, email: `head@rowan-${run}.edu` };
  const reporter = `reporter-${run}@example.org`;
  const withJs = `with-js-${run}@example.org`;
  const withoutJs = `without-js-${run}@example.org`;
  // Letters the platform delivered to a school staff verified, after each parent confirmed: only
  // their outcomes, once staff approve them, reach other parents.
  await knownSchool(request, school);
  await platformSentByParent(request, reporter, school);
  await platformSentByParent(request, withJs, school);
  await platformSentByParent(request, withoutJs, school);
  for (const parent of [withJs, withoutJs]) {
    expect((await request.post('/school-answer', { form: { token: await followUpToken(parent), answer: 'no_answer', comment: '' } })).status()).toBe(200);
  }
  const reporterToken = await followUpToken(reporter);
  expect((await request.post('/school-answer', { form: { token: reporterToken, answer: 'replied', comment: '' } })).status()).toBe(200);
  expect(await approveClaims(request, school.name, ['replied'])).toBe(1);

  // The first update reaches both other parents, with its stop link.
  await expect
    .poll(
      async () => {
        await runUpdates();
        return [(await updatesTo(withJs)).length, (await updatesTo(withoutJs)).length];
      },
      { intervals: [1000], timeout: 45_000 },
    )
    .toEqual([1, 1])
    .catch((error: Error) => {
      throw new Error(`${error.message}\nThe last school-updates run answered: ${lastRun}`);
    });
  const [jsUpdate] = await updatesTo(withJs);
  const [noJsUpdate] = await updatesTo(withoutJs);
  stopPath = linkTo(jsUpdate!, '/school-updates/stop');
  const noJsPath = linkTo(noJsUpdate!, '/school-updates/stop');
  // The same link is the one-click unsubscribe of the update (RFC 8058).
  expect(jsUpdate!.header('list-unsubscribe')).toContain(stopPath);
  expect(jsUpdate!.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  // "Your data" travels with the update: it opens that parent's own records.
  await page.goto(linkTo(jsUpdate!, '/your-data'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your data');
  await expect(page.getByRole('main')).toContainText(withJs);
  await expect(page.getByRole('main')).toContainText(school.name);

  // The school then agrees to meet: a second update is queued for each of them.
  expect((await request.post('/school-answer', { form: { token: reporterToken, answer: 'meeting', comment: 'Friday at 9.' } })).status()).toBe(200);
  expect(await approveClaims(request, school.name, ['meeting'])).toBe(1);

  // With JavaScript: the link asks first (a mail scanner opening it stops nothing), the button stops.
  await page.goto(stopPath);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop emails about your letter?');
  await expect(page.getByRole('main').getByRole('link', { name: 'Your data' })).toHaveAttribute('href', '/your-data');
  await page.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Emails stopped');

  // Without JavaScript: the same plain form.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(noJsPath);
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Stop emails about your letter?');
  await plain.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Emails stopped');
  // Used again: nothing more changes, and the page says so.
  await plain.goto(noJsPath);
  await plain.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(plain.getByRole('main')).toContainText('were already stopped');
  await context.close();

  // The scheduled run sends neither of them the queued update; the campaign shows both withdrawn.
  await runUpdates();
  await runUpdates();
  expect(lastRun).toBe('ran');
  expect([(await updatesTo(withJs)).length, (await updatesTo(withoutJs)).length]).toEqual([1, 1]);
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Impact' }).click();
  const panel = page.getByRole('tabpanel');
  const campaign = panel.getByTestId('school-campaign');
  await openSchoolCampaign(panel, school.name);
  await expect(campaign).toContainText('Stopped by the parent: 2');
  await expect(campaign).toContainText('Sent: 2');
});

test('a forged, cut-short or empty stop link gets a page that says so, and stops nothing', async ({ page }) => {
  expect(stopPath).not.toBe('');
  const token = new URLSearchParams(stopPath.split('?')[1]).get('token')!;
  const forged = `${token.split('.')[0]}.${'A'.repeat(43)}`;
  for (const link of [`/school-updates/stop?token=${forged}`, `/school-updates/stop?token=${token.slice(0, 30)}`, '/school-updates/stop']) {
    const response = await page.goto(link);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is not valid');
    await expect(page.getByRole('button', { name: 'Stop these emails' })).toHaveCount(0);
  }
});

// Each page is loaded once, checked at one width, resized to the other and checked again
// (tests/e2e/widths.ts).
test('axe and HTML_CodeSniffer on the stop pages at 390 and 1280 px', async ({ page }) => {
  expect(stopPath).not.toBe('');
  const sizes = [390, 1280].map((width) => ({ width, height: 900 }));
  await page.setViewportSize(sizes[0]!);
  await page.goto(stopPath);
  await expect(page.getByRole('button', { name: 'Stop these emails' })).toBeVisible();
  await atEachSize(page, sizes, ({ width }) => expectAccessible(page, width, { htmlcs: true }));
  await page.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Emails stopped');
  await atEachSize(page, sizes, ({ width }) => expectAccessible(page, width, { htmlcs: true }));
  await page.goto('/school-updates/stop?token=forged');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is not valid');
  await atEachSize(page, sizes, ({ width }) => expectAccessible(page, width, { htmlcs: true }));
});
