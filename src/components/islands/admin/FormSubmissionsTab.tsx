import { useCallback, useEffect, useId, useState } from 'react';
import type { Delivery, SubmissionsPage as Page, SubmissionView as Submission } from '../../../lib/schemas/admin';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/admin-api';
import { buttonClass } from '../../../lib/ui';
import { showToast } from '../../../stores/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { DialogActions, EmptyState, StatusBadge, ScrollTable, tableHeadClass } from './fields';

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
const describeError = (code: string) => `${errorText[code] ?? (code.startsWith('hubspot_') ? `HubSpot answered ${code.slice(8)}` : `HubSpot refused it: ${code}`)} (${code})`;

/** A one-line summary of a submission: who sent it. */
function who(submission: Submission): string {
  const value = (name: string) => submission.fields.find((field) => field.name === name)?.value;
  const name = value('full_name') || [value('firstname'), value('lastname')].filter(Boolean).join(' ');
  const email = value('email');
  return [name, email].filter(Boolean).join(' · ') || submission.fields.find((field) => field.value)?.value || '—';
}

/**
 * Form Submissions: what each of the site's own forms received, newest first, with its HubSpot
 * delivery state. Without HubSpot everything is kept here; a submission is deleted 30 days after
 * HubSpot accepted it, and the admin can delete one sooner.
 */
