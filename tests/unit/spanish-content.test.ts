/**
 * Spanish beside the English in the content the reading pages show (issue 48, docs/spanish.md):
 * every statistic and card has its Spanish, or the build stops naming the field; the Spanish keeps
 * the English figures. (content-schema.test.ts shows the build naming the file.)
 */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { cardSchema } from '../../src/lib/build/cards';
import { statDisplay, statIn, statSchema } from '../../src/lib/shared/stats';

const read = (path: string) => yaml.load(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>;
const figures = (text = '') => (text.match(/\d+/g) ?? []).join(' ');
const stats = read('content/stats.yaml');
const cards = read('content/cards.yaml');

const stat = { id: 'one-in-five', group: 'home-stats', target: 5, prefix: '1 in ', label: 'students say lessons miss their needs', order: 1 };
const card = { id: 'fact-sheets', group: 'home-toolkit', icon: 'book', title: 'Fact Sheets', body: 'One-page summaries of the model.', order: 1 };

describe('a statistic', () => {
  test('without its Spanish line is refused, naming the field and saying what is missing', () => {
    const result = statSchema.safeParse(stat);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['labelEs', 'the Spanish of "label" is missing: every entry needs it beside the English (docs/spanish.md)'],
    ]);
  });

  test('shows in Spanish its Spanish words around the same figure', () => {
    const parsed = statSchema.parse({ ...stat, labelEs: 'alumnos dice que las clases no responden a sus necesidades', prefixEs: '1 de cada ' });
    expect(statDisplay(statIn(parsed, 'en'))).toBe('1 in 5');
    expect(statDisplay(statIn(parsed, 'es'))).toBe('1 de cada 5');
    expect(statIn(parsed, 'es').label).toBe('alumnos dice que las clases no responden a sus necesidades');
    // A suffix without words ("%") is the same in both.
    const percent = statSchema.parse({ ...stat, prefix: '', suffix: '%', target: 26, labelEs: 'de los alumnos' });
    expect(statDisplay(statIn(percent, 'es'))).toBe('26%');
  });
});

test('a card without its Spanish title or text is refused, naming each field', () => {
  const result = cardSchema.safeParse(card);
  expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['titleEs', 'bodyEs']);
  expect(cardSchema.safeParse({ ...card, titleEs: 'Hojas informativas', bodyEs: 'Resúmenes de una página.' }).success).toBe(true);
});

describe('the real content', () => {
  test.each(stats.map((entry) => [entry.id, entry] as const))('statistic %s: valid, its Spanish with the same figures', (_, entry) => {
    const parsed = statSchema.parse(entry);
    expect(figures(parsed.labelEs)).toBe(figures(parsed.label));
    const [en, es] = [statIn(parsed, 'en'), statIn(parsed, 'es')];
    expect(figures(statDisplay(es))).toBe(figures(statDisplay(en)));
    // A prefix or suffix with words has its Spanish: no English shows on a Spanish page.
    for (const part of ['prefix', 'suffix'] as const) {
      if (/[a-z]/i.test(parsed[part])) expect(parsed[`${part}Es`], `${part}Es of ${parsed.id}`).toBeDefined();
    }
  });

  test.each(cards.map((entry) => [entry.id, entry] as const))('card %s: valid, its Spanish with the same figures', (_, entry) => {
    const parsed = cardSchema.parse(entry);
    expect(figures(parsed.titleEs)).toBe(figures(parsed.title));
    expect(figures(parsed.bodyEs)).toBe(figures(parsed.body));
  });
});
