import type { Config } from '@netlify/functions';
import { errorClass, escapeHtml, helpClass, inputClass, labelClass } from '../../src/lib/forms/render';
import { buttonClass } from '../../src/lib/ui';
import { actions, heading, lead, responsePage } from '../../src/server/form-pages';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { home, preview, sendYourself } from '../../src/server/letter-pages';
import { whenLetterGoes } from '../../src/server/mail/schedule';
import { correctAddress, inspectCorrection, timeZoneOf, type CorrectionOutcome } from '../../src/server/letter/request';

/**
 * /letter-address?token=…: the link in the "did not arrive" email. GET shows the bounced letter and
 * a form for the right address (nothing changes on GET, so a mail scanner opening it does
 * nothing); POST sends the same letter to the corrected address, once, in that school's hours.
 * Forged, expired and used links say so and offer the letter to send by hand. Works without
 * JavaScript.
 */
function form(token: string, value = '', problem?: string): string {
  const error = problem ? `<p id="address-error" class="${errorClass}" role="alert">${escapeHtml(problem)}</p>` : '';
  return `<form method="post" action="/letter-address" class="mt-8 space-y-4" novalidate><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="tz" value="" data-time-zone><div><label for="address" class="${labelClass}">The school contact’s right email address</label><p id="address-help" class="${helpClass}">The school’s website or office can tell you. We send the same letter once, in the school’s working hours.</p><input id="address" name="address" type="email" autocomplete="off" required maxlength="254" value="${escapeHtml(value)}" class="${inputClass}" aria-describedby="address-help${problem ? ' address-error' : ''}"${problem ? ' aria-invalid="true" autofocus' : ''}>${error}</div><button type="submit" class="${buttonClass('accent', 'lg')}">Send my letter to this address</button></form>`;
}

function page(outcome: CorrectionOutcome, token: string, typed = ''): { status: number; title: string; content: string } {
  switch (outcome.kind) {
    case 'ready':
      return {
        status: 200,
        title: 'Correct the school’s address',
        content: `${heading('Your letter did not arrive')}${lead(`The mail server at ${outcome.message.to} refused your letter to ${outcome.message.schoolName || 'the school'}. Enter the right address and we send it again.`)}${form(token)}${preview(outcome.message)}`,
      };
    case 'refused':
      return {
        status: 400,
        title: 'Correct the school’s address',
        content: `${heading('Your letter did not arrive')}${lead(`The mail server at ${outcome.message.to} refused your letter.`)}${form(token, typed, outcome.reason)}${outcome.refusal ? sendYourself(outcome.message) : preview(outcome.message)}`,
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

export default async (req: Request): Promise<Response> => {
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const token = (new URL(req.url).searchParams.get('token') ?? '').slice(0, 2000);
      const view = page(await inspectCorrection(token), token);
      return responsePage(view.content, { status: view.status, title: view.title });
    }
    if (req.method === 'POST') {
      if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
        throw new HttpError(415, 'unsupported_media_type', 'Send the form as it is on the page.');
      const body = new URLSearchParams(await readLimited(req, 8 * 1024));
      const token = (body.get('token') ?? '').slice(0, 2000);
      const address = (body.get('address') ?? '').slice(0, 254);
      if (address.includes('\u0000')) throw new HttpError(400, 'invalid_request', 'The address contains a NUL character.');
      const view = page(await correctAddress(token, address, { timeZone: timeZoneOf(body.get('tz')) }), token, address);
      return responsePage(view.content, { status: view.status, title: view.title });
    }
    const response = await responsePage(`${heading('Not available')}${lead('Open the link from your email to correct the address.')}${actions(home)}`, {
      status: 405,
      title: 'Not available',
    });
    response.headers.set('Allow', 'GET, POST');
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${actions(home)}`, {
        status: error.status,
        title: 'This request could not be read',
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[letter-address]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not open your letter just now, and nothing was sent. Please open the link again in a few minutes.')}${actions(home)}`,
      {
        status: 503,
        title: 'Please try again in a moment',
      },
    );
  }
};

export const config: Config = { path: '/letter-address' };
