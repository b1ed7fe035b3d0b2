import type { Config } from '@netlify/functions';
import { loginSchema } from '../../src/lib/schemas';
import { checkCredentials, clearedSessionCookie, createSession, endSession, requireAdmin, requireSameOrigin } from '../../src/server/auth';
import { allowMethods, clientIp, handle, HttpError, json, readJson } from '../../src/server/http';
import { assertNotLocked, clearFailures, recordFailure } from '../../src/server/rate-limit';

/**
 * The admin session. GET: who is signed in (`session: null` if nobody: asking is not an error, and
 * a 401 would put an error in every visitor's console). POST: sign in with the login schema.
 * DELETE: sign out, ending the session on the server.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'DELETE']);
  if (refused) return refused;

  if (req.method === 'GET') {
    try {
      return json({ session: await requireAdmin(req) });
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) return json({ session: null });
      throw error;
    }
  }

  requireSameOrigin(req);

  if (req.method === 'DELETE') {
    await endSession(req);
    return json({ ok: true }, 200, { 'Set-Cookie': clearedSessionCookie() });
  }

  const { username, password } = await readJson(req, loginSchema);
  const subject = { ip: clientIp(req, context), username };
  await assertNotLocked(subject);
  const outcome = checkCredentials(username, password);
  if (outcome === 'not_configured') {
    throw new HttpError(
      503,
      'admin_not_configured',
      'Admin sign-in is not configured on this site: set ADMIN_PASSWORD or ADMIN_PASSWORD_HASH in its environment.',
    );
  }
  if (outcome === 'wrong') {
    await recordFailure(subject);
    throw new HttpError(401, 'invalid_credentials', 'Wrong username or password.');
  }
  await clearFailures(subject);
  // A new session id at every sign-in; any session the browser had is ended.
  await endSession(req);
  const { cookie, session } = await createSession(username);
  return json({ session }, 200, { 'Set-Cookie': cookie });
});

export const config: Config = { path: '/api/admin/session', method: ['GET', 'POST', 'DELETE'] };
