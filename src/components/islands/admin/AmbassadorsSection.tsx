import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import { apiRequest, failureMessage, formatDate } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { ScrollTable, tableHeadClass } from './fields';

interface Ambassador {
  id: string;
  name: string;
  email: string;
  parents: number;
  delivered: number;
  schoolsReached: number;
  answers: number;
}
interface Stalled {
  key: string;
  schoolName: string;
  parents: number;
  lastLetterAt: string;
  reason: 'no_new_letter' | 'no_answer';
}

const cell = 'px-3 py-2 tabular-nums';
const head = 'px-3 py-2';
const reasons = { no_new_letter: 'No new letter in 14 days', no_answer: 'No answer after 21 days' } as const;

/**
 * Ambassadors: the known ambassadors (staff add them; only these ids count on a link), their
 * leaderboard and a "Copy link" to each one's own page; and the stalled schools to act on.
 */
export function AmbassadorsSection() {
  const [list, setList] = useState<{ ambassadors: Ambassador[]; stalled: Stalled[] } | null>(null);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [form, setForm] = useState({ id: '', name: '', email: '' });
  const [link, setLink] = useState<{ id: string; url: string }>();
  const id = useId();

  const load = useCallback(async () => {
    try {
      setList(await apiRequest('GET', '/api/admin/ambassadors'));
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure, 'The ambassadors could not be loaded.'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function add(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus(undefined);
    try {
      await apiRequest('POST', '/api/admin/ambassadors', form);
      setStatus(`${form.name} was added.`);
      setForm({ id: '', name: '', email: '' });
      setError(undefined);
      await load();
    } catch (failure) {
      setError(failureMessage(failure, 'The ambassador could not be added.'));
    }
  }

  async function copyLink(ambassador: Ambassador) {
    try {
      const { url } = await apiRequest<{ url: string }>('POST', `/api/admin/ambassadors/${encodeURIComponent(ambassador.id)}/link`);
      setLink({ id: ambassador.id, url });
      await navigator.clipboard?.writeText(url).catch(() => undefined);
      setStatus(`The link to ${ambassador.name}’s page is below (and copied where the browser allows).`);
    } catch (failure) {
      setError(failureMessage(failure, 'The link could not be made.'));
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="mt-10">
      <h2 id={`${id}-title`} className="text-xl font-bold">
        Ambassadors
      </h2>
      <p className="text-sm text-muted">Only ambassadors on this list are credited for the parents their links bring.</p>
      {error && (
        <p role="alert" className="mt-2 rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
          {error}
        </p>
      )}
      {status && (
        <p role="status" className="mt-2 text-sm font-medium text-success-600">
          {status}
        </p>
      )}
      {link && (
        <div className="mt-2">
          <label htmlFor={`${id}-link`} className="block text-sm font-semibold">
            Link to {link.id}’s page
          </label>
          <input
            id={`${id}-link`}
            readOnly
            value={link.url}
            className="mt-1 w-full rounded-lg border border-line bg-white px-3 py-2 text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      )}
      <form onSubmit={add} className="mt-3 flex flex-wrap items-end gap-3 rounded-card border border-line bg-white p-4" aria-label="Add an ambassador">
        {(
          [
            ['id', 'Id (as in their links)', 'text'],
            ['name', 'Name', 'text'],
            ['email', 'Email', 'email'],
          ] as const
        ).map(([name, label, type]) => (
          <div key={name}>
            <label htmlFor={`${id}-${name}`} className="block text-sm font-semibold">
              {label}
            </label>
            <input
              id={`${id}-${name}`}
              type={type}
              required
              value={form[name]}
              onChange={(event) => setForm({ ...form, [name]: event.target.value })}
              className="mt-1 rounded-lg border border-line px-3 py-2 text-sm"
            />
          </div>
        ))}
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Add the ambassador
        </button>
      </form>
      {list && (
        <div className="mt-4">
          <ScrollTable label="Ambassadors, most confirmed parents first" minWidth="min-w-[44rem]">
            <thead className={tableHeadClass}>
              <tr>
                <th scope="col" className={head}>
                  Ambassador
                </th>
                <th scope="col" className={head}>
                  Parents brought (confirmed)
                </th>
                <th scope="col" className={head}>
                  Letters delivered
                </th>
                <th scope="col" className={head}>
                  Schools reached
                </th>
                <th scope="col" className={head}>
                  Answers
                </th>
                <th scope="col" className={head}>
                  <span className="sr-only">Link</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {list.ambassadors.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-3 py-3 text-sm text-muted">
                    No ambassadors yet.
                  </td>
                </tr>
              )}
              {list.ambassadors.map((ambassador) => (
                <tr key={ambassador.id}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {ambassador.name}{' '}
                    <span className="block text-xs font-normal text-muted">
                      {ambassador.id} · {ambassador.email}
                    </span>
                  </th>
                  <td className={cell}>{ambassador.parents}</td>
                  <td className={cell}>{ambassador.delivered}</td>
                  <td className={cell}>{ambassador.schoolsReached}</td>
                  <td className={cell}>{ambassador.answers}</td>
                  <td className="px-3 py-2">
                    <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => void copyLink(ambassador)}>
                      Copy link<span className="sr-only"> to {ambassador.name}’s page</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
          <h3 className="mt-6 text-lg font-bold">Stalled schools</h3>
          <p className="text-sm text-muted">School pages with parents but no new letter in 14 days, or no answer 21 days after the first letter.</p>
          <div className="mt-2">
            <ScrollTable label="Stalled schools" minWidth="min-w-[36rem]">
              <thead className={tableHeadClass}>
                <tr>
                  <th scope="col" className={head}>
                    School
                  </th>
                  <th scope="col" className={head}>
                    Parents
                  </th>
                  <th scope="col" className={head}>
                    Last letter
                  </th>
                  <th scope="col" className={head}>
                    Why
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {list.stalled.length === 0 && (
                  <tr>
                    <td colSpan={4} className="px-3 py-3 text-sm text-muted">
                      No school has stalled.
                    </td>
                  </tr>
                )}
                {list.stalled.map((school) => (
                  <tr key={school.key}>
                    <th scope="row" className="px-3 py-2 text-left font-medium">
                      <a className="text-brand-700 underline" href={`/schools/${school.key}`}>
                        {school.schoolName}
                      </a>
                    </th>
                    <td className={cell}>{school.parents}</td>
                    <td className={cell}>{formatDate(school.lastLetterAt)}</td>
                    <td className="px-3 py-2">{reasons[school.reason]}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </div>
        </div>
      )}
    </section>
  );
}
