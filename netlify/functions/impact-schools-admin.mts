import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { requireAdmin } from '../../src/server/staff/auth';
import { allowMethods, describeIssues, handle, HttpError, json } from '../../src/server/http';
import { allCampaignParents, campaignCsv, listCampaignSchools, readCampaign, validCursor } from '../../src/server/schools/campaign';
import { SCHOOL_KEY } from '../../src/server/schools/pages';

const querySchema = z
  .object({
    key: z.string().regex(SCHOOL_KEY, 'key must be a school page key.').optional(),
    cursor: z.string().max(400).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/**
 * The Impact tab's school campaigns (signed in). GET /api/admin/impact/schools: the school pages,
 * most recently written to first (`cursor` for the next page). `?key=…` opens one school: its
 * parents (masked, with how they came; keyset-paginated), letters, answers over time and updates
 * sent; `&format=csv` downloads its parents.
 */
export default handle(async (req) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  await requireAdmin(req);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
  const { key, cursor, limit, format } = parsed.data;
  if (cursor && !validCursor(cursor, key ? 1 : 2)) throw new HttpError(400, 'invalid_request', 'cursor is not one this page gave.');
  if (!key) {
    if (format === 'csv') throw new HttpError(400, 'invalid_request', 'format=csv needs a school key.');
    return json(await listCampaignSchools(limit, cursor));
  }
  if (format === 'csv') {
    const campaign = await readCampaign(key, { limit: 1 });
    if (!campaign) throw new HttpError(404, 'not_found', 'There is no school page with this key.');
    return new Response(campaignCsv(await allCampaignParents(key)), {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="school-${key.slice(0, 8)}-parents.csv"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  const campaign = await readCampaign(key, { limit, cursor });
  if (!campaign) throw new HttpError(404, 'not_found', 'There is no school page with this key.');
  return json(campaign);
});

export const config: Config = { path: '/api/admin/impact/schools', method: 'GET' };
