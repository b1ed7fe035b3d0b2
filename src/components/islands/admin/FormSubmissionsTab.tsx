import { useId, useState } from 'react';
import type { Delivery, SubmissionsPage as Page, SubmissionView as Submission } from '../../../lib/shared/schemas/admin';
import { apiRequest, formatDateTime } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { AdminList, RefreshButton, replacing, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { BusyButton, Detail, Details, DialogActions, StatusBadge } from './fields';

/** The delivery state as people read it: HubSpot has it, it will be tried again, or it waits. */
function deliveryLabel(delivery: Delivery): { text: string; tone: 'success' | 'pending' | 'error' } {
  if (delivery.state === 'delivered') return { text: 'Delivered to HubSpot', tone: 'success' };
  if (delivery.state === 'failed') return { text: 'Refused by HubSpot', tone: 'error' };
  if (delivery.state === 'held') return { text: 'Held: looked automated', tone: 'error' };
  if (delivery.lastError === 'hubspot_not_configured') return { text: 'Stored (HubSpot not configured)', tone: 'pending' };
  return { text: delivery.state === 'sending' ? 'Sending' : 'Waiting to retry', tone: 'pending' };
}

const errorText: Record<string, string> = {
  hubspot_not_configured: 'HubSpot is not configured',
  timeout: 'HubSpot answered too slowly',
  hubspot_unreachable: 'HubSpot could not be reached',
  hubspot_404: 'HubSpot has no form with this id',
  hubspot_401: 'HubSpot refused the access token',
  hubspot_403: 'The access token may not submit forms',
  hubspot_429: 'HubSpot’s rate limit',
};
const describeError = (code: string) =>
  `${errorText[code] ?? (code.startsWith('hubspot_') ? `HubSpot answered ${code.slice(8)}` : `HubSpot refused it: ${code}`)} (${code})`;

/** Names the submission a button acts on, for screen readers ("Delete the submission of …"). */
const of = (submission: Submission) => <span className="sr-only"> the submission of {formatDateTime(submission.createdAt)}</span>;

/** A one-line summary of a submission: who sent it. */
function who(submission: Submission): string {
  const value = (name: string) => submission.fields.find((field) => field.name === name)?.value;
  const name = value('full_name') || [value('firstname'), value('lastname')].filter(Boolean).join(' ');
  const email = value('email');
  return [name, email].filter(Boolean).join(' · ') || submission.fields.find((field) => field.value)?.value || '—';
}

const text: AdminListText = {
  loading: 'Loading the submissions…',
  failure: 'The submissions could not be loaded.',
  empty: 'No submissions to this form yet',
  emptyHint: 'What visitors send with it appears here.',
  more: 'Load older submissions',
};

/**
 * Form Submissions: what each of the site's own forms received, newest first, with its HubSpot
 * delivery state. Without HubSpot everything is kept here; a submission is deleted 30 days after
 * HubSpot accepted it, and the admin can delete one sooner.
 */
export function FormSubmissionsTab() {
  const [form, setForm] = useState('emailGenerator');
  const [viewing, setViewing] = useState<Submission | null>(null);
  const [deleting, setDeleting] = useState<Submission | null>(null);
  const { busy, run } = useRowTask();
  const selectId = useId();
  const path = `/api/admin/form-submissions?form=${encodeURIComponent(form)}`;
  const list = useKeysetList(path, async (cursor) => {
    const page = await apiRequest<Page>('GET', withCursor(path, cursor));
    return { rows: page.submissions, nextCursor: page.nextCursor, summary: { forms: page.forms, total: page.total } };
  });

  const retry = (submission: Submission) =>
    run(submission.id, 'The submission could not be retried.', async () => {
      const action = submission.delivery.state === 'held' ? 'release' : 'retry';
      const { submission: updated } = await apiRequest<{ submission: Submission }>(
        'POST',
        `/api/admin/form-submissions/${submission.purpose}/${submission.id}/${action}`,
      );
      list.update(replacing(updated));
      if (updated.delivery.state === 'delivered') showToast({ title: 'Success', description: 'HubSpot accepted the submission.' });
      else
        showToast({
          title: 'Not delivered yet',
          description: updated.delivery.lastError ? describeError(updated.delivery.lastError) : 'It is queued for the next try.',
          variant: 'destructive',
        });
    });

  const remove = (submission: Submission) =>
    run(submission.id, 'The submission could not be deleted.', async () => {
      await apiRequest('DELETE', `/api/admin/form-submissions/${submission.purpose}/${submission.id}`);
      list.update(
        (rows) => rows.filter((entry) => entry.id !== submission.id),
        (summary) => ({
          total: summary.total - 1,
          forms: summary.forms.map((entry) => (entry.purpose === submission.purpose ? { ...entry, count: entry.count - 1 } : entry)),
        }),
      );
      setDeleting(null);
      showToast({ title: 'Deleted', description: 'The submission was deleted.' });
    });

  const columns: ReadonlyArray<AdminColumn<Submission>> = [
    { header: 'Received', cell: (submission) => formatDateTime(submission.createdAt), className: 'whitespace-nowrap' },
    { header: 'From', cell: who, className: 'wrap-anywhere' },
    {
      header: 'HubSpot delivery',
      cell: ({ delivery }) => {
        const label = deliveryLabel(delivery);
        return (
          <>
            <StatusBadge tone={label.tone}>{label.text}</StatusBadge>
            <p className="mt-1 text-xs text-muted">
              {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
            </p>
            {delivery.lastError && delivery.state !== 'delivered' && (
              <p className="mt-1 max-w-64 text-xs text-danger-600">{describeError(delivery.lastError)}</p>
            )}
            {delivery.state === 'held' && (
              <p className="mt-1 max-w-64 text-xs text-muted">
                {delivery.heldReason === 'honeypot' ? 'A field people never see was filled in.' : 'Sent faster than a person fills the form.'} Not sent to
                HubSpot; deleted after 7 days unless released.
              </p>
            )}
          </>
        );
      },
    },
    {
      header: 'Actions',
      kind: 'actions',
      cell: (submission) => {
        const held = submission.delivery.state === 'held';
        return (
          <RowActions>
            <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setViewing(submission)}>
              View{of(submission)}
            </button>
            {(submission.delivery.state === 'failed' || held) && (
              <BusyButton busy={busy === submission.id} busyLabel={held ? 'Releasing…' : 'Retrying…'} onClick={() => retry(submission)}>
                {held ? 'Release' : 'Retry'}
                {held && of(submission)}
              </BusyButton>
            )}
            <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setDeleting(submission)}>
              Delete{of(submission)}
            </button>
          </RowActions>
        );
      },
    },
  ];

  const summary = list.summary;
  const title = summary?.forms.find((entry) => entry.purpose === form)?.title;
  const caption = summary && `${summary.total} submission${summary.total === 1 ? '' : 's'} to ${title}`;
  return (
    <section aria-labelledby="form-submissions-title">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="form-submissions-title" className="text-xl font-bold">
            Form Submissions
          </h2>
          <p className="text-sm text-muted">What the site’s forms received, newest first. Deleted 30 days after HubSpot accepted them.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={selectId} className="block text-sm font-semibold">
              Form
            </label>
            <select
              id={selectId}
              value={form}
              onChange={(event) => setForm(event.target.value)}
              className="mt-1 block min-h-11 rounded-xl border border-line bg-white px-3 text-sm"
            >
              {(summary?.forms ?? [{ purpose: form, title: 'Loading…', count: 0 }]).map((entry) => (
                <option key={entry.purpose} value={entry.purpose}>
                  {entry.title} ({entry.count})
                </option>
              ))}
            </select>
          </div>
          <RefreshButton list={list} />
        </div>
      </div>

      <AdminList label="Form submissions table" list={list} text={text} columns={columns} caption={caption} />

      <ReactDialog open={viewing !== null} onClose={() => setViewing(null)} title="Form submission" size="lg">
        {viewing && (
          <div className="space-y-4 text-sm">
            <dl className="divide-y divide-line rounded-xl border border-line bg-white">
              {viewing.fields.map((field) => (
                <div key={field.name} className="grid gap-1 px-4 py-2 sm:grid-cols-[12rem_1fr]">
                  <dt className="font-semibold">{field.label}</dt>
                  <dd className="break-words whitespace-pre-wrap">{field.value || <span className="text-muted">(empty)</span>}</dd>
                </div>
              ))}
            </dl>
            {viewing.consent && (
              <div>
                <p className="font-semibold">Consent</p>
                <ul className="mt-1 list-disc pl-5">
                  <li>To store and process their details: {viewing.consent.toProcess ? 'given' : 'not given'}</li>
                  {viewing.consent.communications.map((item) => (
                    <li key={item.subscriptionTypeId}>
                      {item.text.replace(/<[^>]*>/g, '')}: {item.value ? 'yes' : 'no'}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <Details>
              <Detail term="Received">{formatDateTime(viewing.createdAt)}</Detail>
              <Detail term="Page" className="break-all">
                {viewing.pageUri}
              </Detail>
              <Detail term="HubSpot">
                {deliveryLabel(viewing.delivery).text}
                {viewing.delivery.deliveredAt ? ` on ${formatDateTime(viewing.delivery.deliveredAt)}` : ''}, {viewing.delivery.attempts} attempt
                {viewing.delivery.attempts === 1 ? '' : 's'}
              </Detail>
              {viewing.deleteAfter && <Detail term="Deleted after">{formatDateTime(viewing.deleteAfter)}</Detail>}
            </Details>
          </div>
        )}
      </ReactDialog>

      <ReactDialog open={deleting !== null} onClose={() => setDeleting(null)} title="Delete this submission?">
        {deleting && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void remove(deleting);
            }}
            className="space-y-4 text-sm"
          >
            <p>
              The submission of {formatDateTime(deleting.createdAt)} from {who(deleting)} is deleted from this site.{' '}
              {deleting.delivery.state === 'delivered' ? 'HubSpot keeps its own copy.' : 'It has not reached HubSpot, so it will not be sent there.'}
            </p>
            <DialogActions onCancel={() => setDeleting(null)} busy={busy === deleting.id} label="Delete" busyLabel="Deleting…" />
          </form>
        )}
      </ReactDialog>
    </section>
  );
}
