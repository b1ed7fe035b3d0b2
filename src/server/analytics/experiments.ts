/**
 * Experiments: an A/B(/n) test of one place's words (`content/experiments/{place}.yaml`). Its life
 * is here: staff start one on a place (refused without two variants, or while another runs
 * there: the partial unique index of migration 0030), every visitor-day is given a variant, and
 * staff end it by choosing the winner, which the place then shows to everyone.
 *
 * - Assignment needs no cookie and no id: the variant is a stable function of the day's visitor
 *   hash (analytics/visitor.ts), so the server that draws a page and the one that counts its
 *   form give the same answer all day. A share link carries its variant (`?v={experiment}.{variant}`)
 *   and the visitor it brings gets that one.
 * - The goal is a confirmed send. The comparison is Bayesian: each variant's rate has a Beta
 *   posterior (uniform prior); the tab shows its 95% credible interval and the probability that
 *   it beats the control, which stay honest when looked at every day (no p-value to peek at).
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { experimentPlaceSchema, type ExperimentPlace, type ExperimentResult } from '../../lib/analytics/experiments';
import { periodTotals } from './rollup';
import { bucketOf, countable, dayOf, visitorHash } from './visitor';
import { isUniqueViolation, query, queryOne, sql } from '../db';
import { HttpError } from '../http';

export const EXPERIMENTS_DIR = 'content/experiments';

let cache: { at: number; places: Promise<ExperimentPlace[]> } | undefined;

async function readPlaces(): Promise<ExperimentPlace[]> {
  const dir = join(process.cwd(), EXPERIMENTS_DIR);
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.yaml')).sort();
  return Promise.all(
    files.map(async (name) => {
      const parsed = experimentPlaceSchema.safeParse(yaml.load(await readFile(join(dir, name), 'utf8')));
      if (!parsed.success)
        throw new Error(`${EXPERIMENTS_DIR}/${name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      return { id: name.replace(/\.yaml$/, ''), ...parsed.data };
    }),
  );
}

/** Every place an experiment can test, as the build checked them. */
export function experimentPlaces(): Promise<ExperimentPlace[]> {
  if (!cache) {
    const places = readPlaces();
    cache = { at: Date.now(), places };
    places.catch(() => {
      if (cache?.places === places) cache = undefined;
    });
  }
  return cache.places;
}

