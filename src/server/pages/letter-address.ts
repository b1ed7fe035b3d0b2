/**
 * The pages of /letter-address (netlify/functions/letter-address.mts): the form that corrects a
 * bounced letter's address, and what each outcome of the link says.
 */
import { errorClass, escapeHtml, helpClass, inputClass, labelClass } from '../../lib/forms/render';
import { buttonClass } from '../../lib/ui';
import type { CorrectionOutcome } from '../letter/request';
import { whenLetterGoes } from '../mail/schedule';
import { actions, heading, lead } from './frame';
import { home, preview, sendYourself } from './letter';

export function addressForm(token: string, value = '', problem?: string): string {
  const error = problem ? `<p id="address-error" class="${errorClass}" role="alert">${escapeHtml(problem)}</p>` : '';
  return `<form method="post" action="/letter-address" class="mt-8 space-y-4" novalidate><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><div><label for="address" class="${labelClass}">The school contact’s right email address</label><p id="address-help" class="${helpClass}">The school’s website or office can tell you. We send the same letter once, in the school’s working hours.</p><input id="address" name="address" type="email" autocomplete="off" required maxlength="254" value="${escapeHtml(value)}" class="${inputClass}" aria-describedby="address-help${problem ? ' address-error' : ''}"${problem ? ' aria-invalid="true" autofocus' : ''}>${error}</div><button type="submit" class="${buttonClass('accent', 'lg')}">Send my letter to this address</button></form>`;
}

export function letterAddressPage(outcome: CorrectionOutcome, token: string, typed = ''): { status: number; title: string; content: string } {
  switch (outcome.kind) {
    case 'ready':
      return {
        status: 200,
        title: 'Correct the school’s address',
        content: `${heading('Your letter did not arrive')}${lead(`The mail server at ${outcome.message.to} refused your letter to ${outcome.message.schoolName || 'the school'}. Enter the right address and we send it again.`)}${addressForm(token)}${preview(outcome.message)}`,
      };
    case 'refused':
      return {
        status: 400,
        title: 'Correct the school’s address',
        content: `${heading('Your letter did not arrive')}${lead(`The mail server at ${outcome.message.to} refused your letter.`)}${addressForm(token, typed, outcome.reason)}${outcome.refusal ? sendYourself(outcome.message) : preview(outcome.message)}`,
      };
    case 'sent': {
      const { replacement } = outcome;
      const when = replacement.delivery ? whenLetterGoes(replacement.delivery) : 'now';
      const text =
        replacement.status === 'sent'
          ? `Our platform has sent your letter to ${replacement.to}.`
          : when === 'now'
            ? `Your letter goes to ${replacement.to} in the next few minutes.`
            : `Your letter reaches ${replacement.to} at ${when}, when the school's office is open (the school's time).`;
      return {
        status: 200,
        title: 'Your letter is on its way again',
        content: `${heading('Your letter is on its way again')}${lead(text)}${preview(replacement)}${actions(home)}`,
      };
    }
    case 'corrected':
      return {
        status: 409,
        title: 'This address was corrected already',
        content: `${heading('This address was corrected already')}${lead(
          outcome.replacement
            ? `Your letter went again, to ${outcome.replacement.to}. Each letter can be corrected once; to write to another address, fill in the form again.`
            : 'Each letter can be corrected once; to write to another address, fill in the form again.',
        )}${actions(home)}`,
      };
    case 'not_bounced':
      return {
        status: 409,
        title: 'Nothing to correct',
        content: `${heading('Nothing to correct')}${lead('This letter did not bounce, so there is no address to correct.')}${actions(home)}`,
      };
    case 'expired':
      return {
        status: 410,
        title: 'This link has expired',
        content: `${heading('This link has expired')}${lead('Links to correct an address work for two weeks. You can still send the letter from your own email app.')}${outcome.message ? sendYourself(outcome.message) : ''}${actions(home)}`,
      };
    case 'invalid':
      return {
        status: 404,
        title: 'This link is not valid',
        content: `${heading('This link is not valid')}${lead('It may have been cut short when it was copied. Open the link from your email again.')}${actions(home)}`,
      };
  }
}
