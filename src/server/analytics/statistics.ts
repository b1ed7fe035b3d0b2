/**
 * How an experiment is read so that it stays true when staff look at it every day (issue 46):
 *
 * - **Always-valid comparisons.** Each variant is compared with the control by a mixture
 *   sequential probability ratio test (mSPRT; Johari, Pekelis and Walsh, "Always valid inference",
 *   2017, the method of Optimizely's stats engine): a normal mixture over the difference of the
 *   two rates, with plug-in variances. Its likelihood ratio Λ can be computed after every day, and
 *   the chance that it ever crosses 1/α under no difference is at most α, however often it is
 *   read. The verdict is taken on the running maximum over the days, so once reached it stays.
 * - **Three or more arms.** Each of the k − 1 comparisons with the control uses α / (k − 1)
 *   (Bonferroni), so the whole experiment declares a false winner at most α of the time.
 * - **A minimum sample.** No verdict is shown before every variant has `MIN_UNITS` visitors and the
 *   experiment `MIN_CONVERSIONS` conversions: the plug-in variance is poor on a few units.
 * - **A sample-ratio check.** Visitors are drawn evenly; a χ² test of the split below 0.001 means
 *   the counting or the drawing is broken (or forged), and the tab says so instead of a verdict.
 * - **Expected loss.** From the Beta posteriors (uniform prior): the rate one gives up, on average,
 *   by choosing this variant over the best; a small figure for a variant means it is safe to keep.
 *
 * `tests/unit/experiment-statistics.test.ts` simulates A/A experiments looked at every day.
 */

/** The experiment's overall error: at most 5% of experiments without a difference name a winner. */
export const ALPHA = 0.05;
/** Visitors every variant needs before any verdict. */
export const MIN_UNITS = 200;
/** Conversions the experiment needs, all variants together, before any verdict. */
export const MIN_CONVERSIONS = 20;
/** A split this unlikely under an even draw is a sample-ratio mismatch. */
export const SRM_P = 0.001;
/** The mixture's spread, as a share of the pooled rate: differences of about 30% are what it looks for. */
const TAU_SHARE = 0.3;

/** One variant's figures up to a day (cumulative). */
export interface Tally {
  units: number;
  conversions: number;
}

/** The mSPRT's log-likelihood ratio for B against A, with the mixture's τ² and the plug-in variance. */
function logLambda(a: Tally, b: Tally): { log: number; estimate: number; variance: number; tau2: number } | undefined {
  if (a.units === 0 || b.units === 0) return undefined;
  const rateA = Math.min(a.conversions, a.units) / a.units;
  const rateB = Math.min(b.conversions, b.units) / b.units;
  const variance = (rateA * (1 - rateA)) / a.units + (rateB * (1 - rateB)) / b.units;
  const pooled = (Math.min(a.conversions, a.units) + Math.min(b.conversions, b.units)) / (a.units + b.units);
  const tau2 = (TAU_SHARE * Math.max(pooled, 0.001)) ** 2;
  const estimate = rateB - rateA;
  if (variance <= 0) return { log: 0, estimate, variance: 0, tau2 };
  const log = 0.5 * Math.log(variance / (variance + tau2)) + (tau2 * estimate * estimate) / (2 * variance * (variance + tau2));
  return { log, estimate, variance, tau2 };
}

/** The always-valid (1 − α) interval of B − A at these figures (a confidence sequence). */
function confidenceSequence(a: Tally, b: Tally, alpha: number): [number, number] | undefined {
  const test = logLambda(a, b);
  if (!test || test.variance <= 0) return undefined;
  const { variance, tau2, estimate } = test;
  const half = Math.sqrt(((variance * (variance + tau2)) / tau2) * (2 * Math.log(1 / alpha) + Math.log((variance + tau2) / variance)));
  return [estimate - half, estimate + half];
}

/** χ² goodness of fit of the visitors' split against an even draw: its p-value. */
export function sampleRatioP(units: number[]): number {
  const total = units.reduce((sum, n) => sum + n, 0);
  if (units.length < 2 || total === 0) return 1;
  const expected = total / units.length;
  const chi2 = units.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
  return chiSquareSurvival(chi2, units.length - 1);
}

/** P(X ≥ x) for X ~ χ²(k): the regularised upper incomplete gamma Q(k/2, x/2). */
function chiSquareSurvival(x: number, k: number): number {
  if (x <= 0) return 1;
  return upperGammaQ(k / 2, x / 2);
}

function logGamma(z: number): number {
  // Lanczos approximation (g = 7, n = 9).
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

function upperGammaQ(s: number, x: number): number {
  if (x < s + 1) {
    // The series for P, then Q = 1 − P.
    let term = 1 / s;
    let sum = term;
    for (let n = 1; n < 500; n++) {
      term *= x / (s + n);
      sum += term;
      if (term < sum * 1e-14) break;
    }
    return Math.max(0, 1 - sum * Math.exp(-x + s * Math.log(x) - logGamma(s)));
  }
  // The continued fraction for Q (Lentz).
  let b = x + 1 - s;
  let c = 1 / Number.MIN_VALUE;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < Number.MIN_VALUE) d = Number.MIN_VALUE;
    c = b + an / c;
    if (Math.abs(c) < Number.MIN_VALUE) c = Number.MIN_VALUE;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return Math.min(1, Math.exp(-x + s * Math.log(x) - logGamma(s)) * h);
}

