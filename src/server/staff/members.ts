/**
 * Staff one by one with passkeys (issue 24, part 1): the people who may open /webhook-config, their
 * passkeys (WebAuthn, `@simplewebauthn/server`), invitations, and the WebAuthn ceremonies.
 *
 * - The first owner: while no owner exists, the environment's admin password opens a bootstrap
 *   session (src/server/staff/auth.ts) that may register a passkey with an email address; that makes the
 *   first owner, and from then on the password is refused.
 * - Invitations: an owner invites an address with a role; the link's token is random, kept here as
 *   its SHA-256, valid 72 hours and used once (in the same statement that creates the person).
 * - Ceremonies: every challenge is stored bound to what it was asked for (a sign-in, the bootstrap
 *   session, an invitation, a signed-in person) and deleted when a response comes back with it, so
 *   a response can never be used twice. The relying party is the request's host name; the origin
 *   must be the request's or one of the site's (`serverEnv.siteOrigins`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { recordAudit, recordRefusal } from './audit';
import { createSession, requestSessionHash, type Session, type StaffRole } from './auth';
import { isUniqueViolation, query, queryOne, sql } from '../db';
import { serverEnv } from '../env';
import { HttpError } from '../http';
import { canonicalAddress, networkKey } from '../identity';
import { mailSender } from '../mail/senders';
import { emailStaffInvitation } from '../mail/notify';
import { hashSecret, macMatches, macOf, newSecret } from '../tokens';

export const INVITATION_TTL_MS = 72 * 3600_000;
export const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'Mastery Parents staff';

/**
 * The WebAuthn library, loaded by the ceremonies that use it: every admin request checks a session
 * through this module, and loading the library costs each function call about 0.2 s of CPU where
 * the function starts cold (every call under `netlify serve`).
 */
const webauthn = () => import('@simplewebauthn/server');

// ---------------------------------------------------------------------------------------------
// Request schemas (shared by the functions and the fuzz tests)

const email = z.string().trim().min(3).max(254).pipe(z.email('Enter a valid email address'));
const role = z.enum(['owner', 'staff']);
const token = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This invitation link is not valid.');
const label = z.string().trim().min(1).max(100).optional();
const b64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]*={0,2}$/)
  .max(20_000);

/** A WebAuthn response as `@simplewebauthn/browser` sends it; the library checks the rest. */
const credentialBase = {
  // WebAuthn credential ids are at least 16 bytes (22 characters of base64url); shorter is no credential.
  id: z.string().regex(/^[A-Za-z0-9_-]{22,1400}$/, 'Not a passkey credential id.'),
  rawId: z.string().regex(/^[A-Za-z0-9_-]{22,1400}$/, 'Not a passkey credential id.'),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};
export const registrationResponseSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(20)).max(8).optional(),
    authenticatorData: b64url.optional(),
    publicKey: b64url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
});
export const authenticationResponseSchema = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
});

const ceremony = z.discriminatedUnion('purpose', [
  z.object({ purpose: z.literal('bootstrap'), email }).strict(),
  z.object({ purpose: z.literal('invitation'), token }).strict(),
  z.object({ purpose: z.literal('add') }).strict(),
]);
export const registrationOptionsSchema = ceremony;
export const registrationSchema = z.discriminatedUnion('purpose', [
  z.object({ purpose: z.literal('bootstrap'), email, label, response: registrationResponseSchema }).strict(),
  z.object({ purpose: z.literal('invitation'), token, label, response: registrationResponseSchema }).strict(),
  z.object({ purpose: z.literal('add'), label, response: registrationResponseSchema }).strict(),
]);
export const signInSchema = z.object({ response: authenticationResponseSchema }).strict();
export const invitationCheckSchema = z.object({ token }).strict();
export const invitationSchema = z.object({ email, role }).strict();
export const roleChangeSchema = z.object({ role }).strict();
export const staffIdSchema = z.uuid();
export const passkeyIdSchema = z.string().regex(/^[1-9]\d{0,17}$/);

export type RegistrationCeremony = z.infer<typeof registrationOptionsSchema>;
export type Registration = z.infer<typeof registrationSchema>;

