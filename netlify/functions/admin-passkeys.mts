import type { Config } from '@netlify/functions';
import { knownDeviceCookie, requireAdmin, requireSameOrigin, type Session } from '../../src/server/staff/auth';
import { allowMethods, clientIp, handle, HttpError, json, jsonError, readJson } from '../../src/server/http';
import { clientAddressKey } from '../../src/server/identity';
import { takeFormSubmission } from '../../src/server/rate-limit';
import {
  invitationCheckSchema,
  openInvitation,
  registerPasskey,
  registrationOptions,
  registrationOptionsSchema,
  registrationSchema,
  signInOptions,
  signInSchema,
  signInWithPasskey,
} from '../../src/server/staff/members';

/**
 * Passkeys (WebAuthn) for the admin page, all POST and from this site only:
 * - /api/admin/passkeys/sign-in/options, then /api/admin/passkeys/sign-in { response }: sign in;
 * - /api/admin/passkeys/register/options { purpose, … }, then /api/admin/passkeys/register
 *   { purpose, …, response, label? }: the first owner (`bootstrap`, signed in with the admin
 *   password, with their `email`), an invited person (`invitation`, with the link's `token`), or a
 *   signed-in person's next passkey (`add`);
 * - /api/admin/invitation { token }: what an invitation is for (its address and role), or why not.
 * Registrations started and invitations checked are limited per network (each start stores a
 * challenge; a check is a guess at a link): CEREMONIES_PER_WINDOW per 10 minutes, then 429.
 * Sign-in starts store nothing (a signed challenge) and have their own, larger limit, so a flood
 * of them neither blocks a registration nor, from another network, anyone's sign-in.
 */
export const CEREMONIES_PER_WINDOW = 60;
export const SIGN_IN_STARTS_PER_WINDOW = 600;
const LIMITS = new Map([
  ['/api/admin/passkeys/sign-in/options', { key: 'passkey-sign-in', limit: SIGN_IN_STARTS_PER_WINDOW }],
  ['/api/admin/passkeys/register/options', { key: 'passkeys', limit: CEREMONIES_PER_WINDOW }],
  ['/api/admin/invitation', { key: 'passkeys', limit: CEREMONIES_PER_WINDOW }],
]);

export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  requireSameOrigin(req);
  const ip = clientIp(req, context);
  const path = new URL(req.url).pathname;
  const limited = LIMITS.get(path);
  if (limited) {
    const limit = await takeFormSubmission(`${limited.key}|${clientAddressKey(ip)}`, limited.limit);
    if (!limit.allowed) {
      return jsonError(429, 'too_many_requests', 'Too many passkey requests from your network. Please wait a few minutes and try again.', {
        'Retry-After': String(limit.retryAfterSeconds),
      });
    }
  }
  const optionalSession = (): Promise<Session | undefined> =>
    requireAdmin(req).catch((error: unknown) => {
      if (error instanceof HttpError && error.status === 401) return undefined;
      throw error;
    });

  switch (path) {
    case '/api/admin/passkeys/sign-in/options':
      return json({ options: await signInOptions() });
    case '/api/admin/passkeys/sign-in': {
      const { response } = await readJson(req, signInSchema);
      const { cookie, session } = await signInWithPasskey(response, ip);
      const headers = new Headers({ 'Set-Cookie': cookie });
      const device = knownDeviceCookie(session.username);
      if (device) headers.append('Set-Cookie', device);
      return json({ session }, 200, headers);
    }
    case '/api/admin/passkeys/register/options': {
      const input = await readJson(req, registrationOptionsSchema);
      return json({ options: await registrationOptions(req, input, await optionalSession(), ip) });
    }
    case '/api/admin/passkeys/register': {
      const input = await readJson(req, registrationSchema);
      const { cookie, session } = await registerPasskey(req, input, await optionalSession(), ip);
      return json({ session }, 200, cookie ? { 'Set-Cookie': cookie } : {});
    }
    case '/api/admin/invitation': {
      const { token } = await readJson(req, invitationCheckSchema);
      const invitation = await openInvitation(token, ip);
      return json({ invitation: { email: invitation.email, role: invitation.role, expiresAt: invitation.expires_at.toISOString() } });
    }
    default:
      throw new HttpError(404, 'not_found', 'No such passkey endpoint.');
  }
});

export const config: Config = {
  path: [
    '/api/admin/passkeys/sign-in/options',
    '/api/admin/passkeys/sign-in',
    '/api/admin/passkeys/register/options',
    '/api/admin/passkeys/register',
    '/api/admin/invitation',
  ],
  method: ['POST'],
};
