/**
 * The pages of /your-email (netlify/functions/your-email.mts): "Your Email is Ready" without
 * JavaScript, its "Edit details" form, and the page for a link that is not valid. A parent's pages
 * are in the language their draft was made in (`locale`, words in content/i18n/{locale}/yourEmail.yaml).
 * Their links and forms carry `lang` (a Spanish draft's: `lang=es`), only a hint for the pages that
 * find no draft: a link cut short, forged or whose draft is gone, a post that cannot be read, the
 * store away (`hintedLocale`); a link that names a draft is always in the draft's language.
 */
import { emailFormFields, sendChoiceField } from '../../config/forms';
import { NOTE_FIELD, NOTE_MAX, OWN_WORDS_FIELD, WORDS_CONSENT_FIELD, WORDS_CONSENT_VALUE } from '../../lib/shared/email/note';
import { isPlatformChoice } from '../../lib/shared/email/submission';
import { composeLinks, emailAsText } from '../../lib/shared/email/template';
import { allFields } from '../../lib/shared/forms/fields';
import { errorClass, escapeHtml, helpClass, inputClass, labelClass, renderForm, wordsConsentHtml } from '../../lib/shared/forms/render';
import type { RawValues } from '../../lib/shared/forms/values';
import { buttonClass } from '../../lib/shared/ui';
import { composeDraft, type LetteredDraft } from '../letter/drafts';
import { formDefinitions } from '../forms/definitions';
import { definitionIn } from '../forms/in-locale';
import { defaultLocale, type Locale } from '../../config/locales';
import { personalWords } from '../../lib/shared/email/personal-fields';
import { linkIn, localePath } from '../../lib/shared/i18n/paths';
import type { Translate } from '../../lib/shared/i18n/translator';
import { serverWordsOf } from '../words';
import { heading, lead } from './frame';

/** The way back to the email form, in the page's language. */
export function backToForm({ t, locale }: PageWords): string {
  const form = linkIn('/lead-the-change#email-form', locale);
  return `<div class="mt-8"><a class="${buttonClass('secondary', 'md')}" href="${escapeHtml(form.href)}"${form.hreflang ? ` hreflang="${form.hreflang}"` : ''}>${escapeHtml(t('yourEmail.backToForm'))}</a></div>`;
}

/**
 * /your-email with `params`, and with `lang` for a language other than English: the hint the page
 * answers in when it finds no draft. `&` is escaped for an attribute.
 */
export function yourEmailHref(params: Record<string, string>, locale: Locale): string {
  const query = new URLSearchParams({ ...params, ...(locale === defaultLocale ? {} : { lang: locale }) }).toString();
  return escapeHtml(`/your-email${query ? `?${query}` : ''}`);
}

/** A draft's pages' words and language: the draft's own (the record), never the request's. */
export interface PageWords {
  t: Translate;
  locale: Locale;
}

export async function pageWordsOf(draft: Pick<LetteredDraft, 'locale'>): Promise<PageWords> {
  const locale = draft.locale ?? defaultLocale;
  return { t: await serverWordsOf(locale), locale };
}

export interface Notice {
  tone: 'status' | 'alert';
  text: string;
}

/**
 * "Your data": the page that asks for a link by address. Never a signed link here: this page is
 * reached by typing an address into a form, which proves nothing about whose it is.
 */
const yourData = ({ t, locale }: PageWords) =>
  `<p class="mt-6 text-sm text-muted">${escapeHtml(t('yourEmail.yourData')).replace(
    '{link}',
    `<a class="font-medium text-brand-700 underline" href="/your-data"${locale === defaultLocale ? '' : ' hreflang="en"'}>${escapeHtml(t('yourEmail.yourDataLink'))}</a>`,
  )}</p>`;

