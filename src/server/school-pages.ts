/**
 * School pages: /schools/{key}, one per school contact address, where the parents of one school
 * see how many of them wrote and what the school answered, and add their own voice.
 *
 * - The key is an HMAC of the canonical contact address (`canonicalAddress`) under a server secret
 *   (SCHOOL_PAGE_SECRET, else derived from CONFIG_ENCRYPTION_KEY), so pages cannot be listed or
 *   guessed from an address. Without a secret there are no pages ("not configured").
 * - Table `school_pages` keeps the name as parents last wrote it and the address the email form is
 *   filled with on the server; the count and the outcome are read from the impact events
 *   (`impact_sends.page`, confirmed sends and confirmed self-reports only, and `impact_answers`).
 * - A referral code names the sharing parent's message, signed, so a share link attributes the
 *   parents it brings; a code that does not verify is ignored.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { pageOutcomes, type PageOutcome } from '../lib/school-pages';
import { queryOne, sql } from './db';
import { serverEnv } from './env';
import { HttpError } from './http';
import { canonicalAddress } from './identity';

/** A school page key: 128 bits of the HMAC, in lower-case hex (a path segment as the site's pages are). */
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

export function schoolPagePath(key: string): string {
  return `/schools/${key}`;
}

/**
 * Makes (or refreshes) the page of the school a message went to, keeping the name the latest
 * message wrote; returns its key, or undefined without a secret.
 */
export async function ensureSchoolPage(message: { to: string; schoolName: string }, now = new Date()): Promise<string | undefined> {
  const key = schoolPageKeyIfConfigured(message.to);
  if (!key) return undefined;
  const name = message.schoolName.trim().slice(0, 200) || message.to.trim().toLowerCase();
  await queryOne(sql`
    INSERT INTO school_pages AS p (key, school_name, contact_address, created_at, updated_at)
    VALUES (${key}, ${name}, ${message.to.trim().toLowerCase().slice(0, 254)}, ${now}, ${now})
    ON CONFLICT (key) DO UPDATE SET school_name = EXCLUDED.school_name, contact_address = EXCLUDED.contact_address, updated_at = EXCLUDED.updated_at
    WHERE p.updated_at <= EXCLUDED.updated_at
    RETURNING 1`);
  return key;
}

export interface SchoolPage {
  key: string;
  schoolName: string;
  /** Never shown: the form is filled with it on the server. */
  contactAddress: string;
  /** Distinct parents with a confirmed send or a confirmed self-report. */
  parents: number;
  outcome?: { kind: PageOutcome; at: string };
}

/** A school page by its key, with its count and latest outcome (one statement), or undefined. */
export async function readSchoolPage(key: string): Promise<SchoolPage | undefined> {
  if (!SCHOOL_KEY.test(key)) return undefined;
  if (!schoolPagesConfigured()) throw notConfigured();
  const row = await queryOne<{ school_name: string; contact_address: string; parents: number; outcome: PageOutcome | null; outcome_at: Date | null }>(sql`
    SELECT p.school_name, p.contact_address,
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
  return {
    key,
    schoolName: row.school_name,
    contactAddress: row.contact_address,
    parents: Number(row.parents),
    ...(row.outcome && row.outcome_at ? { outcome: { kind: row.outcome, at: row.outcome_at.toISOString() } } : {}),
  };
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
  const attribution = attributionOf(input);
  if (attribution.via !== 'parent') return attribution;
  const referrer = await queryOne<{ parent: string | null }>(sql`SELECT record->>'parentEmail' AS parent FROM outbox_messages WHERE id = ${attribution.referrerMessageId}`);
  if (!referrer?.parent || canonicalAddress(referrer.parent) !== canonicalAddress(input.parentEmail)) return attribution;
  return attribution.ambassadorId ? { via: 'ambassador', ambassadorId: attribution.ambassadorId } : { via: 'direct' };
}

/**
 * The link a parent shares after sending: their school's page with their referral code, and the
 * ambassador who brought them if one did. Undefined when school pages are not configured.
 */
export function shareLink(message: { id: string; to: string; attribution?: Attribution }): string | undefined {
  const key = schoolPageKeyIfConfigured(message.to);
  const code = referralCode(message.id);
  if (!key || !code) return undefined;
  const url = new URL(schoolPagePath(key), serverEnv.siteOrigin);
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
  const row = await queryOne<{ school_name: string; contact_address: string }>(sql`SELECT school_name, contact_address FROM school_pages WHERE key = ${key}`);
  if (!row) return undefined;
  raw[fields.schoolContactEmail] = row.contact_address;
  const name = raw[fields.schoolName];
  if (typeof name !== 'string' || !name.trim()) raw[fields.schoolName] = row.school_name;
  return key;
}
