import { useCallback, useEffect, useId, useState, type SubmitEvent, type ReactNode } from 'react';
import type { Insights } from '../../../lib/shared/analytics/events';
import { apiRequest, failureMessage } from '../../../lib/browser/admin-api';
import { buttonClass } from '../../../lib/shared/ui';
import { AmbassadorsSection } from './AmbassadorsSection';
import { BarChart, LineChart, percent } from './charts';
import { ExperimentsSection } from './ExperimentsSection';
import { ParentWordsSection } from './ParentWordsSection';
import { ScrollTable, tableHeadClass } from './fields';

const query = (period: { from: string; to: string }, format?: 'csv') => {
  const params = new URLSearchParams();
  if (period.from) params.set('from', period.from);
  if (period.to) params.set('to', period.to);
  if (format) params.set('format', format);
  const text = params.toString();
  return `/api/admin/insights${text ? `?${text}` : ''}`;
};

const cell = 'px-3 py-2 tabular-nums';
const head = 'px-3 py-2';

/** A chart and the table of its figures, side by side on a wide screen and one above the other on a phone. */
export function ChartWithTable({ title, id, chart, table, note }: { title: string; id: string; chart: ReactNode; table: ReactNode; note?: string }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded-card border border-line bg-white p-4">
      <h3 id={id} className="text-lg font-bold">
        {title}
      </h3>
      {note && <p className="text-sm text-muted">{note}</p>}
      <div className="mt-3 grid items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <div className="min-w-0">{chart}</div>
        <div className="min-w-0">{table}</div>
      </div>
    </section>
  );
}

/**
 * Insights: what moves parents, from the first visit to the school's answer, for a period (from
 * the launch by default): the funnel, per-day lines, breakdowns, experiments, ambassadors and
 * parents' words. Counts only; nothing names a person.
 */
export function InsightsTab() {
  const [figures, setFigures] = useState<Insights | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [period, setPeriod] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState({ from: '', to: '' });
  const id = useId();

  const load = useCallback(async (current: { from: string; to: string }) => {
    setFigures(null);
    try {
      setFigures(await apiRequest<Insights>('GET', query(current)));
      setLoadError(undefined);
    } catch (error) {
      setLoadError(failureMessage(error, 'The figures could not be loaded.'));
    }
  }, []);

  useEffect(() => {
    void load(applied);
  }, [load, applied]);

  function apply(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setApplied(period);
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="mb-4">
        <h2 id={`${id}-title`} className="text-xl font-bold">
          Insights
        </h2>
        <p className="text-sm text-muted">
          From a first visit to the school’s answer. Visitors are counted without cookies (a hash of network and browser under a random salt deleted within two
          days; one network counts 30 visitors a day at most); browsers that ask not to be counted, bots and scripts are left out.
        </p>
      </div>

      <form onSubmit={apply} className="mb-2 flex flex-wrap items-end gap-3 rounded-card border border-line bg-white p-4" aria-label="Period">
        <div>
          <label htmlFor={`${id}-from`} className="block text-sm font-semibold">
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            value={period.from}
            max={period.to || undefined}
            onChange={(event) => setPeriod({ ...period, from: event.target.value })}
            className="mt-1 rounded-lg border border-line px-3 py-2 text-sm"
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="block text-sm font-semibold">
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            value={period.to}
            min={period.from || undefined}
            onChange={(event) => setPeriod({ ...period, to: event.target.value })}
            className="mt-1 rounded-lg border border-line px-3 py-2 text-sm"
          />
        </div>
        <button type="submit" className={buttonClass('primary', 'sm')}>
          Show
        </button>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={() => {
            setPeriod({ from: '', to: '' });
            setApplied({ from: '', to: '' });
          }}
        >
          Since the launch
        </button>
        <a className={buttonClass('secondary', 'sm')} href={query(applied, 'csv')} download>
          Download CSV
        </a>
      </form>

      {loadError && (
        <p role="alert" className="rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-600">
          {loadError}
        </p>
      )}
      {!figures && !loadError && (
        <p className="text-sm text-muted" role="status">
          Loading the figures…
        </p>
      )}
      {figures && <Figures figures={figures} base={id} />}

      <ExperimentsSection />
      <AmbassadorsSection />
      <ParentWordsSection />
    </section>
  );
}

