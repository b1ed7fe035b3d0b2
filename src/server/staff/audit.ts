/**
 * The audit log: who did what to parents' data, when, and from where (the client's network as a
 * keyed hash). One row per action, appended and never changed (a trigger in migration 0010
 * refuses UPDATE and DELETE but for rows past the year the log is kept).
 */
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { query, sql } from '../db';
import { serverEnv } from '../env';
import { clientIp } from '../http';
import { clientAddressKey } from '../identity';
import { auditActions, type AuditAction, type AuditEntry } from '../../lib/shared/audit-actions';

export { auditActionLabels, auditActions, type AuditAction, type AuditEntry } from '../../lib/shared/audit-actions';

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  address_hash: string | null;
  typed_name: string | null;
  refusals: number | null;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: String(row.id),
  at: row.at.toISOString(),
  actor: row.actor,
  action: row.action,
  target: row.target,
  addressHash: row.address_hash,
  ...(row.typed_name ? { typedName: row.typed_name } : {}),
  ...(row.refusals && row.refusals > 1 ? { count: Number(row.refusals) } : {}),
});

/** The 10-minute window a refusal falls in, computed by the database from its own clock. */
const WINDOW = sql`date_bin('10 minutes', now(), TIMESTAMPTZ '2000-01-01')`;

/** Text a stranger typed, as the log may keep it: one line, no control characters, at most 200. */
const typed = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .trim()
    .slice(0, 200) || null;

/**
 * Records a refusal a stranger caused (a wrong password, a passkey or an invitation link refused):
 * the first of its kind from one network in a 10-minute window is one row, actor "unknown" (what
 * they typed as a name kept apart, never as the actor); the rest of the window only add to that
 * row's count, so a flood writes one row. One statement: of refusals at once, one writes the row.
 */
export async function recordRefusal(entry: { action: AuditAction; typedName?: string; target?: string; ip?: string; actor?: string }): Promise<void> {
  const hash = entry.ip ? addressHash(entry.ip) : null;
  const target = entry.target ? clip(entry.target, 300) : null;
  await query(sql`
    WITH counted AS (
      INSERT INTO audit_refusal_windows AS w (action, address_hash, window_start, refusals) VALUES (${entry.action}, ${hash ?? 'none'}, ${WINDOW}, 1)
      ON CONFLICT (action, address_hash, window_start) DO UPDATE SET refusals = w.refusals + 1
      RETURNING refusals
    )
    INSERT INTO audit_log (actor, action, target, address_hash, typed_name)
    SELECT ${clip(entry.actor?.trim() || 'unknown', 200)}, ${entry.action}, ${target}, ${hash}, ${entry.typedName === undefined ? null : typed(entry.typedName)} FROM counted WHERE refusals = 1`);
}

/**
 * The client's network (`clientAddressKey`: an IPv6 client by its /64) as HMAC-SHA256 under a key
 * derived from CONFIG_ENCRYPTION_KEY, so that the log alone does not give addresses back; without
 * that key, a plain SHA-256 (still not the address).
 */
export function addressHash(ip: string): string {
  const network = clientAddressKey(ip);
  const configured = serverEnv.configEncryptionKey;
  if (!configured) return createHash('sha256').update(`audit-address|${network}`).digest('hex');
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(configured, 'utf8'), Buffer.alloc(0), 'mastery-parents audit address v1', 32));
  return createHmac('sha256', key).update(network).digest('hex');
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** Appends one entry. `actor` is who acted (the signed-in username), `target` what they acted on. */
export async function recordAudit(entry: { actor: string; action: AuditAction; target?: string; ip?: string }): Promise<void> {
  const actor = clip(entry.actor.trim() || 'unknown', 200);
  const target = entry.target ? clip(entry.target, 300) : null;
  const hash = entry.ip ? addressHash(entry.ip) : null;
  await query(sql`INSERT INTO audit_log (actor, action, target, address_hash) VALUES (${actor}, ${entry.action}, ${target}, ${hash})`);
}

/**
 * Appends one entry unless the same actor, action and target were recorded within `withinMs`: for
 * refusals a browser or a proxy may repeat at once (a GET retried as `.html` by a static server in
 * front of the functions), so that one attempt is one entry.
 */
