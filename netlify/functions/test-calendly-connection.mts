import type { Config } from '@netlify/functions';
import { connectionTestSchema } from '../../src/lib/shared/schemas';
import { requireOwner } from '../../src/server/staff/auth';
import { CalendlyError, currentUser } from '../../src/server/calendly';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';

/** Checks a Calendly token with the cheapest authenticated call (GET /users/me). Nothing is stored. */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['POST']);
  if (refused) return refused;
  await requireOwner(req, context);
  const { accessToken } = await readJson(req, connectionTestSchema);
  try {
    const user = await currentUser(accessToken);
    return json({ ok: true, message: 'Calendly connection test successful', account: { name: user.name, organization: user.current_organization } });
  } catch (error) {
    if (!(error instanceof CalendlyError)) throw error;
    if (error.status === 401 || error.status === 403) {
      throw new HttpError(400, 'connection_failed', `Calendly refused this access token: ${error.message}`);
    }
    throw new HttpError(
      502,
      'connection_failed',
      error.status ? `Calendly answered ${error.status}: ${error.message}` : 'Failed to connect to the Calendly API',
    );
  }
});

export const config: Config = { path: '/api/test-calendly-connection', method: 'POST' };