function Figures({ figures, base }: { figures: Insights; base: string }) {
  const daySeries = [
    { label: 'Visitors', key: 'visitors' },
    { label: 'Forms sent', key: 'drafts' },
    { label: 'Confirmed', key: 'confirmed' },
    { label: 'Delivered', key: 'delivered' },
    { label: 'Answers', key: 'answers' },
  ] as const;
  return (
    <div>
      <p className="text-sm text-ink-soft" role="status">
        {figures.from} to {figures.to}
      </p>
      <ChartWithTable
        id={`${base}-funnel`}
        title="Funnel"
        note="Each step with the share of the step before it. Visitors, forms started and shares are counted once per visitor a day; every other step once per parent's email. Bots, browsers that ask not to be counted, and the networks of cloud and hosting companies are left out."
        chart={
          <BarChart
            label={`Funnel: ${figures.funnel.map((step) => `${step.label} ${step.count}`).join(', ')}`}
            rows={figures.funnel.map((step) => ({ label: step.label, value: step.count }))}
          />
        }
        table={
          <ScrollTable label="Funnel figures" minWidth="min-w-[22rem]">
            <thead className={tableHeadClass}>
              <tr>
                <th scope="col" className={head}>
                  Step
                </th>
                <th scope="col" className={head}>
                  Count
                </th>
                <th scope="col" className={head}>
                  From the step before
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {figures.funnel.map((step) => (
                <tr key={step.key}>
                  <th scope="row" className="px-3 py-2 font-medium">
                    {step.label}
                  </th>
                  <td className={cell}>{step.count}</td>
                  <td className={cell}>{percent(step.rate)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        }
      />
      <ChartWithTable
        id={`${base}-days`}
        title="Per day"
        chart={
          <LineChart
            label={`Per day from ${figures.from} to ${figures.to}; the figures are in the table beside it`}
            days={figures.days.map((day) => day.day)}
            series={daySeries.map((entry) => ({ label: entry.label, values: figures.days.map((day) => day[entry.key]) }))}
          />
        }
        table={
          <div className="max-h-80 overflow-y-auto">
            <ScrollTable label="Figures per day" minWidth="min-w-[30rem]">
              <thead className={tableHeadClass}>
                <tr>
                  <th scope="col" className={head}>
                    Day
                  </th>
                  {daySeries.map((entry) => (
                    <th key={entry.key} scope="col" className={head}>
                      {entry.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {[...figures.days].reverse().map((day) => (
                  <tr key={day.day}>
                    <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap">
                      {day.day}
                    </th>
                    {daySeries.map((entry) => (
                      <td key={entry.key} className={cell}>
                        {day[entry.key]}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </div>
        }
      />
      <div className="grid gap-x-4 lg:grid-cols-2 [&>*]:min-w-0">
        <KindTable
          id={`${base}-shares`}
          title="Shares by channel"
          rows={figures.shares.map((share) => ({ label: share.channel, count: share.count }))}
          empty="No shares yet."
        />
        <KindTable
          id={`${base}-answers`}
          title="Answers by kind"
          rows={figures.answers.map((answer) => ({ label: answer.kind.replaceAll('_', ' '), count: answer.count }))}
          empty="No answers yet."
        />
      </div>
      {figures.breakdowns.map((table) => (
        <ChartWithTable
          key={table.dimension}
          id={`${base}-by-${table.dimension}`}
          title={`By ${table.label.toLowerCase()}`}
          chart={
            table.rows.length ? (
              <BarChart
                label={`Confirmed sends by ${table.label.toLowerCase()}`}
                rows={table.rows.slice(0, 10).map((row) => ({ label: row.label, value: row.confirmed }))}
              />
            ) : (
              <p className="text-sm text-muted">Nothing counted in this period.</p>
            )
          }
          note="The chart shows confirmed sends; the table every step."
          table={
            <ScrollTable label={`Figures by ${table.label.toLowerCase()}`} minWidth="min-w-[32rem]">
              <thead className={tableHeadClass}>
                <tr>
                  <th scope="col" className={head}>
                    {table.label}
                  </th>
                  <th scope="col" className={head}>
                    Visitors
                  </th>
                  <th scope="col" className={head}>
                    Forms sent
                  </th>
                  <th scope="col" className={head}>
                    Confirmed
                  </th>
                  <th scope="col" className={head}>
                    Delivered
                  </th>
                  <th scope="col" className={head}>
                    Answers
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {table.rows.map((row) => (
                  <tr key={row.value}>
                    <th scope="row" className="px-3 py-2 font-medium break-words">
                      {row.label}
                    </th>
                    <td className={cell}>{row.visitors}</td>
                    <td className={cell}>{row.drafts}</td>
                    <td className={cell}>{row.confirmed}</td>
                    <td className={cell}>{row.delivered}</td>
                    <td className={cell}>{row.answers}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          }
        />
      ))}
      <p className="text-sm text-muted">
        Cloud and hosting networks are known from IP to ASN data by <a href="https://www.routeviews.org/routeviews/">RouteViews</a>, the{' '}
        <a href="https://www.nro.net/">NRO</a> and <a href="https://db-ip.com">IP Geolocation by DB-IP</a> (CC BY 4.0).
      </p>
    </div>
  );
}

function KindTable({ id, title, rows, empty }: { id: string; title: string; rows: Array<{ label: string; count: number }>; empty: string }) {
  return (
    <section aria-labelledby={id} className="mt-6 rounded-card border border-line bg-white p-4">
      <h3 id={id} className="text-lg font-bold">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{empty}</p>
      ) : (
        <div className="mt-3">
          <BarChart
            label={`${title}: ${rows.map((row) => `${row.label} ${row.count}`).join(', ')}`}
            rows={rows.map((row) => ({ label: row.label, value: row.count }))}
          />
          <ScrollTable label={title} minWidth="min-w-[16rem]">
            <thead className={tableHeadClass}>
              <tr>
                <th scope="col" className={head}>
                  Kind
                </th>
                <th scope="col" className={head}>
                  Count
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((row) => (
                <tr key={row.label}>
                  <th scope="row" className="px-3 py-2 font-medium">
                    {row.label}
                  </th>
                  <td className={cell}>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </div>
      )}
    </section>
  );
}
