/**
 * The pages of /confirm-send (netlify/functions/confirm-send.mts): for each outcome of a parent's
 * confirmation link, its status, title and content, drawn in the site's frame by responsePage.
 */
import { escapeHtml } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import type { PlaceText } from '../analytics/experiments';
import { refusalText, type ConfirmOutcome, type SchoolShare } from '../letter/request';
import type { Locale } from '../../config/locales';
import { dataPath } from '../links';
import { whenLetterGoes } from '../mail/schedule';
import { actions, heading, lead } from './frame';
import { again, home, preview, sendYourself } from './letter';
import { shareBlockHtml } from './school';

/** After the parent's own confirmation: where their letter stands on the school's page. */
function shareLead(share: SchoolShare): string {
  const school = share.schoolName;
  const text =
    share.others === 0
      ? `Your letter is on its way: you're the first parent of ${school} here. Share the school's page so other parents add their voice.`
      : `Your letter is on its way: ${share.others === 1 ? 'one parent has' : `${share.others} parents have`} written to ${school} with you. Share the school's page so more parents add their voice.`;
  return `<p class="mt-8 font-semibold text-ink" role="status">${escapeHtml(text)}</p>`;
}

/**
 * The page of an outcome, in the language its parent wrote in where that page has its words (the
 * request and its confirmation, in Spanish); `locale` is the page's, for its frame and `lang`.
 */
export function confirmSendPage(outcome: ConfirmOutcome, token: string, share?: Shared): { status: number; title: string; content: string; locale: Locale } {
  const spanish = 'message' in outcome && outcome.message?.locale === 'es' && (outcome.kind === 'ready' || outcome.kind === 'done');
  const locale: Locale = spanish ? 'es' : 'en';
  const view = spanish ? outcomePageEs(outcome, token, share) : outcomePage(outcome, token, share);
  if (!('message' in outcome) || !outcome.message) return { ...view, locale };
  let path: string | undefined;
  try {
    path = dataPath(outcome.message.parentEmail, { locale });
  } catch {
    path = undefined;
  }
  if (!path) return { ...view, locale };
  const line = spanish
    ? `<a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">Sus datos</a>: vea, descargue o elimine lo que guardamos sobre usted.`
    : `<a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">Your data</a>: see, download or delete what we keep about you.`;
  return { ...view, locale, content: `${view.content}<p class="mt-6 text-sm text-muted">${line}</p>` };
}

