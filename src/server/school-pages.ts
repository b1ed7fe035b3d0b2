/**
 * School pages: /schools/{name}-{key}, one per school contact address, where the parents of one
 * school see how many of them wrote and what the school answered, and add their own voice.
 *
 * - The key is an HMAC of the canonical contact address (`canonicalAddress`) under a server secret
 *   (SCHOOL_PAGE_SECRET, else derived from CONFIG_ENCRYPTION_KEY), so pages cannot be listed or
 *   guessed from an address. Without a secret there are no pages ("not configured"). The readable
 *   name before it is only for people; the key alone finds the page.
 * - Nothing on a page rests on a claim nobody checked (README "Abuse and privacy"): a page is made
 *   when a parent confirms a letter from their inbox, and shows a name, a count and an outcome only
 *   once published, by the first letter the platform delivered there or by a staff decision. Its
 *   name and the address its form is filled with are set then, and changed only by staff. The
 *   count and the outcome are read from the impact events (`impact_sends.page`: delivered letters
 *   and approved self-reports only, and `impact_answers`).
 * - A referral code names the sharing parent's message, signed, so a share link attributes the
 *   parents it brings; a code that does not verify is ignored.
 */
import { knownAmbassador } from './ambassadors';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { pageOutcomes, type PageOutcome } from '../lib/school-pages';
import { queryOne, sql } from './db';
import { serverEnv } from './env';
import { HttpError } from './http';
import { canonicalAddress } from './identity';

/** A school page key: 128 bits of the HMAC, in lower-case hex (the end of the page's path segment). */
export const SCHOOL_KEY = /^[0-9a-f]{32}$/;

function derivedKey(info: string): Buffer | undefined {
  const secret = serverEnv.schoolPageSecret ?? serverEnv.configEncryptionKey;
  if (!secret) return undefined;
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), info, 32));
}

const notConfigured = () => new HttpError(503, 'school_pages_not_configured', 'School pages are not configured on this site (SCHOOL_PAGE_SECRET or CONFIG_ENCRYPTION_KEY is missing).');

/** The key of the school page of a contact address, or undefined when the site has no secret. */
export function schoolPageKeyIfConfigured(address: string): string | undefined {
  const key = derivedKey('mastery-parents school pages v1');
  return key && createHmac('sha256', key).update(canonicalAddress(address), 'utf8').digest('hex').slice(0, 32);
}

/** The key of the school page of a contact address; "not configured" (503) without a secret. */
export function schoolPageKey(address: string): string {
  const key = schoolPageKeyIfConfigured(address);
  if (!key) throw notConfigured();
  return key;
}

/** Whether school pages can be made and read on this site. */
export function schoolPagesConfigured(): boolean {
  return derivedKey('mastery-parents school pages v1') !== undefined;
}

/** The path of a page segment (the key, or "{slug}-{key}"). */
export function schoolPagePath(segment: string): string {
  return `/schools/${segment}`;
}

/** The readable part of a page's link: the school's name in plain letters ("lakeside-school"). */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** The key at the end of a page's path segment: "lakeside-school-0123…cdef" or the bare key. */
export function keyOfSegment(segment: string): string | undefined {
  const match = /(?:^|-)([0-9a-f]{32})$/.exec(segment.toLowerCase());
  return match?.[1];
}

/**
 * Makes the page of the school a confirmed letter goes to, if there is none, so that the parent's
 * share link works at once. A new page shows no name, count or outcome until it is published (by
 * the first letter the platform delivered there, or by staff); the address its form is filled with
 * is the one the confirmed letter goes to. Returns its key, or undefined without a secret.
 */
export async function ensureSchoolPage(message: { to: string }, now = new Date()): Promise<string | undefined> {
  const key = schoolPageKeyIfConfigured(message.to);
  if (!key) return undefined;
  await queryOne(sql`
    INSERT INTO school_pages (key, school_name, contact_address, created_at, updated_at)
    VALUES (${key}, NULL, ${message.to.trim().toLowerCase().slice(0, 254)}, ${now}, ${now})
    ON CONFLICT (key) DO NOTHING
    RETURNING 1`);
  return key;
}

/**
 * Publishes the page of the school a letter reached: the first proof (a letter the platform
 * delivered after the parent confirmed it, or a staff decision) sets its name, its link's readable
 * part and the address its form fills in; later letters change none of them (staff rename a page).
 * One statement. Returns the key, or undefined without a secret.
 */
export async function publishSchoolPage(message: { to: string; schoolName: string }, by: 'letter' | 'staff', now = new Date()): Promise<string | undefined> {
  const key = schoolPageKeyIfConfigured(message.to);
  if (!key) return undefined;
  const name = message.schoolName.trim().slice(0, 200) || message.to.trim().toLowerCase().split('@').pop()!;
  const address = message.to.trim().toLowerCase().slice(0, 254);
  await queryOne(sql`
    INSERT INTO school_pages AS p (key, school_name, contact_address, created_at, updated_at, published_at, name_set_by, slug)
    VALUES (${key}, ${name}, ${address}, ${now}, ${now}, ${now}, ${by}, ${slugOf(name) || null})
    ON CONFLICT (key) DO UPDATE SET
      school_name = EXCLUDED.school_name, slug = EXCLUDED.slug, name_set_by = EXCLUDED.name_set_by,
      contact_address = EXCLUDED.contact_address, published_at = EXCLUDED.published_at, updated_at = EXCLUDED.updated_at
    WHERE p.published_at IS NULL
    RETURNING 1`);
  return key;
}

