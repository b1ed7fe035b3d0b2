import { useEffect, useState } from 'react';
import { apiRequest, failureMessage, formatDateTime } from '../../../lib/browser/admin-api';
import { kindRules } from '../../../lib/shared/email/mail-kinds';
import type { MailEmail, MailEmailsPage, MailPreview, Suppression, UnknownEmail } from '../../../lib/shared/schemas/admin';
import { buttonClass, cardClass, cx } from '../../../lib/shared/ui';
import { showToast } from '../../../lib/browser/frame/toast';
import { AdminList, RefreshButton, RowActions, useKeysetList, useRowTask, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { ErrorNote, SectionHeader, StatusBadge, stateBoxClass } from './fields';

const EMAILS = '/api/admin/mail/emails?limit=50';
const SUPPRESSIONS = '/api/admin/mail/suppressions';
const UNKNOWN = '/api/admin/mail/unknown';

const stateTones: Record<string, 'success' | 'error' | 'pending' | 'neutral'> = {
  preparing: 'pending',
  unknown: 'pending',
  scheduled: 'pending',
  sending: 'pending',
  sent: 'success',
  delivered: 'success',
  digested: 'success',
  bounced: 'error',
  complained: 'error',
  failed: 'error',
  suppressed: 'error',
  withdrawn: 'neutral',
};

const emailsText: AdminListText = {
  loading: 'Loading the emails…',
  failure: 'The emails could not be loaded.',
  empty: 'No emails yet',
  emptyHint: 'Every email the site sends appears here with its state.',
  more: 'Load newer emails',
};
const suppressionsText: AdminListText = {
  loading: 'Loading the blocked addresses…',
  failure: 'The blocked addresses could not be loaded.',
  empty: 'No address is blocked',
  emptyHint: 'An address whose mailbox does not exist, or that marked the site’s mail as spam, is listed here until its block ends or you lift it.',
};
const unknownText: AdminListText = {
  loading: 'Loading the emails whose outcome is unknown…',
  failure: 'The emails whose outcome is unknown could not be loaded.',
  empty: 'Every email’s outcome is known',
  emptyHint: 'An email handed to the mail server whose answer never came waits here: it is never sent again without a decision.',
};

const emailColumns: ReadonlyArray<AdminColumn<MailEmail>> = [
  { header: 'Email', kind: 'title', cell: (email) => kindRules[email.kind].label },
  { header: 'To', cell: (email) => email.to, className: 'wrap-anywhere' },
  { header: 'State', cell: (email) => <StatusBadge tone={stateTones[email.state] ?? 'neutral'}>{email.stateLabel}</StatusBadge> },
  { header: 'Attempts', cell: (email) => email.attempts, className: 'tabular-nums' },
  {
    header: 'When',
    className: 'lg:whitespace-nowrap',
    cell: (email) => (email.sentAt ? `Sent ${formatDateTime(email.sentAt)}` : `Not before ${formatDateTime(email.notBefore)}`),
  },
  {
    header: 'Last error',
    cell: (email) => (email.lastError ? <code className="text-[0.8rem]">{email.lastError}</code> : <span className="text-muted">None</span>),
    className: 'wrap-anywhere',
  },
];

const suppressionWhy = (entry: Suppression) => (entry.reason === 'bounced' ? 'The mailbox does not exist' : 'Marked our mail as spam');
/**
 * Mail: every email the site sends, previewed with sample data as the editors' words make it; the
 * emails of the mail layer with their states (never their content); the addresses that bounced or
 * complained, which no later email reaches.
 */
export function MailTab() {
  const emails = useKeysetList(EMAILS, async (cursor) => {
    const page = await apiRequest<MailEmailsPage>('GET', withCursor(EMAILS, cursor));
    return { rows: page.emails, nextCursor: page.nextCursor };
  });
  const suppressions = useKeysetList(SUPPRESSIONS, async () => {
    const answer = await apiRequest<{ suppressions: Suppression[] }>('GET', SUPPRESSIONS);
    return { rows: answer.suppressions };
  });
  const unknown = useKeysetList(UNKNOWN, async () => {
    const answer = await apiRequest<{ emails: UnknownEmail[] }>('GET', UNKNOWN);
    return { rows: answer.emails };
  });
  const task = useRowTask();

  function lift(entry: Suppression) {
    void task.run(entry.key, 'The block could not be lifted.', async () => {
      try {
        await apiRequest('POST', `${SUPPRESSIONS}/${entry.key}/lift`, {});
        suppressions.update((rows) => rows.filter((row) => row.key !== entry.key));
        showToast({ title: 'Block lifted', description: `${entry.masked} can be written to again.` });
      } catch (error) {
        showToast({ title: 'Not lifted', description: failureMessage(error, 'The block could not be lifted.'), variant: 'destructive' });
        await suppressions.reload();
      }
    });
  }

  function settle(email: UnknownEmail, decision: 'sent' | 'resend') {
    void task.run(email.id, 'The email could not be settled.', async () => {
      try {
        await apiRequest('POST', `/api/admin/mail/emails/${email.id}/settle`, { decision });
        unknown.update((rows) => rows.filter((row) => row.id !== email.id));
        showToast({
          title: decision === 'sent' ? 'Marked as sent' : 'Sent again',
          description: decision === 'sent' ? 'It counts as delivered to its mail server.' : 'It goes again under the same id, in its school’s hours.',
        });
      } catch (error) {
        showToast({ title: 'Not settled', description: failureMessage(error, 'The email could not be settled.'), variant: 'destructive' });
        await unknown.reload();
      }
    });
  }

  const suppressionColumns: ReadonlyArray<AdminColumn<Suppression>> = [
    { header: 'Address', kind: 'title', cell: (entry) => entry.masked, className: 'wrap-anywhere' },
    { header: 'Why', cell: (entry) => <StatusBadge tone="error">{suppressionWhy(entry)}</StatusBadge> },
    {
      header: 'Detail',
      cell: (entry) => (entry.detail ? <code className="text-[0.8rem]">{entry.detail}</code> : <span className="text-muted">None</span>),
      className: 'wrap-anywhere',
    },
    {
      header: 'Blocked',
      className: 'lg:whitespace-nowrap',
      cell: (entry) => (
        <>
          Since {formatDateTime(entry.renewedAt ?? entry.createdAt)}
          <span className="block text-xs text-muted">Until {formatDateTime(entry.expiresAt)}</span>
        </>
      ),
    },
    {
      header: 'Action',
      kind: 'actions',
      hideHeader: true,
      cell: (entry) => (
        <RowActions>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={task.busy === entry.key}
            onClick={() => lift(entry)}
            aria-label={`Lift the block of ${entry.masked}`}
          >
            {task.busy === entry.key ? 'Lifting…' : 'Lift block'}
          </button>
        </RowActions>
      ),
    },
  ];

  const unknownColumns: ReadonlyArray<AdminColumn<UnknownEmail>> = [
    { header: 'Email', kind: 'title', cell: (email) => kindRules[email.kind as keyof typeof kindRules]?.label ?? email.kind },
    { header: 'To', cell: (email) => email.to, className: 'wrap-anywhere' },
    { header: 'What happened', cell: (email) => email.detail ?? 'No answer came', className: 'wrap-anywhere' },
    { header: 'Since', cell: (email) => formatDateTime(email.updatedAt), className: 'lg:whitespace-nowrap' },
    {
      header: 'Decision',
      kind: 'actions',
      hideHeader: true,
      cell: (email) => (
        <RowActions>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={task.busy === email.id}
            onClick={() => settle(email, 'sent')}
            aria-label={`It arrived: mark the email to ${email.to} as sent`}
          >
            It arrived
          </button>
          <button
            type="button"
            className={buttonClass('secondary', 'sm')}
            disabled={task.busy === email.id}
            onClick={() => settle(email, 'resend')}
            aria-label={`It did not arrive: send the email to ${email.to} again`}
          >
            Send again
          </button>
        </RowActions>
      ),
    },
  ];

  return (
    <div className="space-y-10">
      <Previews />
      <section aria-labelledby="mail-emails-title">
        <SectionHeader id="mail-emails-title" title="Emails" actions={<RefreshButton list={emails} />}>
          What the site has sent or will send, oldest first: the kind, the address (masked), its state and the last error.
        </SectionHeader>
        <AdminList label="Emails table" list={emails} text={emailsText} columns={emailColumns} />
      </section>
      <section aria-labelledby="mail-unknown-title">
        <SectionHeader id="mail-unknown-title" title="Outcome unknown" actions={<RefreshButton list={unknown} />}>
          Emails handed to the mail server whose answer never came. The mail provider’s report settles one when it comes; otherwise check with the recipient or
          the provider, then decide.
        </SectionHeader>
        <AdminList label="Emails whose outcome is unknown" list={unknown} text={unknownText} columns={unknownColumns} />
      </section>
      <section aria-labelledby="mail-suppressions-title">
        <SectionHeader id="mail-suppressions-title" title="Blocked addresses" actions={<RefreshButton list={suppressions} />}>
          Addresses whose mailbox does not exist, or that marked the site’s mail as spam: no email reaches them until the block ends (a new bounce renews it) or
          you lift it. A policy or spam refusal never blocks an address: it fails that one email. Parents who wrote to a blocked school were told, with a way to
          correct the address.
        </SectionHeader>
        <AdminList label="Blocked addresses" list={suppressions} text={suppressionsText} columns={suppressionColumns} rowKey={(entry) => entry.key} />
      </section>
    </div>
  );
}

/** The previews: a list of the kinds, and the chosen one's subject, HTML (sandboxed, no scripts) and text. */
function Previews() {
  const [previews, setPreviews] = useState<MailPreview[]>();
  const [error, setError] = useState<string>();
  const [chosen, setChosen] = useState(0);

  async function load() {
    setError(undefined);
    try {
      setPreviews((await apiRequest<{ previews: MailPreview[] }>('GET', '/api/admin/mail/previews')).previews);
    } catch (failure) {
      setError(failureMessage(failure, 'The previews could not be made.'));
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once, when the tab opens; load() is redefined on every render
  useEffect(() => {
    void load();
  }, []);

  const preview = previews?.[chosen];
  return (
    <section aria-labelledby="mail-previews-title">
      <SectionHeader id="mail-previews-title" title="Email previews">
        Every email the site sends, with sample data, as the words in content/emails make it.
      </SectionHeader>
      {error && (
        <ErrorNote>
          {error}{' '}
          <button type="button" className="font-semibold underline" onClick={() => void load()}>
            Try again
          </button>
        </ErrorNote>
      )}
      {!previews && !error && (
        <p role="status" className={cx(stateBoxClass, 'text-sm text-muted')}>
          Making the previews…
        </p>
      )}
      {previews && preview && (
        <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)] lg:items-start">
          <nav aria-label="Emails to preview">
            <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-1">
              {previews.map((entry, index) => (
                <li key={entry.kind}>
                  <button
                    type="button"
                    aria-pressed={index === chosen}
                    onClick={() => setChosen(index)}
                    className={cx(
                      'min-h-11 w-full rounded-lg px-3 py-2 text-left text-sm font-medium',
                      index === chosen ? 'bg-brand-600 text-white' : 'border border-line bg-white text-ink-soft hover:bg-brand-50',
                    )}
                  >
                    {entry.label}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <article aria-labelledby="mail-preview-title" className={cx(cardClass, 'min-w-0 p-4 sm:p-6')}>
            <h3 id="mail-preview-title" className="text-lg font-bold">
              {preview.label}
            </h3>
            <dl className="mt-2 space-y-1 text-sm">
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold">To:</dt>
                <dd className="wrap-anywhere">{preview.to}</dd>
              </div>
              <div className="flex flex-wrap gap-x-2">
                <dt className="font-semibold">Subject:</dt>
                <dd className="wrap-anywhere">{preview.subject}</dd>
              </div>
            </dl>
            <h4 className="mt-4 text-sm font-semibold">HTML part</h4>
            {/* An empty sandbox: the email's HTML runs no script and reaches nothing of the admin page. */}
            <iframe
              key={preview.kind}
              sandbox=""
              srcDoc={preview.html}
              title={`${preview.label}: the HTML part`}
              className="mt-2 h-[28rem] w-full lg:h-[36rem] rounded-lg border border-line bg-white"
            />
            <h4 className="mt-4 text-sm font-semibold">Text part</h4>
            <pre
              className="mt-2 max-h-[28rem] overflow-auto rounded-lg border border-line bg-canvas p-3 text-xs whitespace-pre-wrap wrap-anywhere"
              tabIndex={0}
              role="region"
              aria-label={`${preview.label}: the text part`}
            >
              {preview.text}
            </pre>
          </article>
        </div>
      )}
      {previews?.length === 0 && <p className={cx(stateBoxClass, 'text-sm text-muted')}>No emails to preview.</p>}
    </section>
  );
}
