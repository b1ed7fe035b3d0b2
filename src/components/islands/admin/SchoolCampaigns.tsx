import { useCallback, useEffect, useRef, useState } from 'react';
import type { Campaign, CampaignParent, CampaignSchool, Came } from '../../../lib/schemas/admin';
import { apiRequest, failureMessage, formatDate, formatDateTime } from '../../../lib/admin-api';
import { answerLabels } from '../../../lib/school-answers';
import { buttonClass } from '../../../lib/ui';
import { EmptyState, LoadOlder, ScrollTable, tableHeadClass } from './fields';

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

function came(row: CampaignParent): string {
  if (row.came === 'parent') return `${cameLabels.parent}${row.referrer ? ` (${row.referrer})` : ''}${row.ambassadorId ? `, ambassador ${row.ambassadorId}` : ''}`;
  if (row.came === 'ambassador') return `${cameLabels.ambassador}${row.ambassadorId ? ` ${row.ambassadorId}` : ''}`;
  return cameLabels.direct;
}

/** One school opened: who wrote and how they came, the letters, the answers over time, the updates sent. */
function CampaignView({ schoolKey, onClose }: { schoolKey: string; onClose: () => void }) {
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [error, setError] = useState<string>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let live = true;
    apiRequest<Campaign>('GET', `${PATH}?key=${schoolKey}`)
      .then((found) => {
        if (!live) return;
        setCampaign(found);
        setError(undefined);
      })
      .catch((failure: unknown) => live && setError(failureMessage(failure, 'This school could not be loaded.')));
    return () => {
      live = false;
    };
  }, [schoolKey]);

  useEffect(() => {
    if (campaign) heading.current?.focus();
  }, [campaign?.school.key]);

  async function more() {
    if (!campaign?.nextCursor) return;
    try {
      const next = await apiRequest<Campaign>('GET', `${PATH}?key=${schoolKey}&cursor=${encodeURIComponent(campaign.nextCursor)}`);
      setCampaign({ ...campaign, parents: [...campaign.parents, ...next.parents], nextCursor: next.nextCursor });
    } catch (failure) {
      setError(failureMessage(failure, 'More parents could not be loaded.'));
    }
  }

  if (error) return <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{error}</p>;
  if (!campaign) return <p className="text-sm text-muted" role="status">Loading the school…</p>;
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
            {school.contactAddress} · {school.parents} {school.parents === 1 ? 'parent' : 'parents'} · {school.emails} {school.emails === 1 ? 'email' : 'emails'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a className={buttonClass('secondary', 'sm')} href={`${PATH}?key=${school.key}&format=csv`} download>
            Download CSV
          </a>
          <button type="button" className={buttonClass('secondary', 'sm')} onClick={onClose}>
            Back to all schools
          </button>
        </div>
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
        {campaign.parents.length === 0 ? (
          <EmptyState title="No confirmed emails yet" />
        ) : (
          <ScrollTable label={`Parents who wrote to ${school.schoolName}`} minWidth="min-w-[48rem]">
            <thead className={tableHeadClass}>
              <tr>
                <th scope="col" className="px-4 py-3">Parent</th>
                <th scope="col" className="px-4 py-3">How they came</th>
                <th scope="col" className="px-4 py-3">Sent</th>
                <th scope="col" className="px-4 py-3">Letter</th>
                <th scope="col" className="px-4 py-3">Answer</th>
                <th scope="col" className="px-4 py-3">Updates sent</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {campaign.parents.map((row) => (
                <tr key={row.messageId}>
                  <th scope="row" className="px-4 py-3 font-medium">
                    {row.parent || <span className="text-muted">Deleted</span>}
                  </th>
                  <td className="px-4 py-3">{came(row)}</td>
                  <td className="px-4 py-3">
                    {formatDateTime(row.sentAt)} <span className="text-muted">({row.channel === 'platform' ? 'platform' : 'sent themselves'})</span>
                  </td>
                  <td className="px-4 py-3">{row.letterId ?? <span className="text-muted">—</span>}</td>
                  <td className="px-4 py-3">{row.answer ? answerLabels[row.answer] : <span className="text-muted">None yet</span>}</td>
                  <td className="px-4 py-3 tabular-nums">{row.updatesSent}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        {campaign.nextCursor && <LoadOlder onClick={() => void more()}>Load more parents</LoadOlder>}
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
  const [schools, setSchools] = useState<CampaignSchool[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<string>();
  const opener = useRef<string | undefined>(undefined);

  const load = useCallback(async (cursor?: string) => {
    try {
      const page = await apiRequest<{ schools: CampaignSchool[]; nextCursor?: string }>('GET', `${PATH}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      setSchools((current) => (cursor && current ? [...current, ...page.schools] : page.schools));
      setNextCursor(page.nextCursor);
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure, 'The schools could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  function close() {
    const key = opener.current;
    setOpen(undefined);
    requestAnimationFrame(() => document.getElementById(`open-school-${key}`)?.focus());
  }

  return (
    <section aria-labelledby="campaigns-title" className="mt-8">
      <h3 id="campaigns-title" className="mb-1 text-lg font-bold">
        School campaigns
      </h3>
      <p className="mb-4 text-sm text-muted">Each school page: open one to see who wrote and how they came, the letters, the answers and the updates sent.</p>
      {open ? (
        <CampaignView schoolKey={open} onClose={close} />
      ) : (
        <>
          {error && <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">{error}</p>}
          {!schools && !error && <p className="text-sm text-muted" role="status">Loading the schools…</p>}
          {schools?.length === 0 && <EmptyState title="No school pages yet">A school gets its page when the first parent’s email to it is confirmed.</EmptyState>}
          {schools && schools.length > 0 && (
            <ScrollTable label="School pages" minWidth="min-w-[32rem]">
              <thead className={tableHeadClass}>
                <tr>
                  <th scope="col" className="px-4 py-3">School</th>
                  <th scope="col" className="px-4 py-3">Parents</th>
                  <th scope="col" className="px-4 py-3">Last written to</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Open</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {schools.map((school) => (
                  <tr key={school.key}>
                    <th scope="row" className="px-4 py-3 font-medium">{school.schoolName}</th>
                    <td className="px-4 py-3 tabular-nums">{school.parents}</td>
                    <td className="px-4 py-3">{formatDateTime(school.updatedAt)}</td>
                    <td className="px-4 py-3 text-right">
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
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )}
          {nextCursor && <LoadOlder onClick={() => void load(nextCursor)}>Load more schools</LoadOlder>}
        </>
      )}
    </section>
  );
}
