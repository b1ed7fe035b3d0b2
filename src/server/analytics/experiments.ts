/**
 * Experiments: an A/B(/n) test of one place's words (`content/experiments/{place}.yaml`). Its life
 * is here: staff start one on a place (refused without two variants, or while another runs
 * there: the partial unique index of migration 0030), every visitor-day is drawn a variant, and
 * staff end it by choosing the winner, which the place then shows to everyone.
 *
 * - **Exposure is recorded where the variant is served** (`placeText`, as the server draws the
 *   page), once per visitor-day, the first variant served being the one credited; a beacon cannot
 *   add a visitor to a variant. One network counts at most `NETWORK_VISITORS` visitors a day.
 * - **A link never chooses the variant.** A share link carries the share text's variant
 *   (`?v={experiment}.{variant}`); the visit it brings is recorded as that link's visit
 *   (`recordLinkVisit`), outside the random comparison.
 * - **The goal is the place's**: a confirmed send for the school page's call to action; for the
 *   share text, a share by the parent who saw it, with the visits and drafts its links brought.
 * - **The reading stays true when looked at daily** (statistics.ts): always-valid sequential
 *   comparisons corrected for the number of arms, a minimum sample, a sample-ratio check, and
 *   each variant's expected loss.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { experimentPlaceSchema, type ExperimentPlace, type ExperimentResult } from '../../lib/shared/analytics/experiment-places';
import { describeVariants, MIN_CONVERSIONS, MIN_UNITS, readExperiment, sampleRatioP, SRM_P, type Tally } from './statistics';
import { bucketOf, countable, dayOf, hasBrowserSignals, NETWORK_VISITORS, networkHash, visitorHash } from './visitor';
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

/**
 * Reads the running experiments from the database at the next ask. For a database emptied or
 * replaced under a running instance, as the tests do between tests and files: the experiments kept
 * in memory would be another database's.
 */
export function forgetRunningExperiments(): void {
  running = undefined;
}

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

