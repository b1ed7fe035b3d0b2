/**
 * School pages: /schools/{name}-{key}, one per verified school (src/server/schools), where the
 * parents of one school see how many of them wrote and what the school answered, and add their own
 * voice; in Spanish at /es/schools/{name}-{key}, the same page.
 *
 * - The key is the school record's page key, random, so pages cannot be listed or guessed; the
 *   readable name before it is only for people. A page exists only for a verified school: a school
 *   a parent typed is a proposal, with no page, until staff verify it (and its page then opens with
 *   the letters it already has). A retired school's page is gone.
 * - The count is the distinct parents whose letters count there (`impact_sends.page`: letters the
 *   platform delivered to an address the record lists, and self-reports staff approved), and the
 *   outcome the latest reported one staff accepted (`impact_answers`).
 * - A referral code names the sharing parent's message, signed, so a share link attributes the
 *   parents it brings; a code that does not verify is ignored.
 */
import { knownAmbassador } from '../ambassadors';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { defaultLocale, type Locale } from '../../config/locales';
import { localePath } from '../../lib/shared/i18n/paths';
import { pageOutcomes, type PageOutcome } from '../../lib/shared/school-page-words';
import { queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { canonicalAddress } from '../identity';

export { slugOf } from '../../lib/shared/school-record';

/** A school page key: 128 random bits, in lower-case hex (the end of the page's path segment). */
export const SCHOOL_KEY = /^[0-9a-f]{32}$/;

function derivedKey(info: string): Buffer | undefined {
  const secret = serverEnv.schoolPageSecret ?? serverEnv.configEncryptionKey;
  if (!secret) return undefined;
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), info, 32));
}

/** The path of a page segment (the key, or "{slug}-{key}"). */
export function schoolPagePath(segment: string): string {
  return `/schools/${segment}`;
}

/** The key at the end of a page's path segment: "lakeside-school-0123…cdef" or the bare key. */
export function keyOfSegment(segment: string): string | undefined {
  const match = /(?:^|-)([0-9a-f]{32})$/.exec(segment.toLowerCase());
  return match?.[1];
}

export interface SchoolPage {
  key: string;
  schoolId: string;
  schoolName: string;
  slug: string;
  /** Always true: only a verified school has a page (kept for the readers that ask). */
  published: true;
  /** Distinct parents whose letters count (delivered platform letters, approved self-reports). */
  parents: number;
  outcome?: { kind: PageOutcome; at: string };
}

/** A verified school's page by its key, with its count and latest outcome (one statement), or undefined. */
export async function readSchoolPage(key: string): Promise<SchoolPage | undefined> {
  if (!SCHOOL_KEY.test(key)) return undefined;
  const row = await queryOne<{ id: string; name: string; slug: string; parents: number; outcome: PageOutcome | null; outcome_at: Date | null }>(sql`
    SELECT s.id, s.name, s.slug,
      (SELECT count(DISTINCT i.parent)::int FROM impact_sends i WHERE i.page = s.page_key) AS parents,
      o.kind AS outcome, o.answered_at AS outcome_at
    FROM schools s
    LEFT JOIN LATERAL (
      SELECT a.kind, a.answered_at FROM impact_answers a JOIN impact_sends i ON i.message_id = a.message_id
      WHERE i.page = s.page_key AND a.kind = ANY(${[...pageOutcomes]}::text[])
      ORDER BY a.answered_at DESC LIMIT 1
    ) o ON true
    WHERE s.page_key = ${key} AND s.status = 'verified'`);
  if (!row) return undefined;
  return {
    key,
    schoolId: row.id,
    schoolName: row.name,
    slug: row.slug,
    published: true,
    parents: Number(row.parents),
    ...(row.outcome && row.outcome_at ? { outcome: { kind: row.outcome, at: row.outcome_at.toISOString() } } : {}),
  };
}

/** What names a page in a link: its key, and its readable name when it has one. */
export type SchoolPageAddress = { key: string; slug: string | null };

/**
 * The path of a page in `locale`: its readable name and its key ("/schools/lakeside-school-0123…",
 * "/es/schools/lakeside-school-0123…"), or the key alone.
 */
export function schoolPageHref(page: SchoolPageAddress, locale: Locale = defaultLocale): string {
  return localePath(schoolPagePath(page.slug ? `${page.slug}-${page.key}` : page.key), locale);
}

