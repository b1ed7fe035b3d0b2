/**
 * The pages of /confirm-send (netlify/functions/confirm-send.mts): for each outcome of a parent's
 * confirmation link, its status, title and content, drawn in the site's frame by responsePage.
 */
import { escapeHtml } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import type { PlaceText } from '../analytics/experiments';
import { refusalText, type ConfirmOutcome, type SchoolShare } from '../letter/request';
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

export function confirmSendPage(outcome: ConfirmOutcome, token: string, share?: Shared): { status: number; title: string; content: string } {
  const view = outcomePage(outcome, token, share);
  if (!('message' in outcome) || !outcome.message) return view;
  let path: string | undefined;
  try {
    path = dataPath(outcome.message.parentEmail);
  } catch {
    path = undefined;
  }
  if (!path) return view;
  return {
    ...view,
    content: `${view.content}<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">Your data</a>: see, download or delete what we keep about you.</p>`,
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
