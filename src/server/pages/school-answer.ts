/**
 * The pages of /school-answer (netlify/functions/school-answer.mts), in the language the parent
 * wrote in: their words are content/i18n/{locale}/schoolAnswer.yaml, the page's frame and `lang`
 * the response page's in that language.
 */
import { publicEnv } from '../../config/env';
import { defaultLocale, type Locale } from '../../config/locales';
import { site } from '../../config/site';
import { composeLinks, emailAsText, followUpEmail } from '../../lib/shared/email/template';
import { boxClass, choiceClass, errorClass, escapeHtml, helpClass, inputClass, labelClass, wordsConsentHtml } from '../../lib/shared/forms/render';
import { WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../../lib/shared/email/personal-fields';
import { answerKinds, ANSWER_WINDOW_DAYS, COMMENT_MAX, type AnswerKind } from '../../lib/shared/answer-kinds';
import { fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { localePath } from '../../lib/shared/i18n/paths';
import { buttonClass } from '../../lib/shared/ui';
import { actions, heading, lead } from './frame';
import { dataPath } from '../links';
import { serverWordsOf } from '../words';
import type { OutboxMessage } from '../letter/outbox';
import type { AnswerLinkState, SchoolAnswer } from '../schools/answers';

/** The words of these pages in one language, and that language. */
export interface AnswerWords {
  locale: Locale;
  /** The words of `schoolAnswer.{key}`, with their placeholders filled. */
  say(key: string, values?: Record<string, string | number>): string;
  /** How the page names an answer ("They replied and answered"). */
  kind(kind: AnswerKind): string;
}

export async function answerWords(locale: Locale): Promise<AnswerWords> {
  const t: Translate = await serverWordsOf(locale);
  const say = (key: string, values: Record<string, string | number> = {}) => fillWords(t(`schoolAnswer.${key}`), values);
  return { locale, say, kind: (kind) => say(`kinds.${kind}`) };
}

/** The language of the pages a letter's follow-up link opens: the one its parent wrote in (kept with the letter), never the link's. */
export const pageLocaleOf = (message: Pick<OutboxMessage, 'locale'>): Locale => message.locale ?? defaultLocale;

const opensInNewTab = (w: AnswerWords) => `<span class="sr-only"> ${escapeHtml(w.say('opensInNewTab'))}</span>`;

export const link = (href: string, text: string, variant: 'primary' | 'secondary' | 'accent' = 'primary', external?: AnswerWords, hreflang?: Locale) =>
  `<a class="${buttonClass(variant, 'md')}" href="${escapeHtml(href)}"${hreflang ? ` hreflang="${hreflang}"` : ''}${external ? ' target="_blank" rel="noopener noreferrer"' : ''}>${escapeHtml(text)}${external ? opensInNewTab(external) : ''}</a>`;

/** The way out of every page: the home in the page's language. */
export const home = (w: AnswerWords) => `<a class="${buttonClass('secondary', 'md')}" href="${localePath('/', w.locale)}">${escapeHtml(w.say('home'))}</a>`;

/** A link to a page the page's language does not have yet: the English page, saying so. */
const englishLink = (w: AnswerWords, href: string, text: string, variant: 'primary' | 'secondary', external = false) =>
  w.locale === defaultLocale
    ? link(href, text, variant, external ? w : undefined)
    : link(href, `${text} ${w.say('inEnglish')}`, variant, external ? w : undefined, 'en');

/** The school as these pages name it: the letter's, else "your school". */
const schoolOf = (w: AnswerWords, message: OutboxMessage) => message.schoolName || w.say('yourSchool');

export function questionForm(
  w: AnswerWords,
  message: OutboxMessage,
  token: string,
  chosen: { kind?: AnswerKind; comment?: string; days?: string; seen?: string; wordsConsent?: boolean },
  errors: { answer?: string; comment?: string; days?: string; wordsConsent?: string } = {},
): string {
  const school = schoolOf(w, message);
  const optional = `<span class="font-normal text-muted">${escapeHtml(w.say('form.optional'))}</span>`;
  const options = answerKinds
    .map(
      (kind, index) =>
        `<label class="${choiceClass}" for="answer-${index}"><input type="radio" id="answer-${index}" name="answer" value="${kind}" class="${boxClass}" required${chosen.kind === kind ? ' checked' : ''}${
          errors.answer ? ' aria-describedby="answer-error"' : ''
        }><span class="font-medium">${escapeHtml(w.kind(kind))}</span></label>`,
    )
    .join('');
  const answerError = `<p id="answer-error" class="${errorClass}"${errors.answer ? '' : ' hidden'}>${escapeHtml(errors.answer ?? '')}</p>`;
  const commentError = `<p id="comment-error" class="${errorClass}"${errors.comment ? '' : ' hidden'}>${escapeHtml(errors.comment ?? '')}</p>`;
  const daysError = `<p id="days-error" class="${errorClass}"${errors.days ? '' : ' hidden'}>${escapeHtml(errors.days ?? '')}</p>`;
  const daysField = `<div><label for="days" class="${labelClass}">${escapeHtml(w.say('form.daysLabel'))} ${optional}</label><p id="days-help" class="${helpClass}">${escapeHtml(w.say('form.daysHelp'))}</p><input id="days" name="days" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="3" autocomplete="off" class="${inputClass} max-w-32" value="${escapeHtml(chosen.days ?? '')}" aria-describedby="days-help${errors.days ? ' days-error' : ''}"${errors.days ? ' aria-invalid="true"' : ''}>${daysError}</div>`;
  // The comment may be quoted on the school's page only if the parent ticks this, apart from the answer.
  const consent = wordsConsentHtml({
    instance: 'answer',
    values: { [WORDS_CONSENT_FIELD]: chosen.wordsConsent ? WORDS_CONSENT_VALUE : '' },
    errors: errors.wordsConsent ? { [WORDS_CONSENT_FIELD]: errors.wordsConsent } : {},
    ...(w.locale === defaultLocale ? {} : { locale: w.locale }),
  });
  const anyError = errors.answer || errors.comment || errors.days || errors.wordsConsent;
  // A Spanish page posts its language beside the token: a hint for the pages the token proves nothing for.
  const action = w.locale === defaultLocale ? '/school-answer' : `/school-answer?lang=${w.locale}`;
  return `<form method="post" action="${action}" class="mt-8 space-y-6 rounded-card border border-line bg-white p-6 shadow-card"${anyError ? ' aria-describedby="answer-summary"' : ''}>${
    anyError
      ? `<div id="answer-summary" class="rounded-xl border border-danger-600 bg-danger-50 p-3 text-sm font-medium text-danger-600" role="alert">${escapeHtml(w.say('form.summary'))}</div>`
      : ''
  }<input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="seen" value="${escapeHtml(chosen.seen ?? '')}"><fieldset${errors.answer ? ' aria-invalid="true"' : ''}><legend class="${labelClass}">${escapeHtml(w.say('form.question', { school }))}</legend><div class="mt-2 grid gap-2 sm:grid-cols-2">${options}</div></fieldset>${answerError}${daysField}<div><label for="comment" class="${labelClass}">${escapeHtml(w.say('form.commentLabel'))} ${optional}</label><p id="comment-help" class="${helpClass}">${escapeHtml(w.say('form.commentHelp', { max: COMMENT_MAX }))}</p><textarea id="comment" name="comment" rows="4" maxlength="${COMMENT_MAX}" class="${inputClass}" aria-describedby="comment-help${errors.comment ? ' comment-error' : ''}"${errors.comment ? ' aria-invalid="true"' : ''}>${escapeHtml(chosen.comment ?? '')}</textarea>${commentError}</div>${consent}<button type="submit" class="${buttonClass('primary', 'md')}">${escapeHtml(w.say('form.submit'))}</button></form>`;
}

/** The day the letter went, as the page's language writes it ("November 20, 2026", "20 de noviembre de 2026"). */
const sentDay = (w: AnswerWords, message: OutboxMessage) =>
  new Date(message.sentAt ?? message.createdAt).toLocaleDateString(w.locale === defaultLocale ? 'en-US' : `${w.locale}-US`, {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });

export function askPage(w: AnswerWords, state: Extract<AnswerLinkState, { kind: 'open' }>, token: string, wordsConsent = false): string {
  const { message, answer } = state;
  return `${heading(w.say('ask.heading', { school: schoolOf(w, message) }))}${lead(
    w.say('ask.lead', { contact: message.toName || message.to, sent: sentDay(w, message) }),
  )}${answer ? `<p class="mt-4 text-sm text-muted" role="status">${escapeHtml(w.say('ask.soFar'))} <strong>${escapeHtml(w.kind(answer.kind))}</strong>. ${escapeHtml(w.say('ask.canChange'))}</p>` : ''}${questionForm(w, message, token, { kind: answer?.kind, comment: answer?.comment, days: answer?.daysTaken?.toString(), seen: state.etag, wordsConsent })}`;
}

export function thanksPage(w: AnswerWords, message: OutboxMessage, answer: SchoolAnswer, token: string): string {
  const kind = answer.kind;
  const change = `<p class="mt-6 text-sm text-muted">${escapeHtml(w.say('thanks.notRight'))} <a class="font-medium text-brand-700 underline" href="/school-answer?token=${encodeURIComponent(token)}">${escapeHtml(w.say('thanks.change'))}</a>.</p>`;
  const bookCall = (variant: 'primary' | 'accent') => link(publicEnv.bookingUrl, w.say('bookCall'), variant, w);
  if (kind === 'replied' || kind === 'meeting') {
    return `${heading(w.say(kind === 'meeting' ? 'thanks.meetingTitle' : 'thanks.repliedTitle'))}${lead(
      w.say(kind === 'meeting' ? 'thanks.meetingLead' : 'thanks.repliedLead'),
    )}${actions(bookCall('accent'), link(localePath('/faqs', w.locale), w.say('thanks.faqs'), 'secondary'))}${change}`;
  }
  if (kind === 'no_answer' || kind === 'replied_not_answered' || kind === 'acknowledged') {
    const followUp = followUpEmail({
      subject: message.subject,
      toName: message.toName,
      to: message.to,
      schoolName: message.schoolName,
      parentName: message.parentName,
      sentAt: message.sentAt ?? message.createdAt,
      videoUrl: publicEnv.emailVideoUrl,
      language: message.letterLocale ?? defaultLocale,
    });
    const links = composeLinks(followUp);
    // The follow-up is in the first letter's language: where that is not the page's, the page says so.
    const letterLanguage = message.letterLocale ?? defaultLocale;
    const english = letterLanguage !== w.locale && letterLanguage === defaultLocale;
    return `${heading(w.say('thanks.nudgeTitle'))}${lead(
      w.say(kind === 'no_answer' ? 'thanks.nudgeLeadNoAnswer' : 'thanks.nudgeLeadAgain'),
    )}<div class="mt-6"><label for="follow-up-text" class="${labelClass}">${escapeHtml(english ? `${w.say('thanks.nudgeLabel')} ${w.say('inEnglish')}` : w.say('thanks.nudgeLabel'))}</label><textarea id="follow-up-text" readonly rows="14" class="${inputClass} font-mono text-sm"${letterLanguage !== w.locale ? ` lang="${letterLanguage}"` : ''}>${escapeHtml(
      emailAsText(followUp, letterLanguage),
    )}</textarea></div>${actions(
      `<a class="${buttonClass('primary', 'md')}" href="${escapeHtml(links.mailto)}">${escapeHtml(w.say('thanks.openMailApp'))}</a>`,
      link(links.gmail, 'Gmail', 'secondary', w),
      link(links.outlook, 'Outlook', 'secondary', w),
    )}${change}`;
  }
  return `${heading(w.say('thanks.toldTitle'))}${lead(w.say('thanks.toldLead'))}${actions(
    link(localePath('/nominate-school', w.locale), w.say('thanks.nominate'), 'primary'),
    englishLink(w, site.ambassador.registerUrl, w.say('thanks.ambassador'), 'secondary', true),
  )}${change}`;
}

export const invalidPage = (w: AnswerWords) => ({
  status: 404,
  title: w.say('invalid.title'),
  content: `${heading(w.say('invalid.title'))}${lead(w.say('invalid.lead'))}${actions(home(w))}`,
});

export function expiredPage(w: AnswerWords, state: Extract<AnswerLinkState, { kind: 'expired' }>) {
  return {
    status: 410,
    title: w.say('expired.title'),
    content: `${heading(w.say('expired.title'))}${lead(
      state.answer
        ? w.say('expired.answered', { answer: w.kind(state.answer.kind), days: ANSWER_WINDOW_DAYS })
        : w.say('expired.unanswered', { days: ANSWER_WINDOW_DAYS }),
    )}${actions(link(publicEnv.bookingUrl, w.say('bookCall'), 'primary', w), home(w))}`,
  };
}

/** A page with a heading, a line and the way home: what cannot be answered (405, 400, 503). */
export const notePage = (w: AnswerWords, place: 'notAvailable' | 'unreadable' | 'unavailable', line = w.say(`${place}.lead`)) =>
  `${heading(w.say(`${place}.title`))}${lead(line)}${actions(home(w))}`;

/** "Your data": the parent's own signed link, under every page their link (from their inbox) opens. */
export function yourData(w: AnswerWords, message: OutboxMessage): string {
  let path: string | undefined;
  try {
    path = dataPath(message.parentEmail, w.locale === defaultLocale ? {} : { locale: w.locale });
  } catch {
    path = undefined;
  }
  return path
    ? `<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">${escapeHtml(w.say('yourData.link'))}</a>${escapeHtml(w.say('yourData.rest'))}</p>`
    : '';
}
