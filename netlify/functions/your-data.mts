import type { Config, Context } from '@netlify/functions';
import { view } from '../../src/server/data-rights-exchange';
import { HttpError, StoreUnavailableError } from '../../src/server/http';
import { actions, heading, lead, responsePage } from '../../src/server/pages/frame';
import { home } from '../../src/server/pages/your-data';

/** /your-data: what the site keeps about a person, its download and its deletion (src/server/data-rights-exchange.ts). */
export default async (req: Request, context?: Context): Promise<Response> => {
  try {
    const page = await view(req, context);
    if (page instanceof Response) return page;
    const response = await responsePage(page.content, { status: page.status, title: page.title, locale: page.locale });
    for (const [name, value] of Object.entries(page.headers ?? {})) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${actions(home)}`, {
        status: error.status,
        title: 'This request could not be read',
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[your-data]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not open your data just now, and nothing was changed. Please try again in a few minutes.')}${actions(home)}`,
      {
        status: 503,
        title: 'Please try again in a moment',
      },
    );
  }
};

export const config: Config = {
  path: '/your-data',
};
