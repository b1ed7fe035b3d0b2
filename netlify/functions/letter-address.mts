import type { Config } from '@netlify/functions';
import { responsePage } from '../../src/server/pages/frame';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { correctAddress, inspectCorrection, timeZoneOf } from '../../src/server/letter/request';
import { letterAddressPage, letterAddressProblemPage } from '../../src/server/pages/letter-address';
import { hintedLocale } from '../../src/server/words';

/**
 * /letter-address?token=…: the link in the "did not arrive" email. GET shows the bounced letter and
 * a form for the right address (nothing changes on GET, so a mail scanner opening it does
 * nothing); POST sends the same letter to the corrected address, once, in that school's hours.
 * Forged, expired and used links say so and offer the letter to send by hand. Works without
 * JavaScript. In the language the parent wrote in; a link that names no letter follows its `lang`.
 */
export default async (req: Request): Promise<Response> => {
  const hint = hintedLocale(new URL(req.url).searchParams.get('lang'));
  const problem = async (kind: 'notAvailable' | 'unreadable' | 'tryAgain', status: number) => {
    const view = await letterAddressProblemPage(kind, hint);
    return responsePage(view.content, { status, title: view.title, locale: hint });
  };
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const token = (new URL(req.url).searchParams.get('token') ?? '').slice(0, 2000);
      const view = await letterAddressPage(await inspectCorrection(token), token, '', hint);
      return responsePage(view.content, { status: view.status, title: view.title, locale: view.locale });
    }
    if (req.method === 'POST') {
      if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
        throw new HttpError(415, 'unsupported_media_type', 'Send the form as it is on the page.');
      const body = new URLSearchParams(await readLimited(req, 8 * 1024));
      const token = (body.get('token') ?? '').slice(0, 2000);
      const address = (body.get('address') ?? '').slice(0, 254);
      if (address.includes('\u0000')) throw new HttpError(400, 'invalid_request', 'The address contains a NUL character.');
      const view = await letterAddressPage(await correctAddress(token, address, { timeZone: timeZoneOf(body.get('tz')) }), token, address, hint);
      return responsePage(view.content, { status: view.status, title: view.title, locale: view.locale });
    }
    const response = await problem('notAvailable', 405);
    response.headers.set('Allow', 'GET, POST');
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return problem('unreadable', error.status);
    if (!(error instanceof StoreUnavailableError)) console.error('[letter-address]', error instanceof Error ? error.message : 'unknown error');
    return problem('tryAgain', 503);
  }
};

export const config: Config = { path: '/letter-address' };
