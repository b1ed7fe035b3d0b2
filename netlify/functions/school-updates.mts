import type { Config } from '@netlify/functions';
import { scheduled } from '../../src/server/http';
import { runSchoolUpdates } from '../../src/server/schools/updates';

/**
 * Every 15 minutes: the school updates (an outcome that counts was reported) whose time has come,
 * each written once to the mail layer for its parent (`src/server/schools/updates.ts`). The
 * every-minute `mail-deliver` run sends them: only it runs the mail layer, so two runs never start
 * at one minute.
 */
export default scheduled('school-updates', () => runSchoolUpdates());

export const config: Config = { schedule: '*/15 * * * *' };
