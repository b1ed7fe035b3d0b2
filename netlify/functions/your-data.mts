import type { Config, Context } from '@netlify/functions';
import { z } from 'zod';
import { answerLabels } from '../../src/lib/school-answers';
import { escapeHtml, helpClass, inputClass, labelClass } from '../../src/lib/forms/render';
import { isEmail } from '../../src/lib/forms/values';
import { buttonClass } from '../../src/lib/ui';
import {
  attemptContactDeletion,
  countRecords,
  deletionStepUsed,
  erasePersonalData,
  exportPersonalData,
  findPersonalData,
  sendDataLink,
  waitingLetters,
  type PersonalData,
} from '../../src/server/data-rights';
import { dataToken, DELETE_STEP_TTL_MS, openDataToken } from '../../src/server/links';
import { letterStateText } from '../../src/server/letter-pages';
import { serverEnv } from '../../src/server/env';
import { actions, heading, lead, responsePage } from '../../src/server/form-pages';
import { recordAudit } from '../../src/server/audit';
import { clientIp, HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { clientAddressKey, networkKey } from '../../src/server/identity';
import { optionalHubSpot } from '../../src/server/letter/request';
import { takeFormSubmission } from '../../src/server/rate-limit';
import { withdrawStarredWords } from '../../src/server/starred-words';

/**
 * /your-data?token=…: what the site keeps about the address a signed link names (every way of
 * writing it that reaches the same mailbox), a JSON download (`&format=json`) and deletion, in two
 * steps: "Delete my data" shows what goes and a button carrying a short-lived deletion token;
 * only that POST deletes. Without a link, a parent asks for one by address: it goes to that address
 * only, and the answer is the same whether or not the address is known. Plain HTML: works without
 * JavaScript. Every POST carries its signed token (no cookie to ride on) and must come from this site.
 */
const home = `<a class="${buttonClass('secondary', 'md')}" href="/">Go to the home page</a>`;
const date = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

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

type View = { status: number; title: string; content: string; headers?: Record<string, string> };

function requestForm(error?: string, email = ''): string {
  return `<form method="post" action="/your-data" class="mt-8 space-y-4 rounded-card border border-line bg-white p-6 shadow-card"><input type="hidden" name="action" value="request"><div><label for="data-email" class="${labelClass}">Your email address</label><p id="data-email-help" class="${helpClass}">We send a link to see, download or delete your data to this address only.</p><input id="data-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(email)}" class="${inputClass}" aria-describedby="data-email-help${error ? ' data-email-error' : ''}"${error ? ' aria-invalid="true"' : ''}>${
    error ? `<p id="data-email-error" class="mt-1.5 text-sm font-medium text-danger-600">${escapeHtml(error)}</p>` : ''
  }</div><button type="submit" class="${buttonClass('primary', 'md')}">Email me a link</button></form>`;
}

const askPage = (): View => ({
  status: 200,
  title: 'Your data',
  content: `${heading('Your data')}${lead(
    'See what we keep about you, download it, or delete it. Open the “Your data” link from any of our emails or pages, or ask for a link here.',
  )}${requestForm()}`,
});

const invalidPage = (): View => ({
  status: 404,
  title: 'This link is not valid',
  content: `${heading('This link is not valid')}${lead('It may have been cut short when it was copied. Open the link from your email again, or ask for a new one.')}${requestForm()}`,
});

const expiredPage = (): View => ({
  status: 410,
  title: 'This link has expired',
  content: `${heading('This link has expired')}${lead('For your safety, “Your data” links work for a limited time. Ask for a new one: we send it to your address only.')}${requestForm()}`,
});

const item = (title: string, detail: string) =>
  `<li class="rounded-xl border border-line bg-white p-4"><p class="font-medium">${escapeHtml(title)}</p><p class="text-sm text-muted">${escapeHtml(detail)}</p></li>`;

function section(id: string, title: string, items: string[]): string {
  if (items.length === 0) return '';
  return `<section aria-labelledby="${id}" class="mt-8"><h2 id="${id}" class="text-xl font-bold">${escapeHtml(title)} (${items.length})</h2><ul class="mt-3 space-y-2">${items.join('')}</ul></section>`;
}

/** Where a letter stands, as a sentence a parent reads. */

function overview(data: PersonalData, token: string): string {
  const counts = countRecords(data);
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const records = [
    section(
      'data-forms',
      'Forms you sent',
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
      'Your school emails',
      data.messages.map((message) =>
        item(
          `To ${message.toName || message.to} at ${message.schoolName}, ${date(message.sentAt ?? message.createdAt)}`,
          `${letterStateText(message)} · “${message.subject}”`,
        ),
      ),
    ),
    section(
      'data-drafts',
      'Email drafts',
      data.drafts.map((draft) =>
        item(
          `For ${draft.data.schoolName || 'your school'}, ${date(draft.createdAt)}`,
          `${draft.data.parentFullName} · ${draft.data.childFullName} · ${draft.data.childGrade}`,
        ),
      ),
    ),
    section(
      'data-answers',
      'Your answers about the school',
      data.answers.map((answer) => item(answerLabels[answer.kind], answer.comment || 'No comment')),
    ),
    section(
      'data-nominations',
      'Schools you nominated',
      data.nominations.map((nomination) =>
        item(`${nomination.data.schoolName}, ${date(nomination.createdAt)}`, `${nomination.data.yourName} · ${nomination.data.city}`),
      ),
    ),
    section(
      'data-bookings',
      'Calls you booked',
      data.bookings.map((booking) => item(`Booking, ${date(booking.createdAt)}`, String(booking.record.eventType ?? 'Calendly booking'))),
    ),
  ].join('');
  const download = `<a class="${buttonClass('primary', 'md')}" href="/your-data?token=${encodeURIComponent(token)}&amp;format=json" download="your-data.json">Download my data (JSON)</a>`;
  const remove = `<form method="post" action="/your-data"><input type="hidden" name="action" value="review"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('secondary', 'md')}">Delete my data</button></form>`;
  // Parents' words staff starred for a school page (src/server/starred-words.ts) come down at once.
  const withdraw = `<form method="post" action="/your-data"><input type="hidden" name="action" value="withdraw_words"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('secondary', 'md')}">Withdraw my words from the school page</button></form>`;
  return `${heading('Your data')}${lead(
    total
      ? `This is everything our site keeps about ${data.email} (and other ways of writing this address that reach the same inbox): ${total} record${total === 1 ? '' : 's'}.`
      : `Our site keeps nothing about ${data.email}.`,
  )}<p class="mt-4 text-sm text-muted">Why we keep it and for how long: form submissions for 30 days after they reach our CRM, so nothing you typed is lost; school emails and your answers for 90 days after sending, to follow up with you; drafts for 30 days. <a class="font-medium text-brand-700 underline" href="/faqs">Questions? See our FAQs.</a></p>${records}${actions(download, remove, withdraw)}`;
}

function reviewPage(data: PersonalData): View {
  const counts = countRecords(data);
  const deleteToken = dataToken(data.email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS });
  const lines = [
    [counts.submissions, 'form submissions'],
    [counts.messages, 'school emails'],
    [counts.drafts, 'email drafts'],
    [counts.answers, 'answers about your school'],
    [counts.nominations, 'nominations'],
    [counts.bookings, 'booking records'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, what]) => `<li>${n} ${escapeHtml(String(what))}</li>`)
    .join('');
  const waiting = waitingLetters(data);
  const withdrawn = waiting.length
    ? `<div class="mt-6 rounded-xl border border-danger-600 bg-danger-50 p-4 text-ink" role="note"><p class="font-semibold">${waiting.length === 1 ? 'This letter has not gone yet and will not be sent:' : `These ${waiting.length} letters have not gone yet and will not be sent:`}</p><ul class="mt-2 list-disc pl-6">${waiting
        .map(
          (message) =>
            `<li>${escapeHtml(`To ${message.toName || message.to} at ${message.schoolName || 'your school'}: ${letterStateText(message).toLowerCase()}`)}</li>`,
        )
        .join('')}</ul></div>`
    : '';
  return {
    status: 200,
    title: 'Delete your data?',
    content: `${heading('Delete your data?')}${lead(
      `This deletes what our site keeps about ${data.email} at once, and asks our CRM (HubSpot) to delete the contacts you gave us. It cannot be undone.`,
    )}${withdrawn}${lines ? `<ul class="mt-4 list-disc pl-6 text-ink-soft">${lines}</ul>` : ''}<p class="mt-4 text-sm text-muted">A school email our platform sent keeps only an anonymous count (no names, no addresses, no text), so the school's and the day's limits still hold.</p><form method="post" action="/your-data" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="action" value="delete"><input type="hidden" name="token" value="${escapeHtml(
      deleteToken,
    )}"><button type="submit" class="${buttonClass('accent', 'md')}">Yes, delete my data</button><a class="${buttonClass('secondary', 'md')}" href="/your-data?token=${encodeURIComponent(dataToken(data.email))}">Keep my data</a></form>`,
  };
}

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

