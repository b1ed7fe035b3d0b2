import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/platform-send';
import { runSchoolUpdates } from '../../src/server/school-updates';

/**
 * Every 15 minutes: the school updates (another parent reported that the school replied or agreed
 * to meet) whose time has come, each set once on the parent's HubSpot contact for a workflow to
 * email. Without HubSpot they wait (`src/server/school-updates.ts`).
 */
export default async (_req?: Request): Promise<Response> => {
  try {
    const client = optionalHubSpot();
    const summary = { ...(await runSchoolUpdates(client)), ...(client ? {} : { notConfigured: true }) };
    console.log('[school-updates]', JSON.stringify(summary));
    return Response.json(summary);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '*/15 * * * *' };
