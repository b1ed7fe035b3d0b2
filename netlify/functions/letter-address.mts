import type { Config } from '@netlify/functions';
import { actions, heading, lead, responsePage } from '../../src/server/pages/frame';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { home } from '../../src/server/pages/letter';
import { correctAddress, inspectCorrection, timeZoneOf } from '../../src/server/letter/request';
import { letterAddressPage } from '../../src/server/pages/letter-address';

/**
 * /letter-address?token=…: the link in the "did not arrive" email. GET shows the bounced letter and
 * a form for the right address (nothing changes on GET, so a mail scanner opening it does
 * nothing); POST sends the same letter to the corrected address, once, in that school's hours.
 * Forged, expired and used links say so and offer the letter to send by hand. Works without
 * JavaScript.
 */
export default async (req: Request): Promise<Response> => {
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const token = (new URL(req.url).searchParams.get('token') ?? '').slice(0, 2000);
      const view = letterAddressPage(await inspectCorrection(token), token);
      return responsePage(view.content, { status: view.status, title: view.title });
    }
    if (req.method === 'POST') {
      if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
        throw new HttpError(415, 'unsupported_media_type', 'Send the form as it is on the page.');
      const body = new URLSearchParams(await readLimited(req, 8 * 1024));
      const token = (body.get('token') ?? '').slice(0, 2000);
      const address = (body.get('address') ?? '').slice(0, 254);
      if (address.includes('\u0000')) throw new HttpError(400, 'invalid_request', 'The address contains a NUL character.');
      const view = letterAddressPage(await correctAddress(token, address, { timeZone: timeZoneOf(body.get('tz')) }), token, address);
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
