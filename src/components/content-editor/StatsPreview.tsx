/**
 * The statistics preview of the content editor: every statistic as the card its band shows
 * (src/components/sections/StatsBand.astro), band by band, on the band's background. The wide
 * right padding keeps the cards clear of the buttons Decap floats over the preview's top right.
 */
import { formatCount, decimalsOf } from '../../lib/shared/counter';
import { cx } from '../../lib/shared/ui';
import { LIST_FIELD } from '../../lib/shared/content-editor/list-field';
import { plain, type PreviewProps } from './previewTypes';

interface Stat {
  id?: string;
  group?: string;
  target?: number | string;
  text?: string;
  prefix?: string;
  suffix?: string;
  label?: string;
  source?: string;
  order?: number;
}

/** The bands, as the pages show them: title, background and columns. */
const bands = [
  { group: 'home-stats', title: 'Home page: statistics', tone: 'light', columns: 3 },
  { group: 'home-results', title: 'Home page: results', tone: 'dark', columns: 3 },
  { group: 'why-results', title: 'Why This Matters: results', tone: 'dark', columns: 4 },
] as const;

function figure(stat: Stat): string {
  const prefix = stat.prefix ?? '';
  const suffix = stat.suffix ?? '';
  const target = typeof stat.target === 'string' ? Number(stat.target) : stat.target;
  if (target === undefined || stat.target === '' || Number.isNaN(target)) return `${prefix}${stat.text ?? ''}${suffix}`;
  return formatCount(target, prefix, suffix, decimalsOf(target));
}

function StatCard({ stat, tone }: { stat: Stat; tone: 'light' | 'dark' }) {
  const dark = tone === 'dark';
  return (
    <li
      className={cx('rounded-card p-6', dark ? 'bg-white/10 text-white ring-1 ring-white/15' : 'border border-line bg-white shadow-card')}
      data-stat={stat.id}
    >
      <p className={cx('text-4xl font-extrabold tracking-tight sm:text-5xl', dark ? 'text-accent-400' : 'text-brand-600')}>{figure(stat)}</p>
      <p className={cx('mt-2 text-base', dark ? 'text-brand-100' : 'text-ink-soft')}>{stat.label}</p>
      {stat.source && <p className={cx('mt-2 text-xs', dark ? 'text-brand-100' : 'text-muted')}>Source: {stat.source}</p>}
    </li>
  );
}

export function StatsPreview({ entry }: PreviewProps) {
  const stats = plain<Stat[]>(entry.getIn(['data', LIST_FIELD])) ?? [];
  return (
    <main data-preview="stats">
      {bands.map((band) => {
        const shown = stats.filter((stat) => stat.group === band.group).sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0));
        const dark = band.tone === 'dark';
        return (
          <section
            key={band.group}
            aria-labelledby={`preview-${band.group}`}
            className={cx('py-section pl-4 pr-16', dark ? 'bg-brand-900 text-white' : 'bg-canvas')}
          >
            <div className="mx-auto max-w-6xl">
              <h2 id={`preview-${band.group}`} className="text-title font-extrabold tracking-tight">
                {band.title}
              </h2>
              <ul className={cx('mt-10 grid gap-4 sm:grid-cols-2', band.columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3')}>
                {shown.map((stat, index) => (
                  <StatCard key={`${stat.id ?? ''}-${index}`} stat={stat} tone={band.tone} />
                ))}
              </ul>
            </div>
          </section>
        );
      })}
    </main>
  );
}
