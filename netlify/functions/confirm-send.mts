import type { Config } from '@netlify/functions';
import { recordConfirmation } from '../../src/server/analytics/record';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { confirmPlatformSend, inspectConfirmation, shareOf, timeZoneOf, type ConfirmOutcome } from '../../src/server/letter/request';
import { confirmSendPage, confirmSendProblemPage, type Shared } from '../../src/server/pages/confirm-send';
import { hintedLocale } from '../../src/server/words';
import { responsePage } from '../../src/server/pages/frame';
import { shareTextFor } from '../../src/server/pages/school';

/**
 * /confirm-send?token=…: the link the site emails a parent before the platform sends in their name.
 * GET shows the letter and a "Send my email" button (so that a mail scanner opening the link sends
 * nothing); POST confirms, exactly once, and says when the letter reaches the school. Expired,
 * replaced, reused and forged links get a page that says so and what to do; a page that cannot send
 * offers what it promises: the letter to copy, and the mail-app, Gmail and Outlook links. Works
 * without JavaScript. The page is opened from the parent's own inbox, so it may show their "Your data" link.
 */

/**
 * A confirmed letter is the moment to share: the school's page, with the parent's referral code and
 * the share text a running experiment gives this visitor. The experiment's words are English: a
 * parent who wrote in another language shares that language's words, outside the experiment.
 */
async function shareAfter(outcome: ConfirmOutcome, req: Request): Promise<Shared | undefined> {
  if (outcome.kind !== 'done') return undefined;
  const share = await shareOf(outcome.message);
  if (!share) return undefined;
  if (outcome.message.locale && outcome.message.locale !== 'en') return share;
  const text = await shareTextFor(req, undefined, share.schoolName).catch(() => undefined);
  return text ? { ...share, text } : share;
}

export default async (req: Request): Promise<Response> => {
  // The page's language for a link that names no letter (`lang=es`); a letter's own language wins.
  const hint = hintedLocale(new URL(req.url).searchParams.get('lang'));
  const problem = async (kind: 'notAvailable' | 'unreadable' | 'tryAgain', status: number) => {
    const view = await confirmSendProblemPage(kind, hint);
    return responsePage(view.content, { status, title: view.title, locale: hint });
  };
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const token = (new URL(req.url).searchParams.get('token') ?? '').slice(0, 2000);
      const outcome = await inspectConfirmation(token);
      const view = await confirmSendPage(outcome, token, await shareAfter(outcome, req), hint);
      return responsePage(view.content, { status: view.status, title: view.title, locale: view.locale });
    }
    if (req.method === 'POST') {
      const type = req.headers.get('content-type') ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
        const view = await confirmSendPage({ kind: 'invalid' }, '', undefined, hint);
        return responsePage(view.content, { status: 415, title: view.title, locale: view.locale });
      }
      const form = new URLSearchParams(await readLimited(req, 8 * 1024));
      const token = (form.get('token') ?? '').slice(0, 2000);
      const outcome = await confirmPlatformSend(token, { timeZone: timeZoneOf(form.get('tz')) });
      await recordConfirmation(outcome);
      const view = await confirmSendPage(outcome, token, await shareAfter(outcome, req), hint);
      return responsePage(view.content, { status: view.status, title: view.title, locale: view.locale });
    }
    const response = await problem('notAvailable', 405);
    response.headers.set('Allow', 'GET, POST');
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return problem('unreadable', error.status);
    if (!(error instanceof StoreUnavailableError)) console.error('[confirm-send]', error instanceof Error ? error.message : 'unknown error');
    return problem('tryAgain', 503);
  }
};

export const config: Config = {
  path: '/confirm-send',
};
