import type { Locale } from '../../config/locales';
import { answerLabels } from '../../lib/answer-kinds';
import { escapeHtml, helpClass, inputClass, labelClass } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import { countRecords, waitingLetters, type PersonalData } from '../data-rights';
import { dataToken, DELETE_STEP_TTL_MS } from '../links';
import { letterStateText } from './letter';
import { actions, heading, lead } from './frame';

export { homeLink as home } from './frame';
export const date = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

export type View = { status: number; title: string; content: string; headers?: Record<string, string> };

export function requestForm(error?: string, email = ''): string {
  return `<form method="post" action="/your-data" class="mt-8 space-y-4 rounded-card border border-line bg-white p-6 shadow-card"><input type="hidden" name="action" value="request"><div><label for="data-email" class="${labelClass}">Your email address</label><p id="data-email-help" class="${helpClass}">We send a link to see, download or delete your data to this address only.</p><input id="data-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(email)}" class="${inputClass}" aria-describedby="data-email-help${error ? ' data-email-error' : ''}"${error ? ' aria-invalid="true"' : ''}>${
    error ? `<p id="data-email-error" class="mt-1.5 text-sm font-medium text-danger-600">${escapeHtml(error)}</p>` : ''
  }</div><button type="submit" class="${buttonClass('primary', 'md')}">Email me a link</button></form>`;
}

export const askPage = (): View => ({
  status: 200,
  title: 'Your data',
  content: `${heading('Your data')}${lead(
    'See what we keep about you, download it, or delete it. Open the “Your data” link from any of our emails or pages, or ask for a link here.',
  )}${requestForm()}`,
});

export const invalidPage = (): View => ({
  status: 404,
  title: 'This link is not valid',
  content: `${heading('This link is not valid')}${lead('It may have been cut short when it was copied. Open the link from your email again, or ask for a new one.')}${requestForm()}`,
});

export const expiredPage = (): View => ({
  status: 410,
  title: 'This link has expired',
  content: `${heading('This link has expired')}${lead('For your safety, “Your data” links work for a limited time. Ask for a new one: we send it to your address only.')}${requestForm()}`,
});

export const item = (title: string, detail: string) =>
  `<li class="rounded-xl border border-line bg-white p-4"><p class="font-medium">${escapeHtml(title)}</p><p class="text-sm text-muted">${escapeHtml(detail)}</p></li>`;

export function section(id: string, title: string, items: string[]): string {
  if (items.length === 0) return '';
  return `<section aria-labelledby="${id}" class="mt-8"><h2 id="${id}" class="text-xl font-bold">${escapeHtml(title)} (${items.length})</h2><ul class="mt-3 space-y-2">${items.join('')}</ul></section>`;
}

/** Where a letter stands, as a sentence a parent reads. */

