import type { Config } from '@netlify/functions';
import { scheduled } from '../../src/server/http';
import { runMail } from '../../src/server/letter/delivery';

/**
 * Every minute: the mail layer's run. Requests whose confirmation link expired end; a request
 * nobody confirmed for a day gets its one reminder; letters that wait for the same window become a
 * digest (SCHOOL_DELIVERY=digest); then every due email is sent once (a letter in its school's
 * hours), and what the sender says moves its letter on. Without a sender nothing is sent and
 * everything waits (the admin page says so).
 */
export default scheduled('mail-deliver', async () => {
  const summary = await runMail();
  if (summary.notConfigured) console.warn('[mail-deliver] No mail sender is configured (MAIL_FROM_ADDRESS with SMTP or HubSpot single-send); emails wait.');
  return summary;
});

export const config: Config = { schedule: '* * * * *' };
