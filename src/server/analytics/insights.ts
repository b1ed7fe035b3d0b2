/**
 * The Insights tab's figures for a period (from the site's launch by default): the funnel from a
 * visit to the school's answer with the rate between steps, per-day lines, shares by channel,
 * answers by kind, and breakdowns by page, source, campaign, letter, ambassador, school page and
 * experiment variant. Everything is read from the daily roll-up (and the day or two not yet
 * rolled), so the cost follows the number of days and values, never the number of events.
 *
 * Counts: "visited" is visitors (distinct per day, added up over days); every other step is its
 * events, each one a parent's own action, counted once per draft.
 */
import { breakdowns, funnelSteps, type Insights } from '../../lib/shared/analytics/events';
import { csvCell } from '../staff/audit';
import { localeTags, type Locale } from '../../config/locales';
import { query, queryOne, sql } from '../db';
import { dailyFigures, periodTotals, topValues, type DailyFigure } from './rollup';
import { emailFormKinds } from './record';
import { dayOf } from './visitor';

const stepEvents = ['page_view', 'draft', 'send_request', 'confirmed', 'delivered', 'answer'] as const;
const BREAKDOWN_ROWS = 25;

/** The first day anything was counted: the site's launch, as far as the figures go. */
export async function firstDay(): Promise<string | undefined> {
  const row = await queryOne<{ day: string | null }>(sql`
    SELECT least((SELECT min(day) FROM analytics_daily), (SELECT min(day) FROM analytics_events))::text AS day`);
  return row?.day ?? undefined;
}

const sum = (rows: Array<Omit<DailyFigure, 'day'>>, name: string, field: 'events' | 'visitors') =>
  rows.filter((row) => row.name === name).reduce((total, row) => total + row[field], 0);

/** Names for the values of a breakdown: a school page's school, an ambassador's name, a language's own. */
async function labels(dimension: string, values: string[]): Promise<Map<string, string>> {
  if (values.length === 0) return new Map();
  if (dimension === 'school') {
    const rows = await query<{ key: string; school_name: string }>(sql`SELECT key, school_name FROM school_pages WHERE key = ANY(${values}::text[])`);
    return new Map(rows.map((row) => [row.key, row.school_name]));
  }
  if (dimension === 'ambassador') {
    const rows = await query<{ id: string; name: string }>(sql`SELECT id, name FROM ambassadors WHERE id = ANY(${values}::text[])`);
    return new Map(rows.map((row) => [row.id, `${row.name} (${row.id})`]));
  }
  if (dimension === 'variant') {
    const ids = [...new Set(values.map((value) => value.split(':')[0]!))];
    const rows = await query<{ id: string; name: string }>(sql`SELECT id, name FROM experiments WHERE id = ANY(${ids}::text[])`);
    const names = new Map(rows.map((row) => [row.id, row.name]));
    return new Map(values.map((value) => [value, `${names.get(value.split(':')[0]!) ?? value.split(':')[0]}: ${value.split(':')[1] ?? ''}`]));
  }
  if (dimension === 'language') return new Map(values.map((value) => [value, localeTags[value as Locale]?.name ?? value]));
  return new Map();
}