// ---------------------------------------------------------------------------------------------
// Shared pieces

export interface Person {
  staffId: string;
  email: string;
  role: StaffRole;
}

/** The relying party: this request's host name, and the origins a response may come from. */
export function relyingParty(): { rpID: string; origins: string[] } {
  // From configuration only (SITE_URL, else Netlify's URL): a request's Host or Origin never
  // chooses the relying party a passkey is bound to.
  const origins = serverEnv.siteOrigins.length ? serverEnv.siteOrigins : [serverEnv.siteOrigin];
  return { rpID: new URL(origins[0]!).hostname, origins };
}

/** Whether the site has an owner (then the admin password no longer opens the page). */
export async function ownerExists(): Promise<boolean> {
  const row = await queryOne<{ found: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM staff WHERE role = 'owner') AS found`);
  return Boolean(row?.found);
}

interface ChallengeRow {
  challenge: string;
  purpose: 'sign_in' | 'bootstrap' | 'invitation' | 'add';
  staff_id: string | null;
  invitation_id: string | null;
  session_hash: string | null;
  email: string | null;
  expires_at: Date;
}

async function storeChallenge(row: Omit<ChallengeRow, 'expires_at'>): Promise<void> {
  const now = Date.now();
  await query(sql`
    WITH purged AS (DELETE FROM webauthn_challenges WHERE expires_at < ${new Date(now)})
    INSERT INTO webauthn_challenges (challenge, purpose, staff_id, invitation_id, session_hash, email, expires_at)
    VALUES (${row.challenge}, ${row.purpose}, ${row.staff_id}, ${row.invitation_id}, ${row.session_hash}, ${row.email}, ${new Date(now + CHALLENGE_TTL_MS)})`);
}

/** The challenge a response answers, read from its clientDataJSON (checked again by the library). */
function challengeOf(response: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[A-Za-z0-9_-]{16,200}$/.test(data.challenge) ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Takes (deletes) the challenge a response names, for that purpose: a challenge is used once. */
async function takeChallenge(response: { response: { clientDataJSON: string } }, purpose: ChallengeRow['purpose']): Promise<ChallengeRow | undefined> {
  const challenge = challengeOf(response);
  if (!challenge) return undefined;
  const row = await queryOne<ChallengeRow>(sql`DELETE FROM webauthn_challenges WHERE challenge = ${challenge} AND purpose = ${purpose} RETURNING *`);
  return row && row.expires_at.getTime() > Date.now() ? row : undefined;
}

const staleCeremony = () => new HttpError(400, 'challenge_invalid', 'This passkey request has expired or was already used. Please try again.');

const transportsOf = (text: string): AuthenticatorTransport[] => (text ? (text.split(',') as AuthenticatorTransport[]) : []);
const transportsText = (list: readonly string[] | undefined) =>
  (list ?? [])
    .filter((item) => /^[a-z-]{1,20}$/.test(item))
    .slice(0, 8)
    .join(',');

function deviceLabel(given: string | undefined, req: Request): string {
  if (given) return given;
  const agent = req.headers.get('user-agent') ?? '';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iPhone or iPad'
      : /Mac OS X/.test(agent)
        ? 'Mac'
        : /Windows/.test(agent)
          ? 'Windows'
          : /Linux/.test(agent)
            ? 'Linux'
            : 'A device';
  return `${system} passkey`;
}

// ---------------------------------------------------------------------------------------------
// Sign-in with a passkey (discoverable credentials: no username asked)

export async function signInOptions() {
  const { rpID } = relyingParty();
  // Stateless: the challenge carries its expiry and a MAC, so a start writes nothing and costs
  // nothing to store; it is made single-use when a response answers it (takeSignInChallenge).
  const body = Buffer.alloc(24);
  body.writeBigUInt64BE(BigInt(Date.now() + CHALLENGE_TTL_MS), 0);
  randomBytes(16).copy(body, 8);
  const challenge = Buffer.concat([body, macOf(SIGN_IN_CHALLENGE, body)]);
  return (await webauthn()).generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
    challenge: new Uint8Array(challenge),
  });
}

const SIGN_IN_CHALLENGE = 'passkey sign-in challenge v1';

/** The sign-in challenge a response answers, if this site made it and it is unexpired; used once. */
async function takeSignInChallenge(response: { response: { clientDataJSON: string } }): Promise<string | undefined> {
  const challenge = challengeOf(response);
  if (!challenge) return undefined;
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length !== 40 || !macMatches(SIGN_IN_CHALLENGE, bytes.subarray(0, 24), bytes.subarray(24))) return undefined;
  const expires = Number(bytes.readBigUInt64BE(0));
  if (expires <= Date.now() || expires > Date.now() + CHALLENGE_TTL_MS) return undefined;
  const used = await queryOne<{ challenge: string }>(sql`
    INSERT INTO webauthn_challenges (challenge, purpose, expires_at) VALUES (${challenge}, 'sign_in', ${new Date(expires)})
    ON CONFLICT (challenge) DO NOTHING RETURNING challenge`);
  return used?.challenge;
}

interface PasskeyRow {
  id: string;
  staff_id: string;
  public_key: string;
  counter: string;
  transports: string;
  email: string;
  role: StaffRole;
}

/**
 * Verifies a sign-in response and opens a session for its person. Every refusal is a 4xx and an
 * audit entry (the actor is the person the passkey belongs to, when it is one of ours).
 */
export async function signInWithPasskey(response: AuthenticationResponseJSON, ip: string): Promise<{ cookie: string; session: Session }> {
  const { rpID, origins } = relyingParty();
  const refuse = async (reason: string, actor = 'unknown passkey', status = 401): Promise<never> => {
    // A stranger's refusals fold into one row a window; a registered passkey's stay one row each.
    if (actor === 'unknown passkey') await recordRefusal({ action: 'sign_in.passkey_failed', target: reason, ip });
    else await recordAudit({ actor, action: 'sign_in.passkey_failed', target: reason, ip });
    if (status === 400) throw staleCeremony();
    throw new HttpError(
      401,
      'passkey_refused',
      'This passkey could not sign you in. Use a passkey registered for this site, or ask an owner for an invitation.',
    );
  };
  const challenge = await takeSignInChallenge(response);
  const key = await queryOne<PasskeyRow>(sql`
    SELECT k.id, k.staff_id, k.public_key, k.counter, k.transports, s.email, s.role
    FROM staff_passkeys k JOIN staff s ON s.id = k.staff_id WHERE k.credential_id = ${response.id}`);
  if (!challenge) return refuse('challenge unknown, expired or used', key?.email, 400);
  if (!key) return refuse('passkey not registered');
  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: response.id,
        publicKey: Buffer.from(key.public_key, 'base64url'),
        counter: Number(key.counter),
        transports: transportsOf(key.transports),
      },
    });
  } catch (error) {
    return refuse(`response refused: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid'}`, key.email);
  }
  if (!verification.verified) return refuse('response not verified', key.email);
  const newCounter = verification.authenticationInfo.newCounter;
  // The counter moves forward (or both stay 0, for authenticators that do not count): one
  // statement, so two sign-ins with one response cannot both pass.
  const updated = await queryOne<{ id: string }>(sql`
    UPDATE staff_passkeys SET counter = ${newCounter}, last_used_at = ${new Date()}
    WHERE id = ${key.id} AND (counter < ${newCounter} OR (counter = 0 AND ${newCounter}::bigint = 0))
    RETURNING id`);
  if (!updated) return refuse('signature counter did not advance (a cloned or replayed passkey?)', key.email);
  const opened = await createSession(key.email, { staffId: key.staff_id, passkeyId: String(key.id), role: key.role });
  await recordAudit({ actor: key.email, action: 'sign_in.passkey', ip });
  return opened;
}

