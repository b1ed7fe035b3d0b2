import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import type { ExperimentResult } from '../../../lib/shared/analytics/experiment-places';
import { apiRequest, failureMessage, formatDate } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { IntervalChart, percent } from './charts';
import { ScrollTable, StatusBadge, tableHeadClass } from './fields';

interface Place {
  id: string;
  label: string;
  variants: Array<{ id: string; text: string }>;
}
interface LetterResult {
  letter: string;
  sends: number;
  answers: number;
  meetings: number;
  rate: number;
  interval: [number, number];
}
interface ExperimentsPage {
  places: Place[];
  experiments: ExperimentResult[];
  letters: LetterResult[];
}

const cell = 'px-3 py-2 tabular-nums';
const head = 'px-3 py-2';
const interval = (range: [number, number]) => `${percent(range[0])} – ${percent(range[1])}`;
const points = (value: number) => `${value >= 0 ? '+' : '−'}${(Math.abs(value) * 100).toFixed(1)} pts`;
const difference = (range: [number, number] | null) => (range ? `${points(range[0])} to ${points(range[1])}` : '—');
const against = { better: 'Better than the control', worse: 'Worse than the control', same_so_far: 'No difference yet' } as const;

/** The experiment's verdict in words: too early, a broken split, no difference yet, or its winner. */
function verdictText(experiment: ExperimentResult): string {
  const verdict = experiment.verdict;
  if (verdict.kind === 'collecting') {
    const needs = [
      verdict.unitsNeeded > 0 ? `${verdict.unitsNeeded} more visitors in the variant with fewest` : '',
      verdict.conversionsNeeded > 0 ? `${verdict.conversionsNeeded} more ${experiment.goal === 'share' ? 'shares' : 'confirmed sends'}` : '',
    ].filter(Boolean);
    return `Too early for a verdict: it needs ${needs.join(' and ')} (at least ${experiment.minimum.units} visitors per variant and ${experiment.minimum.conversions} in all).`;
  }
  if (verdict.kind === 'sample_ratio_mismatch')
    return 'Warning: the visitors are not split between the variants as the draw splits them (sample-ratio mismatch). Something counts or draws wrongly, or the figures are forged: read nothing into them until it is found.';
  if (verdict.kind === 'winner')
    return `Verdict: ${verdict.winner} is best (decided on ${verdict.day}); it stays valid however often the figures were looked at.`;
  return 'No difference yet. Looking every day is fine: a verdict appears only once the evidence holds.';
}

/**
 * Experiments: start an A/B(/n) test of a place's words, watch each variant's visitors and goal
 * with comparisons that stay valid however often they are looked at (always-valid sequential
 * intervals, corrected for the number of variants, after a minimum sample; expected loss beside
 * them), and end it by choosing the winner. The letters are shown side by side: observational.
 */