export interface Experiment {
  id: string;
  place: string;
  name: string;
  variants: string[];
  state: 'running' | 'ended';
  winner: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

interface ExperimentRow {
  id: string;
  place: string;
  name: string;
  variants: string[];
  state: 'running' | 'ended';
  winner: string | null;
  started_at: Date;
  ended_at: Date | null;
}
const toExperiment = (row: ExperimentRow): Experiment => ({
  id: row.id,
  place: row.place,
  name: row.name,
  variants: row.variants,
  state: row.state,
  winner: row.winner,
  startedAt: row.started_at,
  endedAt: row.ended_at,
});

/** The running experiments are read at most every few seconds per instance: every page view asks. */
const RUNNING_TTL_MS = 5_000;
let running: { at: number; experiments: Promise<Experiment[]> } | undefined;

export function runningExperiments(now = Date.now()): Promise<Experiment[]> {
  if (!running || now - running.at > RUNNING_TTL_MS) {
    const experiments = query<ExperimentRow>(sql`SELECT * FROM experiments WHERE state = 'running' ORDER BY started_at`).then((rows) => rows.map(toExperiment));
    running = { at: now, experiments };
    experiments.catch(() => {
      if (running?.experiments === experiments) running = undefined;
    });
  }
  return running.experiments;
}

/** The last variant a place's ended experiments chose, shown to everyone once it won. */
async function winnerOf(place: string): Promise<string | undefined> {
  const row = await queryOne<{ winner: string }>(
    sql`SELECT winner FROM experiments WHERE place = ${place} AND state = 'ended' AND winner IS NOT NULL ORDER BY ended_at DESC LIMIT 1`,
  );
  return row?.winner;
}

const newId = (place: string, now: Date) => `${place.slice(0, 22)}-${dayOf(now).replaceAll('-', '')}-${randomBytes(2).toString('hex')}`;

/** Starts an experiment; a clear 4xx when the place is unknown, has too few variants, or is busy. */
export async function startExperiment(input: { place: string; name: string; variants?: string[] }, by: string, now = new Date()): Promise<Experiment> {
  const place = (await experimentPlaces()).find((candidate) => candidate.id === input.place);
  if (!place) throw new HttpError(400, 'unknown_place', `There is no place called "${input.place}" to test. Places are the files of content/experiments.`);
  const variants = input.variants ?? place.variants.map((variant) => variant.id);
  const unknown = variants.find((id) => !place.variants.some((variant) => variant.id === id));
  if (unknown) throw new HttpError(400, 'unknown_variant', `"${unknown}" is not one of the variants of ${place.label}.`);
  if (new Set(variants).size < 2)
    throw new HttpError(400, 'no_variants', 'An experiment needs at least two different variants to compare. Add variants in content/experiments first.');
  try {
    const row = await queryOne<ExperimentRow>(sql`
      INSERT INTO experiments (id, place, name, variants, state, started_at, started_by)
      VALUES (${newId(place.id, now)}, ${place.id}, ${input.name}, ${[...new Set(variants)]}::text[], 'running', ${now}, ${by.slice(0, 200)})
      RETURNING *`);
    running = undefined;
    return toExperiment(row!);
  } catch (error) {
    if (isUniqueViolation(error, 'experiments_one_running_per_place')) {
      throw new HttpError(409, 'place_busy', `An experiment is already running on ${place.label}. End it (choose its winner) before starting another there.`);
    }
    throw error;
  }
}

/** Ends a running experiment with its winner (one of its variants). */
export async function endExperiment(id: string, winner: string, now = new Date()): Promise<Experiment> {
  const row = await queryOne<ExperimentRow>(sql`
    UPDATE experiments SET state = 'ended', ended_at = ${now}, winner = ${winner}
    WHERE id = ${id} AND state = 'running' AND ${winner} = ANY(variants)
    RETURNING *`);
  running = undefined;
  if (row) return toExperiment(row);
  const found = await queryOne<ExperimentRow>(sql`SELECT * FROM experiments WHERE id = ${id}`);
  if (!found) throw new HttpError(404, 'unknown_experiment', 'There is no such experiment.');
  if (found.state === 'ended') throw new HttpError(409, 'already_ended', 'This experiment has already ended.');
  throw new HttpError(400, 'unknown_variant', `"${winner}" is not one of this experiment's variants.`);
}

/** A variant as events and journeys keep it: "{experiment}:{variant}". */
export const variantKey = (experiment: Pick<Experiment, 'id'>, variant: string) => `${experiment.id}:${variant}`;

/** The `v` a share link carries ("{experiment}.{variant}"), if it names a variant of this experiment. */
function carried(experiment: Experiment, v: string | null | undefined): string | undefined {
  const match = /^([a-z0-9-]{1,40})\.([a-z0-9-]{1,20})$/.exec(v ?? '');
  return match && match[1] === experiment.id && experiment.variants.includes(match[2]!) ? match[2] : undefined;
}

/** The variant a visitor is given (the link's, else the day's stable draw). */
export function assignVariant(experiment: Experiment, visitor: string | undefined, v?: string | null): string {
  return carried(experiment, v) ?? (visitor ? experiment.variants[bucketOf(visitor, experiment.id, experiment.variants.length)]! : experiment.variants[0]!);
}

const onPage = (place: ExperimentPlace, path: string) =>
  place.pages.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) || path === prefix.replace(/\/$/, ''));

/** The variant key a visit to `path` is counted under, if a running experiment's place is on it. */
export async function variantForPage(path: string, visitor: string | undefined, v?: string | null): Promise<string | undefined> {
  const experiments = await runningExperiments();
  if (experiments.length === 0) return undefined;
  const places = await experimentPlaces();
  for (const experiment of experiments) {
    const place = places.find((candidate) => candidate.id === experiment.place);
    if (place && onPage(place, path)) return variantKey(experiment, assignVariant(experiment, visitor, v));
  }
  return undefined;
}