// ---------------------------------------------------------------------------------------------
// Invitations

interface InvitationRow {
  id: string;
  email: string;
  role: StaffRole;
  expires_at: Date;
  used_at: Date | null;
  voided_at: Date | null;
}

/** The link an invitation's token makes. */
export function invitationLink(req: Request, invitationToken: string): string {
  const origin = serverEnv.siteOrigins[0] ?? new URL(req.url).origin;
  return `${origin}/webhook-config?invite=${invitationToken}`;
}

/**
 * Creates an invitation (owners only; the caller checked) and emails its link to the address (the
 * mail layer's staff invitation); the link is also shown to the owner, who may pass it on. The
 * invitation is bound to the owner who made it: removing or demoting them voids it.
 */
export async function createInvitation(
  req: Request,
  by: Session,
  input: z.infer<typeof invitationSchema>,
  ip: string,
): Promise<{ link: string; email: string; role: StaffRole; expiresAt: string; emailed: boolean }> {
  const canonical = canonicalAddress(input.email);
  const existing = await queryOne<{ id: string }>(sql`SELECT id FROM staff WHERE email_canonical = ${canonical}`);
  if (existing) throw new HttpError(409, 'already_staff', `${input.email} is on the staff already. Change their role, or remove them first.`);
  const secret = newSecret();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  const row = await queryOne<{ id: string }>(sql`
    INSERT INTO staff_invitations (token_hash, email, email_canonical, role, invited_by, invited_by_id, created_at, expires_at)
    VALUES (${hashSecret(secret)}, ${input.email}, ${canonical}, ${input.role}, ${by.username}, ${by.staffId}, ${new Date()}, ${expiresAt})
    RETURNING id::text AS id`);
  const link = invitationLink(req, secret);
  const handed = await emailStaffInvitation({
    email: input.email,
    role: input.role,
    inviter: by.username,
    link,
    expiresAt,
    ref: `invitation-${row!.id}`,
    network: networkKey(ip),
  });
  await recordAudit({ actor: by.username, action: 'invitation.created', target: `${input.email} as ${input.role}`, ip });
  return { link, email: input.email, role: input.role, expiresAt: expiresAt.toISOString(), emailed: handed === 'queued' && mailSender() !== null };
}

