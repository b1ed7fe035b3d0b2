// @vitest-environment jsdom
/**
 * The admin tabs of issues 28 and 29 against the answers their endpoints give (fetch stubbed): the
 * Review tab approves at once, rejects only after its confirmation, asks the name of a page that has
 * none, and says a decision someone took first; the Mail tab previews an email in a frame that runs
 * nothing; the Staff tab cancels an open invitation after a confirmation; the Audit tab shows what a
 * refused sign-in typed and how many refusals a row stands for.
 */
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { AuditTab } from '../../src/components/islands/admin/AuditTab';
import { MailTab } from '../../src/components/islands/admin/MailTab';
import { ReviewTab } from '../../src/components/islands/admin/ReviewTab';
import { StaffTab } from '../../src/components/islands/admin/StaffTab';
import type { ReviewItemView } from '../../src/lib/shared/schemas/admin';
import { $toast } from '../../src/lib/browser/frame/toast';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = '2026-11-27T04:00:00.000Z';

function item(id: string, claim: ReviewItemView['claim'], school: ReviewItemView['school']): ReviewItemView {
  return {
    id,
    messageId: `m-${id}`,
    claim,
    reason: claim === 'self_report' ? 'self_report' : 'outcome_on_self_report',
    state: 'pending',
    createdAt: NOW,
    letter: {
      channel: 'self',
      schoolName: `School ${id}`,
      contact: 'h•••@school.example',
      contactName: 'Dr. Lee',
      parentFirstName: 'Ana',
      parentDomain: 'example.org',
      sentAt: NOW,
      subject: 'Reading',
    },
    school,
    answer: null,
  };
}

type Answer = { status?: number; body: unknown };
let routes: Record<string, (init: RequestInit | undefined, url: URL) => Answer>;
let calls: string[];

beforeAll(() => {
  // jsdom has no modal dialogs: open and close are enough for these tests.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
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
});

async function render(element: ReactElement) {
  await act(async () => root.render(element));
  await settle();
}
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
const button = (name: string) =>
  [...container.querySelectorAll('button')].find((element) => (element.getAttribute('aria-label') ?? element.textContent) === name);
const dialogButton = (name: string) =>
  [...container.querySelectorAll('dialog[open] button')].find((element) => element.textContent === name) as HTMLButtonElement | undefined;
async function click(element: Element | undefined) {
  expect(element, 'the control is on the page').toBeDefined();
  await act(async () => (element as HTMLElement).click());
  await settle();
}
const posts = () => calls.filter((call) => !call.startsWith('GET'));

describe('Review tab', () => {
  beforeEach(() => {
    const items = [
      item('r1', 'meeting', { id: 's1', name: 'Oak School', status: 'verified', onRecord: true }),
      item('r2', 'self_report', { id: 's2', name: 'School r2', status: 'proposed', onRecord: false }),
    ];
    routes['GET /api/admin/review'] = (_init, url) => ({ body: { items: url.searchParams.get('state') === 'pending' ? items : [] } });
    routes['POST /api/admin/review/r1'] = (init) => ({
      body: { item: { ...items[0], state: JSON.parse(String(init!.body)).decision, decidedAt: NOW, decidedBy: 'owner' } },
    });
    routes['POST /api/admin/review/r2'] = () => ({
      status: 409,
      body: { error: { code: 'already_decided', message: 'Someone decided this item already; reload the queue.' } },
    });
  });

  test('an outcome is approved at once, leaves the queue, and a toast says so', async () => {
    await render(<ReviewTab />);
    expect(calls[0]).toBe('GET /api/admin/review?state=pending');
    await click(button('Approve: the school agreed to meet, School r1'));
    expect(posts()).toEqual(['POST /api/admin/review/r1 {"decision":"approved"}']);
    expect($toast.get()?.title).toBe('Approved');
    expect(button('Approve: the school agreed to meet, School r1')).toBeUndefined();
  });

  test('a rejection asks first: nothing is sent until it is confirmed, and "Cancel" sends nothing', async () => {
    await render(<ReviewTab />);
    await click(button('Reject: the school agreed to meet, School r1'));
    expect(container.querySelector('dialog[open]')?.textContent).toContain('Reject this claim?');
    expect(posts()).toEqual([]);
    await click(dialogButton('Cancel'));
    expect(posts()).toEqual([]);
    await click(button('Reject: the school agreed to meet, School r1'));
    await click(dialogButton('Reject'));
    expect(posts()).toEqual(['POST /api/admin/review/r1 {"decision":"rejected"}']);
    expect($toast.get()?.title).toBe('Rejected');
  });

  test('a claim names no school: its school’s record is shown as it stands; a decision taken elsewhere first is said and the queue read again', async () => {
    await render(<ReviewTab />);
    expect(container.textContent).toContain('Proposed: not verified yet (Schools tab)');
    expect(container.textContent).toContain('Verified; the address is on its record');
    await click(button('Approve: sent it themselves, School r2'));
    expect(container.querySelector('dialog[open] input[name="school-name"]')).toBeNull();
    expect(posts()).toEqual(['POST /api/admin/review/r2 {"decision":"approved"}']);
    expect($toast.get()).toMatchObject({ title: 'Not done', description: 'Someone decided this item already; reload the queue.', variant: 'destructive' });
    expect(calls.filter((call) => call.startsWith('GET /api/admin/review'))).toHaveLength(2);
  });

  test('the empty queue says "Nothing to review"', async () => {
    routes['GET /api/admin/review'] = () => ({ body: { items: [] } });
    await render(<ReviewTab />);
    expect(container.textContent).toContain('Nothing to review');
  });
});

