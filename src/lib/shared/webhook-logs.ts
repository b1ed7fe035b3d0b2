/**
 * When an admin may run a Calendly delivery's HubSpot sync again (shared by the admin page and
 * `POST /api/webhook-logs/{id}/retry`).
 */

/**
 * The receiver answers Calendly within 2.5 s and finishes the sync after; a sync still pending
 * this long after the delivery will not finish by itself (its function ended before it could
 * record the outcome).
 */
export const SYNC_STUCK_AFTER_MS = 5 * 60_000;

export function canRetrySync(log: { hubspotSyncStatus: string; createdAt: string }, now = Date.now()): boolean {
  if (log.hubspotSyncStatus === 'error') return true;
  return log.hubspotSyncStatus === 'pending' && now - Date.parse(log.createdAt) > SYNC_STUCK_AFTER_MS;
}
