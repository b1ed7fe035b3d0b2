/**
 * The school page as HTML, in the language of its path (/schools/{key} English, /es/schools/{key}
 * Spanish): the built frame of that language (src/pages/_school-page/SchoolPage.astro, so its
 * scripts keep their CSP hashes) with its region filled for one school, the email form drawn again
 * with the school filled in, and its addresses (canonical, hreflang, the language switch) made the
 * school's. The contact address never enters the page: the form carries the page's key, and the
 * forms function fills the address from it. The school's name is always the record's.
 */
import { forms } from '../../config/forms';
import { defaultLocale, localeTags, locales, type Locale } from '../../config/locales';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { escapeHtml, regionMarkers, renderForm } from '../../lib/shared/forms/render';
import { metaFields } from '../../lib/shared/forms/values';
import { localePath } from '../../lib/shared/i18n/paths';
import { fillWords, type Translate } from '../../lib/shared/i18n/translator';
import { outcomeLine, SCHOOL_FORM_INSTANCE, SCHOOL_PAGE_SHELL, SCHOOL_REGION, schoolProgress } from '../../lib/shared/school-page-words';
import { forSchool, shareLinks, shareToastsOf, type ShareWords } from '../../lib/shared/share-words';
import { buttonClass } from '../../lib/shared/ui';
import { formDefinition } from '../forms/definitions';
import { definitionIn } from '../forms/in-locale';
import { serverWordsOf } from '../words';
import { builtPage, pageHeaders, replaceRegion, withLanguageLinks } from './frame';
import { schoolPageHref, schoolPageUrl, type Attribution, type SchoolPage } from '../schools/pages';
import { placeText, recordLinkVisit, type PlaceText } from '../analytics/experiments';
import { starredWordsFor } from '../schools/starred-words';

/**
 * The CDN keeps a page a minute per school, language and share link (the count moves slowly; the
 * page's script asks for it again while it is open); browsers always ask again.
 */
export const schoolPageCacheHeaders = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=60, stale-while-revalidate=300',
  'Netlify-Vary': 'query=ref|ambassadorId',
};

/** The figures a school page shows, as the page and /api/schools/{key} (English) give them. */
export function schoolFigures(page: SchoolPage, locale: Locale = defaultLocale) {
  return {
    schoolName: page.schoolName,
    ...schoolProgress(page.parents, locale),
    outcome: page.outcome?.kind,
    outcomeText: outcomeLine({ schoolName: page.schoolName, published: page.published, outcome: page.outcome?.kind }, locale),
  };
}

const SCHOOL_CONTACT_FIELD = 'school_contact_email';

/** The email form's definition without the school contact's address, which the server fills in. */
export function withoutContactAddress(definition: FormDefinition): FormDefinition {
  return {
    ...definition,
    fieldGroups: definition.fieldGroups
      .map((group) => ({ ...group, fields: group.fields.filter((field) => field.name !== SCHOOL_CONTACT_FIELD) }))
      .filter((group) => group.fields.length > 0 || group.richText),
  };
}

const eyebrow = (t: Translate) => `<p class="text-sm font-semibold uppercase tracking-wide text-brand-700">${escapeHtml(t('schoolPage.eyebrow'))}</p>`;

/**
 * A page waiting for its first letter: no name, count or outcome yet (nothing is shown before the
 * platform has delivered a letter there), only what happens next and the form.
 */
function pendingRegionHtml(t: Translate): string {
  return `${eyebrow(t)}<h1 id="school-title" class="mt-2 break-words text-title font-extrabold tracking-tight">${escapeHtml(t('schoolPage.pending.heading'))}</h1><div class="mt-6 rounded-card border border-line bg-white p-6 shadow-card"><p class="text-lg font-semibold text-ink">${escapeHtml(t('schoolPage.pending.onItsWay'))}</p><p class="mt-2 text-ink-soft">${escapeHtml(t('schoolPage.pending.text'))}</p></div>`;
}

/**
 * The school's region: name, count, goal bar and outcome, with the space for live figures reserved
 * (its script writes them in the page's language, `data-locale`).
 */
