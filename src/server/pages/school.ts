/**
 * The school page as HTML: the built frame (src/pages/school-page.astro, so its scripts keep their
 * CSP hashes) with its region filled for one school and the email form drawn again with the school
 * filled in. The contact address never enters the page: the form carries the page's key, and the
 * forms function fills the address from it.
 */
import { forms } from '../../config/forms';
import type { FormDefinition } from '../../lib/forms/definition';
import { escapeHtml, regionMarkers, renderForm } from '../../lib/forms/render';
import { metaFields } from '../../lib/forms/values';
import { outcomeText, SCHOOL_FORM_INSTANCE, SCHOOL_PAGE_SHELL, SCHOOL_REGION, schoolProgress } from '../../lib/school-page-words';
import { forSchool, shareLinks, shareToastsOf, type ShareWords } from '../../lib/share-words';
import { buttonClass } from '../../lib/ui';
import { formDefinition } from '../forms/definitions';
import { builtPage, pageHeaders, replaceRegion } from './frame';
import { schoolPageHref, type Attribution, type SchoolPage } from '../schools/pages';
import { placeText, recordLinkVisit, type PlaceText } from '../analytics/experiments';
import { starredWordsFor } from '../schools/starred-words';

/**
 * The CDN keeps a page a minute per school and share link (the count moves slowly; the page's
 * script asks for it again while it is open); browsers always ask again.
 */
export const schoolPageCacheHeaders = {
  'Cache-Control': 'public, max-age=0, must-revalidate',
  'Netlify-CDN-Cache-Control': 'public, durable, max-age=60, stale-while-revalidate=300',
  'Netlify-Vary': 'query=ref|ambassadorId',
};

