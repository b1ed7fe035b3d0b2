import type { Config } from '@netlify/functions';
import { escapeHtml } from '../../src/lib/shared/forms/render';
import { ambassadorPage } from '../../src/server/ambassadors';
import { actions, heading, homeLink, lead, responsePage } from '../../src/server/pages/frame';
import { StoreUnavailableError } from '../../src/server/http';

const home = actions(homeLink);

const figure = (value: number, label: string) =>
  `<div class="rounded-card border border-line bg-white p-5 shadow-card"><dt class="text-sm font-semibold text-ink-soft">${escapeHtml(label)}</dt><dd class="mt-1 text-3xl font-extrabold tabular-nums text-ink">${value}</dd></div>`;

/**
 * GET /ambassador?t=…: an ambassador's own page, opened from their signed link: the parents they
 * brought, confirmed sends, schools reached and answers, as counts (never a parent's name or
 * address). A link that does not verify (forged, cut short, expired, for nobody) is a 404 that
 * says no more than that.
 */
export default async (req: Request): Promise<Response> => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const response = await responsePage(`${heading('Not available')}${lead('Open the link you were sent to see your page.')}${home}`, {
      status: 405,
      title: 'Not available',
    });
    response.headers.set('Allow', 'GET');
    return response;
  }
  try {
    const token = (new URL(req.url).searchParams.get('t') ?? '').slice(0, 400);
    const page = token
      ? await ambassadorPage(token).catch((error: unknown) => {
          // Without the site's key no link verifies: the same 404 as a forged one.
          if (error instanceof StoreUnavailableError) throw error;
          return undefined;
        })
      : undefined;
    if (!page) {
      return responsePage(
        `${heading('This link is not valid')}${lead('It may have been cut short when it was copied, or it has expired. Ask the team for a new link to your page.')}${home}`,
        {
          status: 404,
          title: 'Link not valid',
        },
      );
    }
    return responsePage(
      `${heading(`Thank you, ${page.name}`)}${lead('What the parents you brought have done so far: a parent counts once they confirm their letter from their own inbox. Counts only: we never show who they are.')}<dl class="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-4">${figure(page.parents, 'Parents you brought')}${figure(page.delivered, 'Letters delivered')}${figure(page.schoolsReached, 'Schools reached')}${figure(page.answers, 'Answers from schools')}</dl>${home}`,
      { title: 'Your ambassador page' },
    );
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) console.error('[ambassador]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not open your page just now. Please open the link again in a few minutes.')}${home}`,
      { status: 503, title: 'Please try again in a moment' },
    );
  }
};

export const config: Config = { path: '/ambassador' };
