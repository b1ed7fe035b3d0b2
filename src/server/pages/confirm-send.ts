/**
 * The pages of /confirm-send (netlify/functions/confirm-send.mts): for each outcome of a parent's
 * confirmation link, its status, title and content, drawn in the site's frame by responsePage.
 */
import { escapeHtml } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import type { PlaceText } from '../analytics/experiments';
import { refusalTextIn, type ConfirmOutcome, type SchoolShare } from '../letter/request';
import { defaultLocale, type Locale } from '../../config/locales';
import { localePath } from '../../lib/i18n/paths';
import { fillWords, type Translate } from '../../lib/i18n/words';
import { dataPath } from '../links';
import { whenLetterGoes } from '../mail/schedule';
import { serverWordsOf } from '../words';
import { actions, heading, homeLinkIn, lead } from './frame';
import { home, preview, sendYourself } from './letter';
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
 * The page of an outcome, in the language its parent wrote in: the stored letter's `locale`, never
 * anything the request says (a link is a preference, the record is the proof). A link that names
 * no letter is English. `locale` is the page's, for its frame and `lang`.
 */
export async function confirmSendPage(
  outcome: ConfirmOutcome,
  token: string,
  share?: Shared,
): Promise<{ status: number; title: string; content: string; locale: Locale }> {
  const locale: Locale = 'message' in outcome && outcome.message?.locale === 'es' ? 'es' : defaultLocale;
  const spanish = locale === 'es';
  const view =
    outcome.kind === 'ready' || outcome.kind === 'done'
      ? spanish
        ? outcomePageEs(outcome, token, share)
        : outcomePage(outcome, token, share)
      : await laterOutcomePage(outcome, token, locale);
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
function outcomePageEs(
  outcome: Extract<ConfirmOutcome, { kind: 'ready' } | { kind: 'done' }>,
  token: string,
  share?: Shared,
): { status: number; title: string; content: string } {
  const home = `<a class="${buttonClass('secondary', 'md')}" href="/es">Ir a la página principal</a>`;
  if (outcome.kind === 'ready')
    return {
      status: 200,
      title: 'Confirme su correo',
      content: `${heading(`Confirme su correo a ${outcome.message.schoolName || 'su escuela'}`)}${lead(
        'Usted nos pidió enviar esta carta en su nombre. Léala y luego confirme: nuestra plataforma la envía una sola vez al contacto de la escuela que aparece abajo, en el horario de la escuela.',
      )}${preview(outcome.message, 'es')}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><button type="submit" class="${buttonClass('accent', 'lg')}">Enviar mi correo</button><span class="text-sm text-muted">¿No pidió esto? Ignórelo y no se enviará nada.</span></form>`,
    };
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
  const next = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/nominate-school', 'es')}">Siguiente: pídanos ayuda para su escuela</a>`;
  return {
    status: 200,
    title,
    content: `${heading(title)}${lead(text)}${share ? `<div lang="en">${shareLead(share)}${shareBlockHtml(share, share.text)}</div>` : ''}${preview(message, 'es')}${actions(next, home)}`,
  };
}

function outcomePage(
  outcome: Extract<ConfirmOutcome, { kind: 'ready' } | { kind: 'done' }>,
  token: string,
  share?: Shared,
): { status: number; title: string; content: string } {
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
  }
}

/**
 * Every outcome but the request and its confirmation, in the parent's language (words in
 * content/i18n/{locale}/confirmSend.yaml; the reason a letter ended is endText's, already theirs).
 */
async function laterOutcomePage(
  outcome: Exclude<ConfirmOutcome, { kind: 'ready' } | { kind: 'done' }>,
  token: string,
  locale: Locale,
): Promise<{ status: number; title: string; content: string }> {
  const t = await serverWordsOf(locale);
  const home = await homeLinkIn(locale);
  const again = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/lead-the-change', locale)}#email-form">${escapeHtml(t('confirmSend.again'))}</a>`;
  const next = `<a class="${buttonClass('primary', 'md')}" href="${localePath('/nominate-school', locale)}">${escapeHtml(t('confirmSend.next'))}</a>`;
  const byHand = (message: Parameters<typeof sendYourself>[0]) => sendYourself(message, sendYourselfWords(t), locale);
  switch (outcome.kind) {
    case 'expired':
      return {
        status: 410,
        title: t('confirmSend.expired.title'),
        content: `${heading(t('confirmSend.expired.title'))}${lead(t('confirmSend.expired.lead'))}${outcome.message ? byHand(outcome.message) : ''}${actions(again, home)}`,
      };
    case 'replaced':
      return {
        status: 409,
        title: t('confirmSend.replaced.title'),
        content: `${heading(t('confirmSend.replaced.heading'))}${lead(t('confirmSend.replaced.lead'))}${actions(home)}`,
      };
    case 'ended':
      return {
        status: 409,
        title: t('confirmSend.ended.title'),
        content: `${heading(t('confirmSend.ended.title'))}${lead(outcome.reason)}${byHand(outcome.message)}${actions(again, home)}`,
      };
    case 'self_ready':
      return {
        status: 200,
        title: t('confirmSend.selfReady.title'),
        content: `${heading(fillWords(t('confirmSend.selfReady.heading'), { name: outcome.message.toName || outcome.message.to }))}${lead(
          t('confirmSend.selfReady.lead'),
        )}${preview(outcome.message, locale)}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('accent', 'lg')}">${escapeHtml(t('confirmSend.selfReady.button'))}</button><span class="text-sm text-muted">${escapeHtml(t('confirmSend.selfReady.ignore'))}</span></form>`,
      };
    case 'self_done':
      return {
        status: 200,
        title: t('confirmSend.selfDone.title'),
        content: `${heading(t('confirmSend.selfDone.heading'))}${lead(t('confirmSend.selfDone.lead'))}${actions(next, home)}`,
      };
    case 'bounced':
      return {
        status: 409,
        title: t('confirmSend.bounced.title'),
        content: `${heading(t('confirmSend.bounced.title'))}${lead(
          fillWords(t(outcome.message.lastError === 'address_blocked' ? 'confirmSend.bounced.blocked' : 'confirmSend.bounced.noMailbox'), {
            address: outcome.message.to,
          }),
        )}${byHand(outcome.message)}${actions(home)}`,
      };
    case 'refused':
      return {
        status: 409,
        title: t('confirmSend.refused.title'),
        content: `${heading(t('confirmSend.refused.title'))}${lead(await refusalTextIn(outcome.message, outcome.refusal, locale))}${byHand(outcome.message)}${actions(home)}`,
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

/** "Send it yourself" in a page's words. */
const sendYourselfWords = (t: Translate) => ({
  title: t('confirmSend.sendYourself.title'),
  letter: t('confirmSend.sendYourself.letter'),
  help: t('confirmSend.sendYourself.help'),
  openInApp: t('confirmSend.sendYourself.openInApp'),
  newTab: t('confirmSend.sendYourself.newTab'),
});

/** The school's page to share after a confirmed letter, with the share text a running experiment gives this visitor. */
export type Shared = SchoolShare & { text?: PlaceText };
