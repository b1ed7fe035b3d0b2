import { useId, useState, type SubmitEvent } from 'react';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import {
  addBlockSchema,
  blockKindNames,
  isSharedDomain,
  voidSchema,
  watchDimensionNames,
  type AbuseView,
  type BlockKind,
  type BlockView,
  type WatchDimensionName,
  type WatchRowView,
} from '../../../lib/shared/schemas/abuse-watch';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { AdminList, RefreshButton, RowActions, useKeysetList, useRowTask, type AdminColumn, type KeysetList } from './AdminList';
import { BusyButton, CheckboxField, ErrorNote, SectionHeader, SelectField, StatusBadge, TextField, validate } from './fields';

const PATH = '/api/admin/abuse';

/** One number as the tab says it: "0.3", "12", "1,680". */
const number = (value: number) => (value >= 10 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1).replace(/\.0$/, ''));

/** A list of rows the view already holds, for `AdminList` (reloading reloads the whole view). */
function rowsOf<Row>(view: KeysetList<unknown, AbuseView>, pick: (view: AbuseView) => Row[]): KeysetList<Row> {
  return {
    rows: view.summary ? pick(view.summary) : null,
    loading: view.loading,
    stale: view.stale,
    error: view.error,
    reload: view.reload,
    retry: view.retry,
    more: view.more,
    update: () => undefined,
  };
}

/** What can be voided by: a network, a domain, a school (a form is never one sender). */
const voidable = (dimension: WatchDimensionName): dimension is 'network' | 'email_domain' | 'school' => dimension !== 'form';
/** What can be blocked from a row: its network or its email domain. */
const blockKindOf = (dimension: WatchDimensionName): BlockKind | undefined =>
  dimension === 'network' ? 'network' : dimension === 'email_domain' ? 'domain' : undefined;

/** `datetime-local` text of a moment, in the browser's time zone. */
function localInput(at: Date): string {
  const shifted = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}
const isoOf = (local: string) => {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
};

interface BlockForm {
  kind: BlockKind | '';
  value: string;
  reason: string;
  expires: string;
  sharedUnderstood: boolean;
}
interface VoidForm {
  dimension: 'network' | 'email_domain' | 'school' | '';
  key: string;
  from: string;
  to: string;
  reason: string;
}

const emptyBlock = (): BlockForm => ({ kind: '', value: '', reason: '', expires: '', sharedUnderstood: false });
const dayWindow = (): Pick<VoidForm, 'from' | 'to'> => ({
  from: localInput(new Date(Date.now() - 24 * 3600_000)),
  to: localInput(new Date(Date.now() + 60_000)),
});

/**
 * The abuse watch (staff and owners; every read and change is audited by the server): the last
 * hour and day by network, email domain, school and form, with what runs past its usual rate; the
 * blocks in force, added and lifted with a reason; and voiding what a burst left behind.
 */
