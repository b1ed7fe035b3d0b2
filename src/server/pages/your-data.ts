/**
 * The pages of "Your data" (/your-data): what the site keeps about a person, its download and its
 * deletion, in the language of the link (content/i18n/{locale}/yourData.yaml).
 */
import { defaultLocale, type Locale } from '../../config/locales';
import { escapeHtml, helpClass, inputClass, labelClass } from '../../lib/shared/forms/render';
import { localePath } from '../../lib/shared/i18n/paths';
import { fillWords } from '../../lib/shared/i18n/translator';
import { buttonClass } from '../../lib/shared/ui';
import { countRecords, waitingLetters, type PersonalData } from '../data-rights';
import { dataToken, DELETE_STEP_TTL_MS } from '../links';
import type { OutboxMessage } from '../letter/outbox';
import { whenLetterGoesIn } from '../mail/schedule';
import { serverWordsOf } from '../words';
import { actions, heading, homeLinkIn, lead } from './frame';

export type View = { status: number; title: string; content: string; headers?: Record<string, string> };

/** The words of these pages in one language, with its dates and its home link. */
export interface DataWords {
  locale: Locale;
  /** A text of yourData.yaml, its placeholders filled. */
  say: (key: string, values?: Record<string, string | number>) => string;
  /** A count's sentence: `{key}.one` for 1, `{key}.other` otherwise. */
  count: (key: string, count: number, values?: Record<string, string | number>) => string;
  date: (iso: string) => string;
  answerLabel: (kind: string) => string;
  home: string;
}

const intlTag = (locale: Locale) => (locale === 'es' ? 'es-US' : 'en-US');

export async function dataWordsOf(locale: Locale = defaultLocale): Promise<DataWords> {
  const t = await serverWordsOf(locale);
  const say = (key: string, values: Record<string, string | number> = {}) =>
    fillWords(t(`yourData.${key}`), Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)])));
  return {
    locale,
    say,
    count: (key, count, values = {}) => say(`${key}.${count === 1 ? 'one' : 'other'}`, { count, ...values }),
    date: (iso) => new Date(iso).toLocaleDateString(intlTag(locale), { month: 'long', day: 'numeric', year: 'numeric' }),
    answerLabel: (kind) => t(`schoolAnswer.kinds.${kind}`),
    home: await homeLinkIn(locale),
  };
}

/** The hidden input that keeps a page's language in the forms it posts back. */
export const langInput = (locale: Locale) => (locale === defaultLocale ? '' : `<input type="hidden" name="lang" value="${locale}">`);

export function requestForm(w: DataWords, error?: string, email = ''): string {
  return `<form method="post" action="/your-data" class="mt-8 space-y-4 rounded-card border border-line bg-white p-6 shadow-card"><input type="hidden" name="action" value="request">${langInput(w.locale)}<div><label for="data-email" class="${labelClass}">${escapeHtml(w.say('request.label'))}</label><p id="data-email-help" class="${helpClass}">${escapeHtml(w.say('request.help'))}</p><input id="data-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(email)}" class="${inputClass}" aria-describedby="data-email-help${error ? ' data-email-error' : ''}"${error ? ' aria-invalid="true"' : ''}>${
    error ? `<p id="data-email-error" class="mt-1.5 text-sm font-medium text-danger-600">${escapeHtml(error)}</p>` : ''
  }</div><button type="submit" class="${buttonClass('primary', 'md')}">${escapeHtml(w.say('request.button'))}</button></form>`;
}

export const askPage = (w: DataWords): View => ({
  status: 200,
  title: w.say('title'),
  content: `${heading(w.say('title'))}${lead(w.say('ask'))}${requestForm(w)}`,
});

export const invalidPage = (w: DataWords): View => ({
  status: 404,
  title: w.say('invalid.title'),
  content: `${heading(w.say('invalid.title'))}${lead(w.say('invalid.text'))}${requestForm(w)}`,
});

export const expiredPage = (w: DataWords): View => ({
  status: 410,
  title: w.say('expired.title'),
  content: `${heading(w.say('expired.title'))}${lead(w.say('expired.text'))}${requestForm(w)}`,
});

/** A page that says one thing and offers the home page. */
export const notePage = (w: DataWords, status: number, title: string, text: string, headers?: Record<string, string>): View => ({
  status,
  title,
  content: `${heading(title)}${lead(text)}${actions(w.home)}`,
  ...(headers ? { headers } : {}),
});

export const item = (title: string, detail: string) =>
  `<li class="rounded-xl border border-line bg-white p-4"><p class="font-medium">${escapeHtml(title)}</p><p class="text-sm text-muted">${escapeHtml(detail)}</p></li>`;

