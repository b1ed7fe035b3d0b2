import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { purgeInsights, rollUpDays } from '../../src/server/analytics/rollup';

/**
 * Scheduled, hourly: rolls up every day that is over (its raw events, and their visitor hashes,
 * are deleted as it is rolled) and deletes the roll-ups and journeys older than 13 months.
 */
export default async (): Promise<Response> => {
  try {
    const rolled = await rollUpDays();
    const purged = await purgeInsights();
    console.log('[insights-rollup]', JSON.stringify({ rolled, purged }));
    return Response.json({ rolled, purged });
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '@hourly' };
