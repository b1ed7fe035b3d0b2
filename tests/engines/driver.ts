/**
 * The two engines besides Chromium, behind one small interface so that each flow is written once:
 * - Firefox: Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core. Console errors and
 *   uncaught exceptions come from BiDi's log events.
 * - WebKit: WebKitGTK's MiniBrowser under Xvfb, driven by WebKitWebDriver (WebDriver classic,
 *   through webdriverio). Classic WebDriver reports nothing from the console, so the browser reads
 *   the site through a local proxy that adds one same-origin script at the top of every page
 *   (`/__engine-probe.js`), which records console errors, uncaught exceptions, unhandled
 *   rejections and Content-Security-Policy violations for the test to read.
 * Without JavaScript: neither Firefox's BiDi nor MiniBrowser in automation mode can turn scripting
 * off for a page, so both read the site through the proxy, which answers with
 * `Content-Security-Policy: script-src 'none'` and keeps every script of the page from running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as netServer } from 'node:net';
import { scriptsReady } from '../../src/lib/build/page-scripts';

export type EngineName = 'firefox' | 'webkit';

export const firefoxPath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const miniBrowserPath = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** A tab of one engine, on the site under test. */
export interface EnginePage {
  readonly engine: EngineName;
  /** Opens a path of the site and waits for the page's load event. */
  goto(path: string): Promise<void>;
  /** The address shown, as a path with its query and hash. */
  path(): Promise<string>;
  /** Runs a function in the page (serialised: it sees only its arguments). */
  evaluate<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T>;
  /** A real pointer click in the middle of the element (scrolled into view first). */
  click(selector: string): Promise<void>;
  /** Clicks into the field and types the text with the keyboard. */
  type(selector: string, text: string): Promise<void>;
  press(key: 'Escape' | 'Enter' | 'Tab'): Promise<void>;
  /** Makes the page's layout viewport about this wide (WebKitGTK's window has a minimum width). */
  setWidth(width: number): Promise<void>;
  /** Console errors, uncaught exceptions and policy violations of the pages opened so far. */
  errors(): Promise<string[]>;
  /** Each step this tab was asked to do, with when it started and how long it took (or "unfinished"). */
  steps(): string[];
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** A fresh tab without cookies or storage of earlier tests; `javaScript: false` runs no script. */
  newPage(baseURL: string, options?: { javaScript?: boolean }): Promise<EnginePage>;
  close(): Promise<void>;
}

/**
 * Records the steps of a tab, so that a test that times out says which step never returned
 * (a click the driver did not finish, a page that did not load) rather than only "timeout".
 */
function stepLog() {
  const started = Date.now();
  const lines: Array<{ text: string; at: number; took?: number }> = [];
  return {
    async step<T>(text: string, work: () => Promise<T>): Promise<T> {
      const line = { text, at: Date.now() - started } as { text: string; at: number; took?: number };
      lines.push(line);
      if (lines.length > 200) lines.shift();
      const result = await work();
      line.took = Date.now() - started - line.at;
      return result;
    },
    lines: () => lines.map(({ text, at, took }) => `${(at / 1000).toFixed(1)}s ${text}: ${took === undefined ? 'unfinished' : `${took} ms`}`),
  };
}

/** A page whose every method is recorded as a step (evaluate by its function's first line). */
function withSteps(page: Omit<EnginePage, 'steps'>): EnginePage {
  const log = stepLog();
  const first = (fn: unknown) => String(fn).replace(/\s+/g, ' ').slice(0, 80);
  return {
    engine: page.engine,
    goto: (path) => log.step(`goto ${path}`, () => page.goto(path)),
    path: () => log.step('path', () => page.path()),
    evaluate: (fn, ...args) => log.step(`evaluate ${first(fn)}`, () => page.evaluate(fn, ...args)),
    click: (selector) => log.step(`click ${selector}`, () => page.click(selector)),
    type: (selector, text) => log.step(`type ${selector}`, () => page.type(selector, text)),
    press: (key) => log.step(`press ${key}`, () => page.press(key)),
    setWidth: (width) => log.step(`setWidth ${width}`, () => page.setWidth(width)),
    errors: () => page.errors(),
    close: () => page.close(),
    steps: log.lines,
  };
}

export async function launch(name: EngineName): Promise<Engine> {
  return name === 'firefox' ? launchFirefox() : launchWebKit();
}

// ---------------------------------------------------------------------------------------------
// Firefox over WebDriver BiDi (puppeteer-core).

