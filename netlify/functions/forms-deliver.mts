import type { Config } from '@netlify/functions';
import { deliverDue, formsHubSpot } from '../../src/server/form-submissions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';

/**
 * Scheduled: forwards to HubSpot the form submissions it has not accepted yet (HubSpot was slow,
 * down, or not configured when they came), each exactly once (`_shared/form-submissions.ts`).
 * Without HubSpot nothing can be sent and every submission waits in the store, shown on the
 * admin page.
 */
export default async (_req?: Request): Promise<Response> => {
  const client = await formsHubSpot().catch(() => undefined);
  if (!client) {
    console.warn('[forms-deliver] HubSpot is not configured; submissions wait in the store.');
    return Response.json({ notConfigured: true });
  }
  try {
    const summary = await deliverDue(client);
    console.log('[forms-deliver]', JSON.stringify(summary));
    return Response.json(summary);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    console.error('[forms-deliver] the store is unavailable; stopping this run.');
    return storeUnavailable();
  }
};

export const config: Config = { schedule: '*/5 * * * *' };