export type Verdict =
  /** Not enough visitors or conversions yet: how many more are needed. */
  | { kind: 'collecting'; unitsNeeded: number; conversionsNeeded: number }
  /** The split of visitors is not what the draw gives: fix the counting before reading anything. */
  | { kind: 'sample_ratio_mismatch'; p: number }
  /** Enough data, no variant differs from the control yet. */
  | { kind: 'no_difference_yet' }
  /** A variant beat the control (or the control beat every other): `winner` is its index. */
  | { kind: 'winner'; winner: number; day: string };

export interface Comparison {
  /** Always-valid (1 − α/(k−1)) interval of this variant's rate minus the control's (null for the control, or too early). */
  difference: [number, number] | null;
  /** 'better' / 'worse' than the control once its interval excludes 0 (on any day so far); else 'same so far'. */
  against: 'better' | 'worse' | 'same_so_far' | null;
}

/**
 * Reads an experiment from its figures per day (cumulative tallies, one array per day in order,
 * one tally per variant, the control first). The verdict holds from the first day a comparison
 * crossed its bound; before the minimum sample or with a broken split there is none.
 */
export function readExperiment(days: Array<{ day: string; tallies: Tally[] }>, alpha = ALPHA): { verdict: Verdict; comparisons: Comparison[] } {
  const last = days.at(-1)?.tallies ?? [];
  const arms = last.length;
  const corrected = alpha / Math.max(1, arms - 1);
  const comparisons: Comparison[] = last.map(() => ({ difference: null, against: null }));
  const unitsNeeded = Math.max(0, ...last.map((tally) => MIN_UNITS - tally.units));
  const conversionsNeeded = Math.max(0, MIN_CONVERSIONS - last.reduce((sum, tally) => sum + tally.conversions, 0));
  if (arms < 2 || unitsNeeded > 0 || conversionsNeeded > 0) return { verdict: { kind: 'collecting', unitsNeeded, conversionsNeeded }, comparisons };
  const p = sampleRatioP(last.map((tally) => tally.units));
  if (p < SRM_P) return { verdict: { kind: 'sample_ratio_mismatch', p }, comparisons };

  const threshold = Math.log(1 / corrected);
  const crossed: Array<{ sign: number; day: string } | undefined> = last.map(() => undefined);
  for (const { day, tallies } of days) {
    if (tallies.some((tally) => tally.units < MIN_UNITS)) continue;
    for (let i = 1; i < arms; i++) {
      if (crossed[i]) continue;
      const test = logLambda(tallies[0]!, tallies[i]!);
      if (test && test.log >= threshold) crossed[i] = { sign: Math.sign(test.estimate), day };
    }
  }
  for (let i = 1; i < arms; i++) {
    const interval = confidenceSequence(last[0]!, last[i]!, corrected);
    comparisons[i] = {
      difference: interval ?? null,
      against: crossed[i] ? (crossed[i]!.sign > 0 ? 'better' : 'worse') : 'same_so_far',
    };
  }
  const better = comparisons
    .map((comparison, index) => ({ comparison, index }))
    .filter(({ comparison }) => comparison.against === 'better')
    .sort((a, b) => rateOf(last[b.index]!) - rateOf(last[a.index]!));
  if (better.length > 0) return { verdict: { kind: 'winner', winner: better[0]!.index, day: crossed[better[0]!.index]!.day }, comparisons };
  if (arms > 1 && comparisons.slice(1).every((comparison) => comparison.against === 'worse')) {
    const day = crossed
      .slice(1)
      .map((cross) => cross!.day)
      .sort()
      .at(-1)!;
    return { verdict: { kind: 'winner', winner: 0, day }, comparisons };
  }
  return { verdict: { kind: 'no_difference_yet' }, comparisons };
}

const rateOf = (tally: Tally) => (tally.units ? Math.min(tally.conversions, tally.units) / tally.units : 0);

/** A small seeded generator, so that the same figures always give the same draws. */
export function mulberry32(seed: number) {
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
 * Each variant's rate with its 95% credible interval (Beta posterior, uniform prior) and its
 * expected loss: the rate given up, on average over the posterior, by choosing it over the best.
 * Descriptive: the verdict is `readExperiment`'s. Conversions above the visitors (a parent without
 * JavaScript converts without a counted visit) are capped at the visitors.
 */
export function describeVariants(tallies: Tally[], draws = DRAWS): Array<{ rate: number; interval: [number, number]; expectedLoss: number }> {
  const random = mulberry32(tallies.reduce((seed, tally) => seed * 31 + tally.units * 7 + tally.conversions, 17));
  const samples = tallies.map(({ units, conversions }) => {
    const won = Math.min(conversions, units);
    const list = new Float64Array(draws);
    for (let i = 0; i < draws; i++) list[i] = betaDraw(1 + won, 1 + units - won, random);
    return list;
  });
  const losses = tallies.map(() => 0);
  for (let i = 0; i < draws; i++) {
    let best = 0;
    for (const list of samples) best = Math.max(best, list[i]!);
    samples.forEach((list, index) => {
      losses[index]! += best - list[i]!;
    });
  }
  return tallies.map((tally, index) => {
    const sorted = Float64Array.from(samples[index]!).sort();
    return {
      rate: rateOf(tally),
      interval: [sorted[Math.floor(draws * 0.025)]!, sorted[Math.floor(draws * 0.975)]!],
      expectedLoss: losses[index]! / draws,
    };
  });
}