async function launchFirefox(): Promise<Engine> {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
    // Nothing off this machine: updates, telemetry and the like stay quiet.
    extraPrefsFirefox: { 'network.dns.disableIPv6': true, 'app.update.enabled': false },
  });
  // Firefox ESR's BiDi cannot turn scripting off for a page (no emulation.setScriptingEnabled):
  // a page without JavaScript reads the site through the proxy that forbids every script.
  let noScriptProxy: Awaited<ReturnType<typeof startProbeProxy>> | undefined;
  return {
    name: 'firefox',
    async newPage(siteURL, { javaScript = true } = {}) {
      if (!javaScript) {
        noScriptProxy ??= await startProbeProxy(siteURL);
        noScriptProxy.scripts(false);
      }
      const baseURL = javaScript ? siteURL : noScriptProxy!.origin;
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
      return withSteps({
        engine: 'firefox',
        async goto(path) {
          await page.goto(new URL(path, baseURL).href, { waitUntil: 'load' });
          await pollInPage(page, scriptsReady, 'the page’s scripts');
        },
        async path() {
          const url = new URL(page.url());
          return url.pathname + url.search + url.hash;
        },
        evaluate: (fn, ...args) => page.evaluate(fn as never, ...(args as unknown as never[])) as never,
        async click(selector) {
          await clickWhenReady(page, selector);
        },
        async type(selector, text) {
          await clickWhenReady(page, selector);
          await page.keyboard.type(text);
        },
        async press(key) {
          await page.keyboard.press(key);
        },
        async setWidth(width) {
          // Puppeteer sends the screen's orientation beside the viewport, a command Firefox ESR 140.12
          // does not know; the viewport itself is applied, which the page's own width then confirms.
          await page.setViewport({ width, height: 844 }).catch((error: Error) => {
            if (!/unknown command emulation\.setScreenOrientationOverride/.test(error.message)) throw error;
          });
          await pollInPage(page, (expected: number) => window.innerWidth === expected, `the window to be ${width} px wide`, width);
        },
        async errors() {
          return [...errors];
        },
        async close() {
          await context.close();
        },
      });
    },
    async close() {
      await browser.close();
      await noScriptProxy?.close();
    },
  };
}

/**
 * Waits, by asking the page every 50 ms, until `check` holds there. Puppeteer's own waits
 * (`waitForFunction`, and the locators' checks that an element is visible, enabled and still)
 * build their function in the page with `Function()`, which Firefox ESR 140.12 blocks under the
 * site's Content-Security-Policy (no 'unsafe-eval'; "call to Function() blocked by CSP"); a plain
 * `evaluate` is the automation's own call and is not blocked.
 */
