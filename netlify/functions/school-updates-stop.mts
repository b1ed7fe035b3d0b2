import type { Config } from '@netlify/functions';
import { HttpError, StoreUnavailableError } from '../../src/server/http';
import { responsePage } from '../../src/server/pages/frame';
import { stopPage, stopProblemPage, type StopPage } from '../../src/server/pages/updates-stop';
import { hintedLocale } from '../../src/server/words';

/**
 * /school-updates/stop?token=…: the stop link and one-click unsubscribe of the emails about a
 * parent's letter (src/server/pages/updates-stop.ts), in the link's language.
 */
export default async (req: Request): Promise<Response> => {
  const locale = hintedLocale(new URL(req.url).searchParams.get('lang'));
  let result: StopPage;
  try {
    result = await stopPage(req, locale);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError) && !(error instanceof HttpError && error.status < 500))
      console.error('[school-updates-stop]', error instanceof Error ? error.message : 'unknown error');
    result = await stopProblemPage(error, locale);
  }
  const response = await responsePage(result.content, { status: result.status, title: result.title, locale: result.locale });
  for (const [name, value] of Object.entries(result.headers ?? {})) response.headers.set(name, value);
  return response;
};

export const config: Config = {
  path: '/school-updates/stop',
  // Each request checks a signature and may write a row: a flood is cut off per address first.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
