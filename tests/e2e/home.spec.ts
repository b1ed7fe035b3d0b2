import { expect, test } from './fixtures';
import { enhanced, layoutShifts, startTricklingProxy } from './helpers';
import { baseURL } from '../../playwright.config';

test.describe('home hero', () => {
  test('headline, sub-line, trust badges and the register call to action', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('[data-hero]');
    await expect(hero.getByRole('heading', { level: 1 })).toHaveText('Transform Learning. Empower your Child. Influence your school.');
    await expect(hero).toContainText('Curriculum time just got shorter. The result? Smarter.');
    await expect(hero.getByRole('listitem')).toHaveText(['Trusted by educators', 'Loved by families', 'Built for your child']);
    const cta = hero.getByRole('link', { name: /Join the Parent Movement/ });
    await expect(cta).toHaveAttribute('href', /^https:\/\/.+\/register$/);
    await expect(cta).toHaveAttribute('target', '_blank');
    await expect(cta).toHaveAttribute('rel', 'noopener noreferrer');
  });

  test('the grid: 20 horizontal and 30 vertical lines 60 px apart, 15 particles, a centred card', async ({ page }) => {
    await page.goto('/');
    // Each family of lines is one path: one "M" (move) per line.
    const starts = async (family: string) =>
      [...((await page.locator(`[data-grid-lines="${family}"]`).getAttribute('d')) ?? '').matchAll(/M(-?[\d.]+) (-?[\d.]+)/g)].map(
        (m) => [Number(m[1]), Number(m[2])] as const,
      );
    const vertical = await starts('vertical');
    const horizontal = await starts('horizontal');
    expect(vertical).toHaveLength(30);
    expect(horizontal).toHaveLength(20);
    const xs = vertical.map(([x]) => x);
    const ys = horizontal.map(([, y]) => y);
    expect(xs.slice(1).map((x, i) => x - xs[i]!)).toEqual(Array(29).fill(60));
    expect(ys.slice(1).map((y, i) => y - ys[i]!)).toEqual(Array(19).fill(60));
    await expect(page.locator('[data-hero-particle]')).toHaveCount(15);
    const [hero, card] = await Promise.all([page.locator('[data-hero]').boundingBox(), page.locator('[data-hero-card]').boundingBox()]);
    expect(Math.abs(hero!.x + hero!.width / 2 - (card!.x + card!.width / 2))).toBeLessThan(2);
  });

  test('a clear circle of 120 px follows the pointer', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('[data-hero]');
    const box = (await hero.boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + 150);
    await expect(hero).toHaveAttribute('style', /--spot-x: 200px; --spot-y: 150px/);
    const mask = await page.locator('[data-hero-veil]').evaluate((el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
    expect(mask).toContain('120px');
    await page.mouse.move(box.x + 420, box.y + 300);
    await expect(hero).toHaveAttribute('style', /--spot-x: 420px; --spot-y: 300px/);
  });

  test('particles float for at most five seconds, then rest; they stand still under reduced motion', async ({ page }) => {
    await page.goto('/');
    const particle = page.locator('[data-hero-particle]').first();
    // Drawn above the hero's own background: the section isolates its decoration's negative z-index
    // (the page's pruned stylesheet once lost `isolation`, and the grid and particles went under it).
    expect(await page.locator('[data-hero]').evaluate((el) => getComputedStyle(el).isolation)).toBe('isolate');
    expect(await particle.evaluate((el) => getComputedStyle(el.parentElement!).pointerEvents)).toBe('none');
    expect(await particle.evaluate((el) => getComputedStyle(el).animationName)).not.toBe('none');
    // Held still while the first frames are drawn, floating once the page's scripts have run.
    expect(await particle.evaluate((el) => getComputedStyle(el).animationPlayState)).toBe('running');
    // Then every one ends within five seconds (WCAG 2.2.2: moving decoration beside the content
    // stops by itself), and nothing on the page is animated any more.
    const left = await page.evaluate(() =>
      document.getAnimations().map((animation) => Number(animation.effect?.getComputedTiming().endTime) - Number(animation.currentTime)),
    );
    expect(left.length).toBeGreaterThan(0);
    expect(Math.max(...left)).toBeLessThanOrEqual(5000);
    await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length), { timeout: 7000 }).toBe(0);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    expect(await particle.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
  });

  test('the hero text is there without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Curriculum time just got shorter. The result? Smarter.')).toBeVisible();
    await context.close();
  });
});

test.describe('nothing moves while the page arrives', () => {
  // Browsers paint what has arrived. A page painted with half its hero card (centred on the screen,
  // so each line after moved it up) or half its header row shifted by up to 0.26 in Lighthouse.
  for (const viewport of [
    { width: 412, height: 823 },
    { width: 1280, height: 800 },
  ]) {
    test(`the home page at ${viewport.width} px, its HTML sent in 1 KB pieces`, async ({ browser }) => {
      const proxy = await startTricklingProxy(baseURL);
      const page = await browser.newPage({ viewport });
      try {
        await page.goto(`${proxy.url}/`);
        await expect(page.locator('[data-hero-card]')).toBeVisible();
        await page.waitForLoadState('load');
        expect(await layoutShifts(page)).toEqual([]);
      } finally {
        await page.close();
        await proxy.close();
      }
    });
  }
});