export function emailPage(
  draft: LetteredDraft,
  token: string,
  words: PageWords,
  options: { note?: string; noteError?: string; notice?: Notice; wordsConsent?: boolean } = {},
): string {
  const { t, locale } = words;
  const w = (key: string) => escapeHtml(t(`yourEmail.${key}`));
  const personal = personalWords[locale];
  const letterLang = draft.letter.language ?? defaultLocale;
  const lang = letterLang !== locale ? ` lang="${letterLang}"` : '';
  const note = options.note ?? draft.note;
  const wordsConsent = options.wordsConsent ?? draft.wordsConsent ?? false;
  const consentValues = { [WORDS_CONSENT_FIELD]: wordsConsent ? WORDS_CONSENT_VALUE : '' };
  const email = composeDraft(draft, note);
  const links = composeLinks(email);
  const hidden = `<input type="hidden" name="id" value="${escapeHtml(draft.id)}"><input type="hidden" name="t" value="${escapeHtml(token)}">`;
  const requested = Boolean(draft.messageId);
  const notice = options.notice
    ? `<div class="mt-6 rounded-xl border p-4 ${options.notice.tone === 'alert' ? 'border-danger-600 bg-danger-50 text-danger-600' : 'border-brand-200 bg-brand-50 text-ink'}" role="${options.notice.tone}">${escapeHtml(options.notice.text)}</div>`
    : draft.wantsPlatformSend && !requested && !draft.selfSentMessageId
      ? // The parent chose our platform in the form; without scripts nothing was asked for yet (a
        // page this address opens changes nothing), so the page says where that choice is made.
        `<p class="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-ink" data-chosen-platform>${w('chosePlatform').replace('{link}', `<a class="font-medium text-brand-700 underline" href="#send-platform">${w('send')}</a>`)}</p>`
      : '';
  const action = yourEmailHref({}, locale);
  const platform = requested
    ? `<p class="text-sm text-muted">${w('requested')}</p>`
    : `<form method="post" action="${action}" class="space-y-3">${hidden}<input type="hidden" name="action" value="send"><input type="hidden" name="tz" value="" data-time-zone><div><label for="note" class="${labelClass}">${escapeHtml(personal.noteLabel)} <span class="font-normal text-muted">${w('optional')}</span></label><p id="note-help" class="${helpClass}">${escapeHtml(personal.noteHelp)}</p><textarea id="note" name="note" rows="3" maxlength="${NOTE_MAX}" class="${inputClass}" aria-describedby="note-help${options.noteError ? ' note-error' : ''}"${options.noteError ? ' aria-invalid="true"' : ''}>${escapeHtml(note)}</textarea><p id="note-error" class="${errorClass}"${options.noteError ? '' : ' hidden'}>${escapeHtml(options.noteError ?? '')}</p></div>${wordsConsentHtml({ instance: 'your-email', values: consentValues, locale })}<button type="submit" class="${buttonClass('accent', 'md')}">${w('send')}</button><p class="text-xs text-muted">${w('confirmFirst')}</p></form>`;
  const selfSent = draft.selfSentMessageId
    ? `<p class="text-sm text-success-600" role="status">${w('selfThanks')}</p>`
    : `<form method="post" action="${action}">${hidden}<input type="hidden" name="action" value="self"><input type="hidden" name="note" value="${escapeHtml(note)}">${wordsConsent ? `<input type="hidden" name="${WORDS_CONSENT_FIELD}" value="${WORDS_CONSENT_VALUE}">` : ''}<button type="submit" class="${buttonClass('secondary', 'sm')}">${w('selfButton')}</button></form>`;
  // Until the letter is on its way, the parent can go back to the form with what they typed.
  const edit = draft.selfSentMessageId
    ? ''
    : `<p class="mt-2 text-sm">${w('edit').replace(
        '{link}',
        `<a class="font-medium text-brand-700 underline" href="${yourEmailHref({ id: draft.id, t: token, edit: '1' }, locale)}">${w('editLink')}</a>`,
      )}</p>`;
  const newTab = `<span class="sr-only"> ${w('newTab')}</span>`;
  // The letter reads in the page's own flow; one tap selects all of it to copy.
  return `${heading(t('yourEmail.title'))}${lead(t('yourEmail.lead'))}${edit}${notice}<div class="mt-6 space-y-4 rounded-card border border-line bg-white p-6 shadow-card"><section aria-labelledby="email-text-title"><h2 id="email-text-title" class="${labelClass}">${w('emailTitle')}</h2><p class="${helpClass}">${w('emailHelp')}</p><div class="mt-2 select-all whitespace-pre-wrap break-words rounded-xl border border-line bg-canvas p-4 text-sm leading-relaxed" data-email-text${lang}>${escapeHtml(
    emailAsText(email, letterLang),
  )}</div></section><div class="grid gap-6 border-t border-line pt-4 sm:grid-cols-2"><section aria-labelledby="send-yourself" class="space-y-3"><h2 id="send-yourself" class="text-sm font-semibold">${w('sendYourself')}</h2><div class="flex flex-wrap gap-2"><a class="${buttonClass('primary', 'sm')}" href="${escapeHtml(links.mailto)}">${w('openInApp')}</a><a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(links.gmail)}" target="_blank" rel="noopener noreferrer">Gmail${newTab}</a><a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(links.outlook)}" target="_blank" rel="noopener noreferrer">Outlook${newTab}</a></div>${selfSent}</section><section aria-labelledby="send-platform" class="space-y-3"><h2 id="send-platform" class="text-sm font-semibold">${w('platformTitle')}</h2>${platform}</section></div></div>${yourData(words)}`;
}

