/**
 * /school-updates/stop?token=…[&lang=es]: the stop link (and List-Unsubscribe) of every email about
 * a parent's letter they did not ask for just now: school updates, follow-ups, digest notices. GET
 * shows what it does and a button; POST (the button, or a mail app's one-click unsubscribe, RFC
 * 8058, with the token in the address) stops them all for the address; using it again changes
 * nothing more and says so. A forged or expired link changes nothing. Every page offers "Your
 * data" (the link names only a keyed hash of the address, so it is the page that asks for a link
 * by address).
 *
 * The language is the link's `lang` (the emails add it for a parent who wrote in Spanish): the
 * token names only an address, so `lang` is a preference, and all it changes is the words.
 */
import { defaultLocale, type Locale } from '../../config/locales';
import { escapeHtml } from '../../lib/shared/forms/render';
import { fillParts } from '../../lib/shared/i18n/translator';
import { buttonClass } from '../../lib/shared/ui';
import { HttpError, readLimited } from '../http';
import { openStopLink } from '../links';
import { stopSchoolUpdates, updatesStopped } from '../schools/updates';
import { serverWordsOf } from '../words';
import { actions, heading, homeLinkIn, lead } from './frame';

export interface StopPage {
  status: number;
  title: string;
  content: string;
  locale: Locale;
  headers?: Record<string, string>;
}

const langQuery = (locale: Locale) => (locale === defaultLocale ? '' : `?lang=${locale}`);

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

/** The page pieces in one language: a titled page, and the links every page ends with. */
async function wordsIn(locale: Locale) {
  const t = await serverWordsOf(locale);
  const say = (key: string) => t(`updatesStop.${key}`);
  const yourDataLink = `<a class="font-medium text-brand-700 underline" href="/your-data${langQuery(locale)}">${escapeHtml(say('yourData.link'))}</a>`;
  const yourDataText = fillParts(say('yourData.text'), () => ({ html: yourDataLink }))
    .map((part) => (typeof part === 'string' ? escapeHtml(part) : part.html))
    .join('');
  const yourData = `<p class="mt-6 text-sm text-muted">${yourDataText}</p>`;
  const home = `${actions(await homeLinkIn(locale))}${yourData}`;
  const page = (status: number, key: string, text: string, extra = home): StopPage => ({
    status,
    title: say(`${key}.title`),
    content: `${heading(say(`${key}.title`))}${lead(text)}${extra}`,
    locale,
  });
  return { say, yourData, home, page };
}

/** The stop page a request gets. */
export async function stopPage(req: Request, locale: Locale): Promise<StopPage> {
  const { say, yourData, page } = await wordsIn(locale);
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    return { ...page(405, 'notAvailable', say('notAvailable.text')), headers: { Allow: 'GET, HEAD, POST' } };
  }
  const token = (await tokenOf(req)).slice(0, 1500);
  const link = openStopLink(token);
  if (link.kind === 'invalid') return page(404, 'invalid', say('invalid.text'));
  if (link.kind === 'expired') return page(410, 'expired', say('expired.text'));
  if (req.method === 'POST') {
    if (await updatesStopped(link.parent)) return page(200, 'stopped', say('stopped.already'));
    await stopSchoolUpdates(link.parent);
    return page(200, 'stopped', say('stopped.done'));
  }
  const form = `<form method="post" action="/school-updates/stop${langQuery(locale)}" class="mt-8"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" class="${buttonClass('primary', 'md')}">${escapeHtml(say('ask.button'))}</button></form>`;
  return page(200, 'ask', say('ask.text'), `${form}${yourData}`);
}

/** What a request that could not be read (4xx), or a store that is down, gets. */
export async function stopProblemPage(error: unknown, locale: Locale): Promise<StopPage> {
  const { say, page } = await wordsIn(locale);
  if (error instanceof HttpError && error.status < 500) return page(error.status, 'unreadable', error.message);
  return page(503, 'unavailable', say('unavailable.text'));
}
