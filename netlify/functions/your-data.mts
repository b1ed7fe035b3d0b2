import type { Config, Context } from '@netlify/functions';
import { view } from '../../src/server/data-rights-exchange';
import { HttpError, StoreUnavailableError } from '../../src/server/http';
import { responsePage } from '../../src/server/pages/frame';
import { dataWordsOf, notePage } from '../../src/server/pages/your-data';
import { hintedLocale } from '../../src/server/words';

/** /your-data: what the site keeps about a person, its download and its deletion (src/server/data-rights-exchange.ts). */
export default async (req: Request, context?: Context): Promise<Response> => {
  try {
    const page = await view(req, context);
    if (page instanceof Response) return page;
    const response = await responsePage(page.content, { status: page.status, title: page.title, locale: page.locale });
    for (const [name, value] of Object.entries(page.headers ?? {})) response.headers.set(name, value);
    return response;
  } catch (error) {
    // The page's language as the address asks (a form's own lang is past reading here).
    const w = await dataWordsOf(hintedLocale(new URL(req.url).searchParams.get('lang')));
    const page =
      error instanceof HttpError && error.status < 500
        ? notePage(w, error.status, w.say('unreadable'), error.message)
        : notePage(w, 503, w.say('unavailable.title'), w.say('unavailable.text'));
    if (!(error instanceof HttpError && error.status < 500) && !(error instanceof StoreUnavailableError))
      console.error('[your-data]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(page.content, { status: page.status, title: page.title, locale: w.locale });
  }
};

export const config: Config = {
  path: '/your-data',
};
