import { useEffect, useRef, useState } from 'react';
import type { Campaign, CampaignParent, CampaignSchool, Came } from '../../../lib/shared/schemas/admin';
import { apiRequest, failureMessage, formatDate, formatDateTime } from '../../../lib/browser/admin-api';
import { answerLabels } from '../../../lib/shared/answer-kinds';
import { buttonClass } from '../../../lib/shared/ui';
import { AdminList, useKeysetList, withCursor, type AdminColumn, type AdminListText } from './AdminList';
import { ErrorNote } from './fields';

const cameLabels: Record<Came, string> = { direct: 'Direct', parent: 'Shared by another parent', ambassador: 'Ambassador' };
const updateLabels: Record<string, string> = {
  sent: 'Sent',
  pending: 'Waiting',
  capped: 'Not sent (one a week)',
  limit: 'Not sent (daily limit)',
  stopped: 'Stopped by the parent',
  gone: 'Not sent (email deleted)',
  failed: 'Failed',
};
const PATH = '/api/admin/impact/schools';
const parentsText: AdminListText = {
  loading: 'Loading the parents…',
  failure: 'More parents could not be loaded.',
  empty: 'No confirmed emails yet',
  more: 'Load more parents',
};
const schoolsText: AdminListText = {
  loading: 'Loading the schools…',
  failure: 'The schools could not be loaded.',
  empty: 'No school pages yet',
  emptyHint: 'A school gets its page when the first parent’s email to it is confirmed.',
  more: 'Load more schools',
};

function came(row: CampaignParent): string {
  if (row.came === 'parent')
    return `${cameLabels.parent}${row.referrer ? ` (${row.referrer})` : ''}${row.ambassadorId ? `, ambassador ${row.ambassadorId}` : ''}`;
  if (row.came === 'ambassador') return `${cameLabels.ambassador}${row.ambassadorId ? ` ${row.ambassadorId}` : ''}`;
  return cameLabels.direct;
}

const parentColumns: ReadonlyArray<AdminColumn<CampaignParent>> = [
  { header: 'Parent', kind: 'title', cell: (row) => row.parent || <span className="text-muted">Deleted</span> },
  { header: 'How they came', cell: came },
  {
    header: 'Sent',
    cell: (row) => (
      <>
        {formatDateTime(row.sentAt)} <span className="text-muted">({row.channel === 'platform' ? 'platform' : 'sent themselves'})</span>
      </>
    ),
  },
  { header: 'Letter', cell: (row) => row.letterId ?? <span className="text-muted">—</span> },
  { header: 'Answer', cell: (row) => (row.answer ? answerLabels[row.answer] : <span className="text-muted">None yet</span>) },
  { header: 'Updates sent', cell: (row) => row.updatesSent, className: 'tabular-nums' },
];