async function view(req: Request, context?: Context): Promise<View | Response> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    const params = new URL(req.url).searchParams;
    const token = params.get('token');
    if (token === null) return askPage();
    const check = openDataToken(token.slice(0, 2000));
    if (check.kind === 'invalid') return invalidPage();
    if (check.kind === 'expired') return expiredPage();
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
    return { status: 200, title: 'Your data', content: overview(data, token) };
  }
  if (req.method !== 'POST')
    return {
      status: 405,
      title: 'Not available',
      content: `${heading('Not available')}${lead('Open your “Your data” link to see your data.')}${actions(home)}`,
      headers: { Allow: 'GET, POST' },
    };
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
    throw new HttpError(415, 'unsupported_media_type', 'Send this form from the page.');
  if (!fromThisSite(req)) throw new HttpError(403, 'cross_site', 'This form can only be sent from our own pages.');
  const form = new URLSearchParams(await readLimited(req, 8 * 1024));
  const action = form.get('action');

  if (action === 'request') {
    const parsed = requestSchema.safeParse({ email: form.get('email') ?? '' });
    if (!parsed.success)
      return {
        status: 400,
        title: 'Please check your address',
        content: `${heading('Your data')}${requestForm(parsed.error.issues[0]?.message, (form.get('email') ?? '').slice(0, 254))}`,
      };
    const limit = await takeFormSubmission(`your-data|${clientAddressKey(clientIp(req, context))}`, REQUESTS_PER_WINDOW);
    if (!limit.allowed) {
      return {
        status: 429,
        title: 'Please wait a moment',
        content: `${heading('Please wait a moment')}${lead(`Too many requests from your network. Please try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`)}${actions(home)}`,
        headers: { 'Retry-After': String(limit.retryAfterSeconds) },
      };
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
    return {
      status: 202,
      title: 'Check your inbox',
      content: `${heading('Check your inbox')}${lead(
        'If we keep anything about this address, we have sent a link to it, and to it only. The link works for 24 hours. Nothing arrived? Check your spam folder, or try again tomorrow.',
      )}${actions(home)}`,
    };
  }

  const token = (form.get('token') ?? '').slice(0, 2000);
  if (action === 'review') {
    const check = openDataToken(token);
    if (check.kind !== 'ok') return check.kind === 'expired' ? expiredPage() : invalidPage();
    return reviewPage(await findPersonalData(check.email));
  }
  if (action === 'withdraw_words') {
    const check = openDataToken(token);
    if (check.kind !== 'ok') return check.kind === 'expired' ? expiredPage() : invalidPage();
    const withdrawn = await withdrawStarredWords(check.email);
    return {
      status: 200,
      title: 'Your words are withdrawn',
      content: `${heading('Your words are withdrawn')}${lead(
        `${withdrawn ? `We took ${withdrawn} quote${withdrawn === 1 ? '' : 's'} of yours off the school pages.` : 'None of your words were on a school page.'} Our team will not quote you there again.`,
      )}${actions(home)}`,
    };
  }
  if (action === 'delete') {
    const check = openDataToken(token, 'your-data-delete');
    if (check.kind !== 'ok') return check.kind === 'expired' ? expiredPage() : invalidPage();
    // The button works once: the deletion and the use of its token are one statement, so of a
    // replay, a double click or four presses at once, one deletes and the others are told it is done.
    const erased = (await deletionStepUsed(token)) ? undefined : await erasePersonalData(check.email, new Date(), token);
    if (!erased) {
      return {
        status: 200,
        title: 'Your data has been deleted',
        content: `${heading('Your data has been deleted')}${lead('This deletion was already done: nothing more was changed. If you have filled in one of our forms since, open a new “Your data” link to delete that too.')}${actions(home)}`,
      };
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
    const removed = counts.submissions + counts.drafts + counts.messages + counts.answers + counts.nominations + counts.bookings;
    return {
      status: 200,
      title: 'Your data has been deleted',
      content: `${heading('Your data has been deleted')}${lead(
        `We deleted ${removed} record${removed === 1 ? '' : 's'} about ${check.email} from our site${deletionIds.length ? ', and asked our CRM (HubSpot) to delete your contact: we keep asking until it has' : ''}.`,
      )}<p class="mt-4 text-sm text-muted">If you fill in one of our forms again, we keep what you send, as before.</p>${actions(home)}`,
    };
  }
  return invalidPage();
}

export default async (req: Request, context?: Context): Promise<Response> => {
  try {
    const page = await view(req, context);
    if (page instanceof Response) return page;
    const response = await responsePage(page.content, { status: page.status, title: page.title });
    for (const [name, value] of Object.entries(page.headers ?? {})) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${actions(home)}`, {
        status: error.status,
        title: 'This request could not be read',
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[your-data]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not open your data just now, and nothing was changed. Please try again in a few minutes.')}${actions(home)}`,
      {
        status: 503,
        title: 'Please try again in a moment',
      },
    );
  }
};

export const config: Config = {
  path: '/your-data',
};
