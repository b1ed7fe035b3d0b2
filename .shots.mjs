import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
const embed = readFileSync('/work/wt5/tests/fakes/form-embed.js', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const [path, name, width, action] = process.argv.slice(2);
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
await page.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (r) => r.abort());
await page.route('https://js.hsforms.net/**', (r) => r.fulfill({ body: embed, contentType: 'application/javascript' }));
await page.goto('http://localhost:8903' + path);
await page.waitForTimeout(1200);
if (action === 'submit') {
  const form = page.locator('#email-form form, [data-form-type="referSchool"] form').first();
  await form.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  await form.locator('[name=full_name]').fill('Ana Lopez');
  await form.locator('[name=email]').fill('ana@example.org');
  await form.locator('[name=child_full_name]').fill('Maya Lopez');
  await form.locator('[name=school_name]').fill('Oakwood Academy');
  await form.locator('[type=submit]').click();
  await page.waitForTimeout(1000);
  await page.screenshot({ path: `/tmp/wt5shots/${name}.png` });
} else {
  for (let y = 0; y < 20; y++) { await page.mouse.wheel(0, 600); await page.waitForTimeout(80); }
  await page.waitForTimeout(800);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `/tmp/wt5shots/${name}.png`, fullPage: true });
}
await browser.close();