/** Cancels an open invitation (owners only): its link no longer opens anything. */
export async function cancelInvitation(by: Session, invitationId: string, ip: string): Promise<void> {
  const cancelled = await queryOne<{ email: string }>(sql`
    UPDATE staff_invitations SET voided_at = ${new Date()}, void_reason = 'cancelled'
    WHERE id = ${invitationId} AND used_at IS NULL AND voided_at IS NULL RETURNING email`);
  if (!cancelled) throw new HttpError(404, 'not_found', 'This invitation is not open (used, cancelled or never made).');
  await recordAudit({ actor: by.username, action: 'invitation.cancelled', target: cancelled.email, ip });
}

/**
 * The invitation a link names, still open; otherwise a 4xx (forged, expired or used) and an audit
 * entry. Nothing changes here: the invitation is used when the passkey is registered.
 */
export async function openInvitation(invitationToken: string, ip: string): Promise<InvitationRow> {
  const row = await queryOne<InvitationRow>(
    sql`SELECT id, email, role, expires_at, used_at, voided_at FROM staff_invitations WHERE token_hash = ${hashSecret(invitationToken)}`,
  );
  if (!row) {
    await recordRefusal({ action: 'invitation.refused', target: 'no such invitation (forged or mistyped link)', ip });
    throw new HttpError(404, 'invitation_invalid', 'This invitation link is not valid. Ask an owner of the site for a new one.');
  }
  if (row.voided_at) {
    await recordAudit({ actor: row.email, action: 'invitation.refused', target: 'cancelled', ip });
    throw new HttpError(410, 'invitation_cancelled', 'This invitation was cancelled. Ask an owner of the site for a new one.');
  }
  if (row.used_at) {
    await recordAudit({ actor: row.email, action: 'invitation.refused', target: 'already used', ip });
    throw new HttpError(410, 'invitation_used', 'This invitation has been used already. Sign in with your passkey, or ask an owner for a new invitation.');
  }
  if (row.expires_at.getTime() <= Date.now()) {
    await recordAudit({ actor: row.email, action: 'invitation.refused', target: 'expired', ip });
    throw new HttpError(410, 'invitation_expired', 'This invitation has expired (they last 72 hours). Ask an owner of the site for a new one.');
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// Registering a passkey: the first owner, an invited person, or a signed-in person's next device

/**
 * The options for a registration ceremony, its challenge stored bound to the ceremony. `session`
 * is the caller's (required for `bootstrap`, which only the bootstrap session may do, and `add`).
 */
export async function registrationOptions(req: Request, input: RegistrationCeremony, session: Session | undefined, ip: string) {
  const { rpID } = relyingParty();
  let staffId: string;
  let userName: string;
  let invitationId: string | null = null;
  let sessionHash: string | null = null;
  let exclude: Array<{ id: string; transports: AuthenticatorTransport[] }> = [];
  if (input.purpose === 'bootstrap') {
    if (!session) throw new HttpError(401, 'unauthenticated', 'Sign in with the admin password first.');
    if (!session.bootstrap || (await ownerExists())) throw new HttpError(409, 'owner_exists', 'This site has an owner already: ask them for an invitation.');
    staffId = randomUUID();
    userName = input.email;
    sessionHash = requestSessionHash(req) ?? null;
  } else if (input.purpose === 'invitation') {
    const invitation = await openInvitation(input.token, ip);
    staffId = randomUUID();
    userName = invitation.email;
    invitationId = String(invitation.id);
  } else {
    if (!session) throw new HttpError(401, 'unauthenticated', 'Sign in to add a passkey.');
    if (!session.staffId) throw new HttpError(409, 'owner_first', 'Register your first passkey as the owner first.');
    staffId = session.staffId;
    userName = session.username;
    sessionHash = requestSessionHash(req) ?? null;
    const keys = await query<{ credential_id: string; transports: string }>(
      sql`SELECT credential_id, transports FROM staff_passkeys WHERE staff_id = ${staffId}`,
    );
    exclude = keys.map((key) => ({ id: key.credential_id, transports: transportsOf(key.transports) }));
  }
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName,
    userID: new TextEncoder().encode(staffId),
    attestationType: 'none',
    excludeCredentials: exclude,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: [-7, -257],
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge({
    challenge: options.challenge,
    purpose: input.purpose,
    staff_id: staffId,
    invitation_id: invitationId,
    session_hash: sessionHash,
    email: input.purpose === 'bootstrap' ? input.email : null,
  });
  return options;
}

interface Created {
  staff_id: string;
  email: string;
  role: StaffRole;
  passkey_id: string;
}

/**
 * Verifies a registration response for its ceremony and stores the passkey (and, for the first
 * owner or an invitation, the person), then opens a session with it.
 */
export async function registerPasskey(
  req: Request,
  input: Registration,
  session: Session | undefined,
  ip: string,
): Promise<{ cookie: string; session: Session; person: Person }> {
  const { rpID, origins } = relyingParty();
  const challenge = await takeChallenge(input.response, input.purpose);
  const actor = session?.username ?? (input.purpose === 'bootstrap' ? input.email : 'unknown');
  if (!challenge) throw staleCeremony();
  // The ceremony must be the one the challenge was given for.
  const currentSession = requestSessionHash(req) ?? null;
  if (input.purpose === 'bootstrap' || input.purpose === 'add') {
    if (!session || challenge.session_hash !== currentSession) throw staleCeremony();
    if (input.purpose === 'bootstrap' && canonicalAddress(challenge.email ?? '') !== canonicalAddress(input.email)) throw staleCeremony();
    if (input.purpose === 'add' && challenge.staff_id !== session.staffId) throw staleCeremony();
  }
  let invitation: InvitationRow | undefined;
  if (input.purpose === 'invitation') {
    invitation = await openInvitation(input.token, ip);
    if (String(invitation.id) !== String(challenge.invitation_id)) throw staleCeremony();
  }
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-7, -257],
    });
  } catch (error) {
    await recordAudit({
      actor: invitation?.email ?? actor,
      action: 'sign_in.passkey_failed',
      target: `registration refused: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid'}`,
      ip,
    });
    throw new HttpError(400, 'passkey_invalid', 'The passkey could not be registered: your browser gave an answer this site cannot accept. Please try again.');
  }
  if (!verification.verified) throw new HttpError(400, 'passkey_invalid', 'The passkey could not be registered. Please try again.');
  const credential = verification.registrationInfo.credential;
  const key = {
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: transportsText(credential.transports ?? input.response.response.transports),
    label: deviceLabel(input.label, req),
  };
  const staffId = challenge.staff_id!;
  const now = new Date();
  let created: Created | undefined;
  try {
    if (input.purpose === 'bootstrap') {
      created = await queryOne<Created>(sql`
        WITH person AS (
          INSERT INTO staff (id, email, email_canonical, role, created_at, invited_by)
          SELECT ${staffId}, ${input.email}, ${canonicalAddress(input.email)}, 'owner', ${now}, 'bootstrap password'
          WHERE NOT EXISTS (SELECT 1 FROM staff WHERE role = 'owner')
          RETURNING id, email, role
        ), passkey AS (
          INSERT INTO staff_passkeys (staff_id, credential_id, public_key, counter, transports, label, created_at, last_used_at)
          SELECT id, ${key.id}, ${key.publicKey}, ${key.counter}, ${key.transports}, ${key.label}, ${now}, ${now} FROM person
          RETURNING id
        )
        SELECT person.id AS staff_id, person.email, person.role, passkey.id AS passkey_id FROM person, passkey`);
      if (!created) throw new HttpError(409, 'owner_exists', 'This site has an owner already: ask them for an invitation.');
    } else if (input.purpose === 'invitation') {
      created = await queryOne<Created>(sql`
        WITH used AS (
          UPDATE staff_invitations SET used_at = ${now}, staff_id = ${staffId}
          WHERE id = ${invitation!.id} AND used_at IS NULL AND voided_at IS NULL AND expires_at > ${now}
          RETURNING email, email_canonical, role, invited_by
        ), person AS (
          INSERT INTO staff (id, email, email_canonical, role, created_at, invited_by)
          SELECT ${staffId}, email, email_canonical, role, ${now}, invited_by FROM used
          RETURNING id, email, role
        ), passkey AS (
          INSERT INTO staff_passkeys (staff_id, credential_id, public_key, counter, transports, label, created_at, last_used_at)
          SELECT id, ${key.id}, ${key.publicKey}, ${key.counter}, ${key.transports}, ${key.label}, ${now}, ${now} FROM person
          RETURNING id
        )
        SELECT person.id AS staff_id, person.email, person.role, passkey.id AS passkey_id FROM person, passkey`);
      if (!created) {
        await recordAudit({ actor: invitation!.email, action: 'invitation.refused', target: 'already used', ip });
        throw new HttpError(410, 'invitation_used', 'This invitation has been used already. Sign in with your passkey, or ask an owner for a new invitation.');
      }
    } else {
      created = await queryOne<Created>(sql`
        WITH passkey AS (
          INSERT INTO staff_passkeys (staff_id, credential_id, public_key, counter, transports, label, created_at)
          SELECT id, ${key.id}, ${key.publicKey}, ${key.counter}, ${key.transports}, ${key.label}, ${now} FROM staff WHERE id = ${staffId}
          RETURNING id, staff_id
        )
        SELECT s.id AS staff_id, s.email, s.role, passkey.id AS passkey_id FROM passkey JOIN staff s ON s.id = passkey.staff_id`);
      if (!created) throw new HttpError(401, 'unauthenticated', 'Sign in to add a passkey.');
    }
  } catch (error) {
    if (isUniqueViolation(error, 'staff_passkeys_credential_id_key')) throw new HttpError(409, 'passkey_exists', 'This passkey is registered already.');
    if (isUniqueViolation(error, 'staff_email_canonical_key')) throw new HttpError(409, 'already_staff', 'This address is on the staff already.');
    throw error;
  }
  const person: Person = { staffId: created.staff_id, email: created.email, role: created.role };
  if (input.purpose === 'bootstrap') {
    // The password's sessions end now: the site has an owner.
    await query(sql`DELETE FROM admin_sessions WHERE staff_id IS NULL`);
    await recordAudit({ actor: person.email, action: 'staff.first_owner', target: key.label, ip });
  } else if (input.purpose === 'invitation') {
    await recordAudit({ actor: person.email, action: 'invitation.used', target: `as ${person.role}`, ip });
  }
  await recordAudit({ actor: person.email, action: 'passkey.added', target: key.label, ip });
  if (input.purpose === 'add') {
    // The person stays in the session they have.
    return { cookie: '', session: session!, person };
  }
  if (currentSession) await query(sql`DELETE FROM admin_sessions WHERE id_hash = ${currentSession}`);
  const opened = await createSession(person.email, { staffId: person.staffId, passkeyId: String(created.passkey_id), role: person.role });
  return { ...opened, person };
}