/** The figures for `from`..`to` (YYYY-MM-DD, both included); `from` defaults to the launch, `to` to today. */
export async function insights(period: { from?: string; to?: string }, now = new Date()): Promise<Insights> {
  const to = period.to ?? dayOf(now);
  const from = period.from ?? (await firstDay()) ?? to;
  const [all, kinds] = await Promise.all([
    dailyFigures({ from, to, names: stepEvents, dimension: 'all' }),
    periodTotals({ from, to, names: ['form_start', 'share', 'answer'], dimension: 'kind' }),
  ]);
  const counts: Record<string, number> = {
    page_view: sum(all, 'page_view', 'visitors'),
    // What a browser's beacon reports (a form started, a share) counts once per visitor a day, as
    // page views do: a machine repeating it is then held to its network's 30 visitors (issue 46).
    form_start: kinds.filter((row) => row.name === 'form_start' && emailFormKinds.includes(row.value)).reduce((total, row) => total + row.visitors, 0),
  };
  for (const name of stepEvents.slice(1)) counts[name] = sum(all, name, 'events');
  const funnel = funnelSteps.map((step, index) => {
    const count = counts[step.event] ?? 0;
    const before = index > 0 ? (counts[funnelSteps[index - 1]!.event] ?? 0) : undefined;
    return { key: step.key, label: step.label, count, rate: before === undefined ? null : before > 0 ? count / before : null };
  });

  const dayList: string[] = [];
  for (let at = new Date(`${from}T00:00:00Z`); dayOf(at) <= to && dayList.length < 800; at = new Date(at.getTime() + 24 * 3600_000)) dayList.push(dayOf(at));
  const days = dayList.map((day) => {
    const rows = all.filter((row) => row.day === day);
    return {
      day,
      visitors: sum(rows, 'page_view', 'visitors'),
      drafts: sum(rows, 'draft', 'events'),
      confirmed: sum(rows, 'confirmed', 'events'),
      delivered: sum(rows, 'delivered', 'events'),
      answers: sum(rows, 'answer', 'events'),
    };
  });

  const byKind = (name: string, measure: 'events' | 'visitors') => {
    const totals = new Map<string, number>();
    for (const row of kinds.filter((candidate) => candidate.name === name)) totals.set(row.value, (totals.get(row.value) ?? 0) + row[measure]);
    return [...totals].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count);
  };

  const breakdownTables = await Promise.all(
    breakdowns.map(async ({ dimension, label }) => {
      const top = await topValues({ from, to, dimension, limit: BREAKDOWN_ROWS });
      const names = await labels(
        dimension,
        top.map((row) => row.value),
      );
      return { dimension, label, rows: top.map((row) => ({ ...row, label: names.get(row.value) ?? row.value })) };
    }),
  );

  return {
    from,
    to,
    funnel,
    days,
    shares: byKind('share', 'visitors').map(({ kind, count }) => ({ channel: kind, count })),
    answers: byKind('answer', 'events'),
    breakdowns: breakdownTables,
  };
}

const percent = (rate: number | null) => (rate === null ? '' : `${Math.round(rate * 1000) / 10}%`);

/** What the tab shows, as a CSV: one block per table, a blank line between them. */
export function insightsCsv(figures: Insights): string {
  const block = (title: string, header: string[], rows: Array<Array<string | number>>) =>
    [[title], header, ...rows].map((row) => row.map((cell) => csvCell(String(cell))).join(',')).join('\r\n');
  const blocks = [
    block(
      `Funnel ${figures.from} to ${figures.to}`,
      ['step', 'count', 'rate from previous step'],
      figures.funnel.map((step) => [step.label, step.count, percent(step.rate)]),
    ),
    block(
      'Per day',
      ['day', 'visitors', 'forms sent', 'confirmed', 'delivered', 'answers'],
      figures.days.map((day) => [day.day, day.visitors, day.drafts, day.confirmed, day.delivered, day.answers]),
    ),
    block(
      'Shares',
      ['channel', 'shares'],
      figures.shares.map((share) => [share.channel, share.count]),
    ),
    block(
      'Answers',
      ['kind', 'answers'],
      figures.answers.map((answer) => [answer.kind, answer.count]),
    ),
    ...figures.breakdowns.map((table) =>
      block(
        `By ${table.label.toLowerCase()}`,
        [table.label.toLowerCase(), 'visitors', 'forms sent', 'confirmed', 'delivered', 'answers'],
        table.rows.map((row) => [row.label, row.visitors, row.drafts, row.confirmed, row.delivered, row.answers]),
      ),
    ),
  ];
  return `${blocks.join('\r\n\r\n')}\r\n`;
}
