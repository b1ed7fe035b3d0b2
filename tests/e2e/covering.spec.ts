/**
 * Issue 32.2, "nothing covers what matters": at 320, 390 and 1280 px no fixed or sticky element
 * lies over a heading, a field, a button or the letter: on every route, at its top and after
 * scrolling, and in the states a parent's walk goes through (the email dialog open, a notice shown
 * in it, "Check your inbox", /your-email). The sticky header is where the screen starts: what is
 * under it is scrolled out of view, not covered. On a phone the call to action is a bar along the
 * bottom with room of its own (issue 47.6): it is where the screen ends, until the end of the page,
 * where the room the page leaves for it must hold nothing that matters.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fillEmailForm } from './helpers';
import { coverings, expectNothingCoveredWhileScrolling } from './covering';
import { oneOfEachKind, routes } from './routes';

const widths = [320, 390, 1280] as const;
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

const sendForm = (page: Page, email: string) =>
  fillEmailForm(page, '#email-form', { email, choice: "I'll send it myself", school: 'Lakeside School', schoolEmail: `head@${email.split('@')[0]}.example` });

/** Every route, plus the search with results, /your-data and the referral form. */
const paths = [...routes.map((route) => route.path), '/search?q=mastery', '/your-data', '/form?type=referSchool'];

/**
 * At 390 px, the phone most parents read on, every route is checked in the gate (`npm test`), by
 * every-route.spec.ts in the load that checks the rest; at 320 and 1280 px, in the full run (`npm
 * run test:full`, the `@full` tag), one route of each kind (a section page in both languages, a
 * form page, the FAQs, an article, the results, /your-data), then every other route. The gate
 * keeps, at those widths, what differs there: the floating button as a pill beside text at 1280 px
 * (frame.spec.ts, "on a wide screen the pill never lies over text…"), the home comparison at 320 px
 * (below), and the field the browser asks for below a header of two lines (below).
 */
const oneOfEachKindAndYourData = new Set([...oneOfEachKind, '/your-data']);

