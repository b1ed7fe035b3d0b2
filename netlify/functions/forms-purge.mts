import type { Config } from '@netlify/functions';
import { purgeSettled } from '../../src/server/form-submissions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { purgeFormCounters } from '../../src/server/rate-limit';

/**
 * Daily: stored form submissions are deleted 30 days after HubSpot accepted them (or refused them
 * for good); the per-address counters of the forms once their window is over.
 */
export default async (_req?: Request): Promise<Response> => {
  try {
    const counts = { submissions: await purgeSettled(), counters: await purgeFormCounters() };
    console.log('[forms-purge]', JSON.stringify(counts));
    return Response.json(counts);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '@daily' };
