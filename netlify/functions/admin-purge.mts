import type { Config } from '@netlify/functions';
import { purgeAuditLog } from '../../src/server/staff/audit';
import { purgeExpiredSessions } from '../../src/server/staff/auth';
import { scheduled } from '../../src/server/http';
import { purgeLoginAttempts } from '../../src/server/rate-limit';
import { purgeStaffCeremonies } from '../../src/server/staff/members';

/**
 * Hourly: admin sessions past their idle or absolute limit, sign-in counters whose window is over,
 * audit entries older than a year (the audit log's retention; the only rows it lets go), expired
 * WebAuthn challenges and invitations long expired.
 */
export async function purgeAdmin(now = Date.now()): Promise<Record<'sessions' | 'attempts' | 'audit' | 'ceremonies', number>> {
  return {
    sessions: await purgeExpiredSessions(now),
    attempts: await purgeLoginAttempts(now),
    audit: await purgeAuditLog(),
    ceremonies: await purgeStaffCeremonies(now),
  };
}

export default scheduled('admin-purge', () => purgeAdmin());

export const config: Config = { schedule: '@hourly' };