/** One school opened: who wrote and how they came, the letters, the answers over time, the updates sent. */
function CampaignView({ schoolKey, onClose }: { schoolKey: string; onClose: () => void }) {
  const path = `${PATH}?key=${schoolKey}`;
  // The first page carries the whole campaign; the next ones add parents.
  const parents = useKeysetList(path, async (cursor) => {
    const found = await apiRequest<Campaign>('GET', withCursor(path, cursor));
    return { rows: found.parents, nextCursor: found.nextCursor, summary: cursor ? undefined : found };
  });
  const campaign = parents.summary;
  const heading = useRef<HTMLHeadingElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when another school opens, not on every refresh of the same one
  useEffect(() => {
    if (campaign) heading.current?.focus();
  }, [campaign?.school.key]);

  if (!campaign) {
    return parents.error ? (
      <ErrorNote>{failureMessage(parents.error, 'This school could not be loaded.')}</ErrorNote>
    ) : (
      <p className="text-sm text-muted" role="status">
        Loading the school…
      </p>
    );
  }
  const { school } = campaign;
  const updates = Object.entries(campaign.updates);
  return (
    <section aria-labelledby="campaign-title" className="space-y-6 rounded-card border border-line bg-white p-4" data-testid="school-campaign">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id="campaign-title" ref={heading} tabIndex={-1} className="text-lg font-bold">
            {school.schoolName}
          </h3>
          <p className="text-sm text-muted break-all">
            {school.contactAddress} · {school.parents} {school.parents === 1 ? 'parent' : 'parents'} · {school.emails}{' '}
            {school.emails === 1 ? 'email' : 'emails'}
          </p>
        </div>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={onClose}>
          Back to all schools
        </button>
      </div>

      <dl className="grid gap-3 sm:grid-cols-3">
        {(Object.keys(cameLabels) as Came[]).map((kind) => (
          <div key={kind} className="rounded-lg border border-line p-3">
            <dt className="text-sm text-muted">{cameLabels[kind]}</dt>
            <dd className="text-xl font-bold tabular-nums">{campaign.came[kind]}</dd>
          </div>
        ))}
      </dl>

      <div>
        <h4 className="mb-2 font-semibold">Parents who wrote</h4>
        <AdminList
          label={`Parents who wrote to ${school.schoolName}`}
          list={parents}
          rowKey={(row) => row.messageId}
          text={parentsText}
          columns={parentColumns}
          csvHref={`${PATH}?key=${school.key}&format=csv`}
        />
      </div>

      <div className="grid gap-6 md:grid-cols-3">
        <div>
          <h4 className="mb-2 font-semibold">Letters sent</h4>
          {campaign.letters.length === 0 ? (
            <p className="text-sm text-muted">None recorded.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {campaign.letters.map((letter) => (
                <li key={letter.letterId}>
                  {letter.letterId}: <span className="tabular-nums">{letter.emails}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h4 className="mb-2 font-semibold">Answers over time</h4>
          {campaign.answers.length === 0 ? (
            <p className="text-sm text-muted">No answers yet.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {campaign.answers.map((answer) => (
                <li key={`${answer.day}-${answer.kind}`}>
                  {formatDate(`${answer.day}T12:00:00Z`)}: {answerLabels[answer.kind]} × <span className="tabular-nums">{answer.count}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h4 className="mb-2 font-semibold">Updates to the other parents</h4>
          {updates.length === 0 ? (
            <p className="text-sm text-muted">None yet.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {updates.map(([state, count]) => (
                <li key={state}>
                  {updateLabels[state] ?? state}: <span className="tabular-nums">{count}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

/** The school pages, most recently written to first; each opens its campaign. */
export function SchoolCampaigns() {
  const list = useKeysetList(PATH, async (cursor) => {
    const page = await apiRequest<{ schools: CampaignSchool[]; nextCursor?: string }>('GET', withCursor(PATH, cursor));
    return { rows: page.schools, nextCursor: page.nextCursor };
  });
  const [open, setOpen] = useState<string>();
  const opener = useRef<string | undefined>(undefined);

  function close() {
    const key = opener.current;
    setOpen(undefined);
    requestAnimationFrame(() => document.getElementById(`open-school-${key}`)?.focus());
  }

  const columns: ReadonlyArray<AdminColumn<CampaignSchool>> = [
    { header: 'School', kind: 'title', cell: (school) => school.schoolName },
    { header: 'Parents', cell: (school) => school.parents, className: 'tabular-nums' },
    { header: 'Last written to', cell: (school) => formatDateTime(school.updatedAt) },
    {
      header: 'Open',
      kind: 'actions',
      hideHeader: true,
      className: 'lg:text-right',
      cell: (school) => (
        <button
          type="button"
          id={`open-school-${school.key}`}
          className={buttonClass('secondary', 'sm')}
          onClick={() => {
            opener.current = school.key;
            setOpen(school.key);
          }}
        >
          Open<span className="sr-only"> {school.schoolName}</span>
        </button>
      ),
    },
  ];

  return (
    <section aria-labelledby="campaigns-title" className="mt-8">
      <h3 id="campaigns-title" className="mb-1 text-lg font-bold">
        School campaigns
      </h3>
      <p className="mb-4 text-sm text-muted">Each school page: open one to see who wrote and how they came, the letters, the answers and the updates sent.</p>
      {open ? (
        <CampaignView schoolKey={open} onClose={close} />
      ) : (
        <AdminList label="School pages" list={list} rowKey={(school) => school.key} text={schoolsText} columns={columns} />
      )}
    </section>
  );
}
