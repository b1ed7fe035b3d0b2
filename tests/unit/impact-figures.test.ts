/**
 * Issue 32: below the public threshold the home page said "fewer than 5" four times in a row. It
 * says one honest sentence once instead, and the live figures replace it without moving what the
 * visitor is reading.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, test } from 'vitest';
import ImpactFigures from '../../src/components/sections/ImpactFigures.astro';
import type { Locale } from '../../src/config/locales';
import { applyImpact } from '../../src/lib/browser/impact-live';
import { impactWordsOf, type ImpactWords } from '../../src/lib/shared/impact-words';
import { figure, isImpactStarting, type Impact } from '../../src/lib/shared/answer-kinds';
import { serverWordsOf } from '../../src/server/words';

const words = {} as Record<Locale, ImpactWords>;
beforeAll(async () => {
  for (const locale of ['en', 'es'] as const) words[locale] = impactWordsOf(await serverWordsOf(locale), locale);
});

/** The band as the build renders it, in a document. */
async function rendered(figures: Impact, locale: Locale = 'en'): Promise<Document> {
  const container = await AstroContainer.create();
  return new JSDOM(await container.renderToString(ImpactFigures, { props: { impact: figures, words: words[locale] } })).window.document;
}

const impact = (reached: number, answered: number, meetings: number, wrote: number): Impact => ({
  schoolsReached: figure(reached),
  schoolsAnswered: figure(answered),
  meetings: figure(meetings),
  parentsWrote: figure(wrote),
  updatedAt: '2026-11-26T00:00:00.000Z',
});

describe('a movement that is starting', () => {
  test.each([
    [impact(0, 0, 0, 0), true],
    [impact(4, 4, 4, 4), true],
    [impact(5, 0, 0, 4), false],
    [impact(6, 2, 1, 9), false],
  ])('%o: starting is %s', (figures, starting) => {
    expect(isImpactStarting(figures)).toBe(starting);
  });

  test('the sentence is true of any figures below the threshold, and says "fewer than 5" once', () => {
    expect(words.en.starting).toContain('fewer than 5 parents have written');
    expect(words.en.starting.match(/fewer than/g)).toHaveLength(1);
    expect(words.es.starting).toContain('menos de 5 padres y madres han escrito');
    expect(words.es.starting.match(/menos de/g)).toHaveLength(1);
  });

  test.each([
    ['below the threshold: the sentence, not the figures', impact(0, 0, 0, 3), true],
    ['at or above it: the figures', impact(7, 5, 0, 12), false],
  ])('the band, %s', async (_name, figures, starting) => {
    const document = await rendered(figures);
    expect((document.querySelector('[data-impact-starting]') as HTMLElement).hidden).toBe(!starting);
    expect((document.querySelector('[data-impact-list]') as HTMLElement).hidden).toBe(starting);
    // What a reader sees (hidden parts left out) says it once, or for the one figure below 5.
    for (const hidden of document.querySelectorAll('[hidden]')) hidden.remove();
    expect((document.body.textContent?.match(/fewer than 5/g) ?? []).length).toBe(1);
  });
});

describe('the live figures', () => {
  async function band(figures: Impact, top: number) {
    const document = await rendered(figures);
    const root = document.querySelector('impact-figures') as HTMLElement;
    root.getBoundingClientRect = () => ({ top, bottom: top + 300, left: 0, right: 390, width: 390, height: 300, x: 0, y: top, toJSON: () => ({}) });
    return root;
  }
  const shown = (root: HTMLElement) => ((root.querySelector('[data-impact-starting]') as HTMLElement).hidden ? 'figures' : 'sentence');

  test.each([
    // The sentence would be untrue: the figures replace it, in view or not.
    ['the first figures, out of view', impact(0, 0, 0, 0), impact(6, 0, 0, 8), 2000, 'figures'],
    ['the first figures, in view', impact(0, 0, 0, 0), impact(6, 0, 0, 8), 100, 'figures'],
    // Figures that fell below the threshold are still true as "fewer than 5": in view they stay.
    ['fewer again, out of view', impact(6, 0, 0, 8), impact(0, 0, 0, 2), 2000, 'sentence'],
    ['fewer again, in view', impact(6, 0, 0, 8), impact(0, 0, 0, 2), 100, 'figures'],
  ])('%s', async (_name, built, live, top, expected) => {
    const root = await band(built, top);
    applyImpact(root, live, 800);
    expect(shown(root)).toBe(expected);
    expect(root.querySelector('[data-impact-figure="parentsWrote"]')?.textContent?.trim()).toBe(live.parentsWrote.display);
  });
});

describe('in Spanish (issue 48)', () => {
  test('the band says its labels, its sentence and "menos de 5" in Spanish, and writes counts as Spanish does', async () => {
    const starting = await rendered(impact(0, 0, 0, 3), 'es');
    expect(starting.querySelector('[data-impact-starting]')?.textContent?.trim()).toBe(words.es.starting);
    const figures = await rendered(impact(12_345, 5, 0, 1_234), 'es');
    const text = (key: string) => figures.querySelector(`[data-impact-figure="${key}"]`)?.textContent?.trim();
    expect([text('schoolsReached'), text('schoolsAnswered'), text('meetings'), text('parentsWrote')]).toEqual(['12.345', '5', 'menos de 5', '1234']);
    expect(figures.body.textContent).toContain('escuelas que respondieron');
    expect(figures.body.textContent).not.toMatch(/fewer than|schools|parents/);
    // The English band as before.
    const english = await rendered(impact(12_345, 5, 0, 1_234));
    expect(english.querySelector('[data-impact-figure="schoolsReached"]')?.textContent?.trim()).toBe('12,345');
    expect(english.querySelector('[data-impact-figure="meetings"]')?.textContent?.trim()).toBe('fewer than 5');
  });

  test('the live figures are written in the page’s language, whatever the server’s display says', async () => {
    const document = await rendered(impact(6, 0, 0, 8), 'es');
    const root = document.querySelector('impact-figures') as HTMLElement;
    root.getBoundingClientRect = () => ({ top: 2000, bottom: 2300, left: 0, right: 390, width: 390, height: 300, x: 0, y: 2000, toJSON: () => ({}) });
    applyImpact(root, impact(2_500, 0, 7, 8), 800);
    expect(root.querySelector('[data-impact-figure="schoolsReached"]')?.textContent?.trim()).toBe('2500');
    expect(root.querySelector('[data-impact-figure="schoolsAnswered"]')?.textContent?.trim()).toBe('menos de 5');
  });
});
