import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { optionalHubSpot } from '../../src/server/platform-send';
import { runAnswerSync, runFollowUps } from '../../src/server/school-answers';

/**
 * Hourly: the follow-ups. Each school email sent FOLLOWUP_AFTER_DAYS (10) days ago gets its "did
 * your school answer?" link set on the parent's HubSpot contact, for a workflow to email; answers
 * HubSpot has not got yet are written to the contact. Without HubSpot the links wait (the admin
 * page shows them).
 */
export default async (_req?: Request): Promise<Response> => {
  try {
    const client = optionalHubSpot();
    const followUps = await runFollowUps(client);
    const answersSynced = await runAnswerSync(client);
    const summary = { ...followUps, answersSynced, ...(client ? {} : { notConfigured: true }) };
    console.log('[school-followup]', JSON.stringify(summary));
    return Response.json(summary);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '@hourly' };
