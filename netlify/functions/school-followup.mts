import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/letter/request';
import { runAnswerSync, runFollowUps } from '../../src/server/school-answers';

/**
 * Hourly: the follow-ups. Each school letter sent FOLLOWUP_AFTER_DAYS (10) days ago gets its "did
 * your school answer?" email (and, unanswered after SECOND_FOLLOWUP_AFTER_DAYS, one more), written to
 * the mail layer for the every-minute `mail-deliver` run to send; answers HubSpot has not got yet are
 * written to the contact.
 */
export default async (_req?: Request): Promise<Response> => {
  try {
    const client = optionalHubSpot();
    const followUps = await runFollowUps();
    const answersSynced = await runAnswerSync(client);
    const summary = { ...followUps, answersSynced, ...(client ? {} : { hubspotNotConfigured: true }) };
    console.log('[school-followup]', JSON.stringify(summary));
    return Response.json(summary);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '@hourly' };
