/**
 * The signed links the site emails (and the pages opened from them show): one place for what each
 * link names, what it is for and how long it works. Every link is an HMAC-signed token
 * (`tokens.ts`) bound to one purpose, so a link handed out for one thing opens nothing else.
 *
 * Who may hold which link is the site's model of proof (docs/security.md, "Abuse and privacy"): a "Your data"
 * link is only ever emailed to the address it names, or shown on a page opened from a link in that
 * inbox; no form answer and no page reached by typing an address carries one.
 */
import { defaultLocale, type Locale } from '../config/locales';
import { isEmail } from '../lib/shared/forms/values';
import { ANSWER_WINDOW_DAYS } from '../lib/shared/answer-kinds';
import { decryptSecret, encryptSecret } from './crypto';
import { serverEnv } from './env';
import { parentKey } from './identity';
import { signToken, verifyToken } from './tokens';

const DAY = 24 * 3600_000;

/** A "Your data" link on a page the parent opened from their inbox. */
export const DATA_LINK_TTL_MS = 7 * DAY;
/** A "Your data" link in an email (confirmation, follow-up, update): read days later. */
export const EMAILED_DATA_LINK_TTL_MS = 30 * DAY;
/** A link asked for by address. */
export const REQUESTED_DATA_LINK_TTL_MS = DAY;
/** The confirmation step of a deletion. */
export const DELETE_STEP_TTL_MS = 30 * 60_000;
/** How long the stop link in an update or a follow-up works. */
export const STOP_LINK_TTL_MS = 365 * DAY;
/** How long a parent may correct the address of a letter that bounced. */
export const FIX_ADDRESS_TTL_MS = 14 * DAY;

/** An address as the parent gave it, only trimmed and in lower case (HubSpot matches it so). */
export const plainAddress = (email: string) => email.normalize('NFKC').trim().toLowerCase();

type DataPurpose = 'your-data' | 'your-data-delete';

/** A signed token naming an address (sealed, so the link does not show it). */
export function dataToken(email: string, options: { now?: Date; ttlMs?: number; purpose?: DataPurpose } = {}): string {
  const now = options.now ?? new Date();
  return signToken({
    purpose: options.purpose ?? 'your-data',
    id: encryptSecret(plainAddress(email)),
    exp: now.getTime() + (options.ttlMs ?? DATA_LINK_TTL_MS),
  });
}

/**
 * A link's language for the page it opens (`lang=es`): a preference, not a proof, so it is a plain
 * parameter beside the token; English adds nothing.
 */
const langParam = (locale: Locale | undefined) => (locale && locale !== defaultLocale ? `&lang=${locale}` : '');

/** The path of the "Your data" page for `email`: only for pages opened from that inbox. */
export function dataPath(email: string, options: { now?: Date; ttlMs?: number; locale?: Locale } = {}): string {
  return `/your-data?token=${dataToken(email, options)}${langParam(options.locale)}`;
}

/** The "Your data" link for an email the site sends to `email` (and to no other address). */
export function dataLink(email: string, options: { now?: Date; ttlMs?: number; locale?: Locale } = {}): string {
  return `${serverEnv.siteOrigin}${dataPath(email, { ttlMs: EMAILED_DATA_LINK_TTL_MS, ...options })}`;
}

export type DataLinkCheck = { kind: 'ok'; email: string } | { kind: 'invalid' } | { kind: 'expired' };

/** The address a data token names, if it is genuine, for this purpose and not expired. */
export function openDataToken(token: string, purpose: DataPurpose = 'your-data', now = new Date()): DataLinkCheck {
  const check = verifyToken(token, purpose, now.getTime());
  if (!check.ok) return check.reason === 'expired' ? { kind: 'expired' } : { kind: 'invalid' };
  try {
    const email = decryptSecret(check.claims.id);
    return isEmail(email) ? { kind: 'ok', email } : { kind: 'invalid' };
  } catch {
    return { kind: 'invalid' };
  }
}

/** The parent's confirmation link for a platform send, valid until the request expires. */
export function confirmationLink(message: { id: string; confirmation?: { expiresAt: string }; locale?: Locale }): string | undefined {
  if (!message.confirmation) return undefined;
  const token = signToken({ purpose: 'confirm-send', id: message.id, exp: Date.parse(message.confirmation.expiresAt) });
  return `${serverEnv.siteOrigin}/confirm-send?token=${token}${langParam(message.locale)}`;
}

/**
 * The link to a letter's own page (/confirm-send), as the emails that tell a parent what became of
 * their letter carry it: it says where the letter stands and offers it to send by hand. Valid 30 days.
 */
export function letterLink(messageId: string, now = new Date(), locale?: Locale): string {
  const token = signToken({ purpose: 'confirm-send', id: messageId, exp: now.getTime() + 30 * DAY });
  return `${serverEnv.siteOrigin}/confirm-send?token=${token}${langParam(locale)}`;
}

/** A follow-up link ("did your school answer?"), valid ANSWER_WINDOW_DAYS after it is due; its page's language is the letter's, `lang` only a hint. */
export function answerLink(messageId: string, dueAt: string, locale?: Locale): string {
  const exp = Date.parse(dueAt) + ANSWER_WINDOW_DAYS * DAY;
  return `${serverEnv.siteOrigin}/school-answer?token=${signToken({ purpose: 'school-answer', id: messageId, exp })}${langParam(locale)}`;
}

/**
 * The stop link of the parent `email` reaches: it stops every email about their letters that they
 * did not ask for (updates, follow-ups, digest notices). It names only the keyed hash, never the address.
 */
export function stopLink(email: string, now = new Date(), locale?: Locale): string {
  const token = signToken({ purpose: 'school-updates-stop', id: parentKey(email), exp: now.getTime() + STOP_LINK_TTL_MS });
  return `${serverEnv.siteOrigin}/school-updates/stop?token=${token}${langParam(locale)}`;
}

export type StopCheck = { kind: 'ok'; parent: string } | { kind: 'invalid' } | { kind: 'expired' };

export function openStopLink(token: string, now = new Date()): StopCheck {
  const check = verifyToken(token, 'school-updates-stop', now.getTime());
  if (!check.ok) return check.reason === 'expired' ? { kind: 'expired' } : { kind: 'invalid' };
  return /^[A-Za-z0-9_-]{10,100}$/.test(check.claims.id) ? { kind: 'ok', parent: check.claims.id } : { kind: 'invalid' };
}

/** The link that lets a parent correct the address of their letter that bounced; `lang` only a hint, as the confirmation links'. */
export function fixAddressLink(messageId: string, now = new Date(), locale?: Locale): string {
  return `${serverEnv.siteOrigin}/letter-address?token=${signToken({ purpose: 'fix-address', id: messageId, exp: now.getTime() + FIX_ADDRESS_TTL_MS })}${langParam(locale)}`;
}

/** A public page of the site, for the footers of emails. */
export const sitePage = (path: string) => `${serverEnv.siteOrigin}${path}`;