// ---------------------------------------------------------------------------------------------
// The Staff tab (owners only; the functions check)

export interface StaffMember {
  id: string;
  email: string;
  role: StaffRole;
  createdAt: string;
  invitedBy: string | null;
  passkeys: Array<{ id: string; label: string; createdAt: string; lastUsedAt: string | null }>;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: StaffRole;
  invitedBy: string;
  expiresAt: string;
}

export async function listStaff(): Promise<{ staff: StaffMember[]; invitations: PendingInvitation[] }> {
  const people = await query<{ id: string; email: string; role: StaffRole; created_at: Date; invited_by: string | null }>(
    sql`SELECT id, email, role, created_at, invited_by FROM staff ORDER BY role, created_at`,
  );
  const keys = await query<{ id: string; staff_id: string; label: string; created_at: Date; last_used_at: Date | null }>(
    sql`SELECT id, staff_id, label, created_at, last_used_at FROM staff_passkeys ORDER BY created_at`,
  );
  const open = await query<{ id: string; email: string; role: StaffRole; invited_by: string; expires_at: Date }>(
    sql`SELECT id, email, role, invited_by, expires_at FROM staff_invitations WHERE used_at IS NULL AND voided_at IS NULL AND expires_at > ${new Date()} ORDER BY created_at DESC LIMIT 100`,
  );
  return {
    staff: people.map((person) => ({
      id: person.id,
      email: person.email,
      role: person.role,
      createdAt: person.created_at.toISOString(),
      invitedBy: person.invited_by,
      passkeys: keys
        .filter((key) => key.staff_id === person.id)
        .map((key) => ({ id: String(key.id), label: key.label, createdAt: key.created_at.toISOString(), lastUsedAt: key.last_used_at?.toISOString() ?? null })),
    })),
    invitations: open.map((row) => ({
      id: String(row.id),
      email: row.email,
      role: row.role,
      invitedBy: row.invited_by,
      expiresAt: row.expires_at.toISOString(),
    })),
  };
}