export function ExperimentsSection() {
  const [page, setPage] = useState<ExperimentsPage | null>(null);
  const [error, setError] = useState<string>();
  const [form, setForm] = useState({ place: '', name: '' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string>();
  const id = useId();

  const load = useCallback(async () => {
    try {
      const loaded = await apiRequest<ExperimentsPage>('GET', '/api/admin/experiments');
      setPage(loaded);
      setForm((current) => ({ ...current, place: current.place || loaded.places[0]?.id || '' }));
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure, 'The experiments could not be loaded.'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function start(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setMessage(undefined);
    try {
      await apiRequest('POST', '/api/admin/experiments', { place: form.place, name: form.name });
      setMessage('The experiment has started.');
      setForm({ ...form, name: '' });
      await load();
    } catch (failure) {
      setError(failureMessage(failure, 'The experiment could not be started.'));
    } finally {
      setBusy(false);
    }
  }

  async function end(experiment: string, winner: string) {
    setError(undefined);
    try {
      await apiRequest('POST', `/api/admin/experiments/${encodeURIComponent(experiment)}/end`, { winner });
      setMessage(`The experiment has ended; “${winner}” is now shown to everyone.`);
      await load();
    } catch (failure) {
      setError(failureMessage(failure, 'The experiment could not be ended.'));
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="mt-10">
      <h2 id={`${id}-title`} className="text-xl font-bold">
        Experiments
      </h2>
      <p className="text-sm text-muted">
        Each visitor is drawn one variant for the day, counted by the server as it shows it (a link never chooses it). Look as often as you like: a verdict
        appears only once the evidence holds, after a minimum sample, corrected for the number of variants.
      </p>
      {error && (
        <p role="alert" className="mt-2 rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
          {error}
        </p>
      )}
      {message && (
        <p role="status" className="mt-2 text-sm font-medium text-success-600">
          {message}
        </p>
      )}
      {page && (
        <form onSubmit={start} className="mt-3 flex flex-wrap items-end gap-3 rounded-card border border-line bg-white p-4" aria-label="Start an experiment">
          <div>
            <label htmlFor={`${id}-place`} className="block text-sm font-semibold">
              Place
            </label>
            <select
              id={`${id}-place`}
              value={form.place}
              onChange={(event) => setForm({ ...form, place: event.target.value })}
              className="mt-1 max-w-72 rounded-lg border border-line px-3 py-2 text-sm"
            >
              {page.places.map((place) => (
                <option key={place.id} value={place.id}>
                  {place.label} ({place.variants.length} variants)
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-name`} className="block text-sm font-semibold">
              Name
            </label>
            <input
              id={`${id}-name`}
              required
              maxLength={120}
              value={form.name}
              onChange={(event) => setForm({ ...form, name: event.target.value })}
              className="mt-1 rounded-lg border border-line px-3 py-2 text-sm"
            />
          </div>
          <button type="submit" className={buttonClass('primary', 'sm')} disabled={busy}>
            {busy ? 'Starting…' : 'Start the experiment'}
          </button>
        </form>
      )}
      {page?.experiments.map((experiment) => (
        <ExperimentCard key={experiment.id} experiment={experiment} onEnd={end} />
      ))}
      {page && page.letters.length > 0 && (
        <section aria-labelledby={`${id}-letters`} className="mt-6 rounded-card border border-line bg-white p-4">
          <h3 id={`${id}-letters`} className="text-lg font-bold">
            Letters
          </h3>
          <p className="text-sm text-muted">
            Each letter of the school email: sends delivered, answers (any but “no answer”) and meetings. Observational, not an experiment: parents choose their
            letter, so a difference may come from who chose it rather than from the letter.
          </p>
          <div className="mt-3 grid items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
            <IntervalChart
              label="Answer rate of each letter with its 95% credible interval; the figures are in the table beside it"
              rows={page.letters.map((letter) => ({ label: letter.letter.slice(0, 22), rate: letter.rate, interval: letter.interval }))}
            />
            <ScrollTable label="Letters compared" minWidth="min-w-[34rem]">
              <thead className={tableHeadClass}>
                <tr>
                  <th scope="col" className={head}>
                    Letter
                  </th>
                  <th scope="col" className={head}>
                    Sends
                  </th>
                  <th scope="col" className={head}>
                    Answers
                  </th>
                  <th scope="col" className={head}>
                    Meetings
                  </th>
                  <th scope="col" className={head}>
                    Answer rate (95% interval)
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {page.letters.map((letter) => (
                  <tr key={letter.letter}>
                    <th scope="row" className="px-3 py-2 font-medium">
                      {letter.letter}
                    </th>
                    <td className={cell}>{letter.sends}</td>
                    <td className={cell}>{letter.answers}</td>
                    <td className={cell}>{letter.meetings}</td>
                    <td className={cell}>
                      {percent(letter.rate)} ({interval(letter.interval)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </div>
        </section>
      )}
    </section>
  );
}

function ExperimentCard({ experiment, onEnd }: { experiment: ExperimentResult; onEnd: (id: string, winner: string) => Promise<void> }) {
  const [winner, setWinner] = useState(experiment.variants[0]?.id ?? '');
  const id = useId();
  return (
    <section aria-labelledby={`${id}-name`} className="mt-6 rounded-card border border-line bg-white p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${id}-name`} className="text-lg font-bold">
          {experiment.name}
        </h3>
        <StatusBadge tone={experiment.state === 'running' ? 'brand' : 'neutral'}>
          {experiment.state === 'running' ? 'Running' : `Ended: ${experiment.winner} won`}
        </StatusBadge>
      </div>
      <p className="text-sm text-muted">
        {experiment.placeLabel}. Started {formatDate(experiment.startedAt)}
        {experiment.endedAt ? `, ended ${formatDate(experiment.endedAt)}` : ''}. Goal:{' '}
        {experiment.goal === 'share' ? 'the parent who saw the words shared them' : 'a confirmed send'}.
      </p>
      <p
        className={`mt-2 rounded-lg px-3 py-2 text-sm ${experiment.verdict.kind === 'sample_ratio_mismatch' ? 'bg-red-50 font-semibold text-red-800' : 'bg-brand-50 text-ink'}`}
        data-verdict={experiment.verdict.kind}
      >
        {verdictText(experiment)}
      </p>
      <div className="mt-3 grid items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <IntervalChart
          label={`${experiment.goal === 'share' ? 'Share' : 'Confirmed-send'} rate of each variant of ${experiment.name} with its 95% credible interval; the figures are in the table beside it`}
          rows={experiment.variants.map((variant) => ({ label: variant.id, rate: variant.rate, interval: variant.interval }))}
        />
        <ScrollTable label={`Variants of ${experiment.name}`} minWidth="min-w-[48rem]">
          <thead className={tableHeadClass}>
            <tr>
              <th scope="col" className={head}>
                Variant
              </th>
              <th scope="col" className={head}>
                Visitors
              </th>
              <th scope="col" className={head}>
                {experiment.goal === 'share' ? 'Shared' : 'Confirmed sends'}
              </th>
              <th scope="col" className={head}>
                Rate (95% interval)
              </th>
              <th scope="col" className={head}>
                Against the control (always-valid interval)
              </th>
              <th scope="col" className={head}>
                Expected loss
              </th>
              {experiment.goal === 'share' && (
                <>
                  <th scope="col" className={head}>
                    Visits from its links
                  </th>
                  <th scope="col" className={head}>
                    Drafts from its links
                  </th>
                </>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {experiment.variants.map((variant, index) => (
              <tr key={variant.id}>
                <th scope="row" className="max-w-64 px-3 py-2 text-left font-medium">
                  {variant.id}
                  {index === 0 ? ' (control)' : ''}
                  <span className="block text-xs font-normal text-muted">{variant.text}</span>
                </th>
                <td className={cell}>{variant.visitors}</td>
                <td className={cell}>{variant.conversions}</td>
                <td className={cell}>
                  {percent(variant.rate)} ({interval(variant.interval)})
                </td>
                <td className={cell}>
                  {index === 0 ? '—' : variant.against ? `${against[variant.against]} (${difference(variant.difference)})` : 'Too early'}
                </td>
                <td className={cell}>{(variant.expectedLoss * 100).toFixed(2)} pts</td>
                {experiment.goal === 'share' && (
                  <>
                    <td className={cell}>{variant.linkVisits ?? 0}</td>
                    <td className={cell}>{variant.linkDrafts ?? 0}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      </div>
      {experiment.state === 'running' && (
        <form
          className="mt-3 flex flex-wrap items-end gap-3"
          aria-label={`End ${experiment.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            void onEnd(experiment.id, winner);
          }}
        >
          <div>
            <label htmlFor={`${id}-winner`} className="block text-sm font-semibold">
              Winner
            </label>
            <select
              id={`${id}-winner`}
              value={winner}
              onChange={(event) => setWinner(event.target.value)}
              className="mt-1 rounded-lg border border-line px-3 py-2 text-sm"
            >
              {experiment.variants.map((variant) => (
                <option key={variant.id} value={variant.id}>
                  {variant.id}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonClass('secondary', 'sm')}>
            End and show the winner to everyone
          </button>
        </form>
      )}
    </section>
  );
}
