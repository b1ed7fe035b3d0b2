/**
 * The words of the movement's figures in a page's language (content/i18n/{locale}/impact.yaml),
 * read at build and handed to the band, whose script writes the live figures with them.
 */
import type { Locale } from '../../config/locales';
import { IMPACT_MIN_SHOWN, type Impact, type ImpactFigure } from './answer-kinds';
import { formatCount } from './i18n/format';
import { fillWords, type Translate } from './i18n/translator';

export type ImpactKey = keyof Omit<Impact, 'updatedAt'>;
export const impactKeys: readonly ImpactKey[] = ['schoolsReached', 'schoolsAnswered', 'meetings', 'parentsWrote'];

export interface ImpactWords {
  locale: Locale;
  labels: Record<ImpactKey, string>;
  /** What a figure below the public threshold shows ("fewer than 5"). */
  fewer: string;
  /** The one sentence while every figure is below it. */
  starting: string;
}

export function impactWordsOf(t: Translate, locale: Locale): ImpactWords {
  const min = String(IMPACT_MIN_SHOWN);
  return {
    locale,
    labels: Object.fromEntries(impactKeys.map((key) => [key, t(`impact.labels.${key}`)])) as Record<ImpactKey, string>,
    fewer: fillWords(t('impact.fewer'), { min }),
    starting: fillWords(t('impact.starting'), { min }),
  };
}

/** A figure as the page shows it: the count in its language's digits, or "fewer than 5" in its words. */
export function shownFigure(figure: Pick<ImpactFigure, 'value'>, words: Pick<ImpactWords, 'locale' | 'fewer'>): string {
  return typeof figure.value === 'number' ? formatCount(figure.value, words.locale) : words.fewer;
}
