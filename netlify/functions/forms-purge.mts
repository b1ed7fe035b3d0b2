import type { Config } from '@netlify/functions';
import { purgeSettled } from '../../src/server/forms/submissions';
import { scheduled } from '../../src/server/http';
import { purgeFormCounters } from '../../src/server/rate-limit';

/**
 * Daily: stored form submissions are deleted 30 days after HubSpot accepted them (or refused them
 * for good); the per-address counters of the forms once their window is over.
 */
export default scheduled('forms-purge', async () => ({ submissions: await purgeSettled(), counters: await purgeFormCounters() }));

export const config: Config = { schedule: '@daily' };