export function section(id: string, title: string, items: string[]): string {
  if (items.length === 0) return '';
  return `<section aria-labelledby="${id}" class="mt-8"><h2 id="${id}" class="text-xl font-bold">${escapeHtml(title)} (${items.length})</h2><ul class="mt-3 space-y-2">${items.join('')}</ul></section>`;
}

/** Where a parent's letter stands, as a sentence they read: never a stored state's name. */
export function letterStateText(
  w: DataWords,
  message: Pick<OutboxMessage, 'channel' | 'status' | 'review' | 'confirmation' | 'delivery' | 'lastError'>,
  now = new Date(),
): string {
  const state = (key: string, values?: Record<string, string>) => w.say(`states.${key}`, values);
  if (message.channel === 'self') {
    if (message.status === 'awaiting_confirmation') return state('selfWaiting');
    if (message.status === 'voided') return state('selfVoided');
    if (message.status !== 'sent') return state('selfUnconfirmed');
    return message.review === 'approved' ? state('selfCounted') : state('selfSent');
  }
  switch (message.status) {
    case 'awaiting_confirmation':
      return message.confirmation?.refusal ? state('limited') : state('waiting');
    case 'queued':
      return message.delivery ? state('goesAt', { when: whenLetterGoesIn(message.delivery, w.locale, now) }) : state('goesSoon');
    case 'sent':
      return state('sent');
    case 'delivered':
      return state('delivered');
    case 'bounced':
      return state('bounced');
    case 'replaced':
      return state('replaced');
    case 'failed':
      return message.confirmation?.refusal ? state('limited') : state('refused');
    case 'withdrawn':
      return message.lastError === 'school_complained' ? state('complained') : state('withdrawn');
    case 'expired':
      return message.lastError === 'not_confirmed_in_time' ? state('notConfirmed') : state('notTaken');
    case 'voided':
      return state('voided');
  }
}

export function overview(w: DataWords, data: PersonalData, token: string): string {
  const { say, date } = w;
  const counts = countRecords(data);
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const journeyDetail = (journey: PersonalData['journeys'][number]) =>
    [
      say('item.page', { value: journey.page ?? say('item.unknown') }),
      say('item.source', { value: journey.source ?? say('item.direct') }),
      journey.campaign ? say('item.campaign', { value: journey.campaign }) : '',
      journey.ambassador ? say('item.ambassador', { value: journey.ambassador }) : '',
      journey.variant ? say('item.variant', { value: journey.variant }) : '',
      journey.letter ? say('item.letter', { value: journey.letter }) : '',
      journey.confirmedAt ? say('item.confirmed') : '',
      journey.deliveredAt ? say('item.delivered') : '',
    ]
      .filter(Boolean)
      .join(' · ');
  const records = [
    section(
      'data-forms',
      say('sections.forms'),
      data.submissions.map((record) =>
        item(
          `${record.formName}, ${date(record.createdAt)}`,
          Object.entries(record.values)
            .filter(([, value]) => value !== '')
            .map(([name, value]) => `${record.labels[name] ?? name}: ${value}`)
            .join(' · '),
        ),
      ),
    ),
    section(
      'data-emails',
      say('sections.emails'),
      data.messages.map((message) =>
        item(
          say('item.email', { name: message.toName || message.to, school: message.schoolName, date: date(message.sentAt ?? message.createdAt) }),
          `${letterStateText(w, message)} · “${message.subject}”`,
        ),
      ),
    ),
    section(
      'data-drafts',
      say('sections.drafts'),
      data.drafts.map((draft) =>
        item(
          say('item.draft', { school: draft.data.schoolName || say('item.yourSchool'), date: date(draft.createdAt) }),
          `${draft.data.parentFullName} · ${draft.data.childFullName} · ${draft.data.childGrade}`,
        ),
      ),
    ),
    section(
      'data-answers',
      say('sections.answers'),
      data.answers.map((answer) => item(w.answerLabel(answer.kind), answer.comment || say('item.noComment'))),
    ),
    section(
      'data-nominations',
      say('sections.nominations'),
      data.nominations.map((nomination) =>
        item(`${nomination.data.schoolName}, ${date(nomination.createdAt)}`, `${nomination.data.yourName} · ${nomination.data.city}`),
      ),
    ),
    section(
      'data-bookings',
      say('sections.bookings'),
      data.bookings.map((booking) => item(say('item.booking', { date: date(booking.createdAt) }), String(booking.record.eventType ?? say('item.calendly')))),
    ),
    section(
      'data-journeys',
      say('sections.journeys'),
      data.journeys.map((journey) => item(say('item.journey', { date: date(journey.createdAt) }), journeyDetail(journey))),
    ),
  ].join('');
  const quotes = data.quotes.quotes.map((quote) => item(say('words.quoted', { name: quote.firstName, date: date(quote.starredAt) }), `“${quote.words}”`));
  const agreed = data.quotes.agreements.length;
  const agreement = agreed
    ? `${agreed === 1 ? say('words.agreedOne') : say('words.agreedMany', { count: agreed })} ${quotes.length ? say('words.quotedNow') : say('words.notQuoted')}`
    : say('words.onlyQuoted');
  // Shown whenever there is an agreement or a quote: the way to take it back is beside what it covers.
  const quoted =
    agreed || quotes.length
      ? `<section aria-labelledby="data-words" class="mt-8"><h2 id="data-words" class="text-xl font-bold">${escapeHtml(say('words.title'))}</h2><p class="mt-3 text-ink-soft">${escapeHtml(agreement)}</p>${
          quotes.length ? `<ul class="mt-3 space-y-2">${quotes.join('')}</ul>` : ''
        }<form method="post" action="/your-data" class="mt-4"><input type="hidden" name="action" value="withdraw_words"><input type="hidden" name="token" value="${escapeHtml(token)}">${langInput(w.locale)}<button type="submit" class="${buttonClass('secondary', 'md')}">${escapeHtml(say('words.withdraw'))}</button></form><p class="mt-2 text-sm text-muted">${escapeHtml(say('words.after'))}</p></section>`
      : '';
  const download = `<a class="${buttonClass('primary', 'md')}" href="/your-data?token=${encodeURIComponent(token)}&amp;format=json" download="your-data.json">${escapeHtml(say('download'))}</a>`;
  const remove = `<form method="post" action="/your-data"><input type="hidden" name="action" value="review"><input type="hidden" name="token" value="${escapeHtml(token)}">${langInput(w.locale)}<button type="submit" class="${buttonClass('secondary', 'md')}">${escapeHtml(say('delete'))}</button></form>`;
  const keeps = total ? w.count('keeps', total, { email: data.email, total }) : say('keeps.none', { email: data.email });
  const faqs = `<a class="font-medium text-brand-700 underline" href="${localePath('/faqs', w.locale)}">${escapeHtml(say('faqs'))}</a>`;
  return `${heading(say('title'))}${lead(keeps)}<p class="mt-4 text-sm text-muted">${escapeHtml(say('why'))} ${faqs}</p>${records}${quoted}${actions(download, remove)}`;
}