export function AbuseTab() {
  const id = useId();
  const [dimension, setDimension] = useState<WatchDimensionName>('network');
  const view = useKeysetList<unknown, AbuseView>(PATH, async () => {
    const answer = await apiRequest<AbuseView>('GET', PATH);
    return { rows: [], summary: answer };
  });
  const summary = view.summary;
  const trending = rowsOf(view, (current) => current.trending);
  const byDimension = rowsOf(view, (current) => current.byDimension[dimension]);
  const blocks = rowsOf(view, (current) => current.blocks);
  const task = useRowTask();

  const [block, setBlock] = useState<BlockForm>(emptyBlock);
  const [blockErrors, setBlockErrors] = useState<Record<string, string>>({});
  const [blockBusy, setBlockBusy] = useState(false);
  const [voidForm, setVoidForm] = useState<VoidForm>(() => ({ dimension: '', key: '', reason: '', ...dayWindow() }));
  const [voidErrors, setVoidErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<{ letters: number; selfReports: number; events: number; of: string }>();
  const [voidBusy, setVoidBusy] = useState(false);
  const [voided, setVoided] = useState<string>();

  const shared = block.kind === 'domain' && isSharedDomain(block.value);

  function startBlock(row: WatchRowView) {
    const kind = blockKindOf(row.dimension);
    if (!kind) return;
    setBlock({ ...emptyBlock(), kind, value: row.key });
    setBlockErrors({});
    document.getElementById(`${id}-block`)?.scrollIntoView({ block: 'start' });
    document.getElementById(`${id}-block-reason`)?.querySelector('input')?.focus();
  }

  function startVoid(row: WatchRowView) {
    if (!voidable(row.dimension)) return;
    setVoidForm({ dimension: row.dimension, key: row.key, reason: '', ...dayWindow() });
    setPreview(undefined);
    setVoided(undefined);
    document.getElementById(`${id}-void`)?.scrollIntoView({ block: 'start' });
    document.getElementById(`${id}-void-reason`)?.querySelector('input')?.focus();
  }

  async function addBlock(event: SubmitEvent) {
    event.preventDefault();
    const values = validate(
      addBlockSchema,
      { kind: block.kind || undefined, value: block.value, reason: block.reason, ...(block.expires ? { expiresAt: isoOf(block.expires) } : {}) },
      setBlockErrors,
    );
    if (!values) return;
    if (shared && !block.sharedUnderstood) {
      setBlockErrors({ sharedUnderstood: 'Tick this to block a domain that very many parents share.' });
      return;
    }
    setBlockBusy(true);
    try {
      const answer = await apiRequest<{ block: BlockView }>('POST', `${PATH}/blocks`, values);
      showToast({ title: 'Blocked', description: `${blockKindNames[answer.block.kind]} ${answer.block.value}: new requests are refused.` });
      setBlock(emptyBlock());
      await view.reload();
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'The block could not be added.'), variant: 'destructive' });
    } finally {
      setBlockBusy(false);
    }
  }

  async function removeBlock(row: BlockView) {
    await task.run(row.id, 'The block could not be lifted.', async () => {
      await apiRequest('POST', `${PATH}/blocks/remove`, { id: row.id });
      showToast({ title: 'Block lifted', description: `${blockKindNames[row.kind]} ${row.value} may send requests again.` });
      await view.reload();
    });
  }

  /**
   * One of the four fields that choose the set to void (required, with its error): a change makes
   * it another set, so what was checked of the last one is dropped and must be checked again.
   */
  const voidSelection = (name: 'dimension' | 'key' | 'from' | 'to') => ({
    name,
    required: true,
    value: voidForm[name],
    error: voidErrors[name],
    onChange: (value: string) => {
      setVoidForm((current) => ({ ...current, [name]: value }));
      setPreview(undefined);
    },
  });

  const voidValues = () => ({
    dimension: voidForm.dimension || undefined,
    key: voidForm.key,
    from: isoOf(voidForm.from),
    to: isoOf(voidForm.to),
    reason: voidForm.reason,
  });
  const selectionOf = (values: { dimension?: string; key: string; from: string; to: string }) =>
    `${values.dimension} ${values.key} ${values.from} ${values.to}`;

  async function checkVoid() {
    const values = validate(voidSchema, voidValues(), setVoidErrors);
    if (!values) return;
    setVoidBusy(true);
    setVoided(undefined);
    try {
      const params = new URLSearchParams({ dimension: values.dimension, key: values.key, from: values.from, to: values.to });
      const answer = await apiRequest<{ letters: number; selfReports: number; events: number }>('GET', `${PATH}/void?${params}`);
      setPreview({ ...answer, of: selectionOf(values) });
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'What voiding would take could not be checked.'), variant: 'destructive' });
    } finally {
      setVoidBusy(false);
    }
  }

  async function confirmVoid(event: SubmitEvent) {
    event.preventDefault();
    const values = validate(voidSchema, voidValues(), setVoidErrors);
    if (!values) return;
    if (preview?.of !== selectionOf(values)) {
      await checkVoid();
      return;
    }
    setVoidBusy(true);
    try {
      const answer = await apiRequest<{ letters: number; selfReports: number; uncounted: number; events: number }>('POST', `${PATH}/void`, values);
      setVoided(
        `Voided ${answer.letters} letter${answer.letters === 1 ? '' : 's'} not sent yet and ${answer.selfReports} self-report${answer.selfReports === 1 ? '' : 's'}; ${answer.uncounted} no longer count in the figures.${answer.events ? ` ${answer.events} counted visit${answer.events === 1 ? '' : 's'} and events deleted.` : ''}`,
      );
      setPreview(undefined);
      await view.reload();
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'The set could not be voided.'), variant: 'destructive' });
    } finally {
      setVoidBusy(false);
    }
  }

  const watchColumns: ReadonlyArray<AdminColumn<WatchRowView>> = [
    { header: 'Key', kind: 'title', cell: (row) => <span className="font-mono text-sm wrap-anywhere">{row.key}</span> },
    { header: 'Last hour', cell: (row) => row.hour, className: 'tabular-nums' },
    { header: 'Last day', cell: (row) => row.day, className: 'tabular-nums' },
    { header: 'Usual per hour', cell: (row) => (row.usualPerHour === 0 ? 'none before' : number(row.usualPerHour)), className: 'tabular-nums' },
    {
      header: 'Hour vs usual',
      cell: (row) =>
        row.trending ? (
          <StatusBadge tone="error">{`${number(row.ratio)}× (trending)`}</StatusBadge>
        ) : (
          <span className="tabular-nums">{`${number(row.ratio)}×`}</span>
        ),
    },
    {
      header: 'Actions',
      kind: 'actions',
      cell: (row) => (
        <RowActions>
          {blockKindOf(row.dimension) && (
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => startBlock(row)}>
              Block<span className="sr-only"> {row.key}</span>
            </button>
          )}
          {voidable(row.dimension) && (
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => startVoid(row)}>
              Void…<span className="sr-only"> what {row.key} left</span>
            </button>
          )}
        </RowActions>
      ),
    },
  ];
  const trendingColumns: ReadonlyArray<AdminColumn<WatchRowView>> = [{ header: 'By', cell: (row) => watchDimensionNames[row.dimension] }, ...watchColumns];
  const blockColumns: ReadonlyArray<AdminColumn<BlockView>> = [
    { header: 'Blocked', kind: 'title', cell: (row) => <span className="font-mono text-sm wrap-anywhere">{row.value}</span> },
    { header: 'Kind', cell: (row) => blockKindNames[row.kind] },
    { header: 'Why', cell: (row) => <span className="wrap-anywhere">{row.reason}</span> },
    { header: 'Until', cell: (row) => (row.expiresAt ? formatDateTime(row.expiresAt) : 'lifted by hand') },
    { header: 'By', cell: (row) => <span className="wrap-anywhere">{`${row.createdBy}, ${formatDateTime(row.createdAt)}`}</span> },
    {
      header: 'Actions',
      kind: 'actions',
      cell: (row) => (
        <BusyButton busy={task.busy === row.id} busyLabel="Lifting…" onClick={() => void removeBlock(row)}>
          Lift<span className="sr-only"> the block of {row.value}</span>
        </BusyButton>
      ),
    },
  ];
  const key = (row: WatchRowView) => `${row.dimension}|${row.key}`;

  return (
    <section aria-labelledby={`${id}-title`}>
      <SectionHeader id={`${id}-title`} title="Abuse watch" actions={<RefreshButton list={view} />}>
        What each network, email domain, school and form asked for in the last hour and day (forms, email drafts, sends, self-reports, nominations).
        {summary &&
          ` A key trends at ${summary.thresholds.factor}× its usual hourly rate over the ${summary.thresholds.usualDays} days before, with at least ${summary.thresholds.minRequests} requests in the hour.`}
      </SectionHeader>
      {summary && (
        <p className="mb-4 text-sm" data-testid="abuse-totals">
          <strong>{summary.totals.hour}</strong> requests in the last hour, <strong>{summary.totals.day}</strong> in the last day.
        </p>
      )}

      <h3 className="mb-2 text-lg font-semibold">Trending now</h3>
      <AdminList
        label="Trending now"
        list={trending}
        rowKey={key}
        columns={trendingColumns}
        text={{
          loading: 'Loading the watch…',
          failure: 'The abuse watch could not be loaded.',
          empty: 'Nothing is running past its usual rate',
          emptyHint: 'A burst from one network, domain or school shows here as it happens.',
        }}
      />

      <div className="mt-8 mb-2 flex flex-wrap items-end justify-between gap-3">
        <h3 className="text-lg font-semibold">The last day, busiest first</h3>
        <div className="w-56">
          <SelectField
            label="Group by"
            name="dimension"
            value={dimension}
            placeholder="Choose…"
            onChange={(value) => value && setDimension(value as WatchDimensionName)}
            options={Object.entries(watchDimensionNames).map(([value, label]) => ({ value, label }))}
          />
        </div>
      </div>
      <AdminList
        label={`Requests by ${watchDimensionNames[dimension].toLowerCase()}`}
        list={byDimension}
        rowKey={key}
        columns={watchColumns}
        text={{
          loading: 'Loading the watch…',
          failure: 'The abuse watch could not be loaded.',
          empty: 'No requests in the last day',
          emptyHint: 'Forms, drafts, sends, self-reports and nominations show here.',
        }}
      />

      <h3 id={`${id}-block`} className="mt-8 mb-2 scroll-mt-4 text-lg font-semibold">
        Blocks
      </h3>
      <p className="mb-3 text-sm text-muted">
        A block refuses new requests from a network, an email domain (and its subdomains) or one address, with a plain message. One address never blocks its
        domain. Letters already asked for stay: void them below.
      </p>
      <form onSubmit={addBlock} noValidate aria-label="Add a block" className="mb-4 grid gap-3 rounded-card border border-line bg-white p-4 sm:grid-cols-2">
        <SelectField
          label="Block"
          name="kind"
          required
          value={block.kind}
          error={blockErrors.kind}
          placeholder="Choose what to block"
          onChange={(value) => setBlock((current) => ({ ...current, kind: value as BlockKind | '' }))}
          options={Object.entries(blockKindNames).map(([value, label]) => ({ value, label }))}
        />
        <TextField
          label="Network, domain or address"
          name="value"
          required
          value={block.value}
          error={blockErrors.value}
          hint="An IP address or prefix (203.0.113.0/24), a domain (example.org), or one email address."
          onChange={(value) => setBlock((current) => ({ ...current, value, sharedUnderstood: false }))}
        />
        <div id={`${id}-block-reason`}>
          <TextField
            label="Why"
            name="reason"
            required
            value={block.reason}
            error={blockErrors.reason}
            onChange={(value) => setBlock((current) => ({ ...current, reason: value }))}
          />
        </div>
        <TextField
          label="Until (optional)"
          name="expires"
          type="datetime-local"
          value={block.expires}
          error={blockErrors.expiresAt}
          hint="Leave empty to lift it by hand."
          onChange={(value) => setBlock((current) => ({ ...current, expires: value }))}
        />
        {shared && (
          <div className="sm:col-span-2">
            <ErrorNote>
              {block.value.trim()} is a large shared email provider: a block refuses every parent who uses it, not just the burst. Block the network or the
              addresses instead if you can.
            </ErrorNote>
            <CheckboxField
              label={`I understand: block every address at ${block.value.trim()}`}
              name="sharedUnderstood"
              checked={block.sharedUnderstood}
              hint={blockErrors.sharedUnderstood}
              onChange={(checked) => setBlock((current) => ({ ...current, sharedUnderstood: checked }))}
            />
          </div>
        )}
        <div className="sm:col-span-2">
          <BusyButton type="submit" variant="primary" busy={blockBusy} busyLabel="Blocking…">
            Add the block
          </BusyButton>
        </div>
      </form>
      <AdminList
        label="Blocks in force"
        list={blocks}
        columns={blockColumns}
        text={{
          loading: 'Loading the blocks…',
          failure: 'The blocks could not be loaded.',
          empty: 'No blocks in force',
          emptyHint: 'Nobody is refused.',
        }}
      />

      <h3 id={`${id}-void`} className="mt-8 mb-2 scroll-mt-4 text-lg font-semibold">
        Void what a burst left
      </h3>
      <p className="mb-3 text-sm text-muted">
        Letters not sent yet (waiting for their parent or for the school’s hours) and self-reports of one network, domain or school in a window end as “voided”:
        parents who had confirmed are told, and the school pages and public figures are recounted without them. Letters already sent stay.
      </p>
      <form onSubmit={confirmVoid} noValidate aria-label="Void a set" className="mb-4 grid gap-3 rounded-card border border-line bg-white p-4 sm:grid-cols-2">
        <SelectField
          label="Of"
          placeholder="Choose"
          options={(['network', 'email_domain', 'school'] as const).map((value) => ({ value, label: watchDimensionNames[value] }))}
          {...voidSelection('dimension')}
        />
        <TextField label="Key" hint="As the watch shows it (203.0.113.0/24, example.org, a school’s domain)." {...voidSelection('key')} />
        <TextField label="From" type="datetime-local" {...voidSelection('from')} />
        <TextField label="To" type="datetime-local" {...voidSelection('to')} />
        <div id={`${id}-void-reason`} className="sm:col-span-2">
          <TextField
            label="Why"
            name="reason"
            required
            value={voidForm.reason}
            error={voidErrors.reason}
            onChange={(value) => setVoidForm((current) => ({ ...current, reason: value }))}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2" role="status">
          {preview ? (
            <>
              <p className="text-sm">
                This voids <strong>{preview.letters}</strong> letter{preview.letters === 1 ? '' : 's'} not sent yet and <strong>{preview.selfReports}</strong>{' '}
                self-report{preview.selfReports === 1 ? '' : 's'}
                {preview.events > 0 && (
                  <>
                    , and deletes <strong>{preview.events}</strong> counted visit{preview.events === 1 ? '' : 's'} and events from this network
                  </>
                )}
                .
              </p>
              <BusyButton type="submit" variant="primary" busy={voidBusy} busyLabel="Voiding…">
                Void them
              </BusyButton>
            </>
          ) : (
            <BusyButton busy={voidBusy} busyLabel="Checking…" onClick={() => void checkVoid()}>
              Check what it takes
            </BusyButton>
          )}
          {voided && <p className="text-sm font-semibold">{voided}</p>}
        </div>
      </form>
    </section>
  );
}
