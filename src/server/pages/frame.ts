/**
 * The pages a visitor without JavaScript gets from the site's forms: the built /form-response page
 * (src/pages/form-response.astro) with its marked region filled in — the thank-you message, the
 * form again with each problem next to its field, or what went wrong. Built pages are read from
 * dist/ (netlify.toml includes them in the functions that answer with pages).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultLocale, localeTags, locales, type Locale } from '../../config/locales';
import { personalFieldLabelsIn } from '../../lib/shared/email/note';
import { localePath } from '../../lib/shared/i18n/paths';
import type { FormDefinition } from '../../lib/shared/forms/definition';
import { escapeHtml, regionMarkers, renderForm, RESPONSE_INSTANCE, successHtml } from '../../lib/shared/forms/render';
import { summaryOf, type RawValues } from '../../lib/shared/forms/values';
import { buttonClass } from '../../lib/shared/ui';
import { serverEnv } from '../env';
import { serverWordsOf } from '../words';

/** A page path of the site, e.g. "/" or "/blogs-insights/why-two-hours-is-enough". */
const PAGE_PATH = /^\/(?:[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*)?$/;

export function siteDir(): string {
  return serverEnv.siteDir ?? join(process.cwd(), 'dist');
}

/** A page path the site has, or undefined (so a link back never points elsewhere). */
export function safePagePath(page: unknown): string | undefined {
  return typeof page === 'string' && page.length <= 200 && PAGE_PATH.test(page) ? page : undefined;
}

/** The built HTML of a page, or undefined when the site has no such page. */
export async function builtPage(page: string): Promise<string | undefined> {
  const path = safePagePath(page);
  if (!path) return undefined;
  try {
    return await readFile(join(siteDir(), path === '/' ? 'index.html' : `${path.slice(1)}.html`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `html` with the region of `instance` replaced, or undefined when the page has no such region. */
export function replaceRegion(html: string, instance: string, content: string): string | undefined {
  const { start, end } = regionMarkers(instance);
  const from = html.indexOf(start);
  const to = from < 0 ? -1 : html.indexOf(end, from);
  if (to < 0) return undefined;
  return html.slice(0, from + start.length) + content + html.slice(to);
}

export const pageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  // The page's own <meta> policy pins its scripts and styles; this adds what a <meta> cannot carry.
  'Content-Security-Policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'",
};

/**
 * `html` with its links to the page in another language (the language switch, and the suggestion
 * of an English page) leading where `hrefOf` says for their language: a page a function draws knows
 * its own address in each language, which the built frame it fills cannot.
 */
export function withLanguageLinks(html: string, hrefOf: (locale: Locale) => string | undefined): string {
  return html.replace(/<a [^>]*\bdata-(?:language-switch|suggestion-link)\b[^>]*>/g, (tag) => {
    const target = locales.find((each) => tag.includes(` hreflang="${localeTags[each].lang}"`));
    const href = target && hrefOf(target);
    return href ? tag.replace(/ href="[^"]*"/, () => ` href="${escapeHtml(href)}"`) : tag;
  });
}

/**
 * The /form-response page (in `locale`: /es/form-response is Spanish, its frame and `lang`) with
 * `content` in its region, and `title` as the document title. `switchTo`: the page's own address in
 * each language, for its language switch (else the switch leads to the other language's home).
 */
export async function responsePage(
  content: string,
  options: { status?: number; title?: string; locale?: Locale; switchTo?: Partial<Record<Locale, string>> } = {},
): Promise<Response> {
  const path = localePath('/form-response', options.locale ?? defaultLocale);
  const shell = await builtPage(path);
  if (!shell) throw new Error(`dist${path}.html is missing: build the site before serving it.`);
  let html = replaceRegion(shell, RESPONSE_INSTANCE, content);
  if (!html) throw new Error(`dist${path}.html has no response region.`);
  if (options.title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(options.title)} | Mastery Parents</title>`);
  const switchTo = options.switchTo;
  if (switchTo) html = withLanguageLinks(html, (locale) => switchTo[locale]);
  return new Response(html, { status: options.status ?? 200, headers: pageHeaders });
}

/** The pieces of every page a function answers with (the frame is the built response page's). */
export const heading = (text: string) => `<h1 id="form-response-title" class="text-title font-extrabold tracking-tight">${escapeHtml(text)}</h1>`;
export const lead = (text: string) => `<p class="mt-4 text-lg text-ink-soft">${escapeHtml(text)}</p>`;
export const actions = (...buttons: string[]) => `<div class="mt-8 flex flex-wrap gap-3">${buttons.join('')}</div>`;
/** The way out of every page a function answers: one link, one wording. */
export const homeLink = `<a class="${buttonClass('secondary', 'md')}" href="/">Go to the home page</a>`;
/** `homeLink` in a language: its home, in its words. */
export async function homeLinkIn(locale: Locale): Promise<string> {
  if (locale === defaultLocale) return homeLink;
  const t = await serverWordsOf(locale);
  return `<a class="${buttonClass('secondary', 'md')}" href="${localePath('/', locale)}">${escapeHtml(t('formResponse.home'))}</a>`;
}
const backLink = async (page: string | undefined, locale: Locale = defaultLocale) =>
  page && page !== '/' && page !== localePath('/', locale)
    ? actions(`<a class="${buttonClass('secondary', 'md')}" href="${escapeHtml(page)}">${escapeHtml((await serverWordsOf(locale))('formResponse.back'))}</a>`)
    : actions(await homeLinkIn(locale));

/** The form again, with what the visitor typed and each problem next to its field. */
export async function invalidPage(input: {
  definition: FormDefinition;
  purpose: string;
  page: string | undefined;
  values: RawValues;
  errors: Record<string, string>;
  /** The email forms: show the parent's own words (the question and the note) again. */
  note?: boolean;
  /** Hidden inputs to post again (a school page's key and referral). */
  hiddenInputs?: Record<string, string>;
  /** False for a school page's form, which names its school. */
  schoolSearch?: boolean;
  /** The page's language, in which the definition is given (its words and the page's). */
  locale?: Locale;
}): Promise<Response> {
  const locale = input.locale ?? defaultLocale;
  const t = await serverWordsOf(locale);
  const summary = summaryOf(input.definition, input.errors, input.note ? personalFieldLabelsIn(locale) : {}, locale);
  const form = renderForm(
    input.definition,
    {
      purpose: input.purpose,
      instance: 'form-response-form',
      page: input.page ?? '/',
      values: input.values,
      errors: input.errors,
      note: input.note,
      hiddenInputs: input.hiddenInputs,
      schoolSearch: input.schoolSearch,
      ...(locale === defaultLocale ? {} : { locale }),
    },
    summary,
  );
  const content = `${heading(t('formResponse.invalid.title'))}${lead(t('formResponse.invalid.lead'))}<div class="mt-8 rounded-card border border-line bg-white p-6 shadow-card">${form}</div>${await backLink(input.page, locale)}`;
  return responsePage(content, { status: 400, title: t('formResponse.invalid.title'), locale });
}

/** The thank-you message of a form, with the way back to the page it was on. */
export async function submittedPage(definition: FormDefinition, page: string | undefined, locale: Locale = defaultLocale): Promise<Response> {
  const t = await serverWordsOf(locale);
  const content = `${heading(t('formResponse.thanks.title'))}<div class="mt-4 rounded-xl border border-success-600 bg-white p-4 text-lg text-ink [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline" role="status">${successHtml(definition, locale)}</div>${await backLink(page, locale)}`;
  return responsePage(content, { title: t('formResponse.thanks.documentTitle'), locale });
}

/** A failure the visitor can do something about (rate limit, storage down, unknown form). */
export async function problemPage(status: number, title: string, message: string, page: string | undefined, locale: Locale = defaultLocale): Promise<Response> {
  const content = `${heading(title)}<p class="mt-4 text-lg text-ink-soft" role="alert">${escapeHtml(message)}</p>${await backLink(page, locale)}`;
  return responsePage(content, { status, title, locale });
}