/**
 * The owners, locked (`FOR UPDATE`) by the statement that may take one away: of two owners removing
 * or demoting each other at once, the second waits, then sees the first's change and is refused.
 */
const lockedOwners = sql`owners AS (
  SELECT o.id, EXISTS (SELECT 1 FROM staff_passkeys k WHERE k.staff_id = o.id) AS keyed
  FROM staff o WHERE o.role = 'owner' ORDER BY o.id FOR UPDATE OF o)`;

/** Another owner with a passkey than `staffId` (among the locked owners). */
const anotherOwner = (staffId: string) => sql`EXISTS (SELECT 1 FROM owners WHERE id <> ${staffId} AND keyed)`;

const lastOwner = () => new HttpError(409, 'last_owner', 'This is the last owner: invite another owner (or make someone an owner) first.');
const noSuchPerson = () => new HttpError(404, 'not_found', 'This person is not on the staff (removed already?).');

/** Removes a person; their passkeys and sessions end at once. The last owner cannot be removed. */
export async function removePerson(by: Session, staffId: string, ip: string): Promise<void> {
  // Their open invitations go with them (ON DELETE CASCADE): nobody joins on a removed person's word.
  const removed = await queryOne<{ email: string; role: StaffRole }>(sql`
    WITH ${lockedOwners}
    DELETE FROM staff WHERE id = ${staffId} AND (role <> 'owner' OR ${anotherOwner(staffId)}) RETURNING email, role`);
  if (!removed) {
    if (await queryOne(sql`SELECT 1 FROM staff WHERE id = ${staffId}`)) throw lastOwner();
    throw noSuchPerson();
  }
  await recordAudit({ actor: by.username, action: 'staff.removed', target: `${removed.email} (${removed.role})`, ip });
}

