/**
 * The pages of /confirm-send (netlify/functions/confirm-send.mts): for each outcome of a parent's
 * confirmation link, its status, title and content, drawn in the site's frame by responsePage.
 */
import { escapeHtml } from '../../lib/shared/forms/render';
import { buttonClass } from '../../lib/shared/ui';
import type { PlaceText } from '../analytics/experiments';
import { refusalTextIn, type ConfirmOutcome, type SchoolShare } from '../letter/request';
import { defaultLocale, type Locale } from '../../config/locales';
import { localePath } from '../../lib/shared/i18n/paths';
import { fillParts, fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { shareWordsOf } from '../../lib/shared/share-words';
import { dataPath } from '../links';
import { serverWordsOf } from '../words';
import { actions, heading, homeLinkIn, lead } from './frame';
import { goesAt, preview, sendYourself, sendYourselfWords } from './letter';
import { shareBlockHtml } from './school';

/** The page's buttons post back with its language, so that a page answering a post it cannot read keeps it. */
const formAction = (locale: Locale) => (locale === defaultLocale ? '/confirm-send' : `/confirm-send?lang=${locale}`);

/** What the link answers when it cannot look at a letter: a method it does not take, a post it cannot read, the store away. */
export async function confirmSendProblemPage(kind: 'notAvailable' | 'unreadable' | 'tryAgain', locale: Locale): Promise<{ title: string; content: string }> {
  const t = await serverWordsOf(locale);
  const title = t(`confirmSend.${kind}.title`);
  return { title, content: `${heading(title)}${lead(t(`confirmSend.${kind}.lead`))}${actions(await homeLinkIn(locale))}` };
}

/** After the parent's own confirmation: where their letter stands on the school's page. */
function shareLead(share: SchoolShare, t: Translate): string {
  const school = share.schoolName;
  const text =
    share.others === 0
      ? fillWords(t('share.onItsWay.first'), { school })
      : fillWords(t(share.others === 1 ? 'share.onItsWay.one' : 'share.onItsWay.other'), { school, count: String(share.others) });
  return `<p class="mt-8 font-semibold text-ink" role="status">${escapeHtml(text)}</p>`;
}

/**
 * The page of an outcome, in the language its parent wrote in: the stored letter's `locale`, never
 * anything the request says (a link is a preference, the record is the proof). A link that names
 * no letter follows its `lang` (`hint`), English by default. `locale` is the page's, for its frame and `lang`.
 */
export async function confirmSendPage(
  outcome: ConfirmOutcome,
  token: string,
  share?: Shared,
  hint: Locale = defaultLocale,
): Promise<{ status: number; title: string; content: string; locale: Locale }> {
  const message = 'message' in outcome ? outcome.message : undefined;
  const locale: Locale = message ? (message.locale === 'es' ? 'es' : defaultLocale) : hint;
  const t = await serverWordsOf(locale);
  const view =
    outcome.kind === 'ready' || outcome.kind === 'done' ? await outcomePage(outcome, token, locale, share) : await laterOutcomePage(outcome, token, locale);
  if (!message) return { ...view, locale };
  let path: string | undefined;
  try {
    path = dataPath(message.parentEmail, { locale });
  } catch {
    path = undefined;
  }
  if (!path) return { ...view, locale };
  const link = `<a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">${escapeHtml(t('confirmSend.yourData.link'))}</a>`;
  const line = fillParts(t('confirmSend.yourData.text'), () => link)
    .map((part, index) => (index % 2 === 1 ? part : escapeHtml(part)))
    .join('');
  return { ...view, locale, content: `${view.content}<p class="mt-6 text-sm text-muted">${line}</p>` };
}

/** The request ("ready": read, then press) and its confirmation ("done": when it goes), in the letter's language. */
async function outcomePage(
  outcome: Extract<ConfirmOutcome, { kind: 'ready' } | { kind: 'done' }>,
  token: string,
  locale: Locale,
  share?: Shared,
): Promise<{ status: number; title: string; content: string }> {
  const t = await serverWordsOf(locale);
  const say = (key: string, values: Record<string, string> = {}) => fillWords(t(`confirmSend.${key}`), values);
  if (outcome.kind === 'ready')
    return {
      status: 200,
      title: say('ready.title'),
      content: `${heading(say('ready.heading', { school: outcome.message.schoolName || say('ready.yourSchool') }))}${lead(say('ready.lead'))}${preview(outcome.message, locale)}<form method="post" action="${formAction(locale)}" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><button type="submit" class="${buttonClass('accent', 'lg')}">${escapeHtml(say('ready.button'))}</button><span class="text-sm text-muted">${escapeHtml(say('ready.ignore'))}</span></form>`,
    };
  const { message } = outcome;
  const sent = message.status === 'sent' || message.status === 'delivered';
  const who = message.toName || message.to;
  const when = goesAt(outcome.goesAt ? { at: outcome.goesAt, timeZone: message.delivery?.timeZone } : message.delivery, locale);
  const text = sent
    ? say(message.status === 'delivered' ? 'done.delivered' : 'done.sent', { who })
    : outcome.checking
      ? say('done.checking', { who })
      : when === undefined
        ? say('done.now', { who })
        : say('done.later', { who, when });
  const title = say(sent ? 'done.sentTitle' : 'done.confirmedTitle');
  const english = locale === defaultLocale;
  const next = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/nominate-school', locale)}">${escapeHtml(t('confirmSend.next'))}</a>`;
  const shared = share ? `${shareLead(share, t)}${shareBlockHtml(share, shareWordsOf(t), english ? share.text : undefined)}` : '';
  return { status: 200, title, content: `${heading(title)}${lead(text)}${shared}${preview(message, locale)}${actions(next, await homeLinkIn(locale))}` };
}

/**
 * Every outcome but the request and its confirmation, in the parent's language (words in
 * content/i18n/{locale}/confirmSend.yaml; the reason a letter ended is endText's, already theirs).
 */
async function laterOutcomePage(
  outcome: Exclude<ConfirmOutcome, { kind: 'ready' } | { kind: 'done' }>,
  token: string,
  locale: Locale,
): Promise<{ status: number; title: string; content: string }> {
  const t = await serverWordsOf(locale);
  const home = await homeLinkIn(locale);
  const again = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/lead-the-change', locale)}#email-form">${escapeHtml(t('confirmSend.again'))}</a>`;
  const next = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/nominate-school', locale)}">${escapeHtml(t('confirmSend.next'))}</a>`;
  const byHand = (message: Parameters<typeof sendYourself>[0]) => sendYourself(message, sendYourselfWords(t), locale);
  switch (outcome.kind) {
    case 'expired':
      return {
        status: 410,
        title: t('confirmSend.expired.title'),
        content: `${heading(t('confirmSend.expired.title'))}${lead(t('confirmSend.expired.lead'))}${outcome.message ? byHand(outcome.message) : ''}${actions(again, home)}`,
      };
    case 'replaced':
      return {
        status: 409,
        title: t('confirmSend.replaced.title'),
        content: `${heading(t('confirmSend.replaced.heading'))}${lead(t('confirmSend.replaced.lead'))}${actions(home)}`,
      };
    case 'ended':
      return {
        status: 409,
        title: t('confirmSend.ended.title'),
        content: `${heading(t('confirmSend.ended.title'))}${lead(outcome.reason)}${byHand(outcome.message)}${actions(again, home)}`,
      };
    case 'self_ready':
      return {
        status: 200,
        title: t('confirmSend.selfReady.title'),
        content: `${heading(fillWords(t('confirmSend.selfReady.heading'), { name: outcome.message.toName || outcome.message.to }))}${lead(
          t('confirmSend.selfReady.lead'),
        )}${preview(outcome.message, locale)}<form method="post" action="${formAction(locale)}" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('accent', 'lg')}">${escapeHtml(t('confirmSend.selfReady.button'))}</button><span class="text-sm text-muted">${escapeHtml(t('confirmSend.selfReady.ignore'))}</span></form>`,
      };
    case 'self_done':
      return {
        status: 200,
        title: t('confirmSend.selfDone.title'),
        content: `${heading(t('confirmSend.selfDone.heading'))}${lead(t('confirmSend.selfDone.lead'))}${actions(next, home)}`,
      };
    case 'bounced':
      return {
        status: 409,
        title: t('confirmSend.bounced.title'),
        content: `${heading(t('confirmSend.bounced.title'))}${lead(
          fillWords(t(outcome.message.lastError === 'address_blocked' ? 'confirmSend.bounced.blocked' : 'confirmSend.bounced.noMailbox'), {
            address: outcome.message.to,
          }),
        )}${byHand(outcome.message)}${actions(home)}`,
      };
    case 'refused':
      return {
        status: 409,
        title: t('confirmSend.refused.title'),
        content: `${heading(t('confirmSend.refused.title'))}${lead(await refusalTextIn(outcome.message, outcome.refusal, locale))}${byHand(outcome.message)}${actions(home)}`,
      };
    case 'invalid':
      return {
        status: 404,
        title: t('confirmSend.invalid.title'),
        content: `${heading(t('confirmSend.invalid.title'))}${lead(t('confirmSend.invalid.lead'))}${actions(again, home)}`,
      };
  }
}

/** The school's page to share after a confirmed letter, with the share text a running experiment gives this visitor. */
export type Shared = SchoolShare & { text?: PlaceText };
