import type { Config } from '@netlify/functions';
import {
  attemptContactDeletion,
  DELETION_LOG_RETENTION_MS,
  dueContactDeletions,
  purgeContactDeletions,
  purgeUsedDeletionSteps,
} from '../../src/server/data-rights';
import { scheduled } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/letter/request';

/**
 * Scheduled: the HubSpot contact deletions parents asked for (`/your-data`) that HubSpot has not
 * done yet, asked again once their time has come, until it has; done ones are forgotten after 90
 * days, and used deletion steps once their tokens have expired. Without HubSpot they wait (the admin page shows them).
 */
export default scheduled('data-deletions-retry', async () => {
  const summary = { checked: 0, done: 0, waiting: 0, skipped: 0, purged: 0 };
  const client = optionalHubSpot();
  const now = new Date();
  for (const id of await dueContactDeletions(now)) {
    summary.checked++;
    summary[await attemptContactDeletion(client, id, now)]++;
  }
  summary.purged = await purgeContactDeletions(new Date(now.getTime() - DELETION_LOG_RETENTION_MS));
  summary.purged += await purgeUsedDeletionSteps(now);
  return { ...summary, ...(client ? {} : { notConfigured: true }) };
});

export const config: Config = { schedule: '*/15 * * * *' };
