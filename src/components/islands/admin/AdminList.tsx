/**
 * The admin page's one list: a table from `lg` (1024 px) up, a card per row below it (every value labelled
 * with its column, the actions below), keyset paging with the server's cursor, a loading and an
 * empty state that keep their place and are announced, the failure, and the CSV download.
 *
 * ```tsx
 * const list = useKeysetList('/api/admin/outbox', async (cursor) => {
 *   const page = await apiRequest<OutboxPage>('GET', withCursor('/api/admin/outbox', cursor));
 *   return { rows: page.messages, nextCursor: page.nextCursor };
 * });
 * <AdminList
 *   label="Outbox table"
 *   list={list}
 *   text={{ loading: 'Loading the outbox…', failure: 'The outbox could not be loaded.', empty: 'No school emails yet', more: 'Load older emails' }}
 *   columns={[
 *     { header: 'Created', cell: (message) => formatDateTime(message.createdAt), className: 'whitespace-nowrap' },
 *     { header: 'Status', cell: (message) => <StatusBadge tone="success">{message.status}</StatusBadge> },
 *     { header: 'Actions', kind: 'actions', cell: (message) => <button type="button">View email</button> },
 *   ]}
 * />
 * ```
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { failureMessage } from '../../../lib/browser/admin-api';
import { buttonClass, cx } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { EmptyState, ErrorNote, stateBoxClass } from './fields';

/**
 * One page as the list reads it: its rows, the cursor of the next page (none on the last), and what
 * the endpoint says beside the rows that the tab shows too (counts, the school opened).
 */
export interface KeysetPage<Row, Summary = undefined> {
  rows: Row[];
  nextCursor?: string | null;
  summary?: Summary;
}

/** What `useKeysetList` holds, for `AdminList` and for the tab that edits its rows. */
export interface KeysetList<Row, Summary = undefined> {
  /** The rows shown; null until a first page has come. */
  rows: Row[] | null;
  /** The latest page's summary. */
  summary?: Summary;
  nextCursor?: string;
  /** What is being fetched: the first page (of a new query, or again) or the next one. */
  loading: false | 'first' | 'more';
  /** The rows are of an earlier query while the first page of this one comes. */
  stale: boolean;
  /** Why the last request failed. */
  error?: unknown;
  /** The first page again; the rows stay until it comes. */
  reload: () => Promise<void>;
  /** The page after `nextCursor`, added below. */
  more: () => Promise<void>;
  /** The request that failed, again. */
  retry: () => Promise<void>;
  /** A change made here (a row retried, deleted) without asking the server again. */
  update(change: (rows: Row[]) => Row[], summary?: (summary: Summary) => Summary): void;
}

interface State<Row, Summary> {
  /** The query the rows belong to. */
  query?: string;
  rows: Row[] | null;
  summary?: Summary;
  nextCursor?: string;
  loading: false | 'first' | 'more';
  error?: unknown;
  failed?: 'first' | 'more';
}

/** `path` with `cursor=` added (or set) when there is a cursor. */
export function withCursor(path: string, cursor?: string): string {
  if (!cursor) return path;
  const [base, search = ''] = path.split('?');
  const params = new URLSearchParams(search);
  params.set('cursor', cursor);
  return `${base}?${params}`;
}

/**
 * A list fetched page by page. `query` names what is listed (e.g. the endpoint with its filters):
 * when it changes, the first page is fetched again. `fetchPage` fetches one page, after `cursor`;
 * the latest one given is used. Only the answer to the latest request is kept.
 */
