/**
 * The bodies of the school email (`content/letters/*.yaml`, the `letters` collection). Parents who
 * write to one school get them in rotation (src/server/letter/bodies.ts), so the school does not read the
 * same text twice in a row. A letter is three texts around fixed parts the template keeps: the
 * greeting, the parent's own words (right after the introduction) and the signature.
 *
 * Each text names the values it needs in braces ("{school}"). The schema holds every variant to
 * the rules of the template: each placeholder where the template needs it, no other, and within
 * its length; a variant that breaks one fails the build naming its file and the field. The links
 * come in only through {video} and {booking}; the text around them is the organisation's own,
 * reviewed in the content editor's pull request like every page.
 */
import { z } from 'zod';
import { statDisplay, type Stat } from '../stats';
import type { Letter, LetterPlaceholder } from './template';

/** What each placeholder stands for in a letter's text. */
export const letterPlaceholders: Record<LetterPlaceholder, string> = {
  parent: "the parent's full name",
  child: "the child's full name",
  grade: 'the grade, as "5th grade" or "kindergarten"',
  school: "the school's name",
  video: 'the link to the 30-second overview video',
  booking: 'the link where the school books a call',
} as const;

/** The longest introduction, main text and closing (today's are about 230, 800 and 200). */
export const LETTER_LIMITS = { introduction: 500, body: 1500, closing: 400 } as const;

/** Which placeholders each text must carry: the template's, in the part where it has them. */
export const requiredPlaceholders = {
  introduction: ['parent', 'child', 'grade', 'school'],
  body: ['video', 'booking'],
  closing: [],
} as const satisfies Record<keyof typeof LETTER_LIMITS, readonly LetterPlaceholder[]>;

const names = Object.keys(letterPlaceholders) as LetterPlaceholder[];
const listed = (items: readonly string[]) => items.map((name) => `{${name}}`).join(', ');

/** A figure of the site's statistics, by its id in content/stats.yaml: `{stat:improvement-8-weeks}`. */
export const STAT_PLACEHOLDER = /\{stat:([a-z0-9-]+)\}/g;

/**
 * One text of a letter: its length, and one pattern for its placeholders (the content editor
 * shows the same rule): each one the part needs, no "{" or "}" but in a placeholder, and no
 * percentage typed in (a figure is quoted from the statistics, so the letter and the site never
 * say different things).
 */
function letterText(part: keyof typeof LETTER_LIMITS) {
  const required = requiredPlaceholders[part];
  const needs = required.map((name) => `(?=[\\s\\S]*\\{${name}\\})`).join('');
  const pattern = new RegExp(`^(?![\\s\\S]*\\d\\s*%)${needs}(?:[^{}]|\\{(?:${names.join('|')}|stat:[a-z0-9-]+)\\})*$`);
  const message = `${required.length ? `must contain ${listed(required)}; ` : ''}braces only around the placeholders ${listed(names)} or a statistic, {stat:<its id>}; a percentage only as {stat:<id>}`;
  return z.string().min(20).max(LETTER_LIMITS[part]).regex(pattern, message);
}

/** One letter file. The id is its file name. */
export const letterSchema = z.object({
  /** The editors' name for it, e.g. "Two focused hours". Never sent. */
  title: z.string().min(3).max(80),
  /** Its turn in the rotation, 1 first; the first is also the one the page writes itself (HubSpot's embed). */
  order: z.number().int().positive(),
  /** The paragraph after "Dear …,": who writes and why. Must name {parent}, {child}, {grade} and {school}. */
  introduction: letterText('introduction'),
  /** The model, the results and the two links. Must carry {video} and {booking}. Blank lines separate paragraphs. */
  body: letterText('body'),
  /** The last paragraph before "Warm regards,". */
  closing: letterText('closing'),
});

export type LetterText = z.infer<typeof letterSchema>;

/**
 * The files a language lacks: each English letter (`content/letters/{id}.yaml`) needs
 * `content/letters/{language}/{id}.yaml`. `variants` are ids as "es/{id}".
 */
export function missingVariants(english: readonly string[], variants: readonly string[], languages: readonly string[]): string[] {
  return languages.flatMap((language) => english.filter((id) => !variants.includes(`${language}/${id}`)).map((id) => `content/letters/${language}/${id}.yaml`));
}

/**
 * The letter with each `{stat:id}` written as the site shows that figure. A letter naming a
 * statistic that does not exist fails, naming its file (`where`) and the id.
 */
export function withStatistics(letter: Letter, stats: ReadonlyArray<Pick<Stat, 'id' | 'target' | 'text' | 'prefix' | 'suffix'>>, where: string): Letter {
  const byId = new Map(stats.map((stat) => [stat.id, statDisplay(stat)]));
  const fill = (text: string) =>
    text.replace(STAT_PLACEHOLDER, (_whole, id: string) => {
      const figure = byId.get(id);
      if (figure === undefined) throw new Error(`${where}: {stat:${id}} names no statistic of content/stats.yaml`);
      return figure;
    });
  return { ...letter, introduction: fill(letter.introduction), body: fill(letter.body), closing: fill(letter.closing) };
}
