/**
 * What a visitor's browser actually fetches, per route, against `npm start` behind the compressing
 * proxy: every request made while the page loads and is scrolled through (lazy parts included),
 * the bytes on the wire, the JavaScript among them, and any host other than the site (there should
 * be none: no third-party script, font or beacon). Then, on a phone profile (390 px, 4x CPU
 * slowdown), how long "Your Email is Ready" takes to open after the email form's answer arrives.
 */
import { chromium } from '@playwright/test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromiumFlags, chromiumPath } from '../chromium.mjs';
import { root, table, withServer } from './_server.mjs';

export const title = 'Requests per route (what the browser fetches; hosts other than the site)';

const kb = (bytes) => (bytes / 1024).toFixed(1);

function routesOf(dir, base = dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return ['pagefind', '_astro', 'api'].includes(entry) ? [] : routesOf(full, base);
    if (!entry.endsWith('.html') || /^(404|blog-post-not-found|form-response)\.html$/.test(entry)) return [];
    return [
      `/${relative(base, full)
        .replace(/\.html$/, '')
        .replace(/(^|\/)index$/, '')}`,
    ];
  });
}

async function measureRoute(browser, base, route) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const site = new URL(base).host;
  const requests = [];
  page.on('requestfinished', async (request) => {
    const sizes = await request.sizes().catch(() => ({ responseBodySize: 0, responseHeadersSize: 0 }));
    requests.push({ url: request.url(), type: request.resourceType(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
  });
  const others = new Set();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && url.host !== site) others.add(url.host);
  });
  await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
  const firstLoadJs = requests.filter((r) => r.type === 'script').reduce((sum, r) => sum + r.bytes, 0);
  // Scrolled through, as a reader would, so that lazy parts load.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  });
  await page.waitForLoadState('networkidle');
  await context.close();
  const total = requests.reduce((sum, r) => sum + r.bytes, 0);
  return [route, requests.length, kb(total), kb(firstLoadJs), [...others].join(', ') || 'none'];
}

/** Milliseconds from the email form's answer to the open dialog, on a phone profile. */
async function dialogDelay(browser, base, path, scope) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  const loadedAt = Date.now();
  const form = page.locator(`${scope} form[data-native-form]`);
  await form.scrollIntoViewIfNeeded();
  const fill = async (label, value) => form.getByLabel(label).fill(value);
  await fill(/Your full name/, 'Ana Lopez');
  await fill(/^Your email/, `bench-${Date.now()}@example.org`);
  await fill(/Child's full name/, 'Maya Lopez');
  await fill(/Child's grade/, '5');
  await fill(/^School name/, 'Oakwood Academy');
  await fill(/School contact name/, 'Dr. Patel');
  await fill(/School contact email/, 'head@oakwood.edu');
  if (await form.getByLabel(/Your role to the student/).count()) await form.getByLabel(/Your role to the student/).selectOption('Parent');
  for (const label of [/^City/, /^State/]) if (await form.getByLabel(label).count()) await fill(label, 'Austin');
  await form.getByLabel("I'll send it myself").check();
  // As a person would: the forms quietly refuse what is sent sooner than FORMS_MIN_FILL_MS (2 s).
  await page.waitForTimeout(Math.max(0, 2500 - (Date.now() - loadedAt)));
  await page.evaluate(() => {
    window.__dialogOpenedAt = new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error('the dialog did not open within 20 s')), 20_000);
      new MutationObserver((_, observer) => {
        if (document.querySelector('dialog[open]')) {
          observer.disconnect();
          resolve(performance.now());
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['open'] });
    });
  });
  await form.locator('[data-submit]').click();
  const delay = await page.evaluate(async () => {
    const opened = await window.__dialogOpenedAt;
    const answer = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/forms/'));
    return opened - answer.responseEnd;
  });
  await context.close();
  return delay;
}

export async function run() {
  const port = Number(process.env.BENCH_PORT || 8960);
  await withServer(port, async (base) => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    try {
      const rows = [];
      for (const route of routesOf(join(root, 'dist')).sort()) rows.push(await measureRoute(browser, base, route));
      for (const route of ['/form?type=referSchool', '/form?type=newsletter']) rows.push(await measureRoute(browser, base, route));
      table(['route (390 px, scrolled through)', 'requests', 'KB on the wire', 'first-load JS KB', 'other hosts'], rows);

      console.log('\n"Your Email is Ready" after the form is accepted (390 px, 4x CPU slowdown; median of 5):\n');
      const delays = [];
      for (const [path, scope] of [
        ['/lead-the-change', '#email-form'],
        ['/form?type=referSchool', '[data-form-type="referSchool"]'],
      ]) {
        const runs = [];
        for (let i = 0; i < 5; i++) runs.push(await dialogDelay(browser, base, path, scope));
        runs.sort((a, b) => a - b);
        delays.push([path, `${Math.round(runs[2])} ms`, `${Math.round(runs[0])}-${Math.round(runs[4])} ms`]);
      }
      table(['page', 'median', 'range'], delays);
    } finally {
      await browser.close();
    }
  });
}