export function schoolRegionHtml(page: SchoolPage, t: Translate, locale: Locale = defaultLocale): string {
  if (!page.published || !page.schoolName) return pendingRegionHtml(t);
  const figures = schoolFigures(page, locale);
  const name = escapeHtml(page.schoolName);
  return `${eyebrow(t)}<h1 id="school-title" class="mt-2 break-words text-title font-extrabold tracking-tight">${name}</h1><div class="mt-6 rounded-card border border-line bg-white p-6 shadow-card" data-school-live data-school-key="${escapeHtml(page.key)}" data-locale="${locale}"><p class="text-2xl font-extrabold text-ink" aria-live="polite" data-school-count>${escapeHtml(figures.countText)}</p><div class="mt-4 h-3 overflow-hidden rounded-pill bg-brand-50" role="progressbar" aria-label="${escapeHtml(t('schoolPage.progressLabel'))}" aria-valuemin="0" aria-valuemax="${figures.goal}" aria-valuenow="${figures.parents}" aria-valuetext="${escapeHtml(`${figures.countText}; ${figures.goalText}`)}"><div class="h-full rounded-pill bg-accent-600" style="width: ${Math.min(100, figures.percent)}%" data-school-bar></div></div><p class="mt-2 text-sm text-ink-soft" data-school-goal>${escapeHtml(figures.goalText)}</p><p class="mt-4 min-h-7 font-semibold text-ink" data-school-outcome>${escapeHtml(figures.outcomeText)}</p></div><p class="mt-4 text-sm text-muted">${escapeHtml(t('schoolPage.counted'))}</p>`;
}

/** What a share link's parameters carry on, verified: the sharing parent's code and the ambassador. */
function carried(attribution: Attribution, referral: string | undefined): { ref?: string; ambassadorId?: string } {
  return {
    ...(attribution.via === 'parent' && referral ? { ref: referral } : {}),
    ...(attribution.via !== 'direct' && attribution.ambassadorId ? { ambassadorId: attribution.ambassadorId } : {}),
  };
}

/**
 * The email form for this school, in the page's language (the Spanish form posts `_locale`, as on
 * /es/lead-the-change): its name filled in, its contact address named by the page's key.
 */
export async function schoolFormHtml(
  page: SchoolPage,
  attribution: Attribution,
  referral: string | undefined,
  locale: Locale = defaultLocale,
): Promise<string | undefined> {
  const definition = await formDefinition(forms.emailGenerator.formId);
  if (definition?.render !== 'native') return undefined;
  const shown = await definitionIn(definition, locale);
  const { ref, ambassadorId } = carried(attribution, referral);
  const hidden: Record<string, string> = { [metaFields.school]: page.key };
  if (ref) hidden[metaFields.referral] = ref;
  if (ambassadorId) hidden[metaFields.ambassador] = ambassadorId;
  const html = renderForm(withoutContactAddress(shown), {
    purpose: 'emailGenerator',
    instance: SCHOOL_FORM_INSTANCE,
    page: schoolPageHref(page, locale),
    values: page.schoolName ? { school_name: page.schoolName } : {},
    note: true,
    hiddenInputs: hidden,
    // The page names its school: nothing to search for.
    schoolSearch: false,
    ...(shown === definition ? {} : { locale }),
  });
  // The frame keeps the region's markers; only what is between them is replaced.
  const { start, end } = regionMarkers(SCHOOL_FORM_INSTANCE);
  return html.slice(start.length, html.length - end.length);
}

/** The built frame of the school pages in `locale` (dist/school-page.html, dist/es/school-page.html). */
async function shell(locale: Locale): Promise<string> {
  const path = localePath(SCHOOL_PAGE_SHELL, locale);
  const html = await builtPage(path);
  if (!html) throw new Error(`dist${path}.html is missing: build the site before serving it.`);
  return html;
}