/** The words of these pages that a parent who wrote in Spanish reads in Spanish (usted, plain words). */
export const yourDataWords = {
  en: {
    title: 'Your data',
    sections: {
      forms: 'Forms you sent',
      emails: 'Your school emails',
      drafts: 'Email drafts',
      answers: 'Your answers about the school',
      nominations: 'Schools you nominated',
      bookings: 'Calls you booked',
      journeys: 'How you found us (our counts)',
    },
    keeps: (email: string, total: number) =>
      total
        ? `This is everything our site keeps about ${email} (and other ways of writing this address that reach the same inbox): ${total} record${total === 1 ? '' : 's'}.`
        : `Our site keeps nothing about ${email}.`,
    why: 'Why we keep it and for how long: form submissions for 30 days after they reach our CRM, so nothing you typed is lost; school emails and your answers for 90 days after sending, to follow up with you; drafts for 30 days.',
    faqs: 'Questions? See our FAQs.',
    download: 'Download my data (JSON)',
    delete: 'Delete my data',
    reviewTitle: 'Delete your data?',
    reviewLead: (email: string) =>
      `This deletes what our site keeps about ${email} at once, and asks our CRM (HubSpot) to delete the contacts you gave us. It cannot be undone.`,
    counts: ['form submissions', 'school emails', 'email drafts', 'answers about your school', 'nominations', 'booking records', 'records of how you found us'],
    anonymous:
      "A school email our platform sent keeps only an anonymous count (no names, no addresses, no text), so the school's and the day's limits still hold.",
    yes: 'Yes, delete my data',
    keep: 'Keep my data',
    deletedTitle: 'Your data has been deleted',
    deleted: (removed: number, email: string, crm: boolean) =>
      `We deleted ${removed} record${removed === 1 ? '' : 's'} about ${email} from our site${crm ? ', and asked our CRM (HubSpot) to delete your contact: we keep asking until it has' : ''}.`,
    again: 'If you fill in one of our forms again, we keep what you send, as before.',
    already:
      'This deletion was already done: nothing more was changed. If you have filled in one of our forms since, open a new “Your data” link to delete that too.',
  },
  es: {
    title: 'Sus datos',
    sections: {
      forms: 'Formularios que envió',
      emails: 'Sus correos a la escuela',
      drafts: 'Borradores de correo',
      answers: 'Sus respuestas sobre la escuela',
      nominations: 'Escuelas que nominó',
      bookings: 'Llamadas que agendó',
      journeys: 'Cómo nos encontró (nuestros conteos)',
    },
    keeps: (email: string, total: number) =>
      total
        ? `Esto es todo lo que nuestro sitio guarda sobre ${email} (y otras formas de escribir esta dirección que llegan al mismo buzón): ${total} registro${total === 1 ? '' : 's'}.`
        : `Nuestro sitio no guarda nada sobre ${email}.`,
    why: 'Por qué lo guardamos y por cuánto tiempo: los formularios, 30 días después de llegar a nuestro CRM, para que no se pierda nada de lo que escribió; los correos a la escuela y sus respuestas, 90 días después del envío, para darle seguimiento; los borradores, 30 días.',
    faqs: '¿Preguntas? Vea nuestras preguntas frecuentes (en inglés).',
    download: 'Descargar mis datos (JSON)',
    delete: 'Eliminar mis datos',
    reviewTitle: '¿Eliminar sus datos?',
    reviewLead: (email: string) =>
      `Esto elimina de inmediato lo que nuestro sitio guarda sobre ${email}, y pide a nuestro CRM (HubSpot) que elimine los contactos que nos dio. No se puede deshacer.`,
    counts: [
      'formularios',
      'correos a la escuela',
      'borradores de correo',
      'respuestas sobre su escuela',
      'nominaciones',
      'registros de llamadas',
      'registros de cómo nos encontró',
    ],
    anonymous:
      'De un correo que nuestra plataforma envió a una escuela solo queda un conteo anónimo (sin nombres, direcciones ni texto), para que los límites de la escuela y del día se sigan cumpliendo.',
    yes: 'Sí, eliminar mis datos',
    keep: 'Conservar mis datos',
    deletedTitle: 'Sus datos fueron eliminados',
    deleted: (removed: number, email: string, crm: boolean) =>
      `Eliminamos de nuestro sitio ${removed} registro${removed === 1 ? '' : 's'} sobre ${email}${crm ? ', y pedimos a nuestro CRM (HubSpot) que elimine su contacto: seguiremos pidiéndolo hasta que lo haga' : ''}.`,
    again: 'Si vuelve a llenar uno de nuestros formularios, guardaremos lo que envíe, como antes.',
    already:
      'Esta eliminación ya se hizo: no se cambió nada más. Si llenó uno de nuestros formularios desde entonces, abra un nuevo enlace de “Sus datos” para eliminarlo también.',
  },
} satisfies Record<Locale, Record<string, unknown>>;

/** The hidden input that keeps a page's language in the forms it posts back. */
export const langInput = (locale: Locale) => (locale === 'en' ? '' : `<input type="hidden" name="lang" value="${locale}">`);

