/**
 * The block lists: a network (its prefix, as the watch keeps it), an email domain (and its
 * subdomains: `example.org` blocks `mail.example.org`, never `notexample.org` or
 * `example.org.evil.test`) and one address (as `canonicalAddress` makes it: its case, a +tag and
 * Gmail's dots are the same mailbox; blocking it never blocks its domain). A block refuses NEW
 * requests at the entry points (src/server/abuse/watch.ts lists them) with a plain sentence; what
 * already exists is voided apart (void.ts). Blocks end when staff remove them or at their expiry.
 */
import { defaultLocale, type Locale } from '../../config/locales';
import { site } from '../../config/site';
import { fillWords } from '../../lib/shared/i18n/translator';
import type { AddBlock, BlockKind, BlockView } from '../../lib/shared/schemas/abuse-watch';
import { query, queryOne, sql } from '../db';
import { HttpError } from '../http';
import { canonicalAddress, emailDomainOf, networkPrefix } from '../identity';
import { serverWordsOf } from '../words';

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
const PREFIX_V4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.0\/24$/;

/** A domain as blocks keep it: lower case, no "@" before it, no dot after it, googlemail.com as gmail.com. */
export function blockDomain(text: string): string | undefined {
  const domain = text.normalize('NFKC').trim().toLowerCase().replace(/^@/, '').replace(/\.+$/, '');
  const canonical = emailDomainOf(`x@${domain}`);
  return canonical && DOMAIN.test(canonical) ? canonical : undefined;
}

/** The value a block of `kind` keeps for what staff typed, or undefined when it is not one. */
export function blockValue(kind: BlockKind, text: string): string | undefined {
  const value = text.normalize('NFKC').trim();
  switch (kind) {
    case 'network': {
      const v4 = PREFIX_V4.exec(value);
      const prefix = networkPrefix(v4 ? `${v4[1]}.0` : value.replace(/\/(24|64)$/, ''));
      return prefix === 'unknown' ? undefined : prefix;
    }
    case 'domain':
      return blockDomain(value);
    case 'address': {
      const address = canonicalAddress(value);
      const at = address.lastIndexOf('@');
      return at > 0 && blockDomain(address.slice(at + 1)) === address.slice(at + 1) ? address : undefined;
    }
  }
}

interface BlockRow {
  id: string;
  kind: BlockKind;
  value: string;
  reason: string;
  expires_at: Date | null;
  created_by: string;
  created_at: Date;
}

const view = (row: BlockRow): BlockView => ({
  id: String(row.id),
  kind: row.kind,
  value: row.value,
  reason: row.reason,
  expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
});

const live = (now: Date) => sql`removed_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`;

/** The blocks in force, newest first. */
export async function listBlocks(now = new Date()): Promise<BlockView[]> {
  const rows = await query<BlockRow>(sql`
    SELECT id, kind, value, reason, expires_at, created_by, created_at FROM abuse_blocks WHERE ${live(now)} ORDER BY created_at DESC, id DESC LIMIT 500`);
  return rows.map(view);
}

/**
 * Adds a block (or renews the one in force on the same value with this reason and expiry). A value
 * that is not a network, domain or address of its kind is a 400 naming it.
 */
export async function addBlock(input: AddBlock, by: string, now = new Date()): Promise<BlockView> {
  const value = blockValue(input.kind, input.value);
  if (!value) {
    const what = {
      network: 'an IP address or a network prefix (203.0.113.0/24, 2001:db8:1:2::/64)',
      domain: 'a domain (example.org)',
      address: 'an email address',
    };
    throw new HttpError(400, 'invalid_request', `value: give ${what[input.kind]}.`);
  }
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw new HttpError(400, 'invalid_request', 'expiresAt: the expiry must be in the future.');
  // An expired block on the value is closed first, so that the new one is the value's one live row.
  await query(
    sql`UPDATE abuse_blocks SET removed_at = ${now}, removed_by = 'expired' WHERE kind = ${input.kind} AND value = ${value} AND removed_at IS NULL AND expires_at <= ${now}`,
  );
  const row = await queryOne<BlockRow>(sql`
    INSERT INTO abuse_blocks (kind, value, reason, expires_at, created_by, created_at)
    VALUES (${input.kind}, ${value}, ${input.reason}, ${expiresAt}, ${by}, ${now})
    ON CONFLICT (kind, value) WHERE removed_at IS NULL DO UPDATE SET reason = EXCLUDED.reason, expires_at = EXCLUDED.expires_at
    RETURNING id, kind, value, reason, expires_at, created_by, created_at`);
  return view(row!);
}

/** Lifts a block; returns it, or undefined when no such block is in force. */
export async function removeBlock(id: string, by: string, now = new Date()): Promise<BlockView | undefined> {
  const row = await queryOne<BlockRow>(sql`
    UPDATE abuse_blocks SET removed_at = ${now}, removed_by = ${by} WHERE id = ${id}::bigint AND removed_at IS NULL
    RETURNING id, kind, value, reason, expires_at, created_by, created_at`);
  return row ? view(row) : undefined;
}

/** Who is asking, as a block can name them. */
export interface Asker {
  ip: string;
  email?: string;
}

/** The block in force on this network, this address or its domain, if any. */
export async function blockOf(asker: Asker, now = new Date()): Promise<BlockView | undefined> {
  const network = networkPrefix(asker.ip);
  const address = asker.email ? canonicalAddress(asker.email) : null;
  const domain = asker.email ? (emailDomainOf(asker.email) ?? null) : null;
  const row = await queryOne<BlockRow>(sql`
    SELECT id, kind, value, reason, expires_at, created_by, created_at FROM abuse_blocks
    WHERE ${live(now)} AND (
      (kind = 'network' AND value = ${network})
      OR (kind = 'address' AND value = ${address}::text)
      OR (kind = 'domain' AND ${domain}::text IS NOT NULL AND (value = ${domain}::text OR right(${domain}::text, length(value) + 1) = '.' || value)))
    ORDER BY id LIMIT 1`);
  return row ? view(row) : undefined;
}

/**
 * What a refused person reads, in their page's or draft's language (content/i18n/{locale}/refusals.yaml):
 * what is blocked (never why staff think so), and what they can do.
 */
export async function blockedMessage(kind: BlockKind, locale: Locale = defaultLocale): Promise<string> {
  const t = await serverWordsOf(locale);
  return fillWords(t(`refusals.blocked.${kind}`), { email: site.email });
}

/** Throws the 403 `blocked` answer when a block names this asker; the entry points call it before any work. */
export async function refuseBlocked(asker: Asker, now = new Date(), locale: Locale = defaultLocale): Promise<void> {
  const block = await blockOf(asker, now);
  if (block) throw new HttpError(403, 'blocked', await blockedMessage(block.kind, locale));
}
