import { describe, expect, test } from 'vitest';
import { COUNTER_DURATION_MS, COUNTER_STEP_MS, counterFrames, decimalsOf, formatCount } from '../../src/lib/shared/counter';

describe('counterFrames', () => {
  test('the defaults are 2000 ms in 50 ms steps', () => {
    expect(COUNTER_DURATION_MS).toBe(2000);
    expect(COUNTER_STEP_MS).toBe(50);
    expect(counterFrames(97)).toHaveLength(40);
  });

  test.each([5, 26, 29, 97, 85, 40, 100])('counts up to %i and ends exactly on it', (target) => {
    const frames = counterFrames(target);
    expect(frames.at(-1)).toBe(target);
    expect(frames[0]).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBeGreaterThanOrEqual(frames[i - 1]!);
    expect(frames.every((value) => Number.isInteger(value))).toBe(true);
  });

  test.each([
    [1000, 50, 20],
    [2000, 50, 40],
    [125, 50, 3],
    [10, 50, 1],
  ])('%i ms in %i ms steps is %i frames', (duration, step, count) => {
    expect(counterFrames(10, duration, step)).toHaveLength(count);
  });

  test('keeps the decimals of a decimal target', () => {
    const frames = counterFrames(2.5);
    expect(frames.at(-1)).toBe(2.5);
    expect(frames.every((value) => decimalsOf(value) <= 1)).toBe(true);
  });

  test('a target of 0 stays at 0', () => {
    expect(new Set(counterFrames(0))).toEqual(new Set([0]));
  });
});

describe('formatCount', () => {
  test.each([
    [97, '', '%', 0, '97%'],
    [5, '1 in ', '', 0, '1 in 5'],
    [0, '', '%', 0, '0%'],
    [2.5, '', 'x', 1, '2.5x'],
    [12.25, '', '', 0, '12'],
  ])('%d with %j and %j is %j', (value, prefix, suffix, decimals, expected) => {
    expect(formatCount(value, prefix, suffix, decimals)).toBe(expected);
  });
});