/** The address of a page in `locale`, as an email or a share gives it. */
export function schoolPageUrl(page: SchoolPageAddress, locale: Locale = defaultLocale): URL {
  return new URL(schoolPageHref(page, locale), serverEnv.siteOrigin);
}

// Referrals ------------------------------------------------------------------------------------

const referralMac = (messageId: string) => {
  const key = derivedKey('mastery-parents referral codes v1');
  return key && createHmac('sha256', key).update(messageId, 'utf8').digest('base64url').slice(0, 16);
};

const MESSAGE_ID = /^\d{13}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The referral code of a parent's school email (their message id, signed). */
export function referralCode(messageId: string): string | undefined {
  const mac = referralMac(messageId);
  return mac && `${messageId}.${mac}`;
}

/** The message a referral code names, or undefined when it is not one of ours. */
export function referrerOf(code: string | null | undefined): string | undefined {
  const match = /^([0-9a-f-]{1,60})\.([A-Za-z0-9_-]{16})$/.exec((code ?? '').trim());
  if (!match || !MESSAGE_ID.test(match[1]!)) return undefined;
  const expected = referralMac(match[1]!);
  if (!expected || !timingSafeEqual(Buffer.from(expected), Buffer.from(match[2]!))) return undefined;
  return match[1];
}

/** How a parent came to write: on their own, through another parent's share, or an ambassador's link. */
export const attributionSchema = z.discriminatedUnion('via', [
  z.object({ via: z.literal('direct') }),
  z.object({ via: z.literal('parent'), referrerMessageId: z.string(), ambassadorId: z.string().optional() }),
  z.object({ via: z.literal('ambassador'), ambassadorId: z.string() }),
]);
export type Attribution = z.infer<typeof attributionSchema>;

/** An ambassador id as /form takes it (src/lib/browser/form-page.ts): trimmed, printable, at most 100 characters. */
function ambassadorIdOf(value: string | null): string | undefined {
  const id = (value ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  // A broken escape (%E0 decodes to U+FFFD) or an invisible character is no id anybody was given.
  return id && id.length <= 100 && !/[\p{C}\uFFFD]/u.test(id) ? id : undefined;
}

/** The attribution a share link's parameters give; anything that does not verify is left out. */
export function attributionOf(input: { referral?: string | null; ambassadorId?: string | null }): Attribution {
  const referrer = referrerOf(input.referral);
  const ambassadorId = ambassadorIdOf(input.ambassadorId ?? null);
  if (referrer) return { via: 'parent', referrerMessageId: referrer, ...(ambassadorId ? { ambassadorId } : {}) };
  if (ambassadorId) return { via: 'ambassador', ambassadorId };
  return { via: 'direct' };
}

/**
 * The attribution of a new parent's email: as the link gave it, but a parent who comes through
 * their own link came on their own (their ambassador, if the link carried one, still counts).
 */
export async function attributionFor(input: { referral?: string | null; ambassadorId?: string | null; parentEmail: string }): Promise<Attribution> {
  // Only an ambassador on the list is credited: an id typed into a link is a claim, not a person.
  const given = attributionOf(input);
  const named = given.via === 'direct' ? undefined : given.ambassadorId;
  const known = named && (await knownAmbassador(named)) ? named : undefined;
  const attribution = attributionOf({ referral: input.referral, ambassadorId: known ?? null });
  if (attribution.via !== 'parent') return attribution;
  const referrer = await queryOne<{ parent: string | null }>(
    sql`SELECT record->>'parentEmail' AS parent FROM outbox_messages WHERE id = ${attribution.referrerMessageId}`,
  );
  if (!referrer?.parent || canonicalAddress(referrer.parent) !== canonicalAddress(input.parentEmail)) return attribution;
  return attribution.ambassadorId ? { via: 'ambassador', ambassadorId: attribution.ambassadorId } : { via: 'direct' };
}

/**
 * The link a parent shares after sending: their school's page in the language they wrote from (the
 * letter's stored `locale`: a Spanish parent shares /es/schools/…) with their referral code (when the
 * site has a secret to sign it with), and the ambassador who brought them if one did.
 */
export function shareLink(message: { id: string; attribution?: Attribution; locale?: Locale }, page: SchoolPageAddress): string {
  const url = schoolPageUrl(page, message.locale);
  const code = referralCode(message.id);
  if (code) url.searchParams.set('ref', code);
  if (message.attribution && message.attribution.via !== 'direct' && message.attribution.ambassadorId)
    url.searchParams.set('ambassadorId', message.attribution.ambassadorId);
  return url.toString();
}
