// @vitest-environment jsdom
/**
 * The admin page's one list (src/components/islands/admin/AdminList.tsx): keyset paging with the
 * server's cursor, the loading, empty and failure states as they are shown and announced, the CSV
 * download, a new query replacing an old one's rows, and only the latest answer kept.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { AdminList, useKeysetList, withCursor, type AdminListProps, type KeysetList, type KeysetPage } from '../../src/components/islands/admin/AdminList';
import { ApiError } from '../../src/lib/browser/admin-api';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Row {
  id: string;
  name: string;
  status: string;
}

/** A promise the test settles when it wants the answer to arrive. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const row = (n: number, status = 'Sent'): Row => ({ id: `r${n}`, name: `School ${n}`, status });

let container: HTMLDivElement;
let root: Root;
let current: KeysetList<Row>;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
});

type Fetch = (cursor?: string) => Promise<KeysetPage<Row>>;

function Harness({ query, fetchPage, ...props }: { query: string; fetchPage: Fetch } & Partial<AdminListProps<Row>>) {
  const list = useKeysetList(query, fetchPage);
  current = list;
  return (
    <AdminList
      label="Schools table"
      list={list}
      text={{
        loading: 'Loading the schools…',
        failure: 'The schools could not be loaded.',
        empty: 'No schools yet',
        emptyHint: 'They appear here.',
        more: 'Load more schools',
      }}
      columns={[
        { header: 'School', kind: 'title', cell: (entry) => entry.name },
        { header: 'Status', cell: (entry) => entry.status },
        { header: 'Actions', kind: 'actions', cell: (entry) => <button type="button">View {entry.name}</button> },
      ]}
      {...props}
    />
  );
}

async function render(element: ReactNode) {
  await act(async () => root.render(element));
}

/** Lets the answers that are due arrive and React render them. */
const settle = () => act(async () => {});

const status = () => container.querySelector('[role="status"]')!;
const alert = () => container.querySelector('[role="alert"]');
const region = () => container.querySelector<HTMLElement>('[role="region"]');
const bodyRows = () => [...container.querySelectorAll('tbody tr')].map((tr) => tr.querySelector('th')!.textContent);
const button = (name: string) => [...container.querySelectorAll('button')].find((element) => element.textContent === name);

async function click(element: Element | undefined) {
  expect(element).toBeDefined();
  await act(async () => (element as HTMLElement).click());
}

describe('withCursor', () => {
  test.each([
    ['/api/admin/outbox', undefined, '/api/admin/outbox'],
    ['/api/admin/outbox', 'abc', '/api/admin/outbox?cursor=abc'],
    ['/api/admin/form-submissions?form=contact', 'a+b/c=', '/api/admin/form-submissions?form=contact&cursor=a%2Bb%2Fc%3D'],
    ['/api/admin/audit?cursor=old', 'new', '/api/admin/audit?cursor=new'],
  ])('%s after %s asks %s', (path, cursor, expected) => {
    expect(withCursor(path, cursor)).toBe(expected);
  });
});

