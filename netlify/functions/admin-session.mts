import type { Config } from '@netlify/functions';
import { loginSchema } from '../../src/lib/shared/schemas';
import { auditRequest, recordAudit, recordRefusal } from '../../src/server/staff/audit';
import {
  checkCredentials,
  clearedSessionCookie,
  createSession,
  endAllSessions,
  endSession,
  knownDevice,
  knownDeviceCookie,
  PASSKEYS_ONLY_MESSAGE,
  requireAdmin,
  requireOwner,
  requireSameOrigin,
} from '../../src/server/staff/auth';
import { ownerExists } from '../../src/server/staff/members';
import { allowMethods, clientIp, handle, HttpError, json, readJson } from '../../src/server/http';
import { assertNotLocked, clearFailures, recordFailure } from '../../src/server/rate-limit';

/**
 * The admin session. GET: who is signed in (`session: null` if nobody: asking is not an error, and
 * a 401 would put an error in every visitor's console; `passwordSignIn` says whether the admin
 * password may still sign in). POST: sign in with the admin password, only while the site has no
 * owner (the bootstrap: src/server/staff/members.ts), refused with 403 after.
 * DELETE: sign out, ending the session on the server. DELETE /api/admin/sessions: an owner's
 * "Sign everyone out", ending every session (their own too).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'DELETE']);
  if (refused) return refused;
  const everyone = new URL(req.url).pathname === '/api/admin/sessions';

  if (everyone) {
    if (req.method !== 'DELETE') throw new HttpError(405, 'method_not_allowed', 'Sign everyone out with DELETE /api/admin/sessions.');
    const session = await requireOwner(req, context);
    const ended = await endAllSessions();
    await auditRequest(req, context, session, 'session.signed_out_everyone', `${ended} session${ended === 1 ? '' : 's'}`);
    return json({ ok: true, ended }, 200, { 'Set-Cookie': clearedSessionCookie() });
  }

  if (req.method === 'GET') {
    // `passwordSignIn`: whether the admin password may still sign in (only while no owner exists).
    try {
      const session = await requireAdmin(req);
      return json({ session, passwordSignIn: session.bootstrap });
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return json({ session: null, passwordSignIn: !(await ownerExists()) });
      throw error;
    }
  }

  requireSameOrigin(req);

  if (req.method === 'DELETE') {
    const session = await requireAdmin(req).catch(() => undefined);
    await endSession(req);
    if (session) await auditRequest(req, context, session, 'session.signed_out');
    return json({ ok: true }, 200, { 'Set-Cookie': clearedSessionCookie() });
  }

  const { username, password } = await readJson(req, loginSchema);
  const ip = clientIp(req, context);
  if (await ownerExists()) {
    // The admin password only bootstraps the first owner; staff sign in with their passkeys.
    await recordRefusal({ action: 'sign_in.password_refused', typedName: username, ip });
    throw new HttpError(403, 'passkeys_only', PASSKEYS_ONLY_MESSAGE);
  }
  const subject = { ip, username, knownDevice: knownDevice(req, username) };
  try {
    await assertNotLocked(subject);
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) await recordRefusal({ action: 'sign_in.refused', typedName: username, ip });
    throw error;
  }
  const outcome = checkCredentials(username, password);
  if (outcome === 'not_configured') {
    throw new HttpError(
      503,
      'admin_not_configured',
      'Admin sign-in is not configured on this site: set ADMIN_PASSWORD or ADMIN_PASSWORD_HASH in its environment.',
    );
  }
  if (outcome === 'wrong') {
    await recordRefusal({ action: 'sign_in.failed', typedName: username, ip });
    await recordFailure(subject);
    throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
  }
  await clearFailures(subject);
  // A new session id at every sign-in; any session the browser had is ended.
  await endSession(req);
  const { cookie, session } = await createSession(username);
  await recordAudit({ actor: username, action: 'sign_in.succeeded', ip });
  const headers = new Headers({ 'Set-Cookie': cookie });
  const device = knownDeviceCookie(username);
  if (device) headers.append('Set-Cookie', device);
  return json({ session }, 200, headers);
});

export const config: Config = { path: ['/api/admin/session', '/api/admin/sessions'], method: ['GET', 'POST', 'DELETE'] };
