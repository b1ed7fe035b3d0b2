/**
 * The pages of /letter-address (netlify/functions/letter-address.mts): the form that corrects a
 * bounced letter's address, and what each outcome of the link says, in the language the parent
 * wrote in (the stored letter's `locale`; a link that names no letter follows its `lang` hint).
 * Words in content/i18n/{locale}/letterAddress.yaml.
 */
import { defaultLocale, type Locale } from '../../config/locales';
import { errorClass, escapeHtml, helpClass, inputClass, labelClass } from '../../lib/shared/forms/render';
import { fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { buttonClass } from '../../lib/shared/ui';
import type { CorrectionOutcome } from '../letter/request';
import { refusalTextIn } from '../letter/request';
import { serverWordsOf } from '../words';
import { actions, heading, homeLinkIn, lead } from './frame';
import { goesAt, preview, sendYourself, sendYourselfWords } from './letter';

export interface LetterAddressPage {
  status: number;
  title: string;
  content: string;
  locale: Locale;
}

/** The form posts back with the page's language, so that a page answering a post it cannot read keeps it. */
const formAction = (locale: Locale) => (locale === defaultLocale ? '/letter-address' : `/letter-address?lang=${locale}`);

export function addressForm(t: Translate, locale: Locale, token: string, value = '', problem?: string): string {
  const error = problem ? `<p id="address-error" class="${errorClass}" role="alert">${escapeHtml(problem)}</p>` : '';
  return `<form method="post" action="${formAction(locale)}" class="mt-8 space-y-4" novalidate><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><div><label for="address" class="${labelClass}">${escapeHtml(t('letterAddress.form.label'))}</label><p id="address-help" class="${helpClass}">${escapeHtml(t('letterAddress.form.help'))}</p><input id="address" name="address" type="email" autocomplete="off" required maxlength="254" value="${escapeHtml(value)}" class="${inputClass}" aria-describedby="address-help${problem ? ' address-error' : ''}"${problem ? ' aria-invalid="true" autofocus' : ''}>${error}</div><button type="submit" class="${buttonClass('accent', 'lg')}">${escapeHtml(t('letterAddress.form.button'))}</button></form>`;
}

/** A page of the link's outcome; `hint` is the language of a page whose link names no letter. */
export async function letterAddressPage(outcome: CorrectionOutcome, token: string, typed = '', hint: Locale = defaultLocale): Promise<LetterAddressPage> {
  const message = 'message' in outcome ? outcome.message : undefined;
  const locale: Locale = message ? (message.locale === 'es' ? 'es' : defaultLocale) : hint;
  const t = await serverWordsOf(locale);
  const say = (key: string, values: Record<string, string> = {}) => fillWords(t(`letterAddress.${key}`), values);
  const home = await homeLinkIn(locale);
  const page = (status: number, title: string, content: string) => ({ status, title, content, locale });
  switch (outcome.kind) {
    case 'ready':
      return page(
        200,
        say('title'),
        `${heading(say('heading'))}${lead(say('ready', { address: outcome.message.to, school: outcome.message.schoolName || say('theSchool') }))}${addressForm(t, locale, token)}${preview(outcome.message, locale)}`,
      );
    case 'refused': {
      const problem = 'problem' in outcome ? say(`problem.${outcome.problem}`) : await refusalTextIn(outcome.message, outcome.refusal, locale);
      const after = 'refusal' in outcome ? sendYourself(outcome.message, sendYourselfWords(t), locale) : preview(outcome.message, locale);
      return page(
        400,
        say('title'),
        `${heading(say('heading'))}${lead(say('refused', { address: outcome.message.to }))}${addressForm(t, locale, token, typed, problem)}${after}`,
      );
    }
    case 'sent': {
      const { replacement } = outcome;
      const when = goesAt(replacement.delivery, locale);
      const address = replacement.to;
      const text =
        replacement.status === 'sent'
          ? say('sent.sent', { address })
          : when === undefined
            ? say('sent.now', { address })
            : say('sent.later', { address, when });
      return page(200, say('sent.title'), `${heading(say('sent.title'))}${lead(text)}${preview(replacement, locale)}${actions(home)}`);
    }
    case 'corrected':
      return page(
        409,
        say('corrected.title'),
        `${heading(say('corrected.title'))}${lead(outcome.replacement ? say('corrected.went', { address: outcome.replacement.to }) : say('corrected.once'))}${actions(home)}`,
      );
    case 'not_bounced':
      return page(409, say('notBounced.title'), `${heading(say('notBounced.title'))}${lead(say('notBounced.lead'))}${actions(home)}`);
    case 'expired':
      return page(
        410,
        say('expired.title'),
        `${heading(say('expired.title'))}${lead(say('expired.lead'))}${outcome.message ? sendYourself(outcome.message, sendYourselfWords(t), locale) : ''}${actions(home)}`,
      );
    case 'invalid':
      return page(404, say('invalid.title'), `${heading(say('invalid.title'))}${lead(say('invalid.lead'))}${actions(home)}`);
  }
}

/** What the link answers when it cannot look at a letter: a method it does not take, a post it cannot read, the store away. */
export async function letterAddressProblemPage(kind: 'notAvailable' | 'unreadable' | 'tryAgain', locale: Locale): Promise<{ title: string; content: string }> {
  const t = await serverWordsOf(locale);
  const title = t(`letterAddress.${kind}.title`);
  return { title, content: `${heading(title)}${lead(t(`letterAddress.${kind}.lead`))}${actions(await homeLinkIn(locale))}` };
}
