/**
 * The exchange behind /your-data (the function only draws the answer and maps failures to pages):
 * with `?token=…`, what the site keeps about the address a signed link names (every way of writing
 * it that reaches the same mailbox), a JSON download (`&format=json`) and deletion, in two steps:
 * "Delete my data" shows what goes and a button carrying a short-lived deletion token; only that
 * POST deletes. Without a link, a parent asks for one by address: it goes to that address only, and
 * the answer is the same whether or not the address is known. Plain HTML: works without
 * JavaScript. Every POST carries its signed token (no cookie to ride on) and must come from this site.
 */
import type { Context } from '@netlify/functions';
import { z } from 'zod';
import { escapeHtml } from '../lib/shared/forms/render';
import { isEmail } from '../lib/shared/forms/values';
import { attemptContactDeletion, deletionStepUsed, erasePersonalData, exportPersonalData, findPersonalData, sendDataLink } from './data-rights';
import { openDataToken } from './links';
import { serverEnv } from './env';
import { recordAudit } from './staff/audit';
import { clientIp, HttpError, readLimited, StoreUnavailableError } from './http';
import { actions, heading, lead } from './pages/frame';
import { clientAddressKey, networkKey } from './identity';
import { optionalHubSpot } from './letter/request';
import { takeFormSubmission } from './rate-limit';
import { withdrawStarredWords } from './schools/starred-words';
import { hintedLocale } from './words';
import { askPage, dataWordsOf, expiredPage, invalidPage, notePage, overview, requestForm, reviewPage, type View } from './pages/your-data';
import type { Locale } from '../config/locales';
import { formLocaleSchema as pageLocaleSchema } from '../lib/shared/schemas';

/** Requests for a link from one network in 10 minutes. */
const REQUESTS_PER_WINDOW = 5;

/**
 * An address as typed, made plain: NFKC (fullwidth letters and ＠ become ASCII) and look-alike dots
 * (。｡) become dots, so that every way of writing one address is that address, for the answer as
 * for the daily allowance (which counts its canonical form).
 */
const typedAddress = (value: string) =>
  value
    .normalize('NFKC')
    .replace(/[\u3002\uff61\uff0e]/g, '.')
    .trim();

const requestSchema = z.object({
  email: z
    .string()
    .transform((value) => typedAddress(value.slice(0, 1000)))
    .refine(isEmail, 'Please enter a valid email address.'),
});

/** A POST must come from this site's own pages: a browser says where from (Origin, Sec-Fetch-Site). */
function fromThisSite(req: Request): boolean {
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.get('origin');
  if (!origin || origin === 'null') return origin === null;
  return origin === new URL(req.url).origin || serverEnv.siteOrigins.includes(origin);
}

/** Work that goes on after the answer: Netlify's `waitUntil`, else (a test's direct call) left to run. */
function afterAnswer(context: Context | undefined, work: Promise<void>): void {
  const waitUntil = (context as { waitUntil?: (promise: Promise<unknown>) => void } | undefined)?.waitUntil;
  if (typeof waitUntil === 'function') waitUntil.call(context, work);
  else void work;
}

/** The page's language, from the link (`lang=es`) or the form the page posted: English unless given; anything else is refused. */
function pageLocale(given: string | null): Locale {
  const parsed = pageLocaleSchema.safeParse(given ?? undefined);
  if (!parsed.success) throw new HttpError(400, 'invalid_locale', 'The page’s language (lang) must be one of "en", "es".');
  return parsed.data;
}

