import type { Config } from '@netlify/functions';
import { scheduled, StoreUnavailableError } from '../../src/server/http';
import { forgetExposureVisitors } from '../../src/server/analytics/experiments';
import { purgeInsights, rollUpDays } from '../../src/server/analytics/rollup';
import { forgetOldSalts } from '../../src/server/analytics/visitor';

/** One part of the run: its failure is logged and the other parts still run. */
async function part<T>(name: string, work: () => Promise<T>): Promise<T | { failed: string }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    console.error(`[insights-rollup] ${name} failed:`, error instanceof Error ? error.message : 'unknown error');
    return { failed: name };
  }
}

/**
 * Scheduled, hourly, each part on its own so that one failing never keeps the others from running:
 * forgets the salts older than yesterday (no visitor hash can be made again after 48 hours at most)
 * and the visitors of exposures two days old; rolls up the days that are over, in batches within
 * the function's time (their raw events and visitor hashes deleted as they are rolled); deletes
 * roll-ups, journeys and exposures older than 13 months.
 */
export default scheduled('insights-rollup', async () => {
  const salts = await part('salts', () => forgetOldSalts());
  const exposures = await part('exposures', () => forgetExposureVisitors());
  const rolled = await part('rollup', () => rollUpDays());
  const purged = await part('purge', () => purgeInsights());
  return { salts, exposures, rolled, purged };
});

export const config: Config = { schedule: '@hourly' };
