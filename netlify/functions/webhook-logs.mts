import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { getLog, listLogs, syncLog } from '../../src/server/calendly-webhook';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import { canRetrySync } from '../../src/lib/shared/webhook-logs';
import type { WebhookLogsPage } from '../../src/lib/shared/schemas/admin';

const PAGE_SIZE = 20;

/**
 * Webhook activity. GET: logs newest first, `?limit=` (1-100) and `?cursor=` to page on.
 * POST /{id}/retry: runs a failed HubSpot sync again, or one stuck pending (see canRetrySync).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);

  if (req.method === 'GET') {
    const limit = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get('limit') ?? '', 10) || PAGE_SIZE));
    const cursor = url.searchParams.get('cursor') ?? undefined;
    const page = await listLogs(limit, cursor);
    await auditRequest(req, context, session, 'webhook_log.viewed', cursor ? `after ${cursor}` : undefined);
    return json(page satisfies WebhookLogsPage);
  }

  const id = url.pathname.match(/^\/api\/webhook-logs\/([^/]+)\/retry$/)?.[1];
  if (!id) throw new HttpError(404, 'not_found', 'Retry a log with POST /api/webhook-logs/{id}/retry.');
  const log = await getLog(decodeURIComponent(id));
  if (!log) throw new HttpError(404, 'not_found', 'No webhook log with this id.');
  if (!canRetrySync(log)) throw new HttpError(409, 'not_failed', 'Only a failed HubSpot sync, or one pending for more than 5 minutes, can be retried.');
  const synced = await syncLog(log);
  await auditRequest(req, context, session, 'webhook_log.retried', log.id);
  return json({ log: synced });
});

export const config: Config = { path: ['/api/webhook-logs', '/api/webhook-logs/:id/retry'], method: ['GET', 'POST'] };