/** The values of the form a draft was made from, as the email form names them. */
function formValuesOf(draft: LetteredDraft, sendOptions: string[]): RawValues {
  const values: RawValues = Object.fromEntries(
    Object.entries(emailFormFields).map(([key, field]) => [field, draft.data[key as keyof typeof draft.data] ?? '']),
  );
  const choice = sendOptions.find((option) => isPlatformChoice(option) === draft.wantsPlatformSend);
  if (choice) values[sendChoiceField.name] = choice;
  values[OWN_WORDS_FIELD] = draft.ownWords ?? '';
  values[NOTE_FIELD] = draft.note;
  if (draft.wordsConsent) values[WORDS_CONSENT_FIELD] = WORDS_CONSENT_VALUE;
  return values;
}

/**
 * "Edit details" without JavaScript: the email form again, filled in with what the parent typed;
 * sending it makes a new email, checked like the first.
 */
export async function editPage(draft: LetteredDraft, token: string, words: PageWords): Promise<{ status: number; title: string; content: string }> {
  const { t, locale } = words;
  const found = [...(await formDefinitions()).values()].find((item) => item.purpose === draft.purpose && item.render === 'native');
  if (!found) return { status: 200, title: t('yourEmail.title'), content: emailPage(draft, token, words) };
  // The form as the parent's page showed it: in their language when it has its words.
  const definition = await definitionIn(found, locale);
  const formLocale = definition === found ? defaultLocale : locale;
  const sendOptions =
    allFields(definition)
      .find((field) => field.name === sendChoiceField.name)
      ?.options?.map((option) => option.value) ?? [];
  const page = draft.purpose === 'referSchool' ? '/form' : localePath('/lead-the-change', formLocale);
  const form = renderForm(definition, {
    purpose: draft.purpose,
    instance: 'form-response-form',
    page,
    values: formValuesOf(draft, sendOptions),
    note: true,
    ...(formLocale === defaultLocale ? {} : { locale: formLocale }),
  });
  const back = `<div class="mt-8"><a class="${buttonClass('secondary', 'md')}" href="${yourEmailHref({ id: draft.id, t: token }, locale)}">${escapeHtml(t('yourEmail.backToEmail'))}</a></div>`;
  return {
    status: 200,
    title: t('yourEmail.editTitle'),
    content: `${heading(t('yourEmail.editTitle'))}${lead(t('yourEmail.editLead'))}<div class="mt-8 rounded-card border border-line bg-white p-6 shadow-card">${form}</div>${back}`,
  };
}

/** A link that names no draft (cut short, forged, or its draft gone), in the language it hints. */
export async function notFound(locale: Locale): Promise<{ status: number; title: string; content: string; locale: Locale }> {
  return { ...(await problemView(locale, 'gone')), status: 404 };
}

/**
 * What the page says when it has no draft to show: `gone` (404), `unreadable` (a post it cannot
 * read; in English its reason, `detail`) or `unavailable` (the store away), in `locale`.
 */
export async function problemView(
  locale: Locale,
  problem: 'gone' | 'unreadable' | 'unavailable',
  detail?: string,
): Promise<{ title: string; content: string; locale: Locale }> {
  const t = await serverWordsOf(locale);
  const title = t(`yourEmail.${problem}.title`);
  const line = detail && locale === defaultLocale ? detail : t(`yourEmail.${problem}.lead`);
  return { title, content: `${heading(title)}${lead(line)}${backToForm({ t, locale })}`, locale };
}