export async function recordAuditOnce(entry: { actor: string; action: AuditAction; target?: string; ip?: string }, withinMs = 10_000): Promise<void> {
  const actor = clip(entry.actor.trim() || 'unknown', 200);
  const target = entry.target ? clip(entry.target, 300) : null;
  const hash = entry.ip ? addressHash(entry.ip) : null;
  await query(sql`
    INSERT INTO audit_log (actor, action, target, address_hash)
    SELECT ${actor}, ${entry.action}, ${target}, ${hash}
    WHERE NOT EXISTS (
      SELECT 1 FROM audit_log WHERE actor = ${actor} AND action = ${entry.action} AND target IS NOT DISTINCT FROM ${target}::text AND at > ${new Date(Date.now() - withinMs)}
    )`);
}

/** Records what a signed-in admin did, from the request it came with. */
export function auditRequest(req: Request, context: unknown, session: { username: string }, action: AuditAction, target?: string): Promise<void> {
  return recordAudit({ actor: session.username, action, target, ip: clientIp(req, context) });
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, 'must be a date as YYYY-MM-DD')
  .refine((value) => !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()), 'must be a real date');

/** The Audit tab's filters, as query parameters. */
export const auditFilterSchema = z
  .object({
    action: z.enum(auditActions as [AuditAction, ...AuditAction[]], { error: 'action is not one the log records' }).optional(),
    actor: z.string().trim().min(1).max(200).optional(),
    from: day.optional(),
    to: day.optional(),
    cursor: z
      .string()
      .regex(/^[1-9]\d{0,17}$/, 'cursor is not valid')
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
    format: z.enum(['json', 'csv']).optional(),
  })
  .strict()
  .refine((value) => !value.from || !value.to || value.from <= value.to, { message: 'from must not be after to', path: ['from'] });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/**
 * Entries newest first, filtered, one page after `cursor` (the id of the last entry of the page
 * before: keyset, so that entries written meanwhile do not shift the pages).
 */
export async function listAudit(filter: AuditFilter, limit: number): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
  const conditions = [sql`TRUE`];
  if (filter.action) conditions.push(sql`action = ${filter.action}`);
  if (filter.actor) conditions.push(sql`actor = ${filter.actor}`);
  if (filter.from) conditions.push(sql`at >= ${new Date(`${filter.from}T00:00:00Z`)}`);
  if (filter.to) conditions.push(sql`at < ${new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 24 * 3600_000)}`);
  if (filter.cursor) conditions.push(sql`id < ${filter.cursor}`);
  const rows = await query<AuditRow>(sql`
    SELECT a.id::text AS id, a.at, a.actor, a.action, a.target, a.address_hash, a.typed_name, w.refusals
    FROM (SELECT * FROM audit_log WHERE ${sql.join(conditions, ' AND ')} ORDER BY id DESC LIMIT ${limit + 1}) a
    LEFT JOIN audit_refusal_windows w ON w.action = a.action AND w.address_hash = coalesce(a.address_hash, 'none')
      AND w.window_start = date_bin('10 minutes', a.at, TIMESTAMPTZ '2000-01-01')
    ORDER BY a.id DESC`);
  const entries = rows.slice(0, limit).map(toEntry);
  return { entries, ...(rows.length > limit ? { nextCursor: entries[entries.length - 1]!.id } : {}) };
}

export const csvCell = (value: string) => {
  // A cell a spreadsheet would run as a formula is prefixed with an apostrophe.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export function auditCsv(entries: AuditEntry[]): string {
  const lines = [['id', 'at', 'actor', 'action', 'target', 'address_hash', 'typed_name', 'count'].join(',')];
  for (const entry of entries)
    lines.push(
      [entry.id, entry.at, entry.actor, entry.action, entry.target ?? '', entry.addressHash ?? '', entry.typedName ?? '', String(entry.count ?? 1)]
        .map(csvCell)
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

/** Deletes the entries older than a year (the only deletion the table allows); returns how many. */
export async function purgeAuditLog(): Promise<number> {
  const rows = await query(sql`DELETE FROM audit_log WHERE at < now() - interval '1 year' RETURNING 1`);
  await query(sql`DELETE FROM audit_refusal_windows WHERE window_start < now() - interval '1 year'`);
  return rows.length;
}