export interface PlaceText {
  text: string;
  /** While an experiment runs: its id and the variant shown (for the share link's `v`). */
  experiment?: { id: string; variant: string };
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/**
 * The words a place shows to the visitor of `req`: the running experiment's variant for them,
 * else the last winner, else the control. Never fails: without the store it is the control.
 */
export async function placeText(
  req: Request,
  context: unknown,
  placeId: string,
  values: Record<string, string>,
  now = new Date(),
): Promise<PlaceText | undefined> {
  const place = (await experimentPlaces().catch(() => [] as ExperimentPlace[])).find((candidate) => candidate.id === placeId);
  if (!place) return undefined;
  const textOf = (id: string | undefined) => fill((place.variants.find((variant) => variant.id === id) ?? place.variants[0]!).text, values);
  try {
    const experiment = (await runningExperiments()).find((candidate) => candidate.place === placeId);
    if (!experiment) return { text: textOf(await winnerOf(placeId)) };
    const visitor = countable(req) ? visitorHash(req, context, dayOf(now)) : undefined;
    const variant = assignVariant(experiment, visitor, new URL(req.url).searchParams.get('v'));
    return { text: textOf(variant), experiment: { id: experiment.id, variant } };
  } catch {
    return { text: textOf(undefined) };
  }
}

// Results ---------------------------------------------------------------------------------------

/** A small seeded generator, so that the same figures always give the same probabilities. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gamma(shape: number, random: () => number): number {
  // Marsaglia and Tsang; a shape below 1 is boosted and scaled back.
  if (shape < 1) return gamma(shape + 1, random) * (random() || Number.MIN_VALUE) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      const u1 = random() || Number.MIN_VALUE;
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u || Number.MIN_VALUE) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

const betaDraw = (a: number, b: number, random: () => number) => {
  const x = gamma(a, random);
  return x / (x + gamma(b, random));
};

export const DRAWS = 20_000;

/**
 * The Bayesian comparison of variants, the first being the control: each rate's 95% credible
 * interval and each other variant's probability of beating the control, by drawing from the Beta
 * posteriors (uniform prior). Trials are at least the conversions (a parent without JavaScript
 * converts without a counted visit).
 */
export function compareVariants(
  figures: Array<{ visitors: number; conversions: number }>,
  draws = DRAWS,
): Array<{ rate: number; interval: [number, number]; probabilityToBeat: number | null }> {
  const random = mulberry32(figures.reduce((seed, f) => seed * 31 + f.visitors * 7 + f.conversions, 17));
  const samples = figures.map(({ visitors, conversions }) => {
    const trials = Math.max(visitors, conversions);
    const list = new Float64Array(draws);
    for (let i = 0; i < draws; i++) list[i] = betaDraw(1 + conversions, 1 + trials - conversions, random);
    return list;
  });
  return figures.map(({ visitors, conversions }, index) => {
    const trials = Math.max(visitors, conversions);
    const sorted = Float64Array.from(samples[index]!).sort();
    const interval: [number, number] = [sorted[Math.floor(draws * 0.025)]!, sorted[Math.floor(draws * 0.975)]!];
    let wins = 0;
    if (index > 0) for (let i = 0; i < draws; i++) if (samples[index]![i]! > samples[0]![i]!) wins++;
    return { rate: trials ? conversions / trials : 0, interval, probabilityToBeat: index === 0 ? null : wins / draws };
  });
}

/** Every experiment, newest first, with each variant's visitors, confirmed sends and comparison. */
export async function experimentResults(now = new Date()): Promise<ExperimentResult[]> {
  const [rows, places] = await Promise.all([query<ExperimentRow>(sql`SELECT * FROM experiments ORDER BY started_at DESC LIMIT 50`), experimentPlaces()]);
  return Promise.all(
    rows.map(async (row) => {
      const experiment = toExperiment(row);
      const place = places.find((candidate) => candidate.id === experiment.place);
      const to = dayOf(experiment.endedAt ?? now);
      const visits = await periodTotals({ from: dayOf(experiment.startedAt), to, names: ['page_view'], dimension: 'variant', prefix: `${experiment.id}:` });
      const conversions = await query<{ variant: string; n: number }>(sql`
        SELECT variant, count(*)::int AS n FROM analytics_journeys
        WHERE variant LIKE ${`${experiment.id}:%`} AND confirmed_at IS NOT NULL GROUP BY variant`);
      const figures = experiment.variants.map((variant) => {
        const key = variantKey(experiment, variant);
        return {
          visitors: visits.filter((row) => row.value === key).reduce((sum, row) => sum + row.visitors, 0),
          conversions: Number(conversions.find((row) => row.variant === key)?.n ?? 0),
        };
      });
      const compared = compareVariants(figures);
      return {
        id: experiment.id,
        place: experiment.place,
        placeLabel: place?.label ?? experiment.place,
        name: experiment.name,
        state: experiment.state,
        winner: experiment.winner,
        startedAt: experiment.startedAt.toISOString(),
        endedAt: experiment.endedAt?.toISOString() ?? null,
        variants: experiment.variants.map((variant, index) => ({
          id: variant,
          text: place?.variants.find((candidate) => candidate.id === variant)?.text ?? variant,
          ...figures[index]!,
          ...compared[index]!,
        })),
      };
    }),
  );
}

/** The letters compared the same way: per letter, sends delivered, answers and meetings. */
export async function letterResults(): Promise<
  Array<{ letter: string; sends: number; answers: number; meetings: number; rate: number; interval: [number, number]; probabilityToBeat: number | null }>
> {
  const rows = await query<{ letter: string; sends: number; answers: number; meetings: number }>(sql`
    SELECT letter, count(delivered_at)::int AS sends,
      count(*) FILTER (WHERE delivered_at IS NOT NULL AND answer_kind IS NOT NULL AND answer_kind <> 'no_answer')::int AS answers,
      count(*) FILTER (WHERE delivered_at IS NOT NULL AND answer_kind = 'meeting')::int AS meetings
    FROM analytics_journeys WHERE letter IS NOT NULL GROUP BY letter ORDER BY letter`);
  const compared = compareVariants(rows.map((row) => ({ visitors: Number(row.sends), conversions: Number(row.answers) })));
  return rows.map((row, index) => ({
    letter: row.letter,
    sends: Number(row.sends),
    answers: Number(row.answers),
    meetings: Number(row.meetings),
    ...compared[index]!,
  }));
}