/** The figures a school page shows, as the page and /api/schools/{key} give them. */
export function schoolFigures(page: SchoolPage) {
  const progress = schoolProgress(page.parents);
  const name = page.schoolName ?? 'this school';
  return {
    schoolName: page.schoolName,
    ...progress,
    outcome: page.outcome?.kind,
    outcomeText: page.outcome ? outcomeText(name, page.outcome.kind) : page.published ? `No answer from ${name} yet` : 'The first letter is on its way',
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

/**
 * A page waiting for its first letter: no name, count or outcome yet (nothing is shown before the
 * platform has delivered a letter there), only what happens next and the form.
 */
function pendingRegionHtml(): string {
  return `<p class="text-sm font-semibold uppercase tracking-wide text-brand-700">Parents writing to their school</p><h1 id="school-title" class="mt-2 break-words text-title font-extrabold tracking-tight">A parent is writing to this school</h1><div class="mt-6 rounded-card border border-line bg-white p-6 shadow-card"><p class="text-lg font-semibold text-ink">The first letter is on its way.</p><p class="mt-2 text-ink-soft">It reaches the school in its working hours. Once it has arrived, this page shows the school’s name and how many parents have written. Add your own voice below: letters from several parents are what a school notices.</p></div>`;
}

/** The school's region: name, count, goal bar and outcome, with the space for live figures reserved. */
export function schoolRegionHtml(page: SchoolPage): string {
  if (!page.published || !page.schoolName) return pendingRegionHtml();
  const figures = schoolFigures(page);
  const name = escapeHtml(page.schoolName);
  return `<p class="text-sm font-semibold uppercase tracking-wide text-brand-700">Parents writing to their school</p><h1 id="school-title" class="mt-2 break-words text-title font-extrabold tracking-tight">${name}</h1><div class="mt-6 rounded-card border border-line bg-white p-6 shadow-card" data-school-live data-school-key="${escapeHtml(page.key)}"><p class="text-2xl font-extrabold text-ink" aria-live="polite" data-school-count>${escapeHtml(figures.countText)}</p><div class="mt-4 h-3 overflow-hidden rounded-pill bg-brand-50" role="progressbar" aria-label="Parents who wrote, towards the next goal" aria-valuemin="0" aria-valuemax="${figures.goal}" aria-valuenow="${figures.parents}" aria-valuetext="${escapeHtml(`${figures.countText}; ${figures.goalText}`)}"><div class="h-full rounded-pill bg-accent-600" style="width: ${Math.min(100, figures.percent)}%" data-school-bar></div></div><p class="mt-2 text-sm text-ink-soft" data-school-goal>${escapeHtml(figures.goalText)}</p><p class="mt-4 min-h-7 font-semibold text-ink" data-school-outcome>${escapeHtml(figures.outcomeText)}</p></div><p class="mt-4 text-sm text-muted">Counted: parents whose letter reached the school after they confirmed it (a letter still waiting for the school’s hours counts once it has gone). No names or addresses are shown.</p>`;
}

/** The email form for this school: its name filled in, its contact address named by the page's key. */
export async function schoolFormHtml(page: SchoolPage, attribution: Attribution, referral: string | undefined): Promise<string | undefined> {
  const definition = await formDefinition(forms.emailGenerator.formId);
  if (definition?.render !== 'native') return undefined;
  const hidden: Record<string, string> = { [metaFields.school]: page.key };
  if (attribution.via === 'parent' && referral) hidden[metaFields.referral] = referral;
  if (attribution.via !== 'direct' && attribution.ambassadorId) hidden[metaFields.ambassador] = attribution.ambassadorId;
  const html = renderForm(withoutContactAddress(definition), {
    purpose: 'emailGenerator',
    instance: SCHOOL_FORM_INSTANCE,
    page: schoolPageHref(page),
    values: page.schoolName ? { school_name: page.schoolName } : {},
    note: true,
    hiddenInputs: hidden,
    // The page names its school: nothing to search for.
    schoolSearch: false,
  });
  // The frame keeps the region's markers; only what is between them is replaced.
  const { start, end } = regionMarkers(SCHOOL_FORM_INSTANCE);
  return html.slice(start.length, html.length - end.length);
}

async function shell(): Promise<string> {
  const html = await builtPage(SCHOOL_PAGE_SHELL);
  if (!html) throw new Error('dist/school-page.html is missing: build the site before serving it.');
  return html;
}

function withTitle(html: string, title: string): string {
  return html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)} | Mastery Parents</title>`);
}

/** The page's call to action: the words of content/experiments/school-page-cta.yaml the visitor is given. */
export function callToActionHtml(cta: PlaceText | undefined): string {
  if (!cta) return '';
  return `<p class="mt-6 text-lg font-semibold text-ink"${cta.experiment ? ` data-experiment="${escapeHtml(cta.experiment.id)}" data-variant="${escapeHtml(cta.experiment.variant)}"` : ''}>${escapeHtml(cta.text)} <a class="text-brand-700 underline" href="#${SCHOOL_FORM_INSTANCE}">Write your email</a></p>`;
}

/**
 * Parents' own words that staff starred for this school (src/server/schools/starred-words.ts): first name
 * only, set apart from the figures so nobody mistakes them for the organisation's words. Nothing (and
 * no sentence about agreement) when none are starred; every one shown was agreed to by its parent.
 */
export function starredWordsHtml(schoolName: string, words: Array<{ firstName: string; words: string }>): string {
  if (words.length === 0) return '';
  const quotes = words
    .map(
      (entry) =>
        `<figure class="rounded-card border border-line bg-white p-5"><blockquote class="whitespace-pre-line text-ink">“${escapeHtml(entry.words)}”</blockquote><figcaption class="mt-2 text-sm text-muted">${escapeHtml(entry.firstName)}, a parent at ${escapeHtml(schoolName)}</figcaption></figure>`,
    )
    .join('');
  return `<section aria-labelledby="parents-words-title" class="mt-8 border-t border-line pt-6" data-parents-words><h2 id="parents-words-title" class="text-lg font-bold">In parents’ own words</h2><p class="mt-1 text-sm text-muted" data-parents-words-terms>Quoted with each parent’s agreement; first names only. Chosen by our team, who may shorten them; a parent can withdraw their agreement at any time from “Your data”.</p><div class="mt-4 grid gap-4">${quotes}</div></section>`;
}

/**
 * The page of a school. `req`, when given, chooses the visitor's call to action (a running
 * experiment's variant for them, drawn here so the page never shifts); while one runs the CDN
 * keeps no copy, since the words differ by visitor, nor of a share link whose visits a running
 * share experiment counts.
 */
export async function schoolPageResponse(page: SchoolPage, attribution: Attribution, referral: string | undefined, req?: Request): Promise<Response> {
  // A page waiting for its first delivered letter shows no name, so no words or call to action either.
  const name = page.published ? page.schoolName : null;
  const [cta, words, linked] = await Promise.all([
    req && name ? placeText(req, undefined, 'school-page-cta', { school: name }) : Promise.resolve(undefined),
    name ? starredWordsFor(page.key).catch(() => []) : Promise.resolve([]),
    req ? recordLinkVisit(req, undefined) : Promise.resolve(false),
  ]);
  let html = replaceRegion(await shell(), SCHOOL_REGION, `${schoolRegionHtml(page)}${callToActionHtml(cta)}${name ? starredWordsHtml(name, words) : ''}`);
  if (!html) throw new Error('dist/school-page.html has no school region.');
  const form = await schoolFormHtml(page, attribution, referral);
  if (form !== undefined) html = replaceRegion(html, SCHOOL_FORM_INSTANCE, form) ?? html;
  const caching = cta?.experiment || linked ? { 'Cache-Control': 'no-store' } : schoolPageCacheHeaders;
  return new Response(withTitle(html, name ? `Add your voice at ${name}` : 'Add your voice at your school'), {
    status: 200,
    headers: { ...pageHeaders, ...caching },
  });
}

/** No school has this key (or it is forged): a 404 that still offers the email form. */
export async function unknownSchoolResponse(status = 404, message?: string): Promise<Response> {
  const content = `<h1 id="school-title" class="text-title font-extrabold tracking-tight">${status === 404 ? 'We could not find this school’s page' : 'School pages are not available right now'}</h1><p class="mt-4 text-lg text-ink-soft" role="${status === 404 ? 'status' : 'alert'}">${escapeHtml(
    message ??
      'The link may have been cut short when it was copied. You can still write to your school: fill in the form below, and your email will count towards its page.',
  )}</p>`;
  const html = replaceRegion(await shell(), SCHOOL_REGION, content);
  if (!html) throw new Error('dist/school-page.html has no school region.');
  return new Response(withTitle(html, status === 404 ? 'School page not found' : 'School pages unavailable'), {
    status,
    headers: { ...pageHeaders, 'Cache-Control': 'no-store' },
  });
}

/**
 * The words a parent shares, for the visitor of `req` (content/experiments/share-text.yaml: a
 * running experiment's variant, else its winner, else the control), for `shareBlockHtml`.
 */
export function shareTextFor(req: Request, context: unknown, schoolName: string): Promise<PlaceText | undefined> {
  return placeText(req, context, 'share-text', { school: schoolName });
}

/**
 * The share block of a page drawn here (src/lib/school-share.ts wires its buttons), in the words of
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
