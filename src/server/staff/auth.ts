/**
 * The admin session: sign-in against ADMIN_USERNAME and ADMIN_PASSWORD (or ADMIN_PASSWORD_HASH),
 * a random session id in an HttpOnly, Secure, SameSite=Strict `__Host-` cookie (named without the
 * prefix, and not Secure, over plain http to this machine: see `cookieName`), and the session itself recorded in the database (under a hash of the id) so that signing out or a timeout ends it.
 */
import { createHash, createHmac, hkdfSync, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { serverEnv } from '../env';
import { recordAuditOnce } from './audit';
import { clientIp, cookieName, HttpError } from '../http';
import { query, queryOne, sql } from '../db';

export const SESSION_COOKIE = '__Host-admin_session' as const;
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 8 * 60 * 60_000;
/** The idle clock is written back at most this often, to spare a write per request. */
const TOUCH_EVERY_MS = 60_000;

export type StaffRole = 'owner' | 'staff';

interface SessionRecord {
  username: string;
  createdAt: number;
  lastSeenAt: number;
  role: StaffRole;
  staffId: string | null;
}

interface SessionRow {
  username: string;
  created_at: Date;
  last_seen_at: Date;
  password_fingerprint: string | null;
  staff_id: string | null;
  staff_role: StaffRole | null;
  staff_email: string | null;
  owner_exists: boolean;
}

export interface Session {
  /** Who: the person's email address, or the admin username for the bootstrap password's session. */
  username: string;
  createdAt: string;
  /** When the session ends if it stays idle (never after the absolute limit). */
  expiresAt: string;
  role: StaffRole;
  /** The signed-in person's id; null for the bootstrap password's session (no owner exists yet). */
  staffId: string | null;
  /** Signed in with the environment's admin password, before any owner exists. */
  bootstrap: boolean;
}

const sessionKey = (id: string) => createHash('sha256').update(id).digest('hex');

/** A `__Host-` cookie of the request, under the name it has there (see `cookieName`). */
function readCookie(req: Request, hostName: `__Host-${string}`): string | undefined {
  const name = cookieName(req, hostName);
  const header = req.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [rawName, ...rest] = part.trim().split('=');
    if (rawName === name) return rest.join('=');
  }
  return undefined;
}

function toSession(record: SessionRecord): Session {
  const expires = Math.min(record.lastSeenAt + IDLE_TIMEOUT_MS, record.createdAt + ABSOLUTE_TIMEOUT_MS);
  return {
    username: record.username,
    createdAt: new Date(record.createdAt).toISOString(),
    expiresAt: new Date(expires).toISOString(),
    role: record.role,
    staffId: record.staffId,
    bootstrap: record.staffId === null,
  };
}

export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${ABSOLUTE_TIMEOUT_MS / 1000}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses a state-changing request that a browser sent from another origin (CSRF): the Origin
 * header must name this site. Browsers always send it on cross-site and same-site writes.
 */
export function requireSameOrigin(req: Request): void {
  if (!UNSAFE.has(req.method)) return;
  const origin = req.headers.get('origin');
  const fetchSite = req.headers.get('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin') {
    throw new HttpError(403, 'cross_origin', 'This request came from another site and was refused.');
  }
  const allowed = new Set([new URL(req.url).origin, ...serverEnv.siteOrigins]);
  if (!origin || !allowed.has(origin)) {
    throw new HttpError(403, 'cross_origin', 'This request came from another site and was refused.');
  }
}

/** The SHA-256 of the session id the request carries (how the table names it), if it has one. */
export function requestSessionHash(req: Request): string | undefined {
  const id = readCookie(req, SESSION_COOKIE);
  return id && /^[A-Za-z0-9_-]{20,100}$/.test(id) ? sessionKey(id) : undefined;
}

