import type { Config } from '@netlify/functions';
import { scheduled } from '../../src/server/http';
import { purgeInsights, rollUpDays } from '../../src/server/analytics/rollup';

/**
 * Scheduled, hourly: rolls up every day that is over (its raw events, and their visitor hashes,
 * are deleted as it is rolled) and deletes the roll-ups and journeys older than 13 months.
 */
export default scheduled('insights-rollup', async () => {
  const rolled = await rollUpDays();
  const purged = await purgeInsights();
  return { rolled, purged };
});

export const config: Config = { schedule: '@hourly' };
