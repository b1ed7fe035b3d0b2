import { useId, useState, type SubmitEvent } from 'react';
import { ApiError, apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import type { ReviewItemView as Item, ReviewPage, ReviewState } from '../../../lib/shared/schemas/admin';
import { answerLabels } from '../../../lib/shared/answer-kinds';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { AdminList, RefreshButton, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { DialogActions, SectionHeader, StatusBadge } from './fields';

const PATH = '/api/admin/review';

const stateLabels: Record<ReviewState, string> = { pending: 'Waiting for a decision', approved: 'Approved', rejected: 'Rejected' };
const claimLabels: Record<Item['claim'], string> = { self_report: 'Sent it themselves', replied: 'The school replied', meeting: 'The school agreed to meet' };
const reasonLabels: Record<Item['reason'], string> = {
  self_report: 'Self-reported: the site did not send it',
  outcome_on_self_report: 'An outcome on a self-reported letter',
  outcome_reported: 'An outcome a parent reports: the school’s answer went to them, not to us',
  own_domain: 'Sent to the parent’s own domain',
};

const texts: Record<ReviewState, AdminListText> = {
  pending: {
    loading: 'Loading the review queue…',
    failure: 'The review queue could not be loaded.',
    empty: 'Nothing to review',
    emptyHint: 'Self-reported letters and the outcomes reported on them wait here.',
  },
  approved: { loading: 'Loading the approved claims…', failure: 'The approved claims could not be loaded.', empty: 'Nothing approved yet' },
  rejected: { loading: 'Loading the rejected claims…', failure: 'The rejected claims could not be loaded.', empty: 'Nothing rejected yet' },
};

/** Rejecting asks first: a decision is taken once. */
type Pending = { kind: 'reject'; item: Item };

/**
 * Review (staff and owners): the claims nobody could check by themselves (a letter the parent says
 * they sent, an outcome a parent reports, a letter to the parent's own domain) count, show and
 * notify only once a person approves them. Each decision is taken once and audited by the server.
 * A school's name and page are its record's (the Schools tab), never a claim's.
 */
export function ReviewTab() {
  const [state, setState] = useState<ReviewState>('pending');
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const task = useRowTask();
  const id = useId();
  const query = `${PATH}?state=${state}`;
  const list = useKeysetList(query, async (cursor) => {
    const page = await apiRequest<ReviewPage>('GET', withCursor(query, cursor));
    return { rows: page.items, nextCursor: page.nextCursor };
  });

  /** A decided item leaves the pending list; elsewhere it is shown as the server now has it. */
  function decided(item: Item) {
    list.update((rows) => (state === 'pending' ? rows.filter((row) => row.id !== item.id) : rows.map((row) => (row.id === item.id ? item : row))));
  }

  async function decide(item: Item, decision: 'approved' | 'rejected') {
    const answer = await apiRequest<{ item?: Item }>('POST', `${PATH}/${item.id}`, { decision });
    decided(answer.item ?? item);
    const counts = item.school?.onRecord ? 'now counts on its school’s page' : 'counts once staff verify its school';
    showToast(
      decision === 'approved'
        ? { title: 'Approved', description: `${claimLabels[item.claim]} — ${item.school?.name ?? item.letter.schoolName} ${counts}.` }
        : { title: 'Rejected', description: `${claimLabels[item.claim]} — ${item.letter.schoolName}: nothing public changed.` },
    );
  }

  /** A decision someone else took first: said, and the queue read again. */
  async function failed(error: unknown, fallback: string) {
    showToast({ title: 'Not done', description: failureMessage(error, fallback), variant: 'destructive' });
    if (error instanceof ApiError && (error.status === 409 || error.status === 404)) await list.reload();
  }

  function approve(item: Item) {
    void task.run(item.id, 'The claim could not be approved.', async () => {
      try {
        await decide(item, 'approved');
      } catch (error) {
        await failed(error, 'The claim could not be approved.');
      }
    });
  }

  async function confirm(event: SubmitEvent) {
    event.preventDefault();
    if (!pending) return;
    setBusy(true);
    try {
      await decide(pending.item, 'rejected');
      setPending(undefined);
    } catch (error) {
      setPending(undefined);
      await failed(error, 'The decision could not be saved.');
    } finally {
      setBusy(false);
    }
  }

  const columns: ReadonlyArray<AdminColumn<Item>> = [
    {
      header: 'Claim',
      kind: 'title',
      className: 'lg:align-top',
      cell: (item) => (
        <>
          {claimLabels[item.claim]}
          <span className="block text-xs font-normal text-muted">{reasonLabels[item.reason]}</span>
          <span className="block text-xs font-normal text-muted">{formatDateTime(item.createdAt)}</span>
        </>
      ),
    },
    {
      header: 'Letter',
      className: 'lg:align-top',
      cell: (item) => (
        <>
          <span className="font-medium">{item.letter.schoolName}</span>
          <span className="block text-xs text-muted wrap-anywhere">
            To {item.letter.contactName ? `${item.letter.contactName}, ` : ''}
            {item.letter.contact}
          </span>
          <span className="block text-xs text-muted">“{item.letter.subject}”</span>
        </>
      ),
    },
    {
      header: 'School record',
      className: 'lg:align-top',
      cell: (item) => {
        const school = item.school;
        if (!school) return <span className="text-muted">Not known yet</span>;
        return (
          <>
            {school.name}
            <span className="block text-xs text-muted">
              {school.status === 'verified'
                ? school.onRecord
                  ? 'Verified; the address is on its record'
                  : 'Verified; another address than its record’s'
                : school.status === 'proposed'
                  ? 'Proposed: not verified yet (Schools tab)'
                  : 'Retired'}
            </span>
          </>
        );
      },
    },
    {
      header: 'Parent and answer',
      className: 'lg:align-top',
      cell: (item) => (
        <>
          {item.letter.parentFirstName || 'Unnamed'} <span className="text-xs text-muted">at {item.letter.parentDomain}</span>
          {item.answer && (
            <span className="block text-xs text-muted">
              {answerLabels[item.answer.kind]}
              {item.answer.comment && `: “${item.answer.comment}”`}
            </span>
          )}
        </>
      ),
    },
    {
      header: 'Decision',
      kind: 'actions',
      hideHeader: true,
      className: 'lg:align-top',
      cell: (item) => {
        const what = `${claimLabels[item.claim].toLowerCase()}, ${item.letter.schoolName}`;
        if (item.state !== 'pending') {
          return (
            <>
              <StatusBadge tone={item.state === 'approved' ? 'success' : 'neutral'}>{stateLabels[item.state]}</StatusBadge>
              {item.decidedAt && (
                <span className="mt-1 block text-xs text-muted">
                  {formatDateTime(item.decidedAt)}
                  {item.decidedBy ? ` by ${item.decidedBy}` : ''}
                </span>
              )}
            </>
          );
        }
        return (
          <RowActions>
            <button
              type="button"
              className={buttonClass('primary', 'sm')}
              disabled={task.busy === item.id}
              onClick={() => approve(item)}
              aria-label={`Approve: ${what}`}
            >
              {task.busy === item.id ? 'Approving…' : 'Approve'}
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              disabled={task.busy === item.id}
              onClick={() => setPending({ kind: 'reject', item })}
              aria-label={`Reject: ${what}`}
            >
              Reject
            </button>
          </RowActions>
        );
      },
    },
  ];

  return (
    <section aria-labelledby="review-title">
      <SectionHeader id="review-title" title="Review" actions={<RefreshButton list={list} />}>
        Claims the site could not check: letters parents say they sent themselves, the outcomes parents report (“they replied”, “they agreed to meet”), letters
        to a parent’s own domain. They count, show and notify only once approved, and only for a school staff verified.
      </SectionHeader>

      <div className="mb-4 flex flex-wrap items-center gap-3">
        <label htmlFor={`${id}-state`} className="text-sm font-semibold">
          Show
        </label>
        <select
          id={`${id}-state`}
          value={state}
          onChange={(event) => setState(event.target.value as ReviewState)}
          className="rounded-lg border border-line bg-white px-3 py-2 text-sm"
        >
          <option value="pending">Waiting for a decision</option>
          <option value="approved">Approved</option>
          <option value="rejected">Rejected</option>
        </select>
      </div>

      <AdminList label="Review queue" list={list} text={texts[state]} columns={columns} />

      <ReactDialog open={pending !== undefined} onClose={() => setPending(undefined)} title="Reject this claim?">
        <form onSubmit={confirm} noValidate aria-busy={busy} className="space-y-4">
          {pending && (
            <p className="text-sm text-ink-soft">
              “{claimLabels[pending.item.claim]}” for {pending.item.letter.schoolName} will not count, show or notify anyone. A decision is taken once: it
              cannot be changed afterwards.
            </p>
          )}
          <DialogActions onCancel={() => setPending(undefined)} busy={busy} label="Reject" busyLabel="Rejecting…" />
        </form>
      </ReactDialog>
    </section>
  );
}