/** The signed-in admin, or a 401. State-changing requests must also come from this site. */
export async function requireAdmin(req: Request): Promise<Session> {
  const key = requestSessionHash(req);
  if (!key) throw notSignedIn();
  // The person's role is read from the staff table, so a change of role applies at once; a removed
  // person's or passkey's sessions are gone already (ON DELETE CASCADE).
  const row = await queryOne<SessionRow>(sql`
    SELECT s.username, s.created_at, s.last_seen_at, s.password_fingerprint, s.staff_id,
           p.role AS staff_role, p.email AS staff_email,
           EXISTS (SELECT 1 FROM staff WHERE role = 'owner') AS owner_exists
    FROM admin_sessions s LEFT JOIN staff p ON p.id = s.staff_id
    WHERE s.id_hash = ${key}`);
  const now = Date.now();
  if (!row) throw notSignedIn();
  if (row.staff_id === null) {
    if (row.owner_exists) {
      // The bootstrap password opens the page only while the site has no owner.
      await query(sql`DELETE FROM admin_sessions WHERE staff_id IS NULL`);
      throw notSignedIn(PASSKEYS_ONLY_MESSAGE);
    }
    const fingerprint = passwordFingerprint();
    // No password configured is "no fingerprint" on both sides (the column holds NULL for it).
    if ((row.password_fingerprint ?? undefined) !== fingerprint) {
      // The admin password changed since this session began: every session of the old one ends.
      await query(sql`DELETE FROM admin_sessions WHERE staff_id IS NULL AND password_fingerprint IS DISTINCT FROM ${fingerprint ?? null}`);
      throw notSignedIn('The admin password has changed. Please sign in again.');
    }
  } else if (!row.staff_role) {
    throw notSignedIn();
  }
  const record: SessionRecord = {
    username: row.staff_email ?? row.username,
    createdAt: row.created_at.getTime(),
    lastSeenAt: row.last_seen_at.getTime(),
    role: row.staff_role ?? 'owner',
    staffId: row.staff_id,
  };
  if (now - record.lastSeenAt > IDLE_TIMEOUT_MS || now - record.createdAt > ABSOLUTE_TIMEOUT_MS) {
    await query(sql`DELETE FROM admin_sessions WHERE id_hash = ${key}`);
    throw notSignedIn('Your session has expired. Please sign in again.');
  }
  requireSameOrigin(req);
  if (now - record.lastSeenAt > TOUCH_EVERY_MS) {
    record.lastSeenAt = now;
    await query(sql`UPDATE admin_sessions SET last_seen_at = ${new Date(now)} WHERE id_hash = ${key}`);
  }
  return toSession(record);
}

export const PASSKEYS_ONLY_MESSAGE = 'This site\'s staff sign in with passkeys: use "Sign in with a passkey". The admin password only set up the first owner.';

function notSignedIn(message = 'Sign in to use the admin page.'): HttpError {
  return new HttpError(401, 'unauthenticated', message);
}

/**
 * The signed-in owner (or the bootstrap password's session, which has an owner's rights until the
 * first owner exists), or a 401; a staff member gets a 403, recorded on the audit log.
 */
export async function requireOwner(req: Request, context?: unknown): Promise<Session> {
  const session = await requireAdmin(req);
  if (session.role === 'owner') return session;
  // One entry per attempt: a local static server retries a refused GET as `….html` and `….htm`.
  const path = new URL(req.url).pathname.replace(/(?:\/index\.html?|\.html?)$/, '');
  await recordAuditOnce({ actor: session.username, action: 'staff.forbidden', target: `${req.method} ${path}`.slice(0, 300), ip: clientIp(req, context) });
  throw new HttpError(403, 'owner_only', 'Only an owner can do this. Ask an owner of the site.');
}

/**
 * Starts a new session with a fresh id (never reusing one the browser sent): the bootstrap
 * password's (no `person`), or a person's opened with one of their passkeys.
 */
export async function createSession(
  username: string,
  person?: { staffId: string; passkeyId: string; role: StaffRole },
): Promise<{ cookie: string; session: Session }> {
  const id = randomBytes(32).toString('base64url');
  const now = Date.now();
  const record: SessionRecord = { username, createdAt: now, lastSeenAt: now, role: person?.role ?? 'owner', staffId: person?.staffId ?? null };
  await query(sql`
    INSERT INTO admin_sessions (id_hash, username, created_at, last_seen_at, password_fingerprint, staff_id, passkey_id, role)
    VALUES (${sessionKey(id)}, ${username}, ${new Date(now)}, ${new Date(now)}, ${person ? null : (passwordFingerprint() ?? null)},
            ${person?.staffId ?? null}, ${person?.passkeyId ?? null}, ${record.role})`);
  return { cookie: sessionCookie(id), session: toSession(record) };
}

/** Ends the session the request carries, if any. */
export async function endSession(req: Request): Promise<void> {
  const id = readCookie(req, SESSION_COOKIE);
  if (id) await query(sql`DELETE FROM admin_sessions WHERE id_hash = ${sessionKey(id)}`);
}

