import type { Config } from '@netlify/functions';
import { insightsQuerySchema } from '../../src/lib/shared/analytics/events';
import { insights, insightsCsv } from '../../src/server/analytics/insights';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, describeIssues, handle, HttpError, json } from '../../src/server/http';

/**
 * The Insights tab (signed in). GET /api/admin/insights?from=YYYY-MM-DD&to=YYYY-MM-DD: the funnel,
 * per-day lines and breakdowns for the period (from the launch by default); `&format=csv` for the
 * same as a CSV download. Counts only: nothing here names a person.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const parsed = insightsQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
  const figures = await insights(parsed.data);
  if (parsed.data.format === 'csv') {
    const name = `insights-${figures.from}-to-${figures.to}.csv`;
    await auditRequest(req, context, session, 'insights.exported', name);
    return new Response(insightsCsv(figures), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  return json(figures);
});

export const config: Config = { path: '/api/admin/insights', method: 'GET' };
