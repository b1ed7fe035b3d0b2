/**
 * The Insights tab's charts: SVG drawn by React with d3-scale and d3-shape (the two small,
 * maintained parts of D3 that compute scales and paths; about 12 KB minified and gzipped together
 * in the admin bundle, and only once the tab is opened). Each chart is an image with a short label;
 * its figures are always in the table beside it, which is what screen readers read.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';

/** A rate as the Insights tab writes it (one decimal), or a dash for none. */
export const percent = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 1000) / 10}%`);

export const seriesColours = ['#2453d6', '#c2560a', '#15803d', '#7c3aed', '#b91c1c'] as const;

interface LineSeries {
  label: string;
  values: number[];
}

/** Lines over days, with a few day labels and a value axis; `days` are YYYY-MM-DD. */
export function LineChart({ days, series, label }: { days: string[]; series: LineSeries[]; label: string }) {
  const width = 480;
  const height = 220;
  const margin = { top: 12, right: 12, bottom: 28, left: 40 };
  const max = Math.max(1, ...series.flatMap((entry) => entry.values));
  const x = scaleLinear()
    .domain([0, Math.max(1, days.length - 1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([height - margin.bottom, margin.top]);
  const path = line<number>()
    .x((_, index) => x(index))
    .y((value) => y(value));
  const step = Math.max(1, Math.ceil(days.length / 6));
  return (
    <figure className="m-0">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="h-auto w-full">
        {y.ticks(4).map((tick) => (
          <g key={tick}>
            <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} stroke="#dfe3ec" />
            <text x={margin.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize="11" fill="#5b6478">
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, index) =>
          index % step === 0 || index === days.length - 1 ? (
            <text key={day} x={x(index)} y={height - 8} textAnchor="middle" fontSize="11" fill="#5b6478">
              {day.slice(5)}
            </text>
          ) : null,
        )}
        {series.map((entry, index) => (
          <g key={entry.label} stroke={seriesColours[index % seriesColours.length]} fill={seriesColours[index % seriesColours.length]}>
            <path d={path(entry.values) ?? ''} fill="none" strokeWidth="2" strokeDasharray={index % 2 ? '5 3' : undefined} />
            {/* A month or less: each day's point too, so a single day still shows. */}
            {days.length <= 31 && entry.values.map((value, day) => <circle key={day} cx={x(day)} cy={y(value)} r="3" stroke="none" />)}
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-soft">
        {series.map((entry, index) => (
          <span key={entry.label} className="inline-flex items-center gap-1">
            <svg width="18" height="6" aria-hidden="true">
              <line
                x1="0"
                x2="18"
                y1="3"
                y2="3"
                stroke={seriesColours[index % seriesColours.length]}
                strokeWidth="2"
                strokeDasharray={index % 2 ? '5 3' : undefined}
              />
            </svg>
            {entry.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Horizontal bars, one per row, each with its value at its end. */
export function BarChart({
  rows,
  label,
  format = String,
}: {
  rows: Array<{ label: string; value: number }>;
  label: string;
  format?: (value: number) => string;
}) {
  const width = 480;
  const barHeight = 26;
  const labelWidth = 170;
  const height = Math.max(1, rows.length) * barHeight + 8;
  const x = scaleLinear()
    .domain([0, Math.max(1, ...rows.map((row) => row.value))])
    .range([0, width - labelWidth - 56]);
  const y = scaleBand()
    .domain(rows.map((_, index) => String(index)))
    .range([4, height - 4])
    .padding(0.2);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="h-auto w-full">
      {rows.map((row, index) => (
        <g key={`${row.label}-${index}`} transform={`translate(0, ${y(String(index)) ?? 0})`}>
          <text x={labelWidth - 8} y={y.bandwidth() / 2} dy="0.32em" textAnchor="end" fontSize="12" fill="#13213c">
            {row.label.length > 20 ? `${row.label.slice(0, 19)}…` : row.label}
          </text>
          <rect x={labelWidth} width={Math.max(1, x(row.value))} height={y.bandwidth()} rx="3" fill={seriesColours[0]} />
          <text x={labelWidth + x(row.value) + 6} y={y.bandwidth() / 2} dy="0.32em" fontSize="12" fill="#3d4a63">
            {format(row.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** Each variant's 95% credible interval as a bar, its rate as a dot: the comparison at a glance. */
export function IntervalChart({ rows, label }: { rows: Array<{ label: string; rate: number; interval: [number, number] }>; label: string }) {
  const width = 480;
  const rowHeight = 30;
  const labelWidth = 130;
  const height = rows.length * rowHeight + 26;
  const x = scaleLinear()
    .domain([0, Math.max(0.05, ...rows.map((row) => row.interval[1]))])
    .nice()
    .range([labelWidth, width - 20]);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="h-auto w-full">
      {x.ticks(5).map((tick) => (
        <g key={tick}>
          <line x1={x(tick)} x2={x(tick)} y1={0} y2={height - 20} stroke="#dfe3ec" />
          <text x={x(tick)} y={height - 6} textAnchor="middle" fontSize="11" fill="#5b6478">
            {`${Math.round(tick * 1000) / 10}%`}
          </text>
        </g>
      ))}
      {rows.map((row, index) => {
        const middle = index * rowHeight + rowHeight / 2;
        return (
          <g key={row.label}>
            <text x={labelWidth - 8} y={middle} dy="0.32em" textAnchor="end" fontSize="12" fill="#13213c">
              {row.label}
            </text>
            <line
              x1={x(row.interval[0])}
              x2={x(row.interval[1])}
              y1={middle}
              y2={middle}
              stroke={seriesColours[index % seriesColours.length]}
              strokeWidth="6"
              strokeLinecap="round"
              opacity="0.45"
            />
            <circle cx={x(row.rate)} cy={middle} r="5" fill={seriesColours[index % seriesColours.length]} />
          </g>
        );
      })}
    </svg>
  );
}
