import { describe, expect, test } from 'vitest';
import { clampPercent, percentAt, percentForKey } from '../../src/lib/browser/comparison';
import { confettiBursts } from '../../src/lib/browser/confetti';
import { HERO_FLOAT_PASSES, HERO_FLOAT_SECONDS, HERO_GRID, HERO_PARTICLES, HERO_REVEAL_RADIUS, heroParticles } from '../../src/lib/shared/hero';
import { shortDate } from '../../src/server/dates';

describe('comparison divider', () => {
  test.each([
    [-20, 0],
    [0, 0],
    [42.5, 42.5],
    [100, 100],
    [180, 100],
    [Number.NaN, 0],
  ])('clampPercent(%d) is %d', (input, expected) => {
    expect(clampPercent(input)).toBe(expected);
  });

  test.each([
    [100, 100, 400, 0],
    [300, 100, 400, 50],
    [500, 100, 400, 100],
    [20, 100, 400, 0],
    [900, 100, 400, 100],
    [300, 100, 0, 0],
  ])('a pointer at x=%i over a box at %i, %i wide, is at %i%%', (x, left, width, expected) => {
    expect(percentAt(x, left, width)).toBe(expected);
  });

  test.each([
    ['ArrowRight', 50, 55],
    ['ArrowUp', 50, 55],
    ['ArrowLeft', 50, 45],
    ['ArrowDown', 2, 0],
    ['ArrowRight', 98, 100],
    ['PageUp', 50, 70],
    ['PageDown', 10, 0],
    ['Home', 50, 0],
    ['End', 50, 100],
    ['Enter', 50, null],
  ])('%s from %i goes to %s', (key, from, to) => {
    expect(percentForKey(key, from)).toBe(to);
  });
});

describe('confetti', () => {
  test('50 pieces over the bursts, no more and no fewer', () => {
    const bursts = confettiBursts();
    expect(bursts.reduce((a, b) => a + b, 0)).toBe(50);
    expect(confettiBursts(53, 10).reduce((a, b) => a + b, 0)).toBe(53);
  });
});

describe('hero presentation constants (§9)', () => {
  test('20 horizontal and 30 vertical lines 60 px apart, a 120 px reveal, 15 particles', () => {
    expect(HERO_GRID).toEqual({ horizontal: 20, vertical: 30, spacing: 60 });
    expect(HERO_REVEAL_RADIUS).toBe(120);
    expect(HERO_PARTICLES).toBe(15);
    const particles = heroParticles();
    expect(particles).toHaveLength(15);
    for (const p of particles) {
      expect(p.left).toBeGreaterThanOrEqual(0);
      expect(p.left).toBeLessThanOrEqual(100);
      expect(p.top).toBeGreaterThanOrEqual(0);
      expect(p.top).toBeLessThanOrEqual(100);
    }
    expect(heroParticles()).toEqual(particles);
  });

  test('each particle moves for at most five seconds, from where its first pass stands (WCAG 2.2.2)', () => {
    expect(HERO_FLOAT_SECONDS).toBeLessThanOrEqual(5);
    for (const p of heroParticles()) {
      expect(p.delay).toBeGreaterThanOrEqual(0);
      expect(p.delay).toBeLessThan(p.duration);
      expect(HERO_FLOAT_PASSES * p.duration - p.delay).toBeLessThanOrEqual(HERO_FLOAT_SECONDS);
    }
  });
});

describe('dates', () => {
  test.each([
    ['2025-09-25T00:00:00.000Z', 'Sep 25, 2025'],
    ['2025-06-26T00:00:00.000Z', 'Jun 26, 2025'],
  ])('%s is shown as %s', (iso, expected) => {
    expect(shortDate(iso)).toBe(expected);
  });
});