export function useKeysetList<Row, Summary = undefined>(
  query: string,
  fetchPage: (cursor?: string) => Promise<KeysetPage<Row, Summary>>,
): KeysetList<Row, Summary> {
  const [state, setState] = useState<State<Row, Summary>>({ rows: null, loading: false });
  const latestFetch = useRef(fetchPage);
  const latestQuery = useRef(query);
  const ticket = useRef(0);

  useEffect(() => {
    latestFetch.current = fetchPage;
    latestQuery.current = query;
  });

  const load = useCallback(async (forQuery: string, cursor?: string) => {
    const mine = ++ticket.current;
    setState((current) => ({ ...current, loading: cursor ? 'more' : 'first', error: undefined, failed: undefined }));
    try {
      const page = await latestFetch.current(cursor);
      if (mine !== ticket.current) return;
      setState((current) => ({
        query: forQuery,
        rows: cursor && current.rows ? [...current.rows, ...page.rows] : page.rows,
        summary: page.summary ?? current.summary,
        nextCursor: page.nextCursor ?? undefined,
        loading: false,
      }));
    } catch (error) {
      if (mine !== ticket.current) return;
      // Rows of another query would pass for this one's: they go.
      setState((current) =>
        current.query === forQuery
          ? { ...current, loading: false, error, failed: cursor ? 'more' : 'first' }
          : { query: forQuery, rows: null, loading: false, error, failed: 'first' },
      );
    }
  }, []);

  useEffect(() => {
    void load(query);
  }, [load, query]);

  const stale = state.query !== query;
  return {
    rows: state.rows,
    summary: state.summary,
    nextCursor: stale ? undefined : state.nextCursor,
    // Until the effect has asked, a new query is loading already (no frame shows the old one as current).
    loading: stale && !state.loading ? 'first' : state.loading,
    stale,
    error: state.error,
    reload: () => load(latestQuery.current),
    more: () => load(latestQuery.current, state.nextCursor),
    retry: () => load(latestQuery.current, state.failed === 'more' ? state.nextCursor : undefined),
    update: (change, summary) =>
      setState((current) =>
        current.rows
          ? { ...current, rows: change(current.rows), summary: summary && current.summary !== undefined ? summary(current.summary) : current.summary }
          : current,
      ),
  };
}

export interface AdminColumn<Row> {
  /** The column's header; on a phone also the label before each value. */
  header: string;
  /** What the row shows in this column. */
  cell: (row: Row) => ReactNode;
  /**
   * `title`: the row's header cell (`<th scope="row">`), the card's title on a phone, unlabelled;
   * `actions`: the row's buttons, unlabelled on a phone, below the values.
   */
  kind?: 'title' | 'actions';
  /** The header is read by screen readers only (e.g. a column of "Open" buttons). */
  hideHeader?: boolean;
  /** More classes on each cell, e.g. `whitespace-nowrap`, `tabular-nums`, `wrap-anywhere` (a long address that may break anywhere, so the table fits). */
  className?: string;
}

/** What a list says: while loading, on a failure, when empty, and on its "Load more" button. */
export interface AdminListText {
  /** Shown and announced while the first page comes, e.g. "Loading the outbox…". */
  loading: string;
  /** Said when a request fails and the server gave no sentence of its own. */
  failure: string;
  /** Shown and announced when there is nothing to list, e.g. "No school emails yet". */
  empty: string;
  /** A line under `empty`, e.g. where the rows come from. */
  emptyHint?: ReactNode;
  /** The button that fetches the next page; "Load more" when not given. */
  more?: string;
}

/**
 * Everything `AdminList` takes. `rowKey` may be left out when rows have a string `id`.
 */
export type AdminListProps<Row> = {
  /** The table's accessible name, e.g. "Outbox table". */
  label: string;
  /** From `useKeysetList`. */
  list: KeysetList<Row, unknown>;
  columns: ReadonlyArray<AdminColumn<Row>>;
  text: AdminListText;
  /** The list as a CSV download (the server's, every page), offered above the list. */
  csvHref?: string;
  /** A caption read by screen readers, e.g. "12 submissions to the contact form". */
  caption?: ReactNode;
} & (Row extends { id: string } ? { rowKey?: (row: Row) => string } : { rowKey: (row: Row) => string });

function announcement<Row>(list: KeysetList<Row, unknown>, text: AdminListText): string {
  if (list.loading === 'first') return text.loading;
  if (list.loading === 'more') return 'Loading more…';
  if (list.error || !list.rows) return '';
  if (list.rows.length === 0) return text.empty;
  return `Showing ${list.rows.length}${list.nextCursor ? ', more to load' : ''}.`;
}

const idOf = (row: unknown) => (row as { id: string }).id;

