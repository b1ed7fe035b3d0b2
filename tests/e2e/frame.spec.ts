import { expect, test } from './fixtures';
import { watchErrors } from './helpers';

// Each route's own checks (200, title, heading, canonical, robots, navigation, footer, no console
// error) are every-route.spec.ts's, in the load that checks the rest.
test.describe('every route', () => {
  test('odd query strings never throw', async ({ page }) => {
    const errors = watchErrors(page);
    for (const path of ['/?%E0%A4%A=1', '/faqs?q=<script>alert(1)</script>', '/form?type=__proto__&ambassadorId=%00', '/thank-you?invitee_email=%ZZ']) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
    }
    expect(errors).toEqual([]);
  });
});

test.describe('unknown paths', () => {
  for (const path of ['/no-such-page', '/faqs/extra/deep', '/blogs-insights-old', '/%7Enobody']) {
    test(`${path} shows the 404 page with status 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Page Not Found');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    });
  }
});

test.describe('SEO files', () => {
  test('sitemap and robots.txt are served', async ({ request }) => {
    const sitemap = await request.get('/sitemap-index.xml');
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toContain('sitemap-0.xml');
    const pages = await (await request.get('/sitemap-0.xml')).text();
    expect(pages).toContain('/faqs</loc>');
    expect(pages).not.toContain('/webhook-config');
    const robots = await request.get('/robots.txt');
    const rules = await robots.text();
    expect(rules).toMatch(/Sitemap: .*sitemap-index\.xml/);
    // Every route may be crawled (§1 robots rule); unlisted pages are only left out of the sitemap.
    expect(rules).not.toMatch(/^Disallow:\s*\/\S*/m);
  });

  test('every page carries organisation structured data and social tags', async ({ page }) => {
    await page.goto('/how-it-works');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
    expect(ld['@type']).toBe('Organization');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /How It Works/);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
  });
});

test.describe('header', () => {
  test('below 1024 px (a tablet) the links are behind the menu button, never squeezed onto two lines', async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto('/faqs');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'FAQs', exact: true })).toBeHidden();
    await page.locator('[data-menu-toggle]').click();
    const link = nav.getByRole('link', { name: 'Why This Matters' });
    await expect(link).toBeVisible();
    expect((await link.boundingBox())!.height).toBeLessThan(48);
  });

  // One width of each header in the gate (the menu button's below 1024 px, the two rows' from
  // 1024 px); the others in the full run (`@full`).
  for (const width of [390, 768, 1024, 1440]) {
    test(`at ${width} px the home hero fills the screen below the header exactly`, [768, 1440].includes(width) ? { tag: '@full' } : {}, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      const [header, heroBottom] = await page.evaluate(() => [
        document.querySelector('[data-site-header]')!.getBoundingClientRect().height,
        document.querySelector('.hero')!.getBoundingClientRect().bottom,
      ]);
      expect(Math.abs(heroBottom - 800)).toBeLessThanOrEqual(1);
      expect(header).toBeGreaterThan(60);
    });
  }

  // The same two rows at every width from 1024 px: the narrowest and a wide one in the gate, the
  // others in the full run (`@full`).
  for (const width of [1024, 1280, 1440, 1920]) {
    test(
      `at ${width} px the logo, search and ambassador menu share the top row, the links the row below`,
      [1280, 1920].includes(width) ? { tag: '@full' } : {},
      async ({ page }) => {
        await page.setViewportSize({ width, height: 800 });
        await page.goto('/faqs');
        const nav = page.getByRole('navigation', { name: 'Main' });
        const middle = async (locator: ReturnType<typeof page.locator>) => {
          const box = (await locator.boundingBox())!;
          return box.y + box.height / 2;
        };
        const logo = await middle(nav.getByRole('link', { name: /home$/ }));
        expect(Math.abs((await middle(page.locator('[data-ambassador] summary'))) - logo)).toBeLessThan(8);
        expect(Math.abs((await middle(nav.getByRole('button', { name: /Search/ }))) - logo)).toBeLessThan(8);
        const links = await Promise.all(['Why This Matters', 'FAQs'].map((name) => middle(nav.getByRole('link', { name, exact: true }))));
        expect(links[0]).toBeGreaterThan(logo + 20);
        expect(Math.abs(links[1]! - links[0]!)).toBeLessThan(2);
      },
    );
  }

  test('the current page link is marked and highlighted', async ({ page }) => {
    await page.goto('/real-stories');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const current = nav.getByRole('link', { name: 'Real Stories' });
    await expect(current).toHaveAttribute('aria-current', 'page');
    // One link is current in the links shown (the narrow screens' menu has its own, hidden here).
    await expect(nav.locator('[aria-current="page"]:visible')).toHaveCount(1);
    const other = nav.getByRole('link', { name: 'FAQs' });
    const [currentColour, otherColour] = await Promise.all([
      current.evaluate((el) => getComputedStyle(el).backgroundColor),
      other.evaluate((el) => getComputedStyle(el).backgroundColor),
    ]);
    expect(currentColour).not.toBe(otherColour);
  });

  test('the logo links home and the eight links carry the spec labels', async ({ page }) => {
    await page.goto('/faqs');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: /home/i })).toHaveAttribute('href', '/');
    const labels = ['Why This Matters', 'How It Works', 'Lead the Change', 'Real Stories', 'Events & Webinars', 'Nominate School', 'Blogs & Insights', 'FAQs'];
    for (const label of labels) await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  });

  test('the ambassador dropdown opens, shows both links in a new tab, and closes on Escape and outside click', async ({ page }) => {
    await page.goto('/');
    const summary = page.locator('[data-ambassador] summary');
    const join = page.getByRole('link', { name: /Join The Movement/ });
    await expect(join).toBeHidden();
    const arrowClosed = await page.locator('.ambassador-arrow').evaluate((el) => {
      const s = getComputedStyle(el);
      return `${s.transform} ${s.rotate}`;
    });
    await summary.click();
    await expect(join).toBeVisible();
    const arrowOpen = await page.locator('.ambassador-arrow').evaluate((el) => {
      const s = getComputedStyle(el);
      return `${s.transform} ${s.rotate}`;
    });
    expect(arrowOpen).not.toBe(arrowClosed);
    await expect(join).toHaveAttribute('href', /\/register$/);
    await expect(join).toHaveAttribute('target', '_blank');
    await expect(join).toHaveAttribute('rel', 'noopener noreferrer');
    const signIn = page.getByRole('link', { name: /Sign In/ });
    await expect(signIn).toHaveAttribute('href', /\/login$/);
    await expect(signIn).toHaveAttribute('rel', 'noopener noreferrer');
    await page.keyboard.press('Escape');
    await expect(join).toBeHidden();
    await expect(summary).toBeFocused();
    // Keyboard: Enter opens it again; a click elsewhere closes it.
    await page.keyboard.press('Enter');
    await expect(join).toBeVisible();
    await page.mouse.click(640, 600);
    await expect(join).toBeHidden();
  });
});

test.describe('mobile menu at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu button opens a vertical menu, Escape closes it and focus returns', async ({ page }) => {
    await page.goto('/');
    const menu = page.locator('details#site-menu');
    const toggle = menu.locator('summary[data-menu-toggle]');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'How It Works' });
    await expect(toggle).toHaveAccessibleName('Menu');
    await expect(menu).not.toHaveAttribute('open');
    await expect(link).toBeHidden();
    await toggle.click();
    await expect(menu).toHaveAttribute('open', '');
    await expect(link).toBeVisible();
    const faq = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' });
    const [a, b] = await Promise.all([link.boundingBox(), faq.boundingBox()]);
    expect(b!.y).toBeGreaterThan(a!.y);
    expect(Math.abs(b!.x - a!.x)).toBeLessThan(2);
    // The ambassador's two links are in the menu too.
    await expect(menu.getByRole('link', { name: /Join The Movement/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(link).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  // Issue 32: without JavaScript every page opened with the whole menu (about 520 px) on top.
  test('without JavaScript the menu is closed, the page starts at the top of the screen, and the button opens the links', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/lead-the-change');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' });
    await expect(link).toBeHidden();
    expect((await page.getByRole('heading', { level: 1 }).boundingBox())!.y).toBeLessThan(300);
    await page.locator('summary[data-menu-toggle]').click();
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/\/faqs$/);
    await context.close();
  });
});

/**
 * The button hides wherever text lies under it (tested on its own below); tests of what it does
 * show it wherever it would otherwise be shown, on every page the test opens (a constructed
 * stylesheet: the pages' policy allows no inline <style>).
 */
const ignoreWhatLiesUnder = (page: import('@playwright/test').Page) =>
  page.addInitScript(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('floating-cta[data-covering] { visibility: visible !important; opacity: 1 !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });

test.describe('floating button', () => {
  test('appears after 300 px of scroll and links to the email form', async ({ page }) => {
    await page.goto('/why-this-matters');
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
    });
    const cta = page.getByRole('link', { name: /Lead The Change/ }).and(page.locator('[data-floating-link]'));
    await expect(cta).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForTimeout(100);
    await expect(cta).toBeHidden();
    // Past 300 px it shows where nothing lies under it: the empty end of the stretched page.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(cta).toBeVisible();
    await expect(cta).toHaveAttribute('href', '/lead-the-change#email-form');
    await expect(cta).toContainText('Join the Movement');
  });

  // Issue 32: the pill covered text on the confirmation, data, search and FAQ pages.
  test('on a wide screen the pill never lies over text, a heading, a field or a button, and shows again where the place under it is clear', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/faqs');
    await page.evaluate(() => {
      document.body.style.minHeight = `${document.body.scrollHeight + 2000}px`;
    });
    const cta = page.locator('floating-cta');
    for (const y of [400, 900, 1500, 2600]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(400);
      if (!(await cta.isVisible())) continue;
      const covered = await cta.evaluate((pill) => {
        const box = pill.getBoundingClientRect();
        return [...document.querySelectorAll('h1,h2,h3,h4,p,li,a,button,input,select,textarea,label,summary')]
          .filter((element) => !pill.contains(element) && element.checkVisibility())
          .map((element) => element.getBoundingClientRect())
          .some((rect) => rect.width > 0 && rect.left < box.right && rect.right > box.left && rect.top < box.bottom && rect.bottom > box.top);
      });
      expect(covered, `at ${y} px`).toBe(false);
    }
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(cta).toBeVisible();
  });

  // Issue 47.6: on the home page at 390 px the pill, stepping aside from text, showed at 1 of 6 depths.
  test('on a phone it is a bar with room of its own: shown at every depth past 300 px, the end of the page reachable above it, gone with its room when dismissed', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/', '/faqs', '/how-it-works']) {
      await page.goto(path);
      const cta = page.locator('floating-cta');
      await expect(cta, path).toBeHidden();
      const end = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      const depths = [1, 2, 3, 4, 5, 6].map((step) => 300 + Math.round(((end - 300) * step) / 6));
      for (const y of depths) {
        await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
        await expect(cta, `${path} at ${y} px`).toBeVisible();
        const box = (await cta.boundingBox())!;
        expect(box.width, 'the width of the screen').toBe(390);
        expect(Math.round(box.y + box.height), 'along its bottom').toBe(844);
      }
      // Scrolled to the end, the footer's last line is above the bar, not under it.
      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      const bar = await cta.evaluate((element) => element.getBoundingClientRect().top);
      const last = await page
        .locator('footer')
        .evaluate((footer) => Math.max(...[...footer.querySelectorAll('p,a,li')].map((element) => element.getBoundingClientRect().bottom)));
      expect(last, `${path}: the end of the footer`).toBeLessThanOrEqual(bar);
    }
    const room = () => page.evaluate(() => parseFloat(getComputedStyle(document.body).paddingBottom));
    expect(await room()).toBeGreaterThan(40);
    await page.getByRole('button', { name: 'Dismiss the Lead The Change button' }).click();
    await expect(page.locator('floating-cta')).toHaveCount(0);
    expect(await room()).toBe(0);
  });

  test('is not on the pages where its action is done or beside the point', async ({ page }) => {
    for (const path of ['/search?q=mastery', '/form?type=referSchool', '/your-data', '/thank-you', '/nominate-school', '/partnership-form']) {
      await page.goto(path);
      await expect(page.locator('floating-cta'), path).toHaveCount(0);
    }
  });

  test('is dismissed and stays hidden on later pages and reloads', async ({ page }) => {
    await ignoreWhatLiesUnder(page);
    await page.goto('/faqs');
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
      window.scrollTo(0, 600);
    });
    await page.getByRole('button', { name: /Dismiss/ }).click();
    await expect(page.locator('floating-cta')).toHaveCount(0);
    for (const path of ['/how-it-works', '/faqs']) {
      await page.goto(path);
      await page.evaluate(() => {
        document.body.style.minHeight = '4000px';
        window.scrollTo(0, 800);
      });
      await page.waitForTimeout(150);
      await expect(page.locator('[data-floating-link]')).toHaveCount(0);
    }
  });

  test('is never shown on /thank-you', async ({ page }) => {
    await page.goto('/thank-you');
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
      window.scrollTo(0, 1000);
    });
    await page.waitForTimeout(150);
    await expect(page.locator('[data-floating-link]')).toHaveCount(0);
  });

  test('on /lead-the-change it scrolls to the form instead of navigating, then keeps out of its way', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await ignoreWhatLiesUnder(page);
    await page.goto('/lead-the-change');
    // Past the 300 px threshold, with the form still below the screen.
    await page.evaluate(() => window.scrollTo(0, 320));
    const form = page.locator('#email-form');
    expect(await form.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThan(844);
    const cta = page.locator('[data-floating-link]');
    await cta.click();
    await expect(form).toBeInViewport();
    // The smooth scroll has ended when the page stops moving (scrolling back before that is undone by it).
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const before = window.scrollY;
              setTimeout(() => resolve(window.scrollY === before && before > 320), 200);
            }),
        ),
      )
      .toBe(true);
    // On a phone it would cover the fields it points to.
    await expect(cta).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 320));
    await expect(cta).toBeVisible();
  });

  test('with reduced motion it jumps to the form instead of scrolling smoothly', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 844 });
    await ignoreWhatLiesUnder(page);
    await page.goto('/lead-the-change');
    await page.evaluate(() => window.scrollTo(0, 320));
    await page.locator('[data-floating-link]').click();
    // No animation: the form is at the top of the screen straight after the click.
    const top = await page.locator('#email-form').evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeLessThan(200);
    await expect(page).toHaveURL(/#email-form$/);
  });

  test('hides while a form field has focus, and comes back after', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await ignoreWhatLiesUnder(page);
    await page.goto('/why-this-matters');
    await page.evaluate(() => {
      document.body.style.minHeight = '4000px';
      window.scrollTo(0, 600);
    });
    const cta = page.locator('[data-floating-link]');
    await expect(cta).toBeVisible();
    const field = page.locator('footer input[type="email"]').first();
    await field.focus();
    await expect(cta).toBeHidden();
    await field.evaluate((element) => (element as HTMLInputElement).blur());
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect(cta).toBeVisible();
  });
});

test.describe('footer', () => {
  test('quick links, connect, social names and the current year', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    const quick = footer.getByRole('navigation', { name: 'Quick Links' });
    await expect(quick.getByRole('link')).toHaveText(['Why This Matters', 'How It Works', 'Lead the Change', 'Real Stories', 'Nominate School']);
    const connect = footer.getByRole('navigation', { name: 'Connect' }).getByRole('link');
    await expect(connect).toHaveCount(3);
    for (const link of await connect.all()) await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    for (const network of ['Instagram', 'Facebook', 'LinkedIn', 'YouTube']) {
      await expect(footer.getByRole('link', { name: new RegExp(network) })).toBeVisible();
    }
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    await expect(footer.locator('native-form[data-purpose="newsletter"]')).toHaveCount(1);
  });
});

test.describe('security policy', () => {
  test('pages pin their scripts by hash and refuse framing', async ({ page }) => {
    const response = await page.goto('/faqs');
    const header = response?.headers()['content-security-policy'] ?? '';
    expect(header).toContain("frame-ancestors 'none'");
    expect(header).toContain("object-src 'none'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    expect(response?.headers()['strict-transport-security']).toMatch(/max-age=(\d{8,}).*includeSubDomains/);
    const meta = (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content')) ?? '';
    const scriptSrc = meta.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toContain("'sha256-");
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);
    expect(meta).toContain("base-uri 'none'");
  });
});
