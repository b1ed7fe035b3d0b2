/**
 * The experiment's reading stays true when looked at every day (issue 46): simulated A/A
 * experiments (identical variants) looked at daily over 30 days declare a winner in at most 5% of
 * 1,000 runs, with two arms and with three; a real difference is still found; too few visitors,
 * a broken split or conversions without visitors give no verdict.
 */
import { describe, expect, test } from 'vitest';
import { ALPHA, describeVariants, MIN_UNITS, mulberry32, readExperiment, sampleRatioP, type Tally } from '../../src/server/analytics/statistics';

/** Binomial(n, p) by inversion (exact; n·p is small here). */
function binomial(n: number, p: number, random: () => number): number {
  const q = 1 - p;
  let probability = q ** n;
  let cumulative = probability;
  const u = random();
  let k = 0;
  while (u > cumulative && k < n) {
    probability *= ((n - k) / (k + 1)) * (p / q);
    cumulative += probability;
    k++;
  }
  return k;
}

/** One simulated experiment: per day, each arm's cumulative visitors and conversions. */
function simulate(rates: number[], visitorsPerDay: number, days: number, random: () => number) {
  const tallies: Tally[] = rates.map(() => ({ units: 0, conversions: 0 }));
  const history: Array<{ day: string; tallies: Tally[] }> = [];
  for (let d = 0; d < days; d++) {
    rates.forEach((rate, arm) => {
      tallies[arm] = { units: tallies[arm]!.units + visitorsPerDay, conversions: tallies[arm]!.conversions + binomial(visitorsPerDay, rate, random) };
    });
    history.push({ day: `2026-01-${String(d + 1).padStart(2, '0')}`, tallies: tallies.map((tally) => ({ ...tally })) });
  }
  return history;
}

/** The share of runs in which some daily look showed a winner. */
function declaredShare(rates: number[], runs: number, seed: number): number {
  const random = mulberry32(seed);
  let declared = 0;
  for (let run = 0; run < runs; run++) {
    const history = simulate(rates, 1000, 30, random);
    // A look every day: a winner on any day counts, as a person reading the tab daily would act on it.
    if (history.some((_, day) => readExperiment(history.slice(0, day + 1)).verdict.kind === 'winner')) declared++;
  }
  return declared / runs;
}

describe('always-valid reading of an experiment', () => {
  test('A/A with two arms, looked at daily for 30 days: a winner in at most 5% of 1,000 runs', () => {
    expect(declaredShare([0.05, 0.05], 1000, 1)).toBeLessThanOrEqual(ALPHA);
  });

  test('A/A with three arms (the school page call to action): at most 5% of 1,000 runs, corrected for the arms', () => {
    expect(declaredShare([0.05, 0.05, 0.05], 1000, 2)).toBeLessThanOrEqual(ALPHA);
  });

  test('a real difference (5% against 6.5%) is found in most runs, and the better variant is the one named', () => {
    const random = mulberry32(3);
    let found = 0;
    for (let run = 0; run < 200; run++) {
      const verdict = readExperiment(simulate([0.05, 0.065], 1000, 30, random)).verdict;
      if (verdict.kind === 'winner') {
        expect(verdict.winner).toBe(1);
        found++;
      }
    }
    expect(found / 200).toBeGreaterThan(0.8);
  });

  test('a control better than both others is named the winner', () => {
    const random = mulberry32(4);
    const verdict = readExperiment(simulate([0.08, 0.05, 0.05], 1000, 30, random)).verdict;
    expect(verdict).toMatchObject({ kind: 'winner', winner: 0 });
  });

  test('no verdict before the minimum sample, however lopsided: 0 visitors and 5 conversions is not 100%', () => {
    const early = readExperiment([
      {
        day: '2026-01-01',
        tallies: [
          { units: 0, conversions: 5 },
          { units: 10, conversions: 0 },
        ],
      },
    ]);
    expect(early.verdict).toEqual({ kind: 'collecting', unitsNeeded: MIN_UNITS, conversionsNeeded: 15 });
    expect(early.comparisons.every((comparison) => comparison.difference === null)).toBe(true);
    const [forged] = describeVariants([{ units: 0, conversions: 5 }]);
    expect(forged!.rate).toBe(0);
  });

  test('a split far from the even draw is a sample-ratio mismatch, not a verdict', () => {
    const tallies = [
      { units: 5000, conversions: 250 },
      { units: 9000, conversions: 900 },
    ];
    expect(sampleRatioP(tallies.map((tally) => tally.units))).toBeLessThan(1e-6);
    expect(readExperiment([{ day: '2026-01-01', tallies }]).verdict.kind).toBe('sample_ratio_mismatch');
    expect(sampleRatioP([1000, 1030])).toBeGreaterThan(0.4);
  });

  test('χ² survival matches known values', () => {
    // χ²(1) at 3.841 is p = 0.05; χ²(2) at 5.991 is p = 0.05; χ²(2) at 13.816 is p = 0.001.
    const p1 = sampleRatioP([1000 + 44, 1000 - 44]);
    expect(p1).toBeGreaterThan(0.04);
    expect(p1).toBeLessThan(0.06);
    expect(sampleRatioP([1000, 1000, 1000])).toBe(1);
  });

  test('expected loss: the clearly better variant risks almost nothing, the worse one about the gap', () => {
    const [control, better] = describeVariants([
      { units: 10_000, conversions: 500 },
      { units: 10_000, conversions: 700 },
    ]);
    expect(better!.expectedLoss).toBeLessThan(0.0005);
    expect(control!.expectedLoss).toBeGreaterThan(0.015);
    expect(control!.expectedLoss).toBeLessThan(0.025);
  });
});