export function FormSubmissionsTab() {
  const [form, setForm] = useState('emailGenerator');
  const [page, setPage] = useState<Page | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [viewing, setViewing] = useState<Submission | null>(null);
  const [deleting, setDeleting] = useState<Submission | null>(null);
  const [busy, setBusy] = useState<string>();
  const selectId = useId();

  const load = useCallback(async (purpose: string, after?: string) => {
    try {
      const next = await apiRequest<Page>('GET', `/api/admin/form-submissions?form=${encodeURIComponent(purpose)}${after ? `&cursor=${encodeURIComponent(after)}` : ''}`);
      setPage((current) => (after && current ? { ...next, submissions: [...current.submissions, ...next.submissions] } : next));
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The submissions could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    setPage(null);
    void load(form);
  }, [form, load]);

  const replace = (updated: Submission) =>
    setPage((current) => current && { ...current, submissions: current.submissions.map((entry) => (entry.id === updated.id ? updated : entry)) });

  async function retry(submission: Submission) {
    setBusy(submission.id);
    const action = submission.delivery.state === 'held' ? 'release' : 'retry';
    try {
      const { submission: updated } = await apiRequest<{ submission: Submission }>('POST', `/api/admin/form-submissions/${submission.purpose}/${submission.id}/${action}`);
      replace(updated);
      if (updated.delivery.state === 'delivered') showToast({ title: 'Success', description: 'HubSpot accepted the submission.' });
      else showToast({ title: 'Not delivered yet', description: updated.delivery.lastError ? describeError(updated.delivery.lastError) : 'It is queued for the next try.', variant: 'destructive' });
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'The submission could not be retried.'), variant: 'destructive' });
    } finally {
      setBusy(undefined);
    }
  }

  async function remove(submission: Submission) {
    setBusy(submission.id);
    try {
      await apiRequest('DELETE', `/api/admin/form-submissions/${submission.purpose}/${submission.id}`);
      setPage(
        (current) =>
          current && {
            ...current,
            total: current.total - 1,
            forms: current.forms.map((entry) => (entry.purpose === submission.purpose ? { ...entry, count: entry.count - 1 } : entry)),
            submissions: current.submissions.filter((entry) => entry.id !== submission.id),
          },
      );
      setDeleting(null);
      showToast({ title: 'Deleted', description: 'The submission was deleted.' });
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'The submission could not be deleted.'), variant: 'destructive' });
    } finally {
      setBusy(undefined);
    }
  }

  const submissions = page?.submissions;
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
            <select id={selectId} value={form} onChange={(event) => setForm(event.target.value)} className="mt-1 block min-h-11 rounded-xl border border-line bg-white px-3 text-sm">
              {(page?.forms ?? [{ purpose: form, title: 'Loading…', count: 0 }]).map((entry) => (
                <option key={entry.purpose} value={entry.purpose}>
                  {entry.title} ({entry.count})
                </option>
              ))}
            </select>
          </div>
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => load(form)}>
            Refresh
          </button>
        </div>
      </div>

      {loadError && (
        <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
          {loadError}
        </p>
      )}
      {!page && !loadError && (
        <p className="text-sm text-muted" role="status">
          Loading the submissions…
        </p>
      )}
      {submissions?.length === 0 && <EmptyState title="No submissions to this form yet">What visitors send with it appears here.</EmptyState>}
      {submissions && submissions.length > 0 && (
        <ScrollTable label="Form submissions table" minWidth="min-w-[44rem]">
          <caption className="sr-only">
            {page!.total} submission{page!.total === 1 ? '' : 's'} to {page!.forms.find((entry) => entry.purpose === form)?.title}
          </caption>
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className="px-4 py-3">Received</th>
              <th scope="col" className="px-4 py-3">From</th>
              <th scope="col" className="px-4 py-3">HubSpot delivery</th>
              <th scope="col" className="px-4 py-3">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {submissions.map((submission) => {
              const label = deliveryLabel(submission.delivery);
              return (
                <tr key={submission.id}>
                  <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(submission.createdAt)}</td>
                  <td className="px-4 py-3 break-all">{who(submission)}</td>
                  <td className="px-4 py-3">
                    <StatusBadge tone={label.tone}>{label.text}</StatusBadge>
                    <p className="mt-1 text-xs text-muted">
                      {submission.delivery.attempts} attempt{submission.delivery.attempts === 1 ? '' : 's'}
                    </p>
                    {submission.delivery.lastError && submission.delivery.state !== 'delivered' && (
                      <p className="mt-1 max-w-64 text-xs text-danger-600">{describeError(submission.delivery.lastError)}</p>
                    )}
                    {submission.delivery.state === 'held' && (
                      <p className="mt-1 max-w-64 text-xs text-muted">
                        {submission.delivery.heldReason === 'honeypot' ? 'A field people never see was filled in.' : 'Sent faster than a person fills the form.'} Not sent to HubSpot; deleted after 7 days unless released.
                      </p>
                    )}
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex flex-wrap gap-2">
                      <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setViewing(submission)}>
                        View<span className="sr-only"> the submission of {formatDateTime(submission.createdAt)}</span>
                      </button>
                      {(submission.delivery.state === 'failed' || submission.delivery.state === 'held') && (
                        <button type="button" className={buttonClass('secondary', 'sm')} disabled={busy === submission.id} onClick={() => retry(submission)}>
                          {busy === submission.id ? (submission.delivery.state === 'held' ? 'Releasing…' : 'Retrying…') : submission.delivery.state === 'held' ? 'Release' : 'Retry'}
                          {submission.delivery.state === 'held' && <span className="sr-only"> the submission of {formatDateTime(submission.createdAt)}</span>}
                        </button>
                      )}
                      <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setDeleting(submission)}>
                        Delete<span className="sr-only"> the submission of {formatDateTime(submission.createdAt)}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </ScrollTable>
      )}
      {page?.nextCursor && (
        <div className="mt-4 text-center">
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => load(form, page.nextCursor)}>
            Load older submissions
          </button>
        </div>
      )}

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
            <dl className="space-y-1 rounded-xl border border-line bg-canvas p-4">
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold">Received:</dt>
                <dd>{formatDateTime(viewing.createdAt)}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold">Page:</dt>
                <dd className="break-all">{viewing.pageUri}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold">HubSpot:</dt>
                <dd>
                  {deliveryLabel(viewing.delivery).text}
                  {viewing.delivery.deliveredAt ? ` on ${formatDateTime(viewing.delivery.deliveredAt)}` : ''}, {viewing.delivery.attempts} attempt
                  {viewing.delivery.attempts === 1 ? '' : 's'}
                </dd>
              </div>
              {viewing.deleteAfter && (
                <div className="flex flex-wrap gap-x-2">
                  <dt className="font-semibold">Deleted after:</dt>
                  <dd>{formatDateTime(viewing.deleteAfter)}</dd>
                </div>
              )}
            </dl>
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
              The submission of {formatDateTime(deleting.createdAt)} from {who(deleting)} is deleted from this site. {deleting.delivery.state === 'delivered' ? 'HubSpot keeps its own copy.' : 'It has not reached HubSpot, so it will not be sent there.'}
            </p>
            <DialogActions onCancel={() => setDeleting(null)} busy={busy === deleting.id} label="Delete" busyLabel="Deleting…" />
          </form>
        )}
      </ReactDialog>
    </section>
  );
}
