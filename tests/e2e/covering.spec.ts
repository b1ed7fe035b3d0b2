/**
 * Issue 32.2, "nothing covers what matters": at 320, 390 and 1280 px no fixed or sticky element
 * lies over a heading, a field, a button or the letter: on every route, at its top and after
 * scrolling, and in the states a parent's walk goes through (the email dialog open, a notice shown
 * in it, "Check your inbox", /your-email). The sticky header is where the screen starts: what is
 * under it is scrolled out of view, not covered.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fillEmailForm } from './helpers';
import { routes } from './routes';

const widths = [320, 390, 1280] as const;
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

/** "<what covers> covers <what>", for each fixed or sticky element over something that matters. */
function coverings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MATTERS = 'h1,h2,h3,h4,h5,h6,input:not([type="hidden"]),select,textarea,button,summary,[role="button"],[data-testid="email-body"],[data-email-text]';
    const seen = (element: Element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const name = (element: Element) =>
      `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}> "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    // With a modal dialog open, only the dialog is on top: what covers its content is inside it.
    const dialog = [...document.querySelectorAll('dialog[open]')].find((element) => element.matches(':modal'));
    const scope: ParentNode = dialog ?? document;
    const header = document.querySelector('[data-site-header]');
    const screenTop = dialog ? 0 : Math.max(0, header?.getBoundingClientRect().bottom ?? 0);
    const overlays = [...scope.querySelectorAll('*')].filter((element) => {
      // Decoration no one reads or uses (the 3-second confetti of a booking) is not in the way.
      if (element === header || element === dialog || element.closest('[aria-hidden="true"]')) return false;
      const { position } = getComputedStyle(element);
      return (position === 'fixed' || position === 'sticky') && seen(element);
    });
    const found: string[] = [];
    for (const overlay of overlays) {
      const o = overlay.getBoundingClientRect();
      if (o.width === 0 || o.height === 0) continue;
      for (const target of scope.querySelectorAll(MATTERS)) {
        if (overlay.contains(target) || target.contains(overlay) || !seen(target)) continue;
        const t = target.getBoundingClientRect();
        // Only what is on screen (below the header) can be covered.
        if (t.bottom <= screenTop || t.top >= window.innerHeight || t.width === 0) continue;
        const width = Math.min(o.right, t.right) - Math.max(o.left, t.left);
        const height = Math.min(o.bottom, t.bottom, window.innerHeight) - Math.max(o.top, t.top, screenTop);
        if (width > 1 && height > 1) found.push(`${name(overlay)} covers ${name(target)}`);
      }
    }
    return found;
  });
}

/** At the top, halfway and at the end of the page, each after the floating button had time to settle. */
async function expectNothingCoveredWhileScrolling(page: Page, label: string) {
  for (const share of [0, 0.35, 0.7, 1]) {
    await page.evaluate((fraction) => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) * fraction), share);
    await page.waitForTimeout(450);
    expect(await coverings(page), `${label}, scrolled to ${share * 100}%`).toEqual([]);
  }
}

const sendForm = (page: Page, email: string) =>
  fillEmailForm(page, '#email-form', { email, choice: "I'll send it myself", school: 'Lakeside School', schoolEmail: `head@${email.split('@')[0]}.example` });

for (const width of widths) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] });

    test('no route has anything fixed over what matters, at its top or after scrolling', async ({ page }) => {
      test.setTimeout(240_000);
      const paths = [...routes.map((route) => route.path), '/search?q=mastery', '/your-data', '/form?type=referSchool'];
      for (const path of paths) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectNothingCoveredWhileScrolling(page, path);
      }
    });

    test('the email dialog, its notices and /your-email: nothing lies over the letter or its buttons', async ({ page, request }) => {
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
    });
  });
}

test.describe('the letter reads in the page’s own flow', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('in the dialog it is not a scroll box of its own', async ({ page }) => {
    await page.goto('/lead-the-change');
    await sendForm(page, unique('flow'));
    const body = page.getByRole('dialog', { name: 'Your Email is Ready' }).getByTestId('email-body');
    await expect(body).toBeVisible({ timeout: 20_000 });
    const box = await body.evaluate((element) => ({ overflow: getComputedStyle(element).overflowY, maxHeight: getComputedStyle(element).maxHeight, clipped: element.scrollHeight > element.clientHeight + 1 }));
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
