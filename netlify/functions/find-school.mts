import type { Config } from '@netlify/functions';
import { splitLocale } from '../../src/lib/shared/i18n/paths';
import { StoreUnavailableError } from '../../src/server/http';
import { findQueryOf, findSchoolPage } from '../../src/server/pages/find-school';
import { suggestSchools } from '../../src/server/schools/records';

/**
 * GET /find-school?q=… (and /es/find-school?q=…, in Spanish): the schools the site knows, for a
 * visitor without JavaScript, each linking to its page in the path's language
 * (src/server/pages/find-school.ts). Another method: 405, the page with its search box.
 */
export default async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const { locale } = splitLocale(url.pathname);
  const q = findQueryOf(url.searchParams.get('q'));
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const refused = await findSchoolPage(q, locale, { problem: 'notAllowed', status: 405 });
    refused.headers.set('Allow', 'GET, HEAD');
    return refused;
  }
  try {
    return await findSchoolPage(q, locale, { schools: q ? await suggestSchools(q, 20) : [] });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) console.error('[find-school]', error instanceof Error ? error.message : 'unknown error');
    return findSchoolPage(q, locale, { problem: 'unavailable', status: 503 });
  }
};

export const config: Config = {
  path: ['/find-school', '/es/find-school'],
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