/** Staff give a published page its name (and its link's readable part); audited by the caller. */
export async function renameSchoolPage(key: string, name: string, now = new Date()): Promise<boolean> {
  const row = await queryOne(sql`
    UPDATE school_pages SET school_name = ${name}, slug = ${slugOf(name) || null}, name_set_by = 'staff', updated_at = ${now}, published_at = coalesce(published_at, ${now})
    WHERE key = ${key} RETURNING 1`);
  return row !== undefined;
}

export interface SchoolPage {
  key: string;
  /** Null until the page is published: a page waiting for its first letter shows no name. */
  schoolName: string | null;
  slug: string | null;
  published: boolean;
  /** Never shown: the form is filled with it on the server. */
  contactAddress: string;
  /** Distinct parents whose letters count (delivered platform letters, approved self-reports). */
  parents: number;
  outcome?: { kind: PageOutcome; at: string };
}

/** A school page by its key, with its count and latest outcome (one statement), or undefined. */
export async function readSchoolPage(key: string): Promise<SchoolPage | undefined> {
  if (!SCHOOL_KEY.test(key)) return undefined;
  if (!schoolPagesConfigured()) throw notConfigured();
  const row = await queryOne<{ school_name: string | null; slug: string | null; published_at: Date | null; contact_address: string; parents: number; outcome: PageOutcome | null; outcome_at: Date | null }>(sql`
    SELECT p.school_name, p.slug, p.published_at, p.contact_address,
      (SELECT count(DISTINCT s.parent)::int FROM impact_sends s WHERE s.page = p.key) AS parents,
      o.kind AS outcome, o.answered_at AS outcome_at
    FROM school_pages p
    LEFT JOIN LATERAL (
      SELECT a.kind, a.answered_at FROM impact_answers a JOIN impact_sends s ON s.message_id = a.message_id
      WHERE s.page = p.key AND a.kind = ANY(${[...pageOutcomes]}::text[])
      ORDER BY a.answered_at DESC LIMIT 1
    ) o ON true
    WHERE p.key = ${key}`);
  if (!row) return undefined;
  const published = row.published_at !== null;
  return {
    key,
    schoolName: published ? row.school_name : null,
    slug: published ? row.slug : null,
    published,
    contactAddress: row.contact_address,
    parents: published ? Number(row.parents) : 0,
    ...(published && row.outcome && row.outcome_at ? { outcome: { kind: row.outcome, at: row.outcome_at.toISOString() } } : {}),
  };
}

/** The path of a page: its readable name and its key ("/schools/lakeside-school-0123…"), or the key alone. */
export function schoolPageHref(page: { key: string; slug: string | null }): string {
  return schoolPagePath(page.slug ? `${page.slug}-${page.key}` : page.key);
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

/** An ambassador id as /form takes it (src/lib/form-page.ts): trimmed, printable, at most 100 characters. */
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
  const referrer = await queryOne<{ parent: string | null }>(sql`SELECT record->>'parentEmail' AS parent FROM outbox_messages WHERE id = ${attribution.referrerMessageId}`);
  if (!referrer?.parent || canonicalAddress(referrer.parent) !== canonicalAddress(input.parentEmail)) return attribution;
  return attribution.ambassadorId ? { via: 'ambassador', ambassadorId: attribution.ambassadorId } : { via: 'direct' };
}

/**
 * The link a parent shares after sending: their school's page (with its readable name once it has
 * one) with their referral code, and the ambassador who brought them if one did. Undefined when
 * school pages are not configured.
 */
export function shareLink(message: { id: string; to: string; attribution?: Attribution }, slug?: string | null): string | undefined {
  const key = schoolPageKeyIfConfigured(message.to);
  const code = referralCode(message.id);
  if (!key || !code) return undefined;
  const url = new URL(schoolPageHref({ key, slug: slug ?? null }), serverEnv.siteOrigin);
  url.searchParams.set('ref', code);
  if (message.attribution && message.attribution.via !== 'direct' && message.attribution.ambassadorId) url.searchParams.set('ambassadorId', message.attribution.ambassadorId);
  return url.toString();
}

/**
 * The email form as a school page posts it: the school contact's address filled in from the page's
 * key (whatever was posted for it), and the school's name when the parent left it empty. Values of
 * another form, or with no key or an unknown one, are returned as they are.
 */
export async function fillFromSchoolPage(raw: Record<string, unknown>, fields: { schoolName: string; schoolContactEmail: string }, keyField: string): Promise<string | undefined> {
  const posted = raw[keyField];
  const key = typeof posted === 'string' ? posted.trim().toLowerCase() : '';
  if (!SCHOOL_KEY.test(key) || !schoolPagesConfigured()) return undefined;
  const row = await queryOne<{ school_name: string | null; contact_address: string; published_at: Date | null }>(sql`SELECT school_name, contact_address, published_at FROM school_pages WHERE key = ${key}`);
  if (!row) return undefined;
  raw[fields.schoolContactEmail] = row.contact_address;
  const name = raw[fields.schoolName];
  if ((typeof name !== 'string' || !name.trim()) && row.published_at && row.school_name) raw[fields.schoolName] = row.school_name;
  return key;
}