test.describe('home sections', () => {
  test('come in the order of the specification, with the optional ones switched off', async ({ page }) => {
    await page.goto('/');
    const ids = await page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id || s.getAttribute('aria-labelledby')));
    expect(ids).toEqual(['hero-title', 'stats', 'how-it-works', 'results', 'real-outcomes', 'comparison', 'advocacy-toolkit', 'join', 'home-newsletter']);
    await expect(page.locator('[data-nomination-section]')).toHaveCount(0);
    await expect(page.locator('[data-parent-videos-section]')).toHaveCount(0);
  });

  test('how it works shows its four cards', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#how-it-works').getByRole('heading', { level: 3 })).toHaveText([
      'Mastery-based Learning',
      'Adaptive Technology Powered by AI',
      'Just 2 Hours a Day',
      'Parent-School Partnerships',
    ]);
  });

  test('the toolkit has three cards and leads to the amplify section of /lead-the-change', async ({ page }) => {
    await page.goto('/');
    const toolkit = page.locator('#advocacy-toolkit');
    await expect(toolkit.getByRole('heading', { level: 3 })).toHaveText(['Social Media Templates', 'Visual Graphics', 'Fact Sheets']);
    const resources = toolkit.getByRole('link', { name: 'Get The Resources' });
    await expect(resources).toHaveAttribute('href', '/lead-the-change#amplify-section');
    await resources.click();
    await expect(page).toHaveURL(/\/lead-the-change#amplify-section$/);
    const amplify = page.locator('#amplify-section');
    if ((await amplify.count()) > 0) await expect(amplify).toBeInViewport({ timeout: 3000 });
  });

  test('Join Parents Nationwide and every "Join the movement" button open the register page in a new tab', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Join Parents Nationwide' })).toBeVisible();
    const joins = page.locator('main').getByRole('link', { name: /^Join the movement/i });
    expect(await joins.count()).toBeGreaterThanOrEqual(2);
    for (const link of await joins.all()) {
      await expect(link).toHaveAttribute('href', /\/register$/);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await expect(page.locator('#home-newsletter native-form[data-purpose="newsletter"]')).toHaveCount(1);
  });
});

test.describe('statistics', () => {
  const finals = ['2x', 'Top 1-2%', '1 in 5', '26%', '29%', '97%'];
  const results = ['85%', '40%', '100%'];

  test('the final figures are in the HTML, for crawlers and visitors without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('#stats [data-stat-value]')).toHaveText(finals);
    await expect(page.locator('#results [data-stat-value]')).toHaveText(results);
    await context.close();
  });

  test('count up from 0 once, when scrolled into view, and end on the target', async ({ page }) => {
    await page.goto('/');
    const counter = page.locator('#stats [data-counter][data-target="97"]');
    await expect(counter).toHaveText('97%');
    // Time stands still from here but for runFor: a busy machine's seconds must not count for it.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await counter.scrollIntoViewIfNeeded();
    // The observer reports asynchronously; counting starts by resetting to 0.
    await expect(counter).not.toHaveText('97%');
    await page.clock.runFor(60);
    const early = Number((await counter.textContent())?.replace('%', ''));
    expect(early).toBeLessThan(97);
    await page.clock.runFor(900);
    const middle = Number((await counter.textContent())?.replace('%', ''));
    expect(middle).toBeGreaterThan(early);
    expect(middle).toBeLessThan(97);
    await page.clock.runFor(1200);
    await expect(counter).toHaveText('97%');
    // Once: scrolling away and back does not replay it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.clock.runFor(200);
    await counter.scrollIntoViewIfNeeded();
    await page.clock.runFor(200);
    await expect(counter).toHaveText('97%');
    await expect(page.locator('#stats [data-stat-value]').filter({ hasText: '1-2' })).toHaveText('Top 1-2%');
  });

  test('stay still under reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const counter = page.locator('#results [data-counter][data-target="85"]');
    await counter.scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    await expect(counter).toHaveText('85%');
  });
});

