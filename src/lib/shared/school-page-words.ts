/**
 * The school page (/schools/{key}, /es/schools/{key}) in words and numbers, for the server that
 * renders it, the script that keeps its count live and the emails that tell its news: the
 * milestones the goal bar counts towards, and in each language how many parents wrote, what is
 * left to the goal and what the latest outcome says. The page's other words are
 * content/i18n/{locale}/schoolPage.yaml's; these are here because the browser's script and the
 * emails say them too.
 */
import { defaultLocale, localeTags, type Locale } from '../../config/locales';
import type { AnswerKind } from './answer-kinds';
import { formatCount } from './i18n/format';
import { fillWords } from './i18n/translator';

/** The goals a school's count climbs through; past the last, every next hundred. */
export const MILESTONES = [5, 10, 25, 50, 100] as const;

/** The next goal above `count` parents (a school at 10 aims for 25). */
export function nextMilestone(count: number): number {
  const reached = Math.max(0, Math.floor(count));
  return MILESTONES.find((goal) => goal > reached) ?? (Math.floor(reached / 100) + 1) * 100;
}

/** The outcomes a school page tells (the others are no news to share). */
export const pageOutcomes = ['replied', 'meeting'] as const satisfies readonly AnswerKind[];
export type PageOutcome = (typeof pageOutcomes)[number];

interface FigureWords {
  /** How many parents wrote, by the language's plural category of the count. */
  count: { one: string; other: string };
  /** What is left to the next goal, by the plural category of what is left. */
  goal: { one: string; other: string };
  outcome: Record<PageOutcome, string>;
  /** No outcome yet. */
  noAnswer: string;
  /** A page waiting for its first delivered letter. */
  onItsWay: string;
}

/** The figures' sentences in each language ({count}, {more} and {goal} written as the language writes numbers). */
const figureWords: Record<Locale, FigureWords> = {
  en: {
    count: { one: '{count} parent has written', other: '{count} parents have written' },
    goal: { one: '{more} more to reach {goal}', other: '{more} more to reach {goal}' },
    outcome: { replied: '{school} replied', meeting: '{school} agreed to meet' },
    noAnswer: 'No answer from {school} yet',
    onItsWay: 'The first letter is on its way',
  },
  es: {
    count: { one: '{count} padre o madre ha escrito', other: '{count} padres y madres han escrito' },
    goal: { one: 'Falta {more} para llegar a {goal}', other: 'Faltan {more} para llegar a {goal}' },
    outcome: { replied: '{school} respondió', meeting: '{school} aceptó reunirse' },
    noAnswer: '{school} todavía no ha respondido',
    onItsWay: 'La primera carta va en camino',
  },
};

/** The form of `words` for `count` in `locale` ("1 parent", "2 parents"). */
const plural = (words: { one: string; other: string }, count: number, locale: Locale) =>
  new Intl.PluralRules(localeTags[locale].lang).select(count) === 'one' ? words.one : words.other;

export interface SchoolProgress {
  parents: number;
  goal: number;
  /** How far the bar is filled, 0–100. */
  percent: number;
  /** "3 parents have written", "1 parent has written"; "3 padres y madres han escrito". */
  countText: string;
  /** "2 more to reach 5"; "Faltan 2 para llegar a 5". */
  goalText: string;
}

export function schoolProgress(parents: number, locale: Locale = defaultLocale): SchoolProgress {
  const count = Math.max(0, Math.floor(parents));
  const goal = nextMilestone(count);
  const words = figureWords[locale];
  const number = (value: number) => formatCount(value, locale);
  return {
    parents: count,
    goal,
    percent: Math.round((count / goal) * 100),
    countText: fillWords(plural(words.count, count, locale), { count: number(count) }),
    goalText: fillWords(plural(words.goal, goal - count, locale), { more: number(goal - count), goal: number(goal) }),
  };
}

/** What the school did, as its page says it: "Oakwood Academy agreed to meet". */
export function outcomeText(school: string, kind: PageOutcome, locale: Locale = defaultLocale): string {
  return fillWords(figureWords[locale].outcome[kind], { school });
}

/** The page's line about the outcome: the latest one, else that none came yet, else that the first letter is on its way. */
export function outcomeLine(page: { schoolName: string; published: boolean; outcome?: PageOutcome | null }, locale: Locale = defaultLocale): string {
  const words = figureWords[locale];
  if (page.outcome) return outcomeText(page.schoolName, page.outcome, locale);
  return page.published ? fillWords(words.noAnswer, { school: page.schoolName }) : words.onItsWay;
}

/** The built frame of every school page (src/pages/_school-page/SchoolPage.astro) and its marked regions. */
export const SCHOOL_PAGE_SHELL = '/school-page';
export const SCHOOL_REGION = 'school-page';
/** The email form's own region (src/components/forms/Form.astro's default instance). */
export const SCHOOL_FORM_INSTANCE = 'form-emailGenerator';
/** How often an open school page asks for its count again. */
export const SCHOOL_LIVE_INTERVAL_MS = 30_000;