/** A view in the language of its page: `locale` is set on the views drawn in it. */
export async function view(req: Request, context?: Context): Promise<(View & { locale?: Locale }) | Response> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const params = new URL(req.url).searchParams;
    const locale = pageLocale(params.get('lang'));
    const w = await dataWordsOf(locale);
    const token = params.get('token');
    if (token === null) return { ...askPage(w), locale };
    const check = openDataToken(token.slice(0, 2000));
    if (check.kind === 'invalid') return { ...invalidPage(w), locale };
    if (check.kind === 'expired') return { ...expiredPage(w), locale };
    const data = await findPersonalData(check.email);
    if (params.get('format') === 'json') {
      return new Response(`${JSON.stringify(exportPersonalData(data), null, 2)}\n`, {
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Disposition': 'attachment; filename="your-data.json"',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'X-Robots-Tag': 'noindex',
          'Referrer-Policy': 'no-referrer',
          'X-Frame-Options': 'DENY',
          'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
          'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
        },
      });
    }
    return { status: 200, title: w.say('title'), content: overview(w, data, token), locale };
  }
  if (req.method !== 'POST') {
    const w = await dataWordsOf(hintedLocale(new URL(req.url).searchParams.get('lang')));
    return { ...notePage(w, 405, w.say('notAvailable.title'), w.say('notAvailable.text'), { Allow: 'GET, POST' }), locale: w.locale };
  }
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
    throw new HttpError(415, 'unsupported_media_type', 'Send this form from the page.');
  if (!fromThisSite(req)) throw new HttpError(403, 'cross_site', 'This form can only be sent from our own pages.');
  const form = new URLSearchParams(await readLimited(req, 8 * 1024));
  const action = form.get('action');
  const locale = pageLocale(form.get('lang'));
  const w = await dataWordsOf(locale);
  const say = w.say;
  const inPage = (view: View) => ({ ...view, locale });

  if (action === 'request') {
    const parsed = requestSchema.safeParse({ email: form.get('email') ?? '' });
    if (!parsed.success)
      return inPage({
        status: 400,
        title: say('request.checkTitle'),
        content: `${heading(say('title'))}${requestForm(w, say('request.invalid'), (form.get('email') ?? '').slice(0, 254))}`,
      });
    const limit = await takeFormSubmission(`your-data|${clientAddressKey(clientIp(req, context))}`, REQUESTS_PER_WINDOW);
    if (!limit.allowed) {
      return inPage(
        notePage(w, 429, say('request.busyTitle'), say('request.busy', { minutes: Math.ceil(limit.retryAfterSeconds / 60) }), {
          'Retry-After': String(limit.retryAfterSeconds),
        }),
      );
    }
    // Looked up and sent after the answer (the function's waitUntil): the answer takes the same time
    // whether or not we know the address, so its timing tells nothing either.
    const sending = sendDataLink(parsed.data.email, networkKey(clientIp(req, context))).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof StoreUnavailableError))
          console.error('[your-data] link request failed:', error instanceof Error ? error.message : 'unknown error');
      },
    );
    afterAnswer(context, sending);
    // The same answer whatever happened: it never tells whether we know the address.
    return inPage(notePage(w, 202, say('request.sentTitle'), say('request.sent')));
  }

  const token = (form.get('token') ?? '').slice(0, 2000);
  if (action === 'review') {
    const check = openDataToken(token);
    if (check.kind !== 'ok') return inPage(check.kind === 'expired' ? expiredPage(w) : invalidPage(w));
    return inPage(reviewPage(w, await findPersonalData(check.email)));
  }
  if (action === 'withdraw_words') {
    const check = openDataToken(token);
    if (check.kind !== 'ok') return inPage(check.kind === 'expired' ? expiredPage(w) : invalidPage(w));
    const withdrawn = await withdrawStarredWords(check.email);
    const took = withdrawn ? w.count('withdrawn', withdrawn) : say('withdrawn.none');
    return inPage(notePage(w, 200, say('withdrawn.title'), `${took} ${say('withdrawn.after')}`));
  }
  if (action === 'delete') {
    const check = openDataToken(token, 'your-data-delete');
    if (check.kind !== 'ok') return inPage(check.kind === 'expired' ? expiredPage(w) : invalidPage(w));
    // The button works once: the deletion and the use of its token are one statement, so of a
    // replay, a double click or four presses at once, one deletes and the others are told it is done.
    const erased = (await deletionStepUsed(token)) ? undefined : await erasePersonalData(check.email, new Date(), token);
    if (!erased) {
      return inPage(notePage(w, 200, say('deleted.title'), say('deleted.already')));
    }
    const { counts, deletionIds } = erased;
    await withdrawStarredWords(check.email);
    // Recorded without the address: the deletions' ids lead to the masked entries owners see.
    await recordAudit({ actor: 'parent', action: 'data_deletion.requested', target: deletionIds.join(' ') || undefined, ip: clientIp(req, context) });
    // HubSpot is asked now; what it does not do now, the scheduled run asks again.
    const client = optionalHubSpot();
    for (const id of deletionIds)
      await attemptContactDeletion(client, id).catch((error: unknown) =>
        console.error('[your-data] HubSpot deletion not attempted:', error instanceof Error ? error.message : ''),
      );
    const removed = counts.submissions + counts.drafts + counts.messages + counts.answers + counts.nominations + counts.bookings + counts.journeys;
    const deleted =
      deletionIds.length > 0
        ? say(removed === 1 ? 'deleted.oneCrm' : 'deleted.otherCrm', { count: removed, email: check.email })
        : w.count('deleted', removed, { email: check.email });
    return inPage({
      status: 200,
      title: say('deleted.title'),
      content: `${heading(say('deleted.title'))}${lead(deleted)}<p class="mt-4 text-sm text-muted">${escapeHtml(say('deleted.again'))}</p>${actions(w.home)}`,
    });
  }
  return inPage(invalidPage(w));
}