export function reviewPage(w: DataWords, data: PersonalData): View {
  const { say } = w;
  const counts = countRecords(data);
  const deleteToken = dataToken(data.email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS });
  const lines = (['submissions', 'messages', 'drafts', 'answers', 'nominations', 'bookings', 'journeys'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `<li>${escapeHtml(say(`review.counts.${kind}`, { count: counts[kind] }))}</li>`)
    .join('');
  const waiting = waitingLetters(data);
  const withdrawn = waiting.length
    ? `<div class="mt-6 rounded-xl border border-danger-600 bg-danger-50 p-4 text-ink" role="note"><p class="font-semibold">${escapeHtml(
        waiting.length === 1 ? say('review.waitingOne') : say('review.waitingMany', { count: waiting.length }),
      )}</p><ul class="mt-2 list-disc pl-6">${waiting
        .map(
          (message) =>
            `<li>${escapeHtml(
              say('review.waitingItem', {
                name: message.toName || message.to,
                school: message.schoolName || say('item.yourSchool'),
                state: letterStateText(w, message).toLowerCase(),
              }),
            )}</li>`,
        )
        .join('')}</ul></div>`
    : '';
  const keep = `/your-data?token=${encodeURIComponent(dataToken(data.email))}${w.locale === defaultLocale ? '' : `&amp;lang=${w.locale}`}`;
  return {
    status: 200,
    title: say('review.title'),
    content: `${heading(say('review.title'))}${lead(say('review.lead', { email: data.email }))}${withdrawn}${lines ? `<ul class="mt-4 list-disc pl-6 text-ink-soft">${lines}</ul>` : ''}<p class="mt-4 text-sm text-muted">${escapeHtml(say('review.anonymous'))}</p><form method="post" action="/your-data" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="action" value="delete"><input type="hidden" name="token" value="${escapeHtml(
      deleteToken,
    )}">${langInput(w.locale)}<button type="submit" class="${buttonClass('accent', 'md')}">${escapeHtml(say('review.yes'))}</button><a class="${buttonClass('secondary', 'md')}" href="${keep}">${escapeHtml(say('review.keep'))}</a></form>`,
  };
}
