/**
 * /find-school?q=… (and /es/find-school, in Spanish): the schools the site knows, for a visitor
 * without JavaScript (the email form and /nominate-school link here; with JavaScript their school
 * field suggests as one types). Each verified school links to its page in the path's language, whose
 * email form is filled from its record. A school the site does not know can still be written to:
 * the parent types it in the form, and staff check it. Words: content/i18n/{locale}/findSchool.yaml;
 * the schools' names, cities and leaders as recorded.
 */
import { locales, type Locale } from '../../config/locales';
import { escapeHtml, inputClass, labelClass } from '../../lib/shared/forms/render';
import { formatCount } from '../../lib/shared/i18n/format';
import { linkIn, localePath } from '../../lib/shared/i18n/paths';
import { fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { SUGGEST_QUERY_MAX, type SchoolSuggestion } from '../../lib/shared/school-record';
import { buttonClass } from '../../lib/shared/ui';
import { schoolPageHref } from '../schools/pages';
import { serverWordsOf } from '../words';
import { actions, heading, lead, responsePage } from './frame';

export const FIND_SCHOOL_PATH = '/find-school';

/** What was typed, on one line and no longer than a search reads. */
export function findQueryOf(raw: string | null): string {
  return (raw ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, SUGGEST_QUERY_MAX);
}

function searchForm(q: string, locale: Locale, t: Translate): string {
  return `<form method="get" action="${localePath(FIND_SCHOOL_PATH, locale)}" role="search" class="mt-6 flex flex-wrap items-end gap-3"><div class="min-w-64 grow"><label for="find-school-q" class="${labelClass}">${escapeHtml(t('findSchool.label'))}</label><input id="find-school-q" name="q" type="search" value="${escapeHtml(q)}" maxlength="${SUGGEST_QUERY_MAX}" autocomplete="off" class="${inputClass}"></div><button type="submit" class="${buttonClass('primary', 'md')}">${escapeHtml(t('findSchool.button'))}</button></form>`;
}

function resultsHtml(q: string, schools: SchoolSuggestion[], locale: Locale, t: Translate): string {
  if (!q) return '';
  if (schools.length === 0) return `<p class="mt-8 text-ink-soft" role="status">${escapeHtml(fillWords(t('findSchool.none'), { query: q }))}</p>`;
  const line =
    schools.length === 1
      ? fillWords(t('findSchool.one'), { query: q })
      : fillWords(t('findSchool.many'), { count: formatCount(schools.length, locale), query: q });
  const items = schools
    .map((school) => {
      const leaders = school.leaders.map((leader) => escapeHtml([leader.name, leader.role].filter(Boolean).join(', ') || leader.address)).join('; ');
      const href = `${schoolPageHref({ key: school.key, slug: null }, locale)}#email-form`;
      return `<li class="rounded-card border border-line bg-white p-5 shadow-card"><p class="text-lg font-bold">${escapeHtml(school.name)}${school.city ? `<span class="font-normal text-muted">, ${escapeHtml(school.city)}</span>` : ''}</p>${leaders ? `<p class="mt-1 text-sm text-ink-soft">${leaders}</p>` : ''}<a class="mt-3 inline-flex ${buttonClass('primary', 'sm')}" href="${escapeHtml(href)}">${escapeHtml(fillWords(t('findSchool.writeTo'), { school: school.name }))}</a></li>`;
    })
    .join('');
  return `<p class="mt-8 text-ink-soft" role="status">${escapeHtml(line)}</p><ul class="mt-4 space-y-3">${items}</ul>`;
}

/**
 * The page in `locale`: the search box with what was typed, and the schools found (`schools`), or,
 * without them, a line saying why there are none (`problem`: the list cannot be read now, or the
 * page was asked with a method it does not answer).
 */
export async function findSchoolPage(
  q: string,
  locale: Locale,
  answer: { schools: SchoolSuggestion[] } | { problem: 'unavailable' | 'notAllowed'; status: number },
): Promise<Response> {
  const t = await serverWordsOf(locale);
  const write = linkIn('/lead-the-change#email-form', locale);
  const writeLink = `<a class="${buttonClass('secondary', 'md')}" href="${escapeHtml(write.href)}"${write.hreflang ? ` hreflang="${write.hreflang}"` : ''}>${escapeHtml(t('findSchool.writeUnknown'))}</a>`;
  const below =
    'schools' in answer
      ? resultsHtml(q, answer.schools, locale, t)
      : `<p class="mt-8 text-ink-soft" role="alert">${escapeHtml(t(`findSchool.${answer.problem}`))}</p>`;
  // The language switch keeps the search: /es/find-school?q=oak and /find-school?q=oak.
  const query = q ? `?${new URLSearchParams({ q })}` : '';
  return responsePage(`${heading(t('findSchool.title'))}${lead(t('findSchool.lead'))}${searchForm(q, locale, t)}${below}${actions(writeLink)}`, {
    status: 'schools' in answer ? 200 : answer.status,
    title: t('findSchool.title'),
    locale,
    switchTo: Object.fromEntries(locales.map((each) => [each, `${localePath(FIND_SCHOOL_PATH, each)}${query}`])) as Record<Locale, string>,
  });
}
