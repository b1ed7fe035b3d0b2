import type { Config } from '@netlify/functions';
import { StoreUnavailableError, storeUnavailable } from '../../src/server/http';
import { runMail } from '../../src/server/letter-delivery';
import { runSchoolUpdates } from '../../src/server/school-updates';

/**
 * Every 15 minutes: the school updates (an outcome that counts was reported) whose time has come,
 * each written once to the mail layer for its parent, then sent with every other due email
 * (`src/server/school-updates.ts`).
 */
export default async (_req?: Request): Promise<Response> => {
  try {
    const updates = await runSchoolUpdates();
    const mail = await runMail();
    const summary = { ...updates, mailed: mail.sent, ...(mail.notConfigured ? { notConfigured: true } : {}) };
    console.log('[school-updates]', JSON.stringify(summary));
    return Response.json(summary);
  } catch (error) {
    if (error instanceof StoreUnavailableError) return storeUnavailable();
    throw error;
  }
};

export const config: Config = { schedule: '*/15 * * * *' };