for (const width of widths) {
  const parts =
    width === 390
      ? [] // every-route.spec.ts, in the load that checks the rest
      : [
          { which: 'one route of each kind', paths: paths.filter((path) => oneOfEachKindAndYourData.has(path)) },
          { which: 'the other routes', paths: paths.filter((path) => !oneOfEachKindAndYourData.has(path)) },
        ];
  test.describe(`every route at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    for (const part of parts) {
      test(`${part.which}: nothing fixed over what matters at ${width} px, at the top or after scrolling`, { tag: '@full' }, async ({ page }) => {
        test.setTimeout(300_000);
        for (const path of part.paths) {
          // The page's scripts have run (./fixtures.ts); its pictures have their size in the HTML and its
          // fonts are the system's, so nothing arriving later moves what is on screen.
          await page.goto(path);
          await expectNothingCoveredWhileScrolling(page, `${path} at ${width} px`);
        }
      });
    }
  });
}

for (const width of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });

    // At 390 px in the gate; at 320 and 1280 px in the full run (the dialog's layout is the same
    // column at every width, the same letter and notices in it).
    test(
      'the email dialog, its notices and /your-email: nothing lies over the letter or its buttons',
      width === 390 ? {} : { tag: '@full' },
      async ({ page, request }) => {
        test.setTimeout(120_000);
        await page.goto('/lead-the-change');
        await sendForm(page, unique(`covering-${width}`));
        const dialog = page.getByRole('dialog', { name: 'Your Email is Ready' });
        await expect(dialog).toBeVisible({ timeout: 20_000 });
        const scrollDialog = async (label: string) => {
          for (const share of [0, 0.5, 1]) {
            await dialog.evaluate((element, fraction) => element.scrollTo(0, (element.scrollHeight - element.clientHeight) * fraction), share);
            expect(await coverings(page), `${label}, the dialog scrolled to ${share * 100}%`).toEqual([]);
          }
        };
        await scrollDialog('the dialog open');

        // "Copied!" is said in the dialog's flow, below the buttons, never over the letter.
        await dialog.getByRole('button', { name: 'Copy' }).click();
        const notice = dialog.getByText('Email content copied to clipboard.');
        await expect(notice).toBeVisible();
        const [letter, toast] = await Promise.all([dialog.getByTestId('email-body').boundingBox(), notice.boundingBox()]);
        expect(toast!.y).toBeGreaterThan(letter!.y + letter!.height);
        await scrollDialog('"Copied!" shown');

        // "Check your inbox" is part of the dialog, not a notice over its To: line.
        await dialog.getByRole('button', { name: 'Send via our platform' }).click();
        await expect(dialog.getByTestId('check-inbox')).toBeVisible({ timeout: 20_000 });
        const to = await dialog.getByTestId('email-to').boundingBox();
        expect(await coverings(page)).toEqual([]);
        expect(to!.height).toBeGreaterThan(0);
        await scrollDialog('"Check your inbox" shown');

        // The same letter without JavaScript's dialog: /your-email, reached as the form's answer.
        const formId = await page.locator('[data-email-form-id]').getAttribute('data-email-form-id');
        const email = unique(`covering-page-${width}`);
        const answer = await request.post(`/api/forms/${formId}`, {
          headers: { accept: 'application/json' },
          data: {
            full_name: 'Ana Lopez',
            email,
            child_full_name: 'Maya Lopez',
            child_grade: '3rd grade',
            school_name: 'Lakeside School',
            school_contact_name: 'Dr. Lee',
            school_contact_email: `head@${email.split('@')[0]}.example`,
            choose_how_to_send_your_email: 'I will send it myself',
            _page: '/lead-the-change',
            _form: 'form-emailGenerator',
          },
        });
        const { draft } = (await answer.json()) as { draft: { id: string; token: string } };
        await page.goto(`/your-email?id=${draft.id}&t=${draft.token}`);
        await expectNothingCoveredWhileScrolling(page, '/your-email');
      },
    );
  });
}

// A form sent empty without JavaScript: the browser's own check scrolls its first empty field to
// just below the sticky header (scroll-padding-top, global.css), whose height differs: a Spanish
// header's links take two lines up to 80rem, and without JavaScript a phone's header has a search
// row. The header hid 4 px of the field at 1024 and 1240 px in Spanish, and 40 px at 390. (An anchor
// has room of its own, scroll-mt; Chromium centres a field focused by the keyboard.)
test.describe('the field the browser asks for lands below the header', () => {
  for (const { path, width } of [
    { path: '/es/lead-the-change', width: 390 },
    { path: '/es/lead-the-change', width: 1024 },
    { path: '/es/lead-the-change', width: 1240 },
    { path: '/lead-the-change', width: 1024 },
  ]) {
    test(`${path} at ${width} px without JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(path);
      const field = page.locator('#email-form [name="full_name"]');
      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      await page.locator('#email-form [data-submit]').click();
      await expect(field).toBeFocused();
      await expect
        .poll(() => field.evaluate((input) => input.getBoundingClientRect().top - document.querySelector('header')!.getBoundingClientRect().bottom))
        .toBeGreaterThanOrEqual(0);
      await context.close();
    });
  }
});

test.describe('the letter reads in the page’s own flow', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('in the dialog it is not a scroll box of its own', async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, unique('flow'));
    const body = page.getByRole('dialog', { name: 'Your Email is Ready' }).getByTestId('email-body');
    await expect(body).toBeVisible({ timeout: 20_000 });
    const box = await body.evaluate((element) => ({
      overflow: getComputedStyle(element).overflowY,
      maxHeight: getComputedStyle(element).maxHeight,
      clipped: element.scrollHeight > element.clientHeight + 1,
    }));
    expect(box).toEqual({ overflow: 'visible', maxHeight: 'none', clipped: false });
  });
});

test.describe('the home comparison at 320 px', () => {
  test.use({ viewport: { width: 320, height: 800 } });

  test('shows every line of both sides inside its card (it was cut off at "Active,")', async ({ page }) => {
    await page.goto('/');
    const card = page.locator('[data-comparison]');
    await card.scrollIntoViewIfNeeded();
    const outside = await card.evaluate((box) => {
      const frame = box.getBoundingClientRect();
      return [...box.querySelectorAll('li')]
        .map((item) => ({ text: item.textContent?.trim(), rect: item.getBoundingClientRect() }))
        .filter(({ rect }) => rect.bottom > frame.bottom + 0.5 || rect.right > frame.right + 0.5)
        .map(({ text }) => text);
    });
    expect(outside).toEqual([]);
    await expect(card.getByText('Active, accelerated, and limitless')).toBeInViewport();
  });
});