/**
 * Removes one passkey; the sessions opened with it end at once. The site's last owner passkey
 * cannot be removed (nobody could sign in as an owner again).
 */
export async function removePasskey(by: Session, staffId: string, passkeyId: string, ip: string): Promise<void> {
  const removed = await queryOne<{ label: string; email: string }>(sql`
    WITH ${lockedOwners},
    gone AS (
      DELETE FROM staff_passkeys k WHERE k.id = ${passkeyId} AND k.staff_id = ${staffId}
        AND (
          (SELECT role FROM staff WHERE id = ${staffId}) <> 'owner'
          OR EXISTS (SELECT 1 FROM staff_passkeys k2 JOIN owners o ON o.id = k2.staff_id WHERE k2.id <> ${passkeyId})
        )
      RETURNING k.label, k.staff_id
    )
    SELECT gone.label, s.email FROM gone JOIN staff s ON s.id = gone.staff_id`);
  if (!removed) {
    if (await queryOne(sql`SELECT 1 FROM staff_passkeys WHERE id = ${passkeyId} AND staff_id = ${staffId}`)) {
      throw new HttpError(409, 'last_owner', "This is the site's last owner passkey: add another first, or nobody could sign in as an owner.");
    }
    throw new HttpError(404, 'not_found', 'This passkey is not registered (removed already?).');
  }
  await recordAudit({ actor: by.username, action: 'passkey.removed', target: `${removed.email}: ${removed.label}`, ip });
}

