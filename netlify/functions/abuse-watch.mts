import type { Config } from '@netlify/functions';
import { alertOwners } from '../../src/server/abuse/alerts';
import { purgeWatch } from '../../src/server/abuse/watch';
import { scheduled } from '../../src/server/http';

/**
 * Every five minutes: the owners' alert for a network, domain or school past its usual rate (once
 * per key per hour), and the abuse watch's rows older than eight days deleted.
 */
export const watchRun = async (now = new Date()) => ({ ...(await alertOwners(now)), purged: await purgeWatch(now) });

export default scheduled('abuse-watch', () => watchRun());

export const config: Config = { schedule: '*/5 * * * *' };