async function pollInPage<A extends unknown[]>(page: import('puppeteer-core').Page, check: (...args: A) => boolean, what: string, ...args: A): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await page.evaluate(check as never, ...(args as unknown as never[])))) {
    if (Date.now() > deadline) throw new Error(`Firefox: waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Clicks an element once it is there, shown and enabled (what a locator's click waited for), in the middle of the window. */
async function clickWhenReady(page: import('puppeteer-core').Page, selector: string): Promise<void> {
  await pollInPage(
    page,
    (css: string) => {
      const element = document.querySelector(css);
      if (!element?.checkVisibility() || element.matches(':disabled')) return false;
      element.scrollIntoView({ block: 'center', inline: 'center' });
      return true;
    },
    `${selector} to be shown and enabled`,
    selector,
  );
  const handle = await page.$(selector);
  if (!handle) throw new Error(`Firefox: ${selector} went away before the click`);
  await handle.click();
  await handle.dispose();
}

// ---------------------------------------------------------------------------------------------
// WebKitGTK over WebDriver classic (webdriverio, WebKitWebDriver, MiniBrowser under Xvfb).

/** What the probe records; it runs before any script of the page. */
const probe = `(() => {
  const errors = (window.__engineErrors = []);
  const original = console.error.bind(console);
  console.error = (...args) => { errors.push(args.map(String).join(' ')); original(...args); };
  addEventListener('error', (event) => { if (event.message) errors.push(event.message); });
  addEventListener('unhandledrejection', (event) => errors.push('Unhandled rejection: ' + String(event.reason && event.reason.message || event.reason)));
  document.addEventListener('securitypolicyviolation', (event) => errors.push('Content-Security-Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI));
})();`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = netServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A proxy to the site on a port of its own: it adds the probe to every HTML page and, when told,
 * forbids every script. Everything else (methods, bodies, cookies, redirects) passes through.
 */
async function startProbeProxy(target: string): Promise<{ origin: string; scripts: (on: boolean) => void; close: () => Promise<void> }> {
  const upstream = new URL(target);
  let scriptsAllowed = true;
  const server: Server = createServer((req, res) => {
    if (req.url === '/__engine-probe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return void res.end(probe);
    }
    // The browser's Host stays: the site sees its own origin (the proxy's) in Origin and the URL alike.
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    const forward = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      const type = String(answer.headers['content-type'] ?? '');
      const head = { ...answer.headers };
      if (!scriptsAllowed) head['content-security-policy'] = "script-src 'none'";
      if (!type.includes('text/html')) {
        res.writeHead(answer.statusCode ?? 502, head);
        return void answer.pipe(res);
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8');
        const withProbe = scriptsAllowed ? html.replace(/<head([^>]*)>/i, '<head$1><script src="/__engine-probe.js"></script>') : html;
        delete head['content-length'];
        res.writeHead(answer.statusCode ?? 502, head);
        res.end(withProbe);
      });
    });
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${port}`,
    scripts: (on) => void (scriptsAllowed = on),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function launchWebKit(): Promise<Engine> {
  const { remote } = await import('webdriverio');
  const port = await freePort();
  // xvfb-run -a picks a free display; the driver starts MiniBrowser on it.
  const driver: ChildProcess = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x900x24', webkitDriverPath, `--port=${port}`], {
    stdio: 'ignore',
    detached: true,
  });
  const stopDriver = () => {
    try {
      if (driver.pid) process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  let browser: WebdriverIO.Browser;
  try {
    browser = await remote({
      hostname: '127.0.0.1',
      port,
      logLevel: 'error',
      connectionRetryCount: 20,
      connectionRetryTimeout: 60_000,
      capabilities: {
        browserName: 'MiniBrowser',
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
      } as WebdriverIO.Capabilities,
    });
    await browser.setWindowSize(1280, 800);
  } catch (error) {
    stopDriver();
    throw error;
  }
  let proxy: Awaited<ReturnType<typeof startProbeProxy>> | undefined;
  return {
    name: 'webkit',
    async newPage(baseURL, { javaScript = true } = {}) {
      proxy ??= await startProbeProxy(baseURL);
      const site = proxy;
      site.scripts(javaScript);
      // One window per worker: a new test starts without the cookies and storage of the last.
      await browser.url(`${site.origin}/__engine-probe.js`);
      await browser.deleteAllCookies();
      await browser.execute(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await browser.setWindowSize(1280, 800);
      const errors: string[] = [];
      /**
       * WebKitWebDriver's click never returns for an element below the fold (it does not scroll it
       * into view first, as WebDriver says it must): the page scrolls it to the middle itself, and
       * checks a frame later that it is still in view (until then, try again).
       */
      const intoView = (selector: string) =>
        browser.waitUntil(
          () =>
            browser.executeAsync((css: string, done: (inView: boolean) => void) => {
              const element = document.querySelector(css);
              if (!element) return done(true);
              element.scrollIntoView({ block: 'center', behavior: 'instant' });
              requestAnimationFrame(() => {
                const box = element.getBoundingClientRect();
                done(box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth);
              });
            }, selector),
          { timeout: 10_000, interval: 100, timeoutMsg: `${selector} did not stay in view` },
        );
      /** Reads what the probe recorded on the current page before leaving it. */
      const harvest = async () => {
        const found = await browser.execute(() => (window as unknown as { __engineErrors?: string[] }).__engineErrors ?? []).catch(() => []);
        errors.push(...found);
        await browser.execute(() => void ((window as unknown as { __engineErrors?: string[] }).__engineErrors ?? []).splice(0)).catch(() => undefined);
      };
      return withSteps({
        engine: 'webkit',
        async goto(path) {
          await harvest();
          await browser.url(new URL(path, site.origin).href);
          // WebKitWebDriver answers once the document is parsed, before its module scripts have run
          // (the site's own scroll to the top on load among them): wait for the load event.
          await browser.waitUntil(() => browser.execute(() => document.readyState === 'complete'), { timeout: 30_000, interval: 50 });
          // And for its scripts, which load after its first paint (src/lib/build/page-scripts.ts).
          await browser.waitUntil(() => browser.execute(scriptsReady), { timeout: 30_000, interval: 50 });
        },
        async path() {
          const url = new URL(await browser.getUrl());
          return url.pathname + url.search + url.hash;
        },
        evaluate: (fn, ...args) => browser.execute(fn as never, ...(args as unknown as never[])) as never,
        async click(selector) {
          await intoView(selector);
          await browser.$(selector).click();
        },
        async type(selector, text) {
          await intoView(selector);
          const field = browser.$(selector);
          await field.click();
          await field.addValue(text);
        },
        async press(key) {
          await browser.keys([key]);
        },
        async setWidth(width) {
          await browser.setWindowSize(width, 844);
        },
        async errors() {
          await harvest();
          return [...errors];
        },
        async close() {
          site.scripts(true);
        },
      });
    },
    async close() {
      await browser.deleteSession().catch(() => undefined);
      await proxy?.close();
      stopDriver();
    },
  };
}