/** See the top of this file for an example. */
export function AdminList<Row>({ label, list, columns, text, csvHref, caption, rowKey = idOf }: AdminListProps<Row>) {
  const region = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const { rows } = list;
  const firstLoad = rows === null && list.loading === 'first';
  const isEmpty = rows?.length === 0 && !list.loading;

  /** "Load more" had focus when it was pressed. */
  const moreFocused = useRef(false);
  useEffect(() => {
    if (list.loading) return;
    // The button goes with the last page: focus stays in the list instead of falling to the page.
    if (moreFocused.current && !list.nextCursor) region.current?.focus();
    moreFocused.current = false;
  }, [list.loading, list.nextCursor]);

  function loadMore() {
    if (list.loading) return;
    moreFocused.current = document.activeElement === more.current;
    void list.more();
  }

  return (
    <div>
      {csvHref && (
        <div className="mb-3 flex justify-end">
          <a className={buttonClass('secondary', 'sm')} href={csvHref} download>
            Download CSV
          </a>
        </div>
      )}
      {list.error !== undefined && (
        <ErrorNote>
          {failureMessage(list.error, text.failure)}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void list.retry()}>
            Try again
          </button>
        </ErrorNote>
      )}
      <div role="status">
        {isEmpty ? (
          <EmptyState title={text.empty}>{text.emptyHint}</EmptyState>
        ) : (
          <p className={firstLoad ? cx(stateBoxClass, 'text-sm text-muted') : 'sr-only'}>{announcement(list, text)}</p>
        )}
      </div>
      {rows && rows.length > 0 && (
        <div
          ref={region}
          className={cx('relative lg:overflow-x-auto lg:rounded-card lg:border lg:border-line lg:bg-white', list.stale && 'opacity-60')}
          tabIndex={0}
          role="region"
          aria-label={label}
          aria-busy={list.loading === 'first' || undefined}
        >
          <table className="block w-full text-left text-sm lg:table">
            {caption && <caption className="sr-only">{caption}</caption>}
            <thead className="sr-only border-b border-line bg-canvas text-xs tracking-wide text-muted uppercase lg:not-sr-only lg:table-header-group">
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col" className="px-4 py-3">
                    {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="block space-y-3 lg:table-row-group lg:space-y-0 lg:divide-y lg:divide-line">
              {rows.map((row) => (
                <tr key={rowKey(row)} className="block max-lg:rounded-card max-lg:border max-lg:border-line max-lg:bg-white max-lg:p-4 lg:table-row">
                  {columns.map((column) => (
                    <Cell key={column.header} column={column} row={row} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.nextCursor && (
        <div className="mt-4 text-center">
          <button ref={more} type="button" className={buttonClass('secondary', 'sm')} aria-disabled={list.loading !== false || undefined} onClick={loadMore}>
            {text.more ?? 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}

function Cell<Row>({ column, row }: { column: AdminColumn<Row>; row: Row }) {
  const value = column.cell(row);
  if (column.kind === 'title') {
    return (
      <th scope="row" className={cx('block pb-2 text-base font-semibold lg:table-cell lg:px-4 lg:py-3 lg:text-sm lg:font-medium', column.className)}>
        {value}
      </th>
    );
  }
  if (column.kind === 'actions') {
    return <td className={cx('block pt-3 lg:table-cell lg:px-4 lg:py-3 lg:whitespace-nowrap', column.className)}>{value}</td>;
  }
  return (
    <td className={cx('grid grid-cols-[7.5rem_minmax(0,1fr)] items-baseline gap-x-3 py-1 lg:table-cell lg:px-4 lg:py-3', column.className)}>
      {/* The header already names the cell for screen readers; this label is for eyes on a phone. */}
      <span aria-hidden="true" className="text-xs font-semibold text-muted lg:hidden">
        {column.header}
      </span>
      <div className="min-w-0">{value}</div>
    </td>
  );
}

/** The row's buttons, side by side: wrapping on a narrow card, on one line in the table. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap gap-2 lg:flex-nowrap">{children}</div>;
}

/** Fetches the list's first page again (new rows at the top), keeping what is shown until it comes. */
export function RefreshButton({ list }: { list: Pick<KeysetList<unknown>, 'reload'> }) {
  return (
    <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void list.reload()}>
      Refresh
    </button>
  );
}

/** For `list.update`: the row with the same id replaced by the server's answer. */
export const replacing =
  <Row extends { id: string }>(updated: Row) =>
  (rows: Row[]) =>
    rows.map((row) => (row.id === updated.id ? updated : row));

/**
 * A task on one row (a retry, a deletion): `busy` is the row's id while it runs, so its button can
 * say so; a failure is said in a toast, with the server's sentence or `failure`.
 */
export function useRowTask() {
  const [busy, setBusy] = useState<string>();
  async function run(id: string, failure: string, task: () => Promise<void>) {
    setBusy(id);
    try {
      await task();
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, failure), variant: 'destructive' });
    } finally {
      setBusy(undefined);
    }
  }
  return { busy, run };
}