test('Mail tab: the chosen preview is in a sandboxed frame with a title, its text part beside it', async () => {
  const previews = [
    {
      kind: 'confirmation',
      label: 'Confirmation link',
      to: 'ana@example.org',
      subject: 'Confirm your letter',
      html: '<html lang="en"><body>Confirm<script>alert(1)</script></body></html>',
      text: 'Confirm here: https://site.example/c',
    },
    {
      kind: 'school_letter',
      label: 'Letter to the school',
      to: 'head@school.example',
      subject: 'Reading',
      html: '<html lang="en"><body>Dear Dr. Lee</body></html>',
      text: 'Dear Dr. Lee',
    },
  ];
  routes['GET /api/admin/mail/previews'] = () => ({ body: { previews } });
  routes['GET /api/admin/mail/emails'] = () => ({
    body: {
      emails: [
        {
          id: 'e1',
          kind: 'school_letter',
          to: 'h•••@school.example',
          state: 'bounced',
          stateLabel: 'Bounced',
          notBefore: NOW,
          attempts: 1,
          lastError: '550 no such user',
          sentAt: NOW,
          updatedAt: NOW,
        },
      ],
    },
  });
  routes['GET /api/admin/mail/suppressions'] = () => ({
    body: {
      suppressions: [
        {
          key: 'a'.repeat(32),
          masked: 'h•••@school.example',
          reason: 'bounced',
          detail: '550 5.1.1 no such user',
          createdAt: NOW,
          expiresAt: NOW,
          renewedAt: null,
        },
      ],
    },
  });
  routes['GET /api/admin/mail/unknown'] = () => ({ body: { emails: [] } });
  await render(<MailTab />);
  let frame = container.querySelector('iframe')!;
  expect(frame.getAttribute('sandbox')).toBe('');
  expect(frame.getAttribute('title')).toBe('Confirmation link: the HTML part');
  expect(frame.getAttribute('srcdoc')).toContain('Confirm');
  expect(container.querySelector('pre')?.textContent).toBe('Confirm here: https://site.example/c');
  await click(button('Letter to the school'));
  frame = container.querySelector('iframe')!;
  expect(frame.getAttribute('title')).toBe('Letter to the school: the HTML part');
  expect(button('Letter to the school')?.getAttribute('aria-pressed')).toBe('true');
  expect(container.textContent).toContain('550 no such user');
  expect(container.textContent).toContain('Blocked addresses');
  expect(container.textContent).toContain('The mailbox does not exist');
  expect(container.textContent).toContain('Every email’s outcome is known');
  // Staff lift a block: one POST naming the address's key, and the row leaves the list.
  routes[`POST /api/admin/mail/suppressions/${'a'.repeat(32)}/lift`] = () => ({ body: { lifted: 'h•••@school.example' } });
  await click(button('Lift the block of h•••@school.example'));
  expect(posts()).toEqual([`POST /api/admin/mail/suppressions/${'a'.repeat(32)}/lift {}`]);
  expect(button('Lift the block of h•••@school.example')).toBeUndefined();
});

test('Staff tab: an open invitation is cancelled after a confirmation, and the list is read again', async () => {
  let open = [{ id: '7', email: 'new@example.org', role: 'staff', invitedBy: 'owner@example.org', expiresAt: NOW }];
  routes['GET /api/admin/staff'] = () => ({ body: { staff: [], invitations: open } });
  routes['DELETE /api/admin/staff/invitations/7'] = () => {
    open = [];
    return { body: { ok: true } };
  };
  await render(<StaffTab />);
  await click(button('Cancel the invitation of new@example.org'));
  expect(posts()).toEqual([]);
  await click(dialogButton('Cancel invitation'));
  expect(posts()).toEqual(['DELETE /api/admin/staff/invitations/7']);
  expect($toast.get()?.title).toBe('Invitation cancelled');
  expect(button('Cancel the invitation of new@example.org')).toBeUndefined();
});

test('Audit tab: a refused sign-in shows what was typed apart from its actor, and a folded row its count', async () => {
  routes['GET /api/admin/audit'] = () => ({
    body: {
      entries: [
        { id: 'a1', at: NOW, actor: 'unknown', action: 'sign_in.failed', target: null, addressHash: null, typedName: 'mallory', count: 5 },
        { id: 'a2', at: NOW, actor: 'owner@example.org', action: 'review.approved', target: null, addressHash: null },
      ],
    },
  });
  await render(<AuditTab />);
  const rows = [...container.querySelectorAll('tbody tr')].map((row) => row.textContent);
  expect(rows[0]).toContain('unknown (typed “mallory”)');
  expect(rows[0]).toContain('5 times in this 10-minute window');
  expect(rows[1]).not.toContain('typed');
  expect(rows[1]).not.toContain('times in this');
});