/** The running experiments, each with its place's goal (none when its place's file is gone). */
async function runningWithGoals(): Promise<Array<Experiment & { goal: ExperimentPlace['goal'] | undefined }>> {
  const [experiments, places] = await Promise.all([runningExperiments(), experimentPlaces()]);
  return experiments.map((experiment) => ({ ...experiment, goal: places.find((place) => place.id === experiment.place)?.goal }));
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

/** The variant a visitor is drawn (the day's stable draw); a link never chooses it. */
export function assignVariant(experiment: Experiment, visitor: string | undefined): string {
  return visitor ? experiment.variants[bucketOf(visitor, experiment.id, experiment.variants.length)]! : experiment.variants[0]!;
}

/** The `v` a share link carries ("{experiment}.{variant}"): the share-text variant that brought a visit. */
export function linkVariantOf(v: string | null | undefined): { experiment: string; variant: string } | undefined {
  const match = /^([a-z0-9-]{1,40})\.([a-z0-9-]{1,20})$/.exec(v ?? '');
  return match ? { experiment: match[1]!, variant: match[2]! } : undefined;
}

export interface PlaceText {
  text: string;
  /** While an experiment runs: its id and the variant shown (for the share link's `v`). */
  experiment?: { id: string; variant: string };
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/** The visitor of a request that may be counted in an experiment: a person's browser, counted. */
async function unitOf(req: Request, context: unknown, day: string): Promise<{ unit: string; network: string } | undefined> {
  if (!countable(req, context) || !hasBrowserSignals(req)) return undefined;
  const [unit, network] = await Promise.all([visitorHash(req, context, day), networkHash(req, context, day)]);
  return unit && network ? { unit, network } : undefined;
}

/**
 * Records that a visitor was shown a variant (or arrived through a link carrying one): once per
 * experiment, kind, day and visitor (the first is the one credited), and at most
 * `NETWORK_VISITORS` visitors of one network a day, so that one machine cannot be a crowd.
 */
async function expose(experiment: string, kind: 'served' | 'link', variant: string, who: { unit: string; network: string }, now: Date): Promise<void> {
  const day = dayOf(now);
  await query(sql`
    INSERT INTO experiment_exposures (experiment, kind, variant, day, at, unit, network)
    SELECT ${experiment}, ${kind}, ${variant}, ${day}::date, ${now}, ${who.unit}, ${who.network}
    WHERE (SELECT count(*) FROM experiment_exposures WHERE experiment = ${experiment} AND day = ${day}::date AND network = ${who.network}) < ${NETWORK_VISITORS}
    ON CONFLICT (experiment, kind, day, unit) WHERE unit IS NOT NULL DO NOTHING`);
}

/**
 * The words a place shows to the visitor of `req`: the running experiment's variant for them
 * (recorded as served), else the last winner, else the control. Never fails: without the store
 * it is the control.
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
    const who = await unitOf(req, context, dayOf(now));
    const variant = assignVariant(experiment, who?.unit);
    if (who) await expose(experiment.id, 'served', variant, who, now);
    return { text: textOf(variant), experiment: { id: experiment.id, variant } };
  } catch {
    return { text: textOf(undefined) };
  }
}

/**
 * A visit that arrived through a share link (`?v=` naming a running share experiment's variant,
 * from outside the site): recorded as the link's visit. Never changes what the page shows.
 * True when the link names a running share experiment (the page is then not kept by the CDN,
 * so that every visit it brings is seen).
 */
export async function recordLinkVisit(req: Request, context: unknown, now = new Date()): Promise<boolean> {
  try {
    const link = linkVariantOf(new URL(req.url).searchParams.get('v'));
    if (!link) return false;
    const experiment = (await runningWithGoals()).find((candidate) => candidate.id === link.experiment);
    if (!experiment?.variants.includes(link.variant) || experiment.goal !== 'share') return false;
    if (req.headers.get('sec-fetch-site') === 'same-origin') return true;
    const who = await unitOf(req, context, dayOf(now));
    if (who) await expose(experiment.id, 'link', link.variant, who, now);
    return true;
  } catch (error) {
    console.error('[experiments] link visit not counted:', error instanceof Error ? error.message : 'unknown error');
    return false;
  }
}

/**
 * What a visitor's draft is credited to today: the first variant they were served by a running
 * experiment whose goal is a confirmed send, and the share variant whose link brought them.
 */
export async function creditedVariants(visitor: string | undefined, day: string): Promise<{ variant?: string; linkVariant?: string }> {
  if (!visitor) return {};
  const experiments = await runningWithGoals();
  const goalOf = (id: string) => experiments.find((experiment) => experiment.id === id)?.goal;
  const rows = await query<{ experiment: string; kind: string; variant: string }>(sql`
    SELECT experiment, kind, variant FROM experiment_exposures
    WHERE unit = ${visitor} AND day = ${day}::date AND experiment = ANY(${experiments.map((experiment) => experiment.id)}::text[]) ORDER BY at, id`);
  const served = rows.find((row) => row.kind === 'served' && goalOf(row.experiment) === 'confirmed');
  const link = rows.find((row) => row.kind === 'link');
  return {
    variant: served ? `${served.experiment}:${served.variant}` : undefined,
    linkVariant: link ? `${link.experiment}:${link.variant}` : undefined,
  };
}

/** A share from a visitor who was served a share experiment's words today: that visitor converted. */
export async function recordShareConversion(visitor: string | undefined, now = new Date()): Promise<void> {
  if (!visitor) return;
  const sharing = (await runningWithGoals()).filter((experiment) => experiment.goal === 'share').map((experiment) => experiment.id);
  if (sharing.length === 0) return;
  await query(sql`
    UPDATE experiment_exposures SET converted_at = ${now}
    WHERE unit = ${visitor} AND day = ${dayOf(now)}::date AND kind = 'served' AND converted_at IS NULL AND experiment = ANY(${sharing}::text[])`);
}

/** Two days on, an exposure forgets its visitor and network (the figures keep the row). */
export async function forgetExposureVisitors(now = new Date()): Promise<number> {
  const before = dayOf(new Date(now.getTime() - 24 * 3600_000));
  const rows = await query(sql`UPDATE experiment_exposures SET unit = NULL, network = NULL WHERE day < ${before}::date AND unit IS NOT NULL RETURNING 1`);
  return rows.length;
}

// Results ---------------------------------------------------------------------------------------

/** Per day, per variant: the visitors served (randomly drawn) and the goal reached. */
async function dailyTallies(experiment: Experiment, goal: 'confirmed' | 'share', to: string): Promise<Array<{ day: string; tallies: Tally[] }>> {
  const served = await query<{ day: string; variant: string; units: number; shared: number }>(sql`
    SELECT day::text AS day, variant, count(*)::int AS units, count(converted_at)::int AS shared FROM experiment_exposures
    WHERE experiment = ${experiment.id} AND kind = 'served' GROUP BY day, variant`);
  const confirmed =
    goal === 'confirmed'
      ? await query<{ day: string; variant: string; n: number }>(sql`
          SELECT to_char(confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, split_part(variant, ':', 2) AS variant, count(*)::int AS n
          FROM analytics_journeys WHERE variant LIKE ${`${experiment.id}:%`} AND confirmed_at IS NOT NULL GROUP BY 1, 2`)
      : [];
  const days = [...new Set([...served.map((row) => row.day), ...confirmed.map((row) => row.day)])].filter((day) => day <= to).sort();
  const running = experiment.variants.map(() => ({ units: 0, conversions: 0 }));
  return days.map((day) => {
    experiment.variants.forEach((variant, index) => {
      const exposed = served.find((row) => row.day === day && row.variant === variant);
      running[index]!.units += Number(exposed?.units ?? 0);
      running[index]!.conversions +=
        goal === 'share' ? Number(exposed?.shared ?? 0) : Number(confirmed.find((row) => row.day === day && row.variant === variant)?.n ?? 0);
    });
    return { day, tallies: running.map((tally) => ({ ...tally })) };
  });
}

/** What a share variant's links brought: visits that arrived through them and the drafts those parents wrote. */
async function linkFigures(experiment: Experiment): Promise<Map<string, { linkVisits: number; linkDrafts: number }>> {
  const [visits, drafts] = await Promise.all([
    query<{ variant: string; n: number }>(sql`
      SELECT variant, count(*)::int AS n FROM experiment_exposures WHERE experiment = ${experiment.id} AND kind = 'link' GROUP BY variant`),
    query<{ variant: string; n: number }>(sql`
      SELECT split_part(link_variant, ':', 2) AS variant, count(*)::int AS n FROM analytics_journeys WHERE link_variant LIKE ${`${experiment.id}:%`} GROUP BY 1`),
  ]);
  return new Map(
    experiment.variants.map((variant) => [
      variant,
      {
        linkVisits: Number(visits.find((row) => row.variant === variant)?.n ?? 0),
        linkDrafts: Number(drafts.find((row) => row.variant === variant)?.n ?? 0),
      },
    ]),
  );
}

/** Every experiment, newest first: each variant's visitors, goal, comparison and the verdict. */
export async function experimentResults(now = new Date()): Promise<ExperimentResult[]> {
  const [rows, places] = await Promise.all([query<ExperimentRow>(sql`SELECT * FROM experiments ORDER BY started_at DESC LIMIT 50`), experimentPlaces()]);
  return Promise.all(
    rows.map(async (row) => {
      const experiment = toExperiment(row);
      const place = places.find((candidate) => candidate.id === experiment.place);
      const goal = place?.goal ?? 'confirmed';
      const days = await dailyTallies(experiment, goal, dayOf(experiment.endedAt ?? now));
      const last = days.at(-1)?.tallies ?? experiment.variants.map(() => ({ units: 0, conversions: 0 }));
      // Before anyone was served, the experiment reads as a day of zeros: every variant needs its minimum.
      const { verdict, comparisons } = readExperiment(days.length ? days : [{ day: dayOf(now), tallies: last }]);
      const described = describeVariants(last);
      const links = goal === 'share' ? await linkFigures(experiment) : undefined;
      const sampleRatio = sampleRatioP(last.map((tally) => tally.units));
      return {
        id: experiment.id,
        place: experiment.place,
        placeLabel: place?.label ?? experiment.place,
        goal,
        name: experiment.name,
        state: experiment.state,
        winner: experiment.winner,
        startedAt: experiment.startedAt.toISOString(),
        endedAt: experiment.endedAt?.toISOString() ?? null,
        verdict: verdict.kind === 'winner' ? { ...verdict, winner: experiment.variants[verdict.winner]! } : verdict,
        sampleRatio: { p: sampleRatio, mismatch: sampleRatio < SRM_P },
        minimum: { units: MIN_UNITS, conversions: MIN_CONVERSIONS },
        variants: experiment.variants.map((variant, index) => ({
          id: variant,
          text: place?.variants.find((candidate) => candidate.id === variant)?.text ?? variant,
          visitors: last[index]!.units,
          conversions: Math.min(last[index]!.conversions, last[index]!.units),
          ...described[index]!,
          ...comparisons[index]!,
          ...(links?.get(variant) ?? {}),
        })),
      };
    }),
  );
}

/**
 * The letters side by side: per letter, sends delivered, answers and meetings, each rate with its
 * credible interval. Observational: parents choose their letter, so a difference may come from
 * who chose it rather than from the letter; no verdict is drawn.
 */
export async function letterResults(): Promise<
  Array<{ letter: string; sends: number; answers: number; meetings: number; rate: number; interval: [number, number] }>
> {
  const rows = await query<{ letter: string; sends: number; answers: number; meetings: number }>(sql`
    SELECT letter, count(delivered_at)::int AS sends,
      count(*) FILTER (WHERE delivered_at IS NOT NULL AND answer_kind IS NOT NULL AND answer_kind <> 'no_answer')::int AS answers,
      count(*) FILTER (WHERE delivered_at IS NOT NULL AND answer_kind = 'meeting')::int AS meetings
    FROM analytics_journeys WHERE letter IS NOT NULL GROUP BY letter ORDER BY letter`);
  const described = describeVariants(rows.map((row) => ({ units: Number(row.sends), conversions: Number(row.answers) })));
  return rows.map((row, index) => ({
    letter: row.letter,
    sends: Number(row.sends),
    answers: Number(row.answers),
    meetings: Number(row.meetings),
    rate: described[index]!.rate,
    interval: described[index]!.interval,
  }));
}
