import type { Page } from '@playwright/test';
import { isbot } from 'isbot';
import { e2eAdminPassword } from '../../playwright.config';
import { expect } from './fixtures';

/**
 * A mark that makes a test's names, addresses and schools its own: the time and a random part, in
 * lowercase letters only. Digits would do as well for addresses, but a name with a run of seven
 * digits reads as a phone number, which the forms refuse (a school "Burst Academy mi3k2x91234" once
 * failed a run so).
 */
export function runMark(): string {
  const letters = (value: number) => value.toString(26).replace(/[0-9]/g, (digit) => 'qrstuvwxyz'[Number(digit)]!);
  return `${letters(Date.now())}${letters(Math.floor(Math.random() * 26 ** 4))}`;
}

/** This worker's mark in user agents: digits (see personAgent). */
const agentMark = `${Date.now()}${Math.floor(Math.random() * 10_000)}`;

/**
 * A person's Chrome as a user agent, ending in `label` and a mark of this run, so that its daily
 * visitor is no other test's: headless Chromium names itself and is counted as a bot. The mark is
 * digits, not runMark's letters: random letters can spell a word `isbot` takes for a crawler's
 * ("…gurl…" once made a run's parent a bot, and its campaign visit went uncounted).
 */
export function personAgent(label: string): string {
  const agent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 ${label}-${agentMark}`;
  if (isbot(agent)) throw new Error(`The user agent "${agent}" reads as a bot's; choose another label.`);
  return agent;
}

/** Scrolls to every custom element matching `selector` and waits until it has wired itself up (`data-enhanced`). */
export async function enhanced(page: Page, selector: string): Promise<void> {
  const elements = page.locator(selector);
  await expect(elements.first()).toBeAttached();
  for (const element of await elements.all()) {
    await element.scrollIntoViewIfNeeded();
    await expect(element).toHaveAttribute('data-enhanced', 'true');
  }
}

/** The layout shifts the page has had so far (each a Layout Instability entry's value). */
export async function layoutShifts(page: Page): Promise<number[]> {
  return page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().map((entry) => (entry as PerformanceEntry & { value: number }).value))).observe({
          type: 'layout-shift',
          buffered: true,
        });
        // The observer reports buffered entries at once when there are any.
        setTimeout(() => resolve([]), 500);
      }),
  );
}

/**
 * A local proxy to the site that sends every HTML document in small pieces with pauses, as a slow
 * network or a busy browser does, so that the browser paints partial pages. Other answers pass
 * through whole.
 */
export async function startTricklingProxy(origin: string, { chunk = 1024, pauseMs = 15 } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer(async (request, response) => {
    try {
      const upstream = await fetch(new URL(request.url ?? '/', origin), { headers: { accept: String(request.headers.accept ?? '*/*') } });
      const type = upstream.headers.get('content-type') ?? '';
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, { 'content-type': type });
      if (!type.includes('text/html')) return void response.end(body);
      for (let offset = 0; offset < body.length; offset += chunk) {
        response.write(body.subarray(offset, offset + chunk));
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      response.end();
    } catch {
      response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Signs in on /webhook-config as the e2e admin, through the form, as a person does. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/webhook-config');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(e2eAdminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as')).toBeVisible({ timeout: 15_000 });
}

/** Shows the Audit tab's entries for one action (the admin signed in); returns its panel. */
export async function auditFor(page: Page, actionLabel: string) {
  await page.getByRole('tab', { name: 'Audit' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Action').selectOption({ label: actionLabel });
  await panel.getByRole('button', { name: 'Show' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0, { timeout: 15_000 });
  return panel;
}

export interface EmailFormValues {
  email: string;
  choice: "I'll send it myself" | 'Send via our platform';
  school?: string;
  schoolEmail?: string;
  grade?: string;
  note?: string;
}

/** Fills the native email form (the generator on /lead-the-change, the referral on /form) and sends it. */
export async function fillEmailForm(page: Page, scope: string, values: EmailFormValues): Promise<void> {
  const form = page.locator(`${scope} form[data-native-form]`);
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel(/Your full name/).fill('Ana Lopez');
  await form.getByLabel(/^Your email/).fill(values.email);
  await form.getByLabel(/Child's full name/).fill('Maya Lopez');
  await form.getByLabel(/Child's grade/).fill(values.grade ?? '5th grade');
  await form.getByLabel(/^School name/).fill(values.school ?? 'Oakwood Academy');
  await form.getByLabel(/School contact name/).fill('Dr. Patel');
  await form.getByLabel(/School contact email/).fill(values.schoolEmail ?? 'head@oakwood.edu');
  for (const [label, value] of [[/Your role to the student/, 'Parent']] as const) {
    if (await form.getByLabel(label).count()) await form.getByLabel(label).selectOption(value);
  }
  for (const label of [/^City/, /^State/]) if (await form.getByLabel(label).count()) await form.getByLabel(label).fill('Austin');
  if (values.note) await form.getByLabel(/Add a personal note/).fill(values.note);
  await form.getByLabel(values.choice).check();
  await form.locator('[data-submit]').click();
}

/**
 * Counts a page's requests in flight from now on. `quiet()` waits two frames (so that what the last
 * action brings into view has started its requests), then until none is in flight and none has
 * started or ended for `quietMs`. Unlike `waitForLoadState('networkidle')`, which resolves at once
 * when the page reached that state after it loaded, it waits for what a scroll or a click started.
 */
export function watchRequests(page: Page): { quiet: (quietMs?: number, timeoutMs?: number) => Promise<void> } {
  let inFlight = 0;
  let changed = Date.now();
  const started = () => {
    inFlight += 1;
    changed = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    changed = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async quiet(quietMs = 300, timeoutMs = 15_000) {
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - changed < quietMs) {
        if (Date.now() > deadline) throw new Error(`${inFlight} requests still in flight after ${timeoutMs} ms`);
        await new Promise((wait) => setTimeout(wait, 25));
      }
    },
  };
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
