// @vitest-environment jsdom
/**
 * The Abuse tab against the answers its endpoint gives (fetch stubbed): its empty states; a
 * trending row's Block and Void… fill the forms below; a block of a large shared domain (gmail.com)
 * is warned about and goes only once staff tick that they mean it; voiding shows what it takes
 * before it voids.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { AbuseTab } from '../../src/components/islands/admin/AbuseTab';
import type { AbuseView, WatchRowView } from '../../src/lib/shared/schemas/abuse-watch';
import { $toast } from '../../src/lib/browser/frame/toast';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const burst: WatchRowView = { dimension: 'network', key: '203.0.113.0/24', hour: 40, day: 41, usualPerHour: 0, ratio: 6720, trending: true };

function view(rows: WatchRowView[] = []): AbuseView {
  return {
    generatedAt: '2026-11-29T15:00:00.000Z',
    totals: { hour: rows.reduce((sum, row) => sum + row.hour, 0), day: rows.reduce((sum, row) => sum + row.day, 0) },
    trending: rows.filter((row) => row.trending),
    byDimension: { network: rows, email_domain: [], school: [], form: [] },
    blocks: [],
    thresholds: { factor: 5, minRequests: 20, usualDays: 7 },
  };
}

type Answer = { status?: number; body: unknown };
let routes: Record<string, (init: RequestInit | undefined, url: URL) => Answer>;
let calls: string[];
let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  // jsdom lays nothing out and has no scrollIntoView: scrolling to a form is a no-op here (put back after).
  Element.prototype.scrollIntoView = () => undefined;
  calls = [];
  routes = {};
  $toast.set(null);
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    const url = new URL(path, 'https://site.example');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}${url.search}${init?.body ? ` ${String(init.body)}` : ''}`);
    const route = routes[`${method} ${url.pathname}`];
    const answer = route ? route(init, url) : { status: 404, body: { error: { code: 'not_found', message: 'No such route in this test.' } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
});

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
async function render() {
  await act(async () => root.render(<AbuseTab />));
  await settle();
}
const button = (name: string, scope: ParentNode = container) =>
  [...scope.querySelectorAll('button')].find((element) => element.textContent?.replace(/\s+/g, ' ').trim() === name);
const form = (name: string) => container.querySelector(`form[aria-label="${name}"]`)!;
/** The control a label names, within a form. */
function control(scope: ParentNode, label: string): HTMLInputElement | HTMLSelectElement {
  const found = [...scope.querySelectorAll('label')].find((element) => element.textContent?.replace('*', '').trim() === label);
  expect(found, `a field labelled ${label}`).toBeDefined();
  return document.getElementById(found!.htmlFor) as HTMLInputElement | HTMLSelectElement;
}
async function fill(scope: ParentNode, label: string, value: string) {
  const element = control(scope, label);
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')!.set!;
  await act(async () => {
    setter.call(element, value);
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}
async function click(element: Element | undefined | null) {
  expect(element, 'the control is on the page').toBeTruthy();
  await act(async () => (element as HTMLElement).click());
  await settle();
}
const posts = () => calls.filter((call) => !call.startsWith('GET'));

describe('Abuse tab', () => {
  test('with nothing to show it says so, in each list', async () => {
    routes['GET /api/admin/abuse'] = () => ({ body: view() });
    await render();
    expect(calls).toEqual(['GET /api/admin/abuse']);
    expect(container.textContent).toContain('Nothing is running past its usual rate');
    expect(container.textContent).toContain('No requests in the last day');
    expect(container.textContent).toContain('No blocks in force');
  });

  test('blocking gmail.com is warned about, and goes only once staff tick that they mean every address there', async () => {
    routes['GET /api/admin/abuse'] = () => ({ body: view() });
    routes['POST /api/admin/abuse/blocks'] = (init) => ({
      status: 201,
      body: { block: { id: '1', ...JSON.parse(String(init!.body)), expiresAt: null, createdBy: 'admin', createdAt: '2026-11-29T15:00:00.000Z' } },
    });
    await render();
    const add = form('Add a block');
    await fill(add, 'Block', 'domain');
    await fill(add, 'Network, domain or address', 'gmail.com');
    await fill(add, 'Why', 'a burst of drafts');
    expect(add.querySelector('[role="alert"]')?.textContent).toContain('large shared email provider');
    await click(button('Add the block', add));
    expect(posts()).toEqual([]);
    expect(add.textContent).toContain('Tick this to block a domain that very many parents share.');
    await click(control(add, 'I understand: block every address at gmail.com'));
    await click(button('Add the block', add));
    expect(posts()).toEqual(['POST /api/admin/abuse/blocks {"kind":"domain","value":"gmail.com","reason":"a burst of drafts"}']);
    expect($toast.get()?.title).toBe('Blocked');
  });

  test('a school domain is blocked without the warning', async () => {
    routes['GET /api/admin/abuse'] = () => ({ body: view() });
    await render();
    const add = form('Add a block');
    await fill(add, 'Block', 'domain');
    await fill(add, 'Network, domain or address', 'burst.test');
    expect(add.querySelector('[role="alert"]')).toBeNull();
  });

  test("a trending row's Block and Void… fill the forms; voiding shows what it takes first", async () => {
    routes['GET /api/admin/abuse'] = () => ({ body: view([burst]) });
    routes['GET /api/admin/abuse/void'] = () => ({ body: { letters: 3, selfReports: 2 } });
    routes['POST /api/admin/abuse/void'] = () => ({ body: { letters: 3, selfReports: 2, uncounted: 1 } });
    await render();
    expect(container.textContent).toContain('40 requests in the last hour');
    await click(button('Block 203.0.113.0/24'));
    expect(control(form('Add a block'), 'Network, domain or address').value).toBe('203.0.113.0/24');
    expect(control(form('Add a block'), 'Block').value).toBe('network');

    await click(button('Void… what 203.0.113.0/24 left'));
    const set = form('Void a set');
    expect(control(set, 'Key').value).toBe('203.0.113.0/24');
    await fill(set, 'Why', 'the burst');
    await click(button('Check what it takes', set));
    expect(calls.at(-1)).toMatch(/^GET \/api\/admin\/abuse\/void\?dimension=network&key=203\.0\.113\.0%2F24&from=/);
    expect(posts()).toEqual([]);
    expect(set.textContent).toContain('This voids 3 letters not sent yet and 2 self-reports.');
    await click(button('Void them', set));
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(posts()[0]!.replace(/^POST \S+ /, ''))).toMatchObject({ dimension: 'network', key: '203.0.113.0/24', reason: 'the burst' });
    expect(set.textContent).toContain('Voided 3 letters not sent yet and 2 self-reports; 1 no longer count in the figures.');
  });

  test('a change to any of the four fields that choose the set (of, key, from, to) drops what was checked of it: it is checked again before it voids', async () => {
    routes['GET /api/admin/abuse'] = () => ({ body: view([burst]) });
    routes['GET /api/admin/abuse/void'] = () => ({ body: { letters: 3, selfReports: 2 } });
    await render();
    await click(button('Void… what 203.0.113.0/24 left'));
    const set = form('Void a set');
    await fill(set, 'Why', 'the burst');
    for (const [label, value] of [
      ['Of', 'school'],
      ['Key', 'burst.test'],
      ['From', '2026-11-28T10:00'],
      ['To', '2026-11-29T10:00'],
    ] as const) {
      await click(button('Check what it takes', set));
      expect(set.textContent).toContain('This voids 3 letters not sent yet and 2 self-reports.');
      await fill(set, label, value);
      expect(control(set, label).value).toBe(value);
      expect(set.textContent, `after a change of ${label}`).not.toContain('This voids');
      expect(button('Void them', set), `after a change of ${label}`).toBeUndefined();
    }
    expect(posts()).toEqual([]);
  });
});
