import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import { impactBySchool, impactCsv } from '../../src/server/schools/impact';
import { readAnswer } from '../../src/server/schools/answers';
import type { z } from 'zod';
import type { impactRowsSchema } from '../../src/lib/shared/schemas/admin';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | null, name: string, endOfDay = false): Date | undefined {
  if (!value) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  if (!DAY.test(value) || Number.isNaN(date.getTime())) throw new HttpError(400, 'invalid_request', `${name} must be a date as YYYY-MM-DD.`);
  return endOfDay ? new Date(date.getTime() + 24 * 3600_000) : date;
}

async function comments(ids: string[]): Promise<Map<string, { comment: string; at: string }>> {
  const answers = await Promise.all(ids.map(async (id) => [id, await readAnswer(id)] as const));
  return new Map(answers.filter(([, answer]) => answer).map(([id, answer]) => [id, { comment: answer!.comment, at: answer!.updatedAt }]));
}

/**
 * The Impact tab (signed in). GET /api/admin/impact?from=YYYY-MM-DD&to=YYYY-MM-DD: per school,
 * emails sent in the period, answers by kind, response rate and latest comment; `&format=csv` for
 * the same as a CSV download.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const params = new URL(req.url).searchParams;
  const from = day(params.get('from'), 'from');
  const to = day(params.get('to'), 'to', true);
  if (from && to && from >= to) throw new HttpError(400, 'invalid_request', 'from must be before to.');
  const format = params.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new HttpError(400, 'invalid_request', 'format must be json or csv.');
  const rows = await impactBySchool({ from, to }, comments);
  if (format === 'csv') {
    const name = `impact-${params.get('from') ?? 'start'}-to-${params.get('to') ?? 'now'}.csv`;
    await auditRequest(req, context, session, 'impact.exported', name);
    return new Response(impactCsv(rows), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  return json({ rows } satisfies z.infer<typeof impactRowsSchema>);
});

export const config: Config = { path: '/api/admin/impact', method: 'GET' };