/** Ends every session (an owner's "Sign everyone out"); returns how many. */
export async function endAllSessions(): Promise<number> {
  return (await query(sql`DELETE FROM admin_sessions RETURNING 1`)).length;
}

/** Deletes sessions past their idle or absolute limit; returns how many. */
export async function purgeExpiredSessions(now = Date.now()): Promise<number> {
  const rows = await query(sql`
    DELETE FROM admin_sessions
    WHERE last_seen_at < ${new Date(now - IDLE_TIMEOUT_MS)} OR created_at < ${new Date(now - ABSOLUTE_TIMEOUT_MS)}
    RETURNING 1`);
  return rows.length;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const sameText = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** `scrypt$<salt base64>$<hash base64>`, as printed by `node scripts/hash-password.mjs`. */
function matchesHash(password: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length || 32);
  return expected.length > 0 && timingSafeEqual(actual, expected);
}

const fingerprints = new Map<string, string>();

/**
 * A fingerprint of the configured admin password (or its hash), stored on each session: a slow,
 * salted hash (scrypt) so that the sessions table does not help anyone guess the password.
 * Undefined when no password is configured (no session is then valid).
 */
export function passwordFingerprint(): string | undefined {
  const hash = serverEnv.adminPasswordHash;
  const plain = serverEnv.adminPassword;
  const source = hash ? `hash:${hash}` : plain ? `plain:${plain}` : undefined;
  if (!source) return undefined;
  let found = fingerprints.get(source);
  if (!found) {
    found = scryptSync(source, 'mastery-parents admin session fingerprint v1', 32).toString('hex');
    fingerprints.set(source, found);
  }
  return found;
}

export const DEVICE_COOKIE = '__Host-admin_device' as const;
/** How long a device stays known after its last successful sign-in. */
export const KNOWN_DEVICE_MS = 365 * 24 * 3600_000;

function deviceKey(): Buffer | undefined {
  const configured = serverEnv.configEncryptionKey;
  if (!configured) return undefined;
  return Buffer.from(hkdfSync('sha256', Buffer.from(configured, 'utf8'), Buffer.alloc(0), 'mastery-parents admin known device v1', 32));
}

/**
 * The "known device" cookie a browser gets when it signs in: signed (HMAC-SHA256), naming the
 * username and when. It exempts that browser from the per-username lock of failed sign-ins, so
 * that strangers guessing elsewhere cannot lock the owner out. Undefined without a signing key
 * (CONFIG_ENCRYPTION_KEY).
 */
export function knownDeviceCookie(username: string, now = Date.now()): string | undefined {
  const key = deviceKey();
  if (!key) return undefined;
  const payload = Buffer.from(JSON.stringify({ u: username.toLowerCase(), t: now, n: randomBytes(9).toString('base64url') }), 'utf8').toString('base64url');
  const mac = createHmac('sha256', key).update(payload).digest('base64url');
  return `${DEVICE_COOKIE}=${payload}.${mac}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${KNOWN_DEVICE_MS / 1000}`;
}

/**
 * The device id of a browser that signed in as `username` within the last year (its known-device
 * cookie verified), or undefined.
 */
export function knownDevice(req: Request, username: string, now = Date.now()): string | undefined {
  const key = deviceKey();
  const value = readCookie(req, DEVICE_COOKIE);
  if (!key || !value) return undefined;
  const match = /^([A-Za-z0-9_-]{10,400})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return undefined;
  const expected = Buffer.from(createHmac('sha256', key).update(match[1]!).digest('base64url'));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as { u?: unknown; t?: unknown; n?: unknown };
    const fresh = typeof claims.t === 'number' && claims.t <= now + 60_000 && now - claims.t < KNOWN_DEVICE_MS;
    return claims.u === username.toLowerCase() && fresh && typeof claims.n === 'string' ? claims.n : undefined;
  } catch {
    return undefined;
  }
}

export type CredentialCheck = 'ok' | 'wrong' | 'not_configured';

export function checkCredentials(username: string, password: string): CredentialCheck {
  const hash = serverEnv.adminPasswordHash;
  const plain = serverEnv.adminPassword;
  if (!hash && !plain) return 'not_configured';
  // Both comparisons always run so that the answer time does not tell which part was wrong.
  const userOk = sameText(username, serverEnv.adminUsername);
  const passwordOk = hash ? matchesHash(password, hash) : sameText(password, plain!);
  return userOk && passwordOk ? 'ok' : 'wrong';
}
