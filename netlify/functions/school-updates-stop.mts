import type { Config } from '@netlify/functions';
import { escapeHtml } from '../../src/lib/forms/render';
import { buttonClass } from '../../src/lib/ui';
import { actions, heading, homeLink, lead, responsePage } from '../../src/server/pages/frame';
import { HttpError, readLimited, StoreUnavailableError } from '../../src/server/http';
import { openStopLink } from '../../src/server/links';
import { stopSchoolUpdates, updatesStopped } from '../../src/server/schools/updates';

/**
 * /school-updates/stop?token=…: the stop link (and List-Unsubscribe) of every email about a
 * parent's letter they did not ask for just now: school updates, follow-ups, digest notices. GET
 * shows what it does and a button; POST (the button, or a mail app's one-click unsubscribe, RFC
 * 8058, with the token in the address) stops them all for the address; using it again changes
 * nothing more and says so. A
 * forged or expired link changes nothing. Every page offers "Your data" (the link names only a
 * keyed hash of the address, so it is the page that asks for a link by address).
 */
const yourData = `<p class="mt-6 text-sm text-muted"><a class="font-medium text-brand-700 underline" href="/your-data">Your data</a>: see, download or delete what we keep about you.</p>`;
const home = `${actions(homeLink)}${yourData}`;

const invalid = {
  status: 404,
  title: 'This link is not valid',
  content: `${heading('This link is not valid')}${lead('It may have been cut short when it was copied. Open the link from your email again.')}${home}`,
};
const expired = {
  status: 410,
  title: 'This link has expired',
  content: `${heading('This link has expired')}${lead('Open the stop link in a more recent update from us, or reply to that email and we will stop them for you.')}${home}`,
};

async function tokenOf(req: Request): Promise<string> {
  const fromUrl = new URL(req.url).searchParams.get('token');
  if (req.method !== 'POST') return fromUrl ?? '';
  const type = req.headers.get('content-type') ?? '';
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    const form = new URLSearchParams(await readLimited(req, 8 * 1024));
    return form.get('token') ?? fromUrl ?? '';
  }
  return fromUrl ?? '';
}

async function page(req: Request): Promise<{ status: number; title: string; content: string; headers?: Record<string, string> }> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    return {
      status: 405,
      title: 'Not available',
      content: `${heading('Not available')}${lead('Open the stop link from your email.')}${home}`,
      headers: { Allow: 'GET, HEAD, POST' },
    };
  }
  const token = (await tokenOf(req)).slice(0, 1500);
  const link = openStopLink(token);
  if (link.kind === 'invalid') return invalid;
  if (link.kind === 'expired') return expired;
  if (req.method === 'POST') {
    if (await updatesStopped(link.parent)) {
      return {
        status: 200,
        title: 'Emails stopped',
        content: `${heading('Emails stopped')}${lead('Emails about your letter were already stopped, so nothing changed. We will not email you news or questions about it again.')}${home}`,
      };
    }
    await stopSchoolUpdates(link.parent);
    return {
      status: 200,
      title: 'Emails stopped',
      content: `${heading('Emails stopped')}${lead('We will not email you news or questions about your letter again. Your school’s page still shows the news whenever you want to look.')}${home}`,
    };
  }
  return {
    status: 200,
    title: 'Stop emails about your letter?',
    content: `${heading('Stop emails about your letter?')}${lead('We email you, at most once a week, when another parent at your school hears back, and twice ask whether your school answered. Stop these emails for your address? Links you ask for yourself still come.')}<form method="post" action="/school-updates/stop" class="mt-8"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('primary', 'md')}">Stop these emails</button></form>${yourData}`,
  };
}

export default async (req: Request): Promise<Response> => {
  try {
    const result = await page(req);
    const response = await responsePage(result.content, { status: result.status, title: result.title });
    for (const [name, value] of Object.entries(result.headers ?? {})) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return responsePage(`${heading('This request could not be read')}${lead(error.message)}${home}`, {
        status: error.status,
        title: 'This request could not be read',
      });
    }
    if (!(error instanceof StoreUnavailableError)) console.error('[school-updates-stop]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Please try again in a moment')}${lead('We could not stop the emails just now. Please open the link again in a few minutes.')}${home}`,
      { status: 503, title: 'Please try again in a moment' },
    );
  }
};

export const config: Config = {
  path: '/school-updates/stop',
  // Each request checks a signature and may write a row: a flood is cut off per address first.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