/** The request and its confirmation for a parent who wrote in Spanish (usted, plain words). */
function outcomePageEs(outcome: ConfirmOutcome, token: string, share?: Shared): { status: number; title: string; content: string } {
  const home = `<a class="${buttonClass('secondary', 'md')}" href="/es">Ir a la página principal</a>`;
  if (outcome.kind === 'ready')
    return {
      status: 200,
      title: 'Confirme su correo',
      content: `${heading(`Confirme su correo a ${outcome.message.schoolName || 'su escuela'}`)}${lead(
        'Usted nos pidió enviar esta carta en su nombre. Léala y luego confirme: nuestra plataforma la envía una sola vez al contacto de la escuela que aparece abajo, en el horario de la escuela.',
      )}${preview(outcome.message, 'es')}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><button type="submit" class="${buttonClass('accent', 'lg')}">Enviar mi correo</button><span class="text-sm text-muted">¿No pidió esto? Ignórelo y no se enviará nada.</span></form>`,
    };
  if (outcome.kind !== 'done') throw new Error(`No Spanish page for ${outcome.kind}`);
  const { message } = outcome;
  const sent = message.status === 'sent' || message.status === 'delivered';
  const who = message.toName || message.to;
  const at = outcome.goesAt ?? message.delivery?.at;
  const timeZone = message.delivery?.timeZone ?? 'UTC';
  const goesLater = at !== undefined && Date.parse(at) > Date.now() + 10 * 60_000;
  const when = at ? new Date(at).toLocaleString('es-US', { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit', timeZone }) : '';
  const text = sent
    ? message.status === 'delivered'
      ? `Su carta llegó al servidor de correo de ${who}. En unos diez días le preguntaremos si la escuela respondió.`
      : `Nuestra plataforma envió su carta a ${who}. En unos diez días le preguntaremos si la escuela respondió.`
    : outcome.checking
      ? `Entregamos su carta al servidor de correo de ${who}, pero no supimos si la aceptó. Lo estamos revisando y no la enviaremos dos veces; si no llegó, le escribiremos.`
      : goesLater
        ? `Gracias por confirmar. Su carta llega a ${who} el ${when}, cuando la oficina de la escuela está abierta (hora de la escuela). En unos diez días le preguntaremos si respondieron.`
        : `Gracias por confirmar. Su carta sale hacia ${who} en los próximos minutos.`;
  const title = sent ? 'Su correo fue enviado' : 'Su correo está confirmado';
  const next = `<a class="${buttonClass('primary', 'md')}" href="/nominate-school" hreflang="en">Siguiente: pídanos ayuda para su escuela (en inglés)</a>`;
  return {
    status: 200,
    title,
    content: `${heading(title)}${lead(text)}${share ? `<div lang="en">${shareLead(share)}${shareBlockHtml(share, share.text)}</div>` : ''}${preview(message, 'es')}${actions(next, home)}`,
  };
}

function outcomePage(outcome: ConfirmOutcome, token: string, share?: Shared): { status: number; title: string; content: string } {
  switch (outcome.kind) {
    case 'ready':
      return {
        status: 200,
        title: 'Confirm your email',
        content: `${heading(`Confirm your email to ${outcome.message.schoolName || 'your school'}`)}${lead(
          'You asked us to send this letter in your name. Read it, then confirm, and our platform sends it once to the school contact below, in the school’s working hours.',
        )}${preview(outcome.message)}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><button type="submit" class="${buttonClass('accent', 'lg')}">Send my email</button><span class="text-sm text-muted">Didn't ask for this? Ignore it and nothing is sent.</span></form>`,
      };
    case 'done': {
      const { message } = outcome;
      const sent = message.status === 'sent' || message.status === 'delivered';
      const who = message.toName || message.to;
      const when = outcome.goesAt
        ? whenLetterGoes({ at: outcome.goesAt, timeZone: message.delivery?.timeZone })
        : message.delivery
          ? whenLetterGoes(message.delivery)
          : 'now';
      const text = sent
        ? message.status === 'delivered'
          ? `Your letter arrived at ${who}'s mail server. We'll ask you in about ten days whether the school answered.`
          : `Our platform has sent your letter to ${who}. We'll ask you in about ten days whether the school answered.`
        : outcome.checking
          ? `We handed your letter to the mail server for ${who}, but did not hear back whether it took it. We are checking, and will not send it twice; if it did not arrive, we email you.`
          : when === 'now'
            ? `Thank you for confirming. Your letter goes to ${who} in the next few minutes.`
            : `Thank you for confirming. Your letter reaches ${who} at ${when}, when the school's office is open (the school's time). We'll ask you in about ten days whether they answered.`;
      return {
        status: 200,
        title: sent ? 'Your email has been sent' : 'Your email is confirmed',
        content: `${heading(sent ? 'Your email has been sent' : 'Your email is confirmed')}${lead(text)}${share ? `${shareLead(share)}${shareBlockHtml(share, share.text)}` : ''}${preview(message)}${actions(`<a class="${buttonClass('primary', 'md')}" href="/nominate-school">Next: bring us in to help</a>`, home)}`,
      };
    }
    case 'expired':
      return {
        status: 410,
        title: 'This link has expired',
        content: `${heading('This link has expired')}${lead(
          'Confirmation links work for three days, and nothing was sent. Fill in the form again to get a new link, or send the letter from your own email app.',
        )}${outcome.message ? sendYourself(outcome.message) : ''}${actions(again, home)}`,
      };
    case 'replaced':
      return {
        status: 409,
        title: 'You confirmed a newer version',
        content: `${heading('You confirmed a newer version of this letter')}${lead(
          'You confirmed a newer letter to the same school from your inbox, so this link sends nothing. The letter you confirmed is the one the school gets.',
        )}${actions(home)}`,
      };
    case 'ended':
      return {
        status: 409,
        title: 'Your letter was not sent',
        content: `${heading('Your letter was not sent')}${lead(outcome.reason)}${sendYourself(outcome.message)}${actions(again, home)}`,
      };
    case 'self_ready':
      return {
        status: 200,
        title: 'Did you send your letter?',
        content: `${heading(`Did you send your letter to ${outcome.message.toName || outcome.message.to}?`)}${lead(
          'You told us you sent this letter yourself. Confirm it, and in about ten days we will ask you whether the school answered. Nothing is recorded until you do.',
        )}${preview(outcome.message)}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('accent', 'lg')}">Yes, I sent it</button><span class="text-sm text-muted">Didn't tell us this? Ignore it and nothing happens.</span></form>`,
      };
    case 'self_done':
      return {
        status: 200,
        title: 'Thank you',
        content: `${heading('Thank you for writing to your school')}${lead(
          'We noted that you sent your letter. In about ten days we will ask you whether the school answered. Our team checks letters parents sent themselves before they count on a school’s page.',
        )}${actions(`<a class="${buttonClass('primary', 'md')}" href="/nominate-school">Next: bring us in to help</a>`, home)}`,
      };
    case 'bounced':
      return {
        status: 409,
        title: 'Your letter did not arrive',
        content: `${heading('Your letter did not arrive')}${lead(
          outcome.message.lastError === 'address_blocked'
            ? `Letters to ${outcome.message.to} bounced before (its mail server said the mailbox does not exist), so we did not send yours. We emailed you a link to correct the address; you can also send it from your own email app.`
            : `The mail server at ${outcome.message.to} said the mailbox does not exist, so the school did not get your letter. We emailed you a link to correct the address; you can also send it from your own email app.`,
        )}${sendYourself(outcome.message)}${actions(home)}`,
      };
    case 'refused':
      return {
        status: 409,
        title: 'We did not send this email',
        content: `${heading('We did not send this email')}${lead(refusalText(outcome.message, outcome.refusal))}${sendYourself(outcome.message)}${actions(home)}`,
      };
    case 'invalid':
      return {
        status: 404,
        title: 'This link is not valid',
        content: `${heading('This link is not valid')}${lead(
          'It may have been cut short when it was copied, or it belongs to an email that no longer exists. Open the link from your email again, or fill in the form again to get a new one.',
        )}${actions(again, home)}`,
      };
  }
}

/** The school's page to share after a confirmed letter, with the share text a running experiment gives this visitor. */
export type Shared = SchoolShare & { text?: PlaceText };