test.describe('video cards', () => {
  test('a click plays and pauses, with the overlay showing on hover and hiding 1 s after leaving', async ({ page }) => {
    await page.goto('/');
    const grid = page.getByRole('list', { name: 'parent stories' });
    await expect(grid.getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('list', { name: 'student stories' }).getByRole('listitem')).toHaveCount(3);
    await enhanced(page, 'video-card');
    const card = grid.locator('[data-video-card]').first();
    const video = card.locator('video');
    const overlay = card.locator('[data-video-overlay]');
    await card.scrollIntoViewIfNeeded();
    await expect(overlay).toHaveAttribute('data-video-overlay', 'visible');
    await card.getByRole('button', { name: /^Play video/ }).click();
    await expect(video).toHaveAttribute('data-state', 'playing');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
    // The pointer is over it: the overlay shows the pause control.
    await expect(overlay).toHaveAttribute('data-video-overlay', 'visible');
    await expect(card.getByRole('button', { name: /^Pause video/ })).toBeVisible();
    await page.mouse.move(5, 5);
    await page.waitForTimeout(500);
    await expect(overlay).toHaveAttribute('data-video-overlay', 'visible');
    await expect(overlay).toHaveAttribute('data-video-overlay', 'hidden', { timeout: 1500 });
    await overlay.hover();
    await expect(overlay).toHaveAttribute('data-video-overlay', 'visible');
    await card.getByRole('button', { name: /^Pause video/ }).click();
    await expect(video).toHaveAttribute('data-state', 'paused');
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  });

  test('the fallback text of <video> is the specification text', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-video-card] video').first()).toHaveText('Your browser does not support the video tag.');
  });
});

test.describe('video modal', () => {
  test('opens with the title, closes on Escape, close button and backdrop, and gives focus back', async ({ page }) => {
    await page.goto('/');
    await enhanced(page, 'video-card');
    const card = page.locator('[data-video-card]').nth(1);
    const opener = card.getByRole('button', { name: /Watch in the large player/ });
    const title = (await card.getByRole('heading').textContent())!.trim();
    await opener.click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('video')).toHaveAttribute('src', /\.mp4$/);
    await expect(dialog.locator('video')).toHaveText('Your browser does not support the video tag.');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close dialog' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
  });
});

test.describe('comparison', () => {
  test('shows the four items of each side', async ({ page }) => {
    await page.goto('/');
    const widget = page.locator('[data-comparison]');
    await expect(widget.locator('[data-side="traditional"] li')).toHaveText([
      'Full-day schedule',
      'Same pace for all',
      'The teacher teaches the students',
      'Passive and uniform',
    ]);
    await expect(widget.locator('[data-side="programme"] li')).toHaveText([
      '2 focused hours for core subject learning',
      'Personalized lessons by skill level',
      'Teacher guides for individual mastery',
      'Active, accelerated, and limitless',
    ]);
  });

  test('the divider follows the pointer, clamped to 0-100% of the width', async ({ page }) => {
    await page.goto('/');
    const widget = page.locator('[data-comparison]');
    const slider = page.getByRole('slider', { name: /Compare traditional school/ });
    await enhanced(page, 'comparison-slider');
    await expect(slider).toHaveAttribute('aria-valuenow', '50');
    // Sections above render as they come into view (content-visibility), so the widget may still
    // move a little after scrolling: point at it again until it is where it was measured.
    let box = (await widget.boundingBox())!;
    await expect(async () => {
      box = (await widget.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
      await expect(slider).toHaveAttribute('aria-valuenow', '25', { timeout: 500 });
    }).toPass({ timeout: 5000 });
    const programme = widget.locator('[data-side="programme"]');
    await expect(programme).toHaveAttribute('style', /inset\(0px 75% 0px 0px\)|inset\(0 75% 0 0\)/);
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect(slider).toHaveAttribute('aria-valuenow', '90');
    // Dragging beyond the edges clamps the divider to 0% and 100%.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x - 80, box.y + box.height / 2);
    await expect(slider).toHaveAttribute('aria-valuenow', '0');
    await page.mouse.move(box.x + box.width + 80, box.y + box.height / 2);
    await expect(slider).toHaveAttribute('aria-valuenow', '100');
    await page.mouse.up();
    const handle = (await slider.boundingBox())!;
    expect(Math.abs(handle.x + handle.width / 2 - (box.x + box.width))).toBeLessThan(2);
  });

  test('is a keyboard slider', async ({ page }) => {
    await page.goto('/');
    const slider = page.getByRole('slider', { name: /Compare traditional school/ });
    await enhanced(page, 'comparison-slider');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuenow', '55');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(slider).toHaveAttribute('aria-valuenow', '45');
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuenow', '100');
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuenow', '100');
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuenow', '0');
    await expect(slider).toHaveAttribute('aria-valuemin', '0');
    await expect(slider).toHaveAttribute('aria-valuemax', '100');
  });
});

test.describe('comparison on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('a tap moves the divider there', async ({ page }) => {
    await page.goto('/');
    const widget = page.locator('[data-comparison]');
    await enhanced(page, 'comparison-slider');
    const slider = page.getByRole('slider', { name: /Compare traditional school/ });
    await expect(slider).toHaveAttribute('aria-valuenow', '50');
    const box = (await widget.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height / 2);
    await expect(slider).toHaveAttribute('aria-valuenow', '80');
  });
});
