import type { Config } from '@netlify/functions';
import { deliverDue, formsHubSpot } from '../../src/server/forms/submissions';
import { scheduled } from '../../src/server/http';

/**
 * Scheduled: forwards to HubSpot the form submissions it has not accepted yet (HubSpot was slow,
 * down, or not configured when they came), each exactly once (`src/server/forms/submissions.ts`).
 * Without HubSpot nothing can be sent and every submission waits in the store, shown on the
 * admin page.
 */
export default scheduled('forms-deliver', async () => {
  const client = await formsHubSpot().catch(() => undefined);
  if (!client) {
    console.warn('[forms-deliver] HubSpot is not configured; submissions wait in the store.');
    return { notConfigured: true };
  }
  return deliverDue(client);
});

export const config: Config = { schedule: '*/5 * * * *' };
