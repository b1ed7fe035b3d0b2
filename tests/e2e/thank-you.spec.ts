import { expect, test } from './fixtures';
import { layoutShifts, watchRequests } from './helpers';

const full =
  '/thank-you?assigned_to=Jordan%20Lee&event_type_name=Intro%20Call&event_start_time=2025-09-25T16%3A00%3A00Z&event_end_time=2025-09-25T16%3A30%3A00Z' +
  '&invitee_full_name=Ana%20Lopez&invitee_first_name=Ana&invitee_last_name=Lopez&meeting_url=https%3A%2F%2Fus02web.zoom.us%2Fj%2F123&event_uuid=ev-1';

test.describe('/thank-you', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('shows the booking from the query string', async ({ page, consoleErrors }) => {
    await page.goto(full);
    const card = page
      .getByRole('region', { name: 'Meeting Confirmation Details' })
      .or(page.locator('section', { has: page.getByRole('heading', { name: 'Meeting Confirmation Details' }) }));
    await expect(page.getByRole('heading', { name: 'Meeting Confirmation Details' })).toBeVisible();
    await expect(page.getByTestId('booking-confirmation')).toContainText('Thank you, Ana!');
    const details = card.first().locator('dl');
    await expect(details).toContainText('AttendeeAna Lopez');
    await expect(details).toContainText(/Meeting TimeThursday, September 25, 2025, 12:00\s–\s12:30\sPM EDT/);
    await expect(details).toContainText('Meeting TypeIntro Call');
    await expect(details).toContainText('Meeting HostJordan Lee');
    const join = page.getByRole('link', { name: /Join Meeting/ });
    await expect(join).toHaveAttribute('href', 'https://us02web.zoom.us/j/123');
    await expect(join).toHaveAttribute('target', '_blank');
    await expect(join).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(page.getByRole('heading', { name: "Make sure it's in the calendar" })).toBeVisible();
    await expect(page.getByText('Speak Soon!')).toBeVisible();
    // No invitee email: no lookup.
    await expect(page.getByText('Loading contact information...')).toHaveCount(0);
    await expect(page.locator('floating-cta')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('fires 50 pieces of confetti once, and none under reduced motion', async ({ page, browser }) => {
    await page.goto(full);
    await expect(page.locator('canvas')).toHaveCount(1, { timeout: 3000 });
    const reduced = await browser.newPage({ reducedMotion: 'reduce' });
    await reduced.goto(new URL(full, page.url()).toString());
    await expect(reduced.getByRole('heading', { name: 'Meeting Confirmation Details' })).toBeVisible();
    await reduced.waitForTimeout(500);
    await expect(reduced.locator('canvas')).toHaveCount(0);
    await reduced.close();
  });

  // Issue 32: without a booking it said "You're Booked!" with no way on.
  test('without a booking it says what to do next, with no confetti, and loads no island', async ({ page, consoleErrors }) => {
    // The booking's island and React (75 KB) are for a booking: a visit without one never asks for them.
    const islandScripts: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/^\/_astro\/(BookingDetails|client)\.[\w-]+\.js$/.test(pathname)) islandScripts.push(pathname);
    });
    const requests = watchRequests(page);
    await page.goto('/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Looking for your booking?');
    await expect(page.getByText("You're Booked!")).toBeHidden();
    await expect(page.getByRole('link', { name: 'Book a call about your school' })).toHaveAttribute('href', '/partnership-form');
    await expect(page.getByRole('link', { name: 'Write to your school' })).toHaveAttribute('href', '/lead-the-change#email-form');
    await page.waitForTimeout(500);
    await expect(page.locator('canvas')).toHaveCount(0);
    await page.mouse.wheel(0, 5000);
    // Whatever the scroll brought into view has asked for its scripts (networkidle would answer at once).
    await requests.quiet();
    expect(islandScripts).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('with only part of a booking it confirms, with no empty rows', async ({ page, consoleErrors }) => {
    await page.goto('/thank-you?event_type_name=Intro%20Call');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're Booked!");
    await expect(page.getByRole('heading', { name: 'Meeting Confirmation Details' })).toBeVisible();
    await expect(page.locator('dl')).toContainText('Meeting TypeIntro Call');
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveCount(0);
    await expect(page.getByText('Speak Soon!')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Looking for your booking?' })).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('without JavaScript it confirms the booking it cannot read, and offers the ways on below', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/thank-you');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're Booked!");
    await expect(page.getByText('The details of your meeting are in the confirmation email we sent you.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Write to your school' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await context.close();
  });

  test('hostile parameters are shown as text and unsafe links are dropped', async ({ page, consoleErrors }) => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const hostile =
      '/thank-you?invitee_full_name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&assigned_to=%3Cscript%3Ealert(2)%3C%2Fscript%3E' +
      '&meeting_url=javascript%3Aalert(3)&join_url=data%3Atext%2Fhtml%2C%3Cscript%3Ealert(4)%3C%2Fscript%3E&event_start_time=not-a-date&invitee_email=%3Cx%3E';
    await page.goto(hostile);
    await expect(page.getByText('<img src=x onerror=alert(1)>')).toBeVisible();
    await expect(page.getByText('<script>alert(2)</script>')).toBeVisible();
    await expect(page.locator('main img')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveCount(0);
    await expect(page.getByText('Meeting Time')).toHaveCount(0);
    await page.waitForTimeout(500);
    expect(dialogs).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  // Issue 21: anyone can write the query string; our page must not become a button to their site.
  test('a meeting_url of another host never becomes a "Join Meeting" button', async ({ page, consoleErrors }) => {
    for (const link of ['https://evil.example/login', 'https://zoom.us.evil.example/j/1', 'https://zoom.us@evil.example/j/1', 'http://zoom.us/j/1']) {
      await page.goto(`/thank-you?invitee_full_name=Ana&meeting_url=${encodeURIComponent(link)}&join_url=${encodeURIComponent(link)}`);
      await expect(page.getByText('AttendeeAna')).toBeVisible();
      await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveCount(0);
      await expect(page.locator(`a[href*="evil.example"], a[href^="http://zoom.us"]`)).toHaveCount(0);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('without an invitee_uuid nothing is looked up, even with an email', async ({ page }) => {
    let lookups = 0;
    await page.route('**/api/hubspot/search-contact', (route) => {
      lookups++;
      return route.continue();
    });
    await page.goto('/thank-you?invitee_full_name=Ana&invitee_email=ana%40example.org');
    await expect(page.getByText('AttendeeAna')).toBeVisible();
    await page.waitForTimeout(800);
    expect(lookups).toBe(0);
    await expect(page.getByRole('link', { name: /Join Meeting/ })).toHaveCount(0);
  });

  test('shows "Loading..." until the island starts', async ({ page }) => {
    // Long enough for the checks below to run before the island starts, on a busy machine too.
    await page.route('**/_astro/BookingDetails*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.goto('/thank-you?invitee_full_name=Ana');
    await expect(page.getByText('Loading...', { exact: true })).toBeVisible();
    // The confirmation is in the prebuilt page, so the largest text never waits for the island;
    // what follows the details appears with them instead of being pushed down.
    await expect(page.getByTestId('booking-confirmation')).toHaveText("Thank you! Your call is confirmed and we're looking forward to speaking with you.");
    await expect(page.getByRole('heading', { name: 'Meeting Confirmation Details' })).toBeVisible();
    await expect(page.getByRole('heading', { name: "Make sure it's in the calendar" })).toBeHidden();
    await expect(page.getByText('Speak Soon!')).toBeHidden();
    await expect(page.getByText('AttendeeAna')).toBeVisible();
    await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: "Make sure it's in the calendar" })).toBeVisible();
    await expect(page.getByText('Speak Soon!')).toBeVisible();
  });

  for (const [name, url, settled] of [
    ['without parameters', '/thank-you', 'Not yet? Choose how to start'],
    ['with a booking', full, 'Speak Soon!'],
  ] as const) {
    test(`nothing moves while the page is filled in (${name})`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url);
      await expect(page.getByText(settled)).toBeVisible();
      await page.waitForTimeout(500);
      const shifts = await layoutShifts(page);
      expect(shifts).toEqual([]);
    });
  }

  test('without JavaScript it confirms and points to the email, never "Loading..."', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/thank-you?invitee_full_name=Ana');
    await expect(page.getByTestId('booking-confirmation')).toContainText('Your call is confirmed');
    await expect(page.getByText('The details of your meeting are in the confirmation email we sent you.')).toBeVisible();
    await expect(page.getByText('Loading...', { exact: true })).toBeHidden();
    await expect(page.getByText('Speak Soon!')).toBeVisible();
    await context.close();
  });
});
