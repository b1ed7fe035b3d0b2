import { useState } from 'react';
import type { MessageStatus, OutboxPage as Page, OutboxView as Message } from '../../../lib/shared/schemas/admin';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import { canRetryMessage } from '../../../lib/shared/outbox-retry';
import { answerLabels } from '../../../lib/shared/answer-kinds';
import { buttonClass } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { ReactDialog } from '../../ui/ReactDialog';
import { DataDeletions } from './DataDeletions';
import { isOwner, useAdminSession } from './session';
import { AdminList, RefreshButton, replacing, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { BusyButton, Detail, Details, SectionHeader, StatusBadge } from './fields';

const PATH = '/api/admin/outbox';

const text: AdminListText = {
  loading: 'Loading the outbox…',
  failure: 'The outbox could not be loaded.',
  empty: 'No school emails yet',
  emptyHint: 'Emails parents send from /lead-the-change and /form appear here.',
  more: 'Load older emails',
};

const statusLabels: Record<MessageStatus, string> = {
  awaiting_confirmation: 'Waiting for the parent to confirm',
  queued: 'Confirmed, waiting for the school’s hours',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Not sent',
  withdrawn: 'Withdrawn before it went',
  expired: 'Expired',
  replaced: 'Replaced by a newer request',
  bounced: 'Bounced (the mailbox does not exist)',
  voided: 'Voided by staff (part of a burst)',
};
const statusTones = {
  awaiting_confirmation: 'pending',
  queued: 'pending',
  sent: 'success',
  delivered: 'success',
  failed: 'error',
  withdrawn: 'error',
  expired: 'pending',
  replaced: 'pending',
  bounced: 'error',
  voided: 'error',
} as const;

/** The emails about a message, as the mail layer has them. */
const emailKindLabels: Record<string, string> = {
  confirmation: 'Confirmation link',
  reminder: 'Reminder',
  refusal: 'Why it was not sent',
  school_letter: 'The letter',
  follow_up: 'Did your school answer?',
  second_follow_up: 'Did your school answer? (again)',
  delivery_failure: 'It did not arrive',
  letter_not_sent: 'It was not sent: why',
  self_report: 'Confirm you sent it',
  digest_notice: 'It went in the digest',
};
const emailStateLabels: Record<string, string> = {
  preparing: 'being put together',
  scheduled: 'waiting',
  sending: 'being sent',
  unknown: 'handed over, outcome not known yet',
  sent: 'sent',
  delivered: 'delivered',
  bounced: 'bounced',
  complained: 'marked as spam',
  failed: 'could not be sent',
  suppressed: 'not sent (the address bounced or complained before)',
  withdrawn: 'withdrawn',
  digested: 'sent in the digest',
};

/** The last error as a sentence, the code beside it. */
const errorText: Record<string, string> = {
  hubspot_not_configured: 'HubSpot is not configured',
  not_confirmed_in_time: 'Not confirmed within three days',
  contact_not_found: 'The parent’s HubSpot contact was not found yet',
  already_sent: 'Already sent to this school by this parent',
  school_limit: 'The school’s daily limit was reached',
  parent_limit: 'The parent’s daily limit was reached',
  recipient_limit: 'The address has had its emails of this kind for today; nothing more was sent',
  replaced: 'The parent confirmed a newer letter to this school',
  bounced: 'The school’s mailbox does not exist',
  address_blocked: 'The address bounced before (its mailbox does not exist)',
  school_complained: 'The school marked our email as spam; nothing more goes to it',
  refused: 'The school’s mail server refused this message (a policy or spam rule)',
  tries_used_up: 'The school’s mail server did not take it after every try',
  too_long_waiting: 'It waited two weeks and did not go',
  request_failed: 'The request failed before it was recorded',
  data_deleted: 'The parent deleted their data',
  staff: 'Stopped by staff',
  delivery_failed: 'The mail layer could not send it',
  timeout: 'HubSpot answered too slowly',
  hubspot_unreachable: 'HubSpot could not be reached',
  sender_not_configured: 'No mail sender is configured (MAIL_FROM_ADDRESS with SMTP or HubSpot single-send)',
  hubspot_timeout: 'HubSpot answered too slowly',
  smtp_timeout: 'The mail server answered too slowly',
  smtp_EAUTH: 'The mail server refused the SMTP credentials',
};
const describeError = (code: string) =>
  `${errorText[code] ?? (code.startsWith('hubspot_') ? `HubSpot answered ${code.slice(8)}` : code.startsWith('smtp_') ? `The mail server answered ${code.slice(5)}` : code)} (${code})`;

/**
 * The Outbox: every school email, newest first — sent by the platform (with the parent's
 * confirmation) or by the parent themselves — its recipient, status, attempts and last error, and
 * the exact text sent, and the emails about it. A failed delivery can be retried. Links go to
 * parents' inboxes only: with no mail sender configured, an owner may see a waiting request's
 * confirmation link (audited), so the path can still be walked.
 */
export function OutboxTab() {
  const owner = isOwner(useAdminSession());
  const [mailConfigured, setMailConfigured] = useState(true);
  const [ownerLink, setOwnerLink] = useState<{ id: string; link: string }>();
  const list = useKeysetList(PATH, async (cursor) => {
    const page = await apiRequest<Page>('GET', withCursor(PATH, cursor));
    setMailConfigured(page.mailConfigured !== false);
    return { rows: page.messages, nextCursor: page.nextCursor };
  });
  const [viewing, setViewing] = useState<Message | null>(null);
  const { busy, run } = useRowTask();

  async function showLink(message: Message) {
    try {
      const { link } = await apiRequest<{ link: string }>('GET', `${PATH}/${message.id}/confirmation-link`);
      setOwnerLink({ id: message.id, link });
      setViewing(message);
    } catch (error) {
      showToast({ title: 'Error', description: failureMessage(error, 'The link could not be shown.'), variant: 'destructive' });
    }
  }

  const retry = (message: Message) =>
    run(message.id, 'The email could not be retried.', async () => {
      const { message: updated } = await apiRequest<{ message: Message }>('POST', `${PATH}/${message.id}/retry`);
      list.update(replacing(updated));
      if (updated.status === 'sent') showToast({ title: 'Success', description: 'The letter was sent.' });
      else if (updated.status === 'queued') showToast({ title: 'Scheduled', description: 'The letter goes in the school’s hours.' });
      else
        showToast({
          title: 'Not sent yet',
          description: updated.lastError ? describeError(updated.lastError) : 'It is queued for the next try.',
          variant: 'destructive',
        });
    });

  const columns: ReadonlyArray<AdminColumn<Message>> = [
    { header: 'Created', cell: (message) => formatDateTime(message.createdAt), className: 'whitespace-nowrap' },
    {
      header: 'Recipient',
      cell: (message) => (
        <>
          <p className="font-medium">{message.toName || message.to}</p>
          <p className="text-xs text-muted break-words">
            {message.to} · {message.schoolName}
          </p>
          <p className="text-xs text-muted">
            {message.channel === 'platform' ? `Sent by the platform for ${message.parentName}` : `Sent by ${message.parentName} themselves`}
          </p>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (message) => (
        <>
          <StatusBadge tone={statusTones[message.status]}>{statusLabels[message.status]}</StatusBadge>
          {message.lastError && <p className="mt-1 max-w-56 text-xs text-danger-600">{describeError(message.lastError)}</p>}
          {message.status === 'queued' && message.delivery && <p className="mt-1 text-xs text-muted">Goes {formatDateTime(message.delivery.at)}</p>}
          {message.review && <p className="mt-1 text-xs text-muted">Self-report: {message.review === 'pending' ? 'waiting for review' : message.review}</p>}
          {message.answer && <p className="mt-1 text-xs text-muted">Answer: {answerLabels[message.answer.kind]}</p>}
        </>
      ),
    },
    { header: 'Attempts', cell: (message) => message.attempts, className: 'tabular-nums' },
    {
      header: 'Actions',
      kind: 'actions',
      cell: (message) => (
        <RowActions>
          <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setViewing(message)}>
            View email
          </button>
          {owner && !mailConfigured && message.status === 'awaiting_confirmation' && message.channel === 'platform' && (
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => showLink(message)}>
              Show confirmation link
            </button>
          )}
          {canRetryMessage(message) && (
            <BusyButton busy={busy === message.id} busyLabel="Retrying…" onClick={() => retry(message)}>
              Retry
            </BusyButton>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <section aria-labelledby="outbox-title">
      <SectionHeader id="outbox-title" title="Outbox" actions={<RefreshButton list={list} />}>
        School emails, newest first. Kept 90 days after sending. Links go to parents’ inboxes only.
      </SectionHeader>
      {!mailConfigured && (
        <p className="mb-4 text-sm font-medium text-danger-600">
          No mail sender is configured: nothing is emailed. Owners can see a waiting request’s confirmation link (recorded in the audit log).
        </p>
      )}
      <AdminList label="Outbox table" list={list} text={text} columns={columns} />

      <ReactDialog open={viewing !== null} onClose={() => setViewing(null)} title="School email" size="lg">
        {viewing && (
          <div className="space-y-4 text-sm">
            <Details>
              <Detail term="To" className="break-all">
                {viewing.toName} &lt;{viewing.to}&gt;
              </Detail>
              <Detail term="From" className="break-all">
                {viewing.parentName} &lt;{viewing.parentEmail}&gt;
              </Detail>
              <Detail term="Subject">{viewing.subject}</Detail>
              {viewing.sentAt && <Detail term="Sent">{formatDateTime(viewing.sentAt)}</Detail>}
            </Details>
            <div
              tabIndex={0}
              role="region"
              aria-label="Text sent"
              className="max-h-[40vh] overflow-auto whitespace-pre-wrap rounded-xl border border-line bg-white p-4"
            >
              {viewing.body}
            </div>
            {viewing.emails.length > 0 && (
              <div>
                <p className="font-semibold">Emails about it</p>
                <ul className="mt-1 list-disc pl-5">
                  {viewing.emails.map((email) => (
                    <li key={email.id}>
                      {emailKindLabels[email.kind] ?? email.kind}: {emailStateLabels[email.state] ?? email.state}
                      {email.sentAt ? `, ${formatDateTime(email.sentAt)}` : email.state === 'scheduled' ? `, goes ${formatDateTime(email.notBefore)}` : ''}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {ownerLink?.id === viewing.id && (
              <p>
                Confirmation link (no mail sender: shown to you, recorded in the audit log):{' '}
                <a className="break-all font-medium text-brand-700 underline" href={ownerLink.link}>
                  {ownerLink.link}
                </a>
              </p>
            )}
            {viewing.answer && (
              <p>
                The parent’s answer: <strong>{answerLabels[viewing.answer.kind]}</strong>
                {viewing.answer.comment ? ` — “${viewing.answer.comment}”` : ''} ({formatDateTime(viewing.answer.updatedAt)})
              </p>
            )}
          </div>
        )}
      </ReactDialog>
      {owner && <DataDeletions />}
    </section>
  );
}
