import type { Config } from '@netlify/functions';
import { escapeHtml } from '../../src/lib/forms/render';
import { buttonClass } from '../../src/lib/ui';
import { optionalDataPath } from '../../src/server/data-rights';
import { responsePage } from '../../src/server/form-pages';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { confirmPlatformSend, inspectConfirmation, refusalText, shareOf, type ConfirmOutcome, type SchoolShare } from '../../src/server/platform-send';
import { shareBlockHtml } from '../../src/server/school-page-html';
import type { OutboxMessage } from '../../src/server/outbox';
import { recordConfirmation } from '../../src/server/analytics/record';

/**
 * /confirm-send?token=…: the link HubSpot emails a parent before the platform sends in their name.
 * GET shows the email and a "Send my email" button (so that a mail scanner opening the link sends
 * nothing); POST confirms, exactly once. Expired, reused and forged links get a page that says so
 * and what to do. Works without JavaScript.
 */
const again = `<a class="${buttonClass('primary', 'md')}" href="/lead-the-change#email-form">Write your email again</a>`;
const home = `<a class="${buttonClass('secondary', 'md')}" href="/">Go to the home page</a>`;
const heading = (text: string) => `<h1 id="form-response-title" class="text-title font-extrabold tracking-tight">${escapeHtml(text)}</h1>`;
const lead = (text: string) => `<p class="mt-4 text-lg text-ink-soft">${escapeHtml(text)}</p>`;
const actions = (...buttons: string[]) => `<div class="mt-8 flex flex-wrap gap-3">${buttons.join('')}</div>`;

function preview(message: OutboxMessage): string {
  const to = message.toName ? `${message.toName} <${message.to}>` : message.to;
  return `<div class="mt-6 space-y-3 rounded-card border border-line bg-white p-5 shadow-card"><dl class="space-y-1 text-sm"><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">To:</dt><dd class="break-all">${escapeHtml(to)}</dd></div><div class="flex flex-wrap gap-x-2"><dt class="font-semibold">Subject:</dt><dd>${escapeHtml(message.subject)}</dd></div></dl><div class="max-h-96 overflow-y-auto whitespace-pre-wrap break-words rounded-xl border border-line bg-canvas p-4 text-sm leading-relaxed" tabindex="0" role="region" aria-label="Email body">${escapeHtml(message.body)}</div></div>`;
}

/** "Your data": the parent's own signed link, under every page that shows their email. */
function page(outcome: ConfirmOutcome, token: string, share?: SchoolShare): { status: number; title: string; content: string } {
  const view = outcomePage(outcome, token, share);
  const path = 'message' in outcome && outcome.message ? optionalDataPath(outcome.message.parentEmail) : undefined;
  if (!path) return view;
  return { ...view, content: `${view.content}<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="${escapeHtml(path)}">Your data</a>: see, download or delete what we keep about you.</p>` };
}

function outcomePage(outcome: ConfirmOutcome, token: string, share?: SchoolShare): { status: number; title: string; content: string } {
  switch (outcome.kind) {
    case 'ready':
      return {
        status: 200,
        title: 'Confirm your email',
        content: `${heading(`Confirm your email to ${outcome.message.schoolName || 'your school'}`)}${lead(
          'You asked us to send this email in your name. Check it, then confirm, and our platform sends it once to the school contact below.',
        )}${preview(outcome.message)}<form method="post" action="/confirm-send" class="mt-8 flex flex-wrap items-center gap-3"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('accent', 'lg')}">Send my email</button><span class="text-sm text-muted">Didn't ask for this? Ignore it and nothing is sent.</span></form>`,
      };
    case 'done': {
      const sent = outcome.message.status === 'sent';
      return {
        status: 200,
        title: sent ? 'Your email has been sent' : 'Your email is confirmed',
        content: `${heading(sent ? 'Your email has been sent' : 'Your email is confirmed')}${lead(
          sent
            ? `Our platform has sent your email to ${outcome.message.toName || outcome.message.to}. We'll handle the follow-up process.`
            : `Thank you for confirming. Our platform sends your email to ${outcome.message.toName || outcome.message.to} in the next few minutes. We'll handle the follow-up process.`,
        )}${share ? shareBlockHtml(share) : ''}${preview(outcome.message)}${actions(`<a class="${buttonClass('primary', 'md')}" href="/nominate-school">Next: bring us in to help</a>`, home)}`,
      };
    }
    case 'expired':
      return {
        status: 410,
        title: 'This link has expired',
        content: `${heading('This link has expired')}${lead(
          'Confirmation links work for 24 hours, and nothing was sent. Fill in the form again to get a new link, or send the email from your own email app.',
        )}${actions(again, home)}`,
      };
    case 'refused':
      return {
        status: 409,
        title: 'We could not send this email',
        content: `${heading('We could not send this email')}${lead(refusalText(outcome.message, outcome.refusal))}${preview(outcome.message)}${actions(again, home)}`,
      };
    case 'failed':
      return {
        status: 409,
        title: 'We could not send this email',
        content: `${heading('We could not send this email')}${lead(
          outcome.message.lastError === 'not_confirmed_in_time'
            ? 'This link was not confirmed within 24 hours, so nothing was sent. Fill in the form again to get a new link.'
            : 'Something went wrong while handing your email over. Nothing more will be sent from this link; please copy the email below and send it from your own email app.',
        )}${preview(outcome.message)}${actions(again, home)}`,
      };
    case 'invalid':
      return {
        status: 404,
        title: 'This link is not valid',
        content: `${heading('This link is not valid')}${lead(
          'It may have been cut short when it was copied, or it belongs to an email that no longer exists. Open the link from your email again, or fill in the form again to get a new one.',
        )}${actions(again, home)}`,
      };
  }
}

/** A confirmed send is the moment to share: the school's page, with the parent's referral code. */
const shareAfter = (outcome: ConfirmOutcome) => (outcome.kind === 'done' ? shareOf(outcome.message) : Promise.resolve(undefined));

export default async (req: Request): Promise<Response> => {
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const token = new URL(req.url).searchParams.get('token') ?? '';
      const outcome = await inspectConfirmation(token);
      const view = page(outcome, token, await shareAfter(outcome));
      return responsePage(view.content, { status: view.status, title: view.title });
    }
    if (req.method === 'POST') {
      const type = req.headers.get('content-type') ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
        const view = page({ kind: 'invalid' }, '');
        return responsePage(view.content, { status: 415, title: view.title });
      }
      const token = new URLSearchParams(await readLimited(req, 8 * 1024)).get('token') ?? '';
      const outcome = await confirmPlatformSend(token);
      await recordConfirmation(outcome);
      const view = page(outcome, token, await shareAfter(outcome));
      return responsePage(view.content, { status: view.status, title: view.title });
    }
    const response = await responsePage(`${heading('Not available')}${lead('Open the link from your email to confirm your email.')}${actions(home)}`, { status: 405, title: 'Not available' });
    response.headers.set('Allow', 'GET, POST');
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${actions(home)}`, { status: error.status, title: 'This request could not be read' });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[confirm-send]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not open your email just now, and nothing was sent. Please open the link again in a few minutes.')}${actions(home)}`,
      { status: 503, title: 'Please try again in a moment' },
    );
  }
};

export const config: Config = {
  path: '/confirm-send',
};