export function overview(data: PersonalData, token: string, locale: Locale = 'en'): string {
  const words = yourDataWords[locale];
  const counts = countRecords(data);
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const records = [
    section(
      'data-forms',
      words.sections.forms,
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
      words.sections.emails,
      data.messages.map((message) =>
        item(
          `To ${message.toName || message.to} at ${message.schoolName}, ${date(message.sentAt ?? message.createdAt)}`,
          `${letterStateText(message)} · “${message.subject}”`,
        ),
      ),
    ),
    section(
      'data-drafts',
      words.sections.drafts,
      data.drafts.map((draft) =>
        item(
          `For ${draft.data.schoolName || 'your school'}, ${date(draft.createdAt)}`,
          `${draft.data.parentFullName} · ${draft.data.childFullName} · ${draft.data.childGrade}`,
        ),
      ),
    ),
    section(
      'data-answers',
      words.sections.answers,
      data.answers.map((answer) => item(answerLabels[answer.kind], answer.comment || 'No comment')),
    ),
    section(
      'data-nominations',
      words.sections.nominations,
      data.nominations.map((nomination) =>
        item(`${nomination.data.schoolName}, ${date(nomination.createdAt)}`, `${nomination.data.yourName} · ${nomination.data.city}`),
      ),
    ),
    section(
      'data-bookings',
      words.sections.bookings,
      data.bookings.map((booking) => item(`Booking, ${date(booking.createdAt)}`, String(booking.record.eventType ?? 'Calendly booking'))),
    ),
    section(
      'data-journeys',
      words.sections.journeys,
      data.journeys.map((journey) =>
        item(
          `Your draft of ${date(journey.createdAt)}`,
          [
            `Page: ${journey.page ?? 'unknown'}`,
            `came from: ${journey.source ?? 'direct'}`,
            journey.campaign ? `campaign: ${journey.campaign}` : '',
            journey.ambassador ? `ambassador: ${journey.ambassador}` : '',
            journey.variant ? `words shown: ${journey.variant}` : '',
            journey.letter ? `letter: ${journey.letter}` : '',
            journey.confirmedAt ? 'confirmed' : '',
            journey.deliveredAt ? 'delivered' : '',
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
    ),
  ].join('');
  const quotes = data.quotes.quotes.map((quote) => item(`Quoted as ${quote.firstName}, ${date(quote.starredAt)}`, `“${quote.words}”`));
  const agreed = data.quotes.agreements.length;
  // Shown whenever there is an agreement or a quote: the way to take it back is beside what it covers.
  const quoted =
    agreed || quotes.length
      ? `<section aria-labelledby="data-words" class="mt-8"><h2 id="data-words" class="text-xl font-bold">Your words on school pages</h2><p class="mt-3 text-ink-soft">${escapeHtml(
          agreed
            ? `You agreed that our team may quote your words on your school’s page, first name only (${agreed === 1 ? 'one letter or answer' : `${agreed} letters or answers`}). ${quotes.length ? 'They quote you now:' : 'They have not quoted you.'}`
            : 'Our team quotes you now:',
        )}</p>${quotes.length ? `<ul class="mt-3 space-y-2">${quotes.join('')}</ul>` : ''}<form method="post" action="/your-data" class="mt-4"><input type="hidden" name="action" value="withdraw_words"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('secondary', 'md')}">Withdraw my agreement to be quoted</button></form><p class="mt-2 text-sm text-muted">Your quotes come off the school pages at once, and we do not quote you again unless you tick the box on a new letter.</p></section>`
      : '';
  const download = `<a class="${buttonClass('primary', 'md')}" href="/your-data?token=${encodeURIComponent(token)}&amp;format=json" download="your-data.json">${words.download}</a>`;
  const remove = `<form method="post" action="/your-data"><input type="hidden" name="action" value="review"><input type="hidden" name="token" value="${escapeHtml(token)}">${langInput(locale)}<button type="submit" class="${buttonClass('secondary', 'md')}">${words.delete}</button></form>`;
  return `${heading(words.title)}${lead(words.keeps(data.email, total))}<p class="mt-4 text-sm text-muted">${words.why} <a class="font-medium text-brand-700 underline" href="/faqs"${locale === 'en' ? '' : ' hreflang="en"'}>${words.faqs}</a></p>${records}${quoted}${actions(download, remove)}`;
}

export function reviewPage(data: PersonalData, locale: Locale = 'en'): View {
  const words = yourDataWords[locale];
  const counts = countRecords(data);
  const deleteToken = dataToken(data.email, { purpose: 'your-data-delete', ttlMs: DELETE_STEP_TTL_MS });
  const lines = [counts.submissions, counts.messages, counts.drafts, counts.answers, counts.nominations, counts.bookings, counts.journeys]
    .map((n, index) => [n, words.counts[index]!] as const)
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
    title: words.reviewTitle,
    content: `${heading(words.reviewTitle)}${lead(words.reviewLead(data.email))}${withdrawn}${lines ? `<ul class="mt-4 list-disc pl-6 text-ink-soft">${lines}</ul>` : ''}<p class="mt-4 text-sm text-muted">${escapeHtml(words.anonymous)}</p><form method="post" action="/your-data" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="action" value="delete"><input type="hidden" name="token" value="${escapeHtml(
      deleteToken,
    )}">${langInput(locale)}<button type="submit" class="${buttonClass('accent', 'md')}">${words.yes}</button><a class="${buttonClass('secondary', 'md')}" href="/your-data?token=${encodeURIComponent(dataToken(data.email))}${locale === 'en' ? '' : `&amp;lang=${locale}`}">${words.keep}</a></form>`,
  };
}
