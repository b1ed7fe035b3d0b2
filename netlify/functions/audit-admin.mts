import type { Config } from '@netlify/functions';
import { auditCsv, auditFilterSchema, auditRequest, listAudit } from '../../src/server/staff/audit';
import { requireOwner } from '../../src/server/staff/auth';
import { allowMethods, describeIssues, handle, HttpError, json } from '../../src/server/http';

const PAGE_SIZE = 50;
/** A CSV download holds at most this many entries (the newest matching the filters). */
const CSV_MAX = 10_000;

/**
 * The Audit tab (owners only). GET /api/admin/audit?action=&actor=&from=
 * &to=&cursor=&limit=: entries newest first, one page at a time; `&format=csv` for the entries
 * matching the filters as a CSV download. Reading the log is itself recorded.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const session = await requireOwner(req, context);
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = auditFilterSchema.safeParse(params);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
  const filter = parsed.data;
  if (filter.format === 'csv') {
    const { entries } = await listAudit({ ...filter, cursor: undefined }, CSV_MAX);
    await auditRequest(req, context, session, 'audit.exported', describeFilter(filter));
    return new Response(auditCsv(entries), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="audit-${filter.from ?? 'start'}-to-${filter.to ?? 'now'}.csv"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  const page = await listAudit(filter, filter.limit ?? PAGE_SIZE);
  // The first page of a reading is recorded; paging on is the same reading.
  if (!filter.cursor) await auditRequest(req, context, session, 'audit.viewed', describeFilter(filter));
  return json(page);
});

function describeFilter(filter: { action?: string; actor?: string; from?: string; to?: string }): string | undefined {
  const parts = (['action', 'actor', 'from', 'to'] as const).filter((name) => filter[name]).map((name) => `${name}=${filter[name]}`);
  return parts.length ? parts.join(' ') : undefined;
}

export const config: Config = { path: '/api/admin/audit', method: 'GET' };
