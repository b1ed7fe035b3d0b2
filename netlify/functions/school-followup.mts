import type { Config } from '@netlify/functions';
import { scheduled } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/letter/request';
import { runAnswerSync, runFollowUps } from '../../src/server/schools/answers';

/**
 * Hourly: the follow-ups. Each school letter sent FOLLOWUP_AFTER_DAYS (10) days ago gets its "did
 * your school answer?" email (and, unanswered after SECOND_FOLLOWUP_AFTER_DAYS, one more), written to
 * the mail layer for the every-minute `mail-deliver` run to send; answers HubSpot has not got yet are
 * written to the contact.
 */
export default scheduled('school-followup', async () => {
  const client = optionalHubSpot();
  const followUps = await runFollowUps();
  const answersSynced = await runAnswerSync(client);
  return { ...followUps, answersSynced, ...(client ? {} : { hubspotNotConfigured: true }) };
});

export const config: Config = { schedule: '@hourly' };