function withTitle(html: string, title: string): string {
  return html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)} | Mastery Parents</title>`);
}

/**
 * The frame's addresses made the school's: its canonical address and Open Graph URL, its `hreflang`
 * alternates (every language and `x-default`, English), and the language switch (and the English
 * page's suggestion of the Spanish one) leading to the same page in the other language, with the
 * share link's verified parameters so a parent who switches is still credited to whoever brought them.
 */
function withAddresses(html: string, page: SchoolPage, locale: Locale, query: { ref?: string; ambassadorId?: string }): string {
  const own = schoolPageUrl(page, locale).href;
  const alternates = [
    ...locales.map((each) => ({ hreflang: localeTags[each].lang, href: schoolPageUrl(page, each).href })),
    { hreflang: 'x-default', href: schoolPageUrl(page, defaultLocale).href },
  ]
    .map((alternate) => `<link rel="alternate" hreflang="${alternate.hreflang}" href="${escapeHtml(alternate.href)}">`)
    .join('');
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  const withCanonical = html
    .replace(/<link rel="canonical" href="[^"]*">/, () => `<link rel="canonical" href="${escapeHtml(own)}">${alternates}`)
    .replace(/<meta property="og:url" content="[^"]*">/, () => `<meta property="og:url" content="${escapeHtml(own)}">`);
  return withLanguageLinks(withCanonical, (target) => schoolPageHref(page, target) + (search ? `?${search}` : ''));
}

/** The page's call to action (`cta`: the words the visitor is given) and its link to the form. */
export function callToActionHtml(cta: PlaceText | undefined, t: Translate): string {
  if (!cta) return '';
  return `<p class="mt-6 text-lg font-semibold text-ink"${cta.experiment ? ` data-experiment="${escapeHtml(cta.experiment.id)}" data-variant="${escapeHtml(cta.experiment.variant)}"` : ''}>${escapeHtml(cta.text)} <a class="text-brand-700 underline" href="#${SCHOOL_FORM_INSTANCE}">${escapeHtml(t('schoolPage.cta.link'))}</a></p>`;
}

/**
 * Parents' own words that staff starred for this school (src/server/schools/starred-words.ts): first name
 * only, set apart from the figures so nobody mistakes them for the organisation's words. Nothing (and
 * no sentence about agreement) when none are starred; every one shown was agreed to by its parent.
 * The words are shown as the parent wrote them.
 */
export function starredWordsHtml(schoolName: string, words: Array<{ firstName: string; words: string }>, t: Translate): string {
  if (words.length === 0) return '';
  const quotes = words
    .map(
      (entry) =>
        `<figure class="rounded-card border border-line bg-white p-5"><blockquote class="whitespace-pre-line text-ink">“${escapeHtml(entry.words)}”</blockquote><figcaption class="mt-2 text-sm text-muted">${escapeHtml(fillWords(t('schoolPage.words.caption'), { name: entry.firstName, school: schoolName }))}</figcaption></figure>`,
    )
    .join('');
  return `<section aria-labelledby="parents-words-title" class="mt-8 border-t border-line pt-6" data-parents-words><h2 id="parents-words-title" class="text-lg font-bold">${escapeHtml(t('schoolPage.words.heading'))}</h2><p class="mt-1 text-sm text-muted" data-parents-words-terms>${escapeHtml(t('schoolPage.words.terms'))}</p><div class="mt-4 grid gap-4">${quotes}</div></section>`;
}

/**
 * The call to action a visitor of `req` is given: on an English page a running experiment's variant
 * for them (content/experiments/school-page-cta.yaml, drawn here so the page never shifts), else
 * its winner or control; another language's page has its own words, outside the experiment (its
 * variants are English), and records no exposure.
 */
async function callToActionFor(req: Request | undefined, name: string, locale: Locale, t: Translate): Promise<PlaceText | undefined> {
  if (locale !== defaultLocale) return { text: fillWords(t('schoolPage.cta.text'), { school: name }) };
  return req ? placeText(req, undefined, 'school-page-cta', { school: name }) : undefined;
}

export interface SchoolPageRequest {
  attribution: Attribution;
  /** The share link's referral code as given (carried on only when it verified: `attribution`). */
  referral?: string;
  /** The visitor's request: their call to action, and a share link's visit counted. */
  req?: Request;
  /** The page's language: its path's. */
  locale?: Locale;
}

/**
 * The page of a school in `locale`. While an experiment runs for the visitor's call to action the
 * CDN keeps no copy, since the words differ by visitor, nor of a share link whose visits a running
 * share experiment counts.
 */
export async function schoolPageResponse(page: SchoolPage, { attribution, referral, req, locale = defaultLocale }: SchoolPageRequest): Promise<Response> {
  // A page waiting for its first delivered letter shows no name, so no words or call to action either.
  const name = page.published ? page.schoolName : null;
  const t = await serverWordsOf(locale);
  const [cta, words, linked] = await Promise.all([
    name ? callToActionFor(req, name, locale, t) : Promise.resolve(undefined),
    name ? starredWordsFor(page.key).catch(() => []) : Promise.resolve([]),
    req ? recordLinkVisit(req, undefined) : Promise.resolve(false),
  ]);
  let html = replaceRegion(
    await shell(locale),
    SCHOOL_REGION,
    `${schoolRegionHtml(page, t, locale)}${callToActionHtml(cta, t)}${name ? starredWordsHtml(name, words, t) : ''}`,
  );
  if (!html) throw new Error('The school page frame has no school region.');
  const form = await schoolFormHtml(page, attribution, referral, locale);
  if (form !== undefined) html = replaceRegion(html, SCHOOL_FORM_INSTANCE, form) ?? html;
  html = withAddresses(html, page, locale, carried(attribution, referral));
  const caching = cta?.experiment || linked ? { 'Cache-Control': 'no-store' } : schoolPageCacheHeaders;
  return new Response(withTitle(html, name ? fillWords(t('schoolPage.title'), { school: name }) : t('schoolPage.titleAnySchool')), {
    status: 200,
    headers: { ...pageHeaders, ...caching },
  });
}

/**
 * No school has this key (or it is forged): a 404 in the path's language that still offers the
 * email form; or, with status 503, school pages cannot be read now. Nothing of what was asked for
 * is on it.
 */
export async function unknownSchoolResponse(locale: Locale = defaultLocale, status: 404 | 503 = 404): Promise<Response> {
  const t = await serverWordsOf(locale);
  const words = status === 404 ? 'schoolPage.notFound' : 'schoolPage.unavailable';
  const content = `<h1 id="school-title" class="text-title font-extrabold tracking-tight">${escapeHtml(t(`${words}.heading`))}</h1><p class="mt-4 text-lg text-ink-soft" role="${status === 404 ? 'status' : 'alert'}">${escapeHtml(t(`${words}.lead`))}</p>`;
  const html = replaceRegion(await shell(locale), SCHOOL_REGION, content);
  if (!html) throw new Error('The school page frame has no school region.');
  // No school, so no page of it in another language to suggest.
  return new Response(withTitle(withoutSuggestion(html), t(`${words}.title`)), {
    status,
    headers: { ...pageHeaders, 'Cache-Control': 'no-store' },
  });
}

/** `html` without the suggestion of a page in another language (src/components/site/LanguageSuggestion.astro). */
function withoutSuggestion(html: string): string {
  return html.replace(/<language-suggestion\b[\s\S]*?<\/language-suggestion>/, '');
}

/** What a school page says when it cannot be drawn at all, as plain text in the path's language. */
export function unavailableText(locale: Locale): Promise<string> {
  return serverWordsOf(locale)
    .then((t) => t('schoolPage.unavailable.lead'))
    .catch(() => 'This school page is unavailable right now. Please try again later.');
}

/**
 * The words a parent shares, for the visitor of `req` (content/experiments/share-text.yaml: a
 * running experiment's variant, else its winner, else the control), for `shareBlockHtml`.
 */
export function shareTextFor(req: Request, context: unknown, schoolName: string): Promise<PlaceText | undefined> {
  return placeText(req, context, 'share-text', { school: schoolName });
}

/**
 * The share block of a page drawn here (src/lib/browser/school-share.ts wires its buttons), in the words of
 * the parent's language (`shareWordsOf`). With `text` (`shareTextFor`, English only) it shares those
 * words, and a running experiment's variant rides in the link.
 */
export function shareBlockHtml(share: { url: string; schoolName: string }, words: ShareWords, text?: PlaceText): string {
  if (text?.experiment) {
    const url = new URL(share.url);
    url.searchParams.set('v', `${text.experiment.id}.${text.experiment.variant}`);
    share = { ...share, url: url.toString() };
  }
  const name = share.schoolName;
  const say = (key: keyof ShareWords) => escapeHtml(forSchool(words[key], name));
  const links = shareLinks(words, name, share.url, text?.text)
    .map((link) => `<a class="${buttonClass('secondary', 'sm')}" href="${escapeHtml(link.href)}" data-share-app>${escapeHtml(link.label)}</a>`)
    .join('');
  return `<section aria-labelledby="share-title" class="mt-8 rounded-card border border-brand-200 bg-brand-50 p-6" data-share data-share-url="${escapeHtml(share.url)}" data-share-title="${say('shareTitle')}" data-share-text="${escapeHtml(text?.text ?? forSchool(words.message, name))}" data-share-toasts="${escapeHtml(JSON.stringify(shareToastsOf(words)))}"><h2 id="share-title" class="text-lg font-bold">${say('title')}</h2><p class="mt-2 text-ink-soft">${say('lead')}</p><label for="share-link" class="mt-4 block text-sm font-semibold">${say('linkLabel')}</label><input id="share-link" type="url" readonly value="${escapeHtml(share.url)}" class="mt-1 w-full rounded-xl border border-line bg-white px-3 py-2 text-sm text-ink" data-share-link><div class="mt-4 flex flex-wrap gap-2"><button type="button" class="${buttonClass('primary', 'sm')}" hidden data-share-copy>${say('copy')}</button><button type="button" class="${buttonClass('accent', 'sm')}" hidden data-share-native>${say('native')}</button>${links}</div></section>`;
}
