/** The words of the home page's parts that every language's home shares (content/i18n/{locale}/{place}.yaml, `home`). */
import { wordsUnder, type Translate } from '../../shared/i18n/translator';

export const heroWords = (t: Translate) => ({
  ...wordsUnder(t, 'home.hero', ['title', 'lead', 'badgesLabel', 'trusted', 'loved', 'built', 'join']),
  newTab: t('frame.newTab'),
});
export const joinWords = (t: Translate) => ({ ...wordsUnder(t, 'home.join', ['title', 'lead', 'button']), newTab: t('frame.newTab') });