describe('AdminList', () => {
  test('while the first page comes, it says so in a box that is announced, and no table shows', async () => {
    const page = deferred<KeysetPage<Row>>();
    await render(<Harness query="q" fetchPage={() => page.promise} />);
    expect(status().textContent).toBe('Loading the schools…');
    expect(status().querySelector('p')!.className).toContain('min-h-32');
    expect(container.querySelector('table')).toBeNull();
    await act(async () => page.resolve({ rows: [row(1)] }));
    expect(bodyRows()).toEqual(['School 1']);
  });

  test('a page shows as a table whose cells are labelled for a phone; the row title and the actions are not', async () => {
    await render(<Harness query="q" fetchPage={async () => ({ rows: [row(1), row(2, 'Failed')] })} />);
    await settle();
    expect(region()!.getAttribute('aria-label')).toBe('Schools table');
    expect([...container.querySelectorAll('thead th')].map((th) => [th.getAttribute('scope'), th.textContent])).toEqual([
      ['col', 'School'],
      ['col', 'Status'],
      ['col', 'Actions'],
    ]);
    const [first, second] = container.querySelectorAll('tbody tr');
    expect(first!.querySelector('th[scope="row"]')!.textContent).toBe('School 1');
    const cells = second!.querySelectorAll('td');
    // The label is for eyes only: the column header names the cell for screen readers.
    expect(cells[0]!.querySelector('[aria-hidden="true"]')!.textContent).toBe('Status');
    expect(cells[0]!.textContent).toBe('StatusFailed');
    expect(cells[1]!.querySelector('[aria-hidden="true"]')).toBeNull();
    expect(cells[1]!.textContent).toBe('View School 2');
    expect(status().textContent).toBe('Showing 2.');
    expect(status().querySelector('p')!.className).toBe('sr-only');
    expect(button('Load more schools')).toBeUndefined();
  });

  test('"Load more" asks for the page after the server\'s cursor, adds it below, and leaves focus in the list after the last page', async () => {
    const fetchPage = vi.fn<Fetch>(async (cursor) =>
      cursor === undefined
        ? { rows: [row(1), row(2)], nextCursor: 'c2' }
        : cursor === 'c2'
          ? { rows: [row(3)], nextCursor: 'c3' }
          : { rows: [row(4)], nextCursor: null },
    );
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    expect(status().textContent).toBe('Showing 2, more to load.');
    await click(button('Load more schools'));
    expect(fetchPage).toHaveBeenLastCalledWith('c2');
    expect(bodyRows()).toEqual(['School 1', 'School 2', 'School 3']);
    button('Load more schools')!.focus();
    await click(button('Load more schools'));
    expect(fetchPage).toHaveBeenLastCalledWith('c3');
    expect(bodyRows()).toEqual(['School 1', 'School 2', 'School 3', 'School 4']);
    expect(button('Load more schools')).toBeUndefined();
    expect(document.activeElement).toBe(region());
    expect(status().textContent).toBe('Showing 4.');
  });

  test('a second click while a page is coming asks once', async () => {
    const next = deferred<KeysetPage<Row>>();
    const fetchPage = vi.fn<Fetch>((cursor) => (cursor ? next.promise : Promise.resolve({ rows: [row(1)], nextCursor: 'c2' })));
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    await click(button('Load more schools'));
    expect(button('Load more schools')!.getAttribute('aria-disabled')).toBe('true');
    expect(status().textContent).toBe('Loading more…');
    await click(button('Load more schools'));
    expect(fetchPage).toHaveBeenCalledTimes(2);
    await act(async () => next.resolve({ rows: [row(2)] }));
    expect(bodyRows()).toEqual(['School 1', 'School 2']);
  });

  test("nothing to list: the empty state is shown and announced, in the loading box's size; the CSV is still offered", async () => {
    await render(<Harness query="q" fetchPage={async () => ({ rows: [] })} csvHref="/api/admin/audit?format=csv" />);
    await settle();
    expect(status().textContent).toBe('No schools yetThey appear here.');
    expect(status().firstElementChild!.className).toContain('min-h-32');
    expect(container.querySelector('table')).toBeNull();
    const csv = container.querySelector('a')!;
    expect([csv.textContent, csv.getAttribute('href'), csv.hasAttribute('download')]).toEqual(['Download CSV', '/api/admin/audit?format=csv', true]);
  });

  test.each([
    ["the server's sentence", new ApiError(403, '403: …', 'Only owners may see this.'), 'Only owners may see this.'],
    ['the fallback when the server gave none', new TypeError('Failed to fetch'), 'The schools could not be loaded.'],
  ])('a failed first page says %s, and "Try again" asks again', async (_name, error, sentence) => {
    const fetchPage = vi
      .fn<Fetch>()
      .mockRejectedValueOnce(error)
      .mockResolvedValueOnce({ rows: [row(1)] });
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    expect(alert()!.textContent).toBe(`${sentence} Try again`);
    expect(status().textContent).toBe('');
    expect(container.querySelector('table')).toBeNull();
    await click(button('Try again'));
    expect(alert()).toBeNull();
    expect(bodyRows()).toEqual(['School 1']);
  });

  test('a failed next page keeps the rows, and "Try again" asks for the same page', async () => {
    const fetchPage = vi
      .fn<Fetch>()
      .mockResolvedValueOnce({ rows: [row(1)], nextCursor: 'c2' })
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce({ rows: [row(2)] });
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    await click(button('Load more schools'));
    expect(alert()!.textContent).toContain('The schools could not be loaded.');
    expect(bodyRows()).toEqual(['School 1']);
    await click(button('Try again'));
    expect(fetchPage).toHaveBeenLastCalledWith('c2');
    expect(bodyRows()).toEqual(['School 1', 'School 2']);
  });

  test('a new query: the old rows stay, marked busy, until its first page replaces them', async () => {
    const pages: Record<string, ReturnType<typeof deferred<KeysetPage<Row>>>> = { a: deferred(), b: deferred() };
    const fetchFor = (query: string) => () => pages[query]!.promise;
    await render(<Harness query="a" fetchPage={fetchFor('a')} />);
    await act(async () => pages.a!.resolve({ rows: [row(1)], nextCursor: 'c2' }));
    await render(<Harness query="b" fetchPage={fetchFor('b')} />);
    expect(bodyRows()).toEqual(['School 1']);
    expect(region()!.getAttribute('aria-busy')).toBe('true');
    expect(current.stale).toBe(true);
    // The old query's next page is not offered for the new one.
    expect(button('Load more schools')).toBeUndefined();
    expect(status().textContent).toBe('Loading the schools…');
    await act(async () => pages.b!.resolve({ rows: [row(7)] }));
    expect(bodyRows()).toEqual(['School 7']);
    expect(region()!.hasAttribute('aria-busy')).toBe(false);
  });

  test('only the latest answer is kept: a slower earlier one arriving last changes nothing', async () => {
    const first = deferred<KeysetPage<Row>>();
    const second = deferred<KeysetPage<Row>>();
    const fetchPage = vi.fn<Fetch>().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await act(async () => void current.reload());
    await act(async () => second.resolve({ rows: [row(2)] }));
    await act(async () => first.resolve({ rows: [row(1)] }));
    expect(bodyRows()).toEqual(['School 2']);
  });

  test('a failed first page of a new query drops the old rows rather than pass them off as its own', async () => {
    const fetchPage = vi
      .fn<Fetch>()
      .mockResolvedValueOnce({ rows: [row(1)] })
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await render(<Harness query="a" fetchPage={fetchPage} />);
    await settle();
    await render(<Harness query="b" fetchPage={fetchPage} />);
    await settle();
    expect(container.querySelector('table')).toBeNull();
    expect(alert()!.textContent).toContain('The schools could not be loaded.');
  });

  test('a refresh that fails keeps what was shown, with the failure said above it', async () => {
    const fetchPage = vi
      .fn<Fetch>()
      .mockResolvedValueOnce({ rows: [row(1)] })
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    await act(async () => void current.reload());
    expect(bodyRows()).toEqual(['School 1']);
    expect(alert()).not.toBeNull();
  });

  test('update changes rows and summary here, without asking the server', async () => {
    const fetchPage = vi.fn<Fetch>(async () => ({ rows: [row(1), row(2)] }));
    await render(<Harness query="q" fetchPage={fetchPage} />);
    await settle();
    await act(async () =>
      current.update((rows) => rows.map((entry) => (entry.id === 'r2' ? { ...entry, status: 'Retried' } : entry)).filter((entry) => entry.id !== 'r1')),
    );
    expect(bodyRows()).toEqual(['School 2']);
    expect(container.querySelector('tbody td')!.textContent).toBe('StatusRetried');
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  test('a summary beside the rows (counts, the school opened) is kept from the page that carries one', async () => {
    let summary: { total: number } | undefined;
    function WithSummary() {
      const list = useKeysetList<Row, { total: number }>('q', async (cursor) => ({
        rows: [row(cursor ? 2 : 1)],
        nextCursor: cursor ? undefined : 'c2',
        summary: cursor ? undefined : { total: 2 },
      }));
      summary = list.summary;
      current = list as unknown as KeysetList<Row>;
      return null;
    }
    await render(<WithSummary />);
    await settle();
    expect(summary).toEqual({ total: 2 });
    await act(async () => void current.more());
    expect(summary).toEqual({ total: 2 });
    await act(async () =>
      (current as unknown as KeysetList<Row, { total: number }>).update(
        (rows) => rows.slice(1),
        (kept) => ({ total: kept.total - 1 }),
      ),
    );
    expect(summary).toEqual({ total: 1 });
  });
});