/** Changes a person's role (at once, for their open sessions too). The last owner stays owner. */
export async function changeRole(by: Session, staffId: string, newRole: StaffRole, ip: string): Promise<void> {
  // A demoted owner's open invitations are voided in the same statement.
  const changed = await queryOne<{ email: string }>(sql`
    WITH ${lockedOwners},
    changed AS (
      UPDATE staff SET role = ${newRole} WHERE id = ${staffId} AND (${newRole}::text = 'owner' OR role = 'staff' OR ${anotherOwner(staffId)}) RETURNING id, email
    ),
    voided AS (
      UPDATE staff_invitations SET voided_at = now(), void_reason = 'inviter_demoted'
      WHERE ${newRole}::text = 'staff' AND invited_by_id IN (SELECT id FROM changed) AND used_at IS NULL AND voided_at IS NULL
    )
    SELECT email FROM changed`);
  if (!changed) {
    if (await queryOne(sql`SELECT 1 FROM staff WHERE id = ${staffId}`)) throw lastOwner();
    throw noSuchPerson();
  }
  await query(sql`UPDATE admin_sessions SET role = ${newRole} WHERE staff_id = ${staffId}`);
  await recordAudit({ actor: by.username, action: 'staff.role_changed', target: `${changed.email} to ${newRole}`, ip });
}

/**
 * Deletes WebAuthn challenges past their 5 minutes, and invitations used or expired for more than
 * 30 days (the audit log keeps what happened to them); returns how many rows went.
 */
export async function purgeStaffCeremonies(now = Date.now()): Promise<number> {
  const challenges = await query(sql`DELETE FROM webauthn_challenges WHERE expires_at < ${new Date(now)} RETURNING 1`);
  const invitations = await query(sql`
    DELETE FROM staff_invitations WHERE expires_at < ${new Date(now - 30 * 24 * 3600_000)} RETURNING 1`);
  return challenges.length + invitations.length;
}

/** The owners' addresses: who gets the site's alerts (src/server/abuse/alerts.ts). */
export async function ownerAddresses(): Promise<string[]> {
  const rows = await query<{ email: string }>(sql`SELECT email FROM staff WHERE role = 'owner' ORDER BY created_at`);
  return rows.map((row) => row.email);
}
