import type { Config } from '@netlify/functions';
import { addBlockSchema, removeBlockSchema, voidPreviewSchema, voidSchema, type AbuseView } from '../../src/lib/shared/schemas/abuse-watch';
import { addBlock, listBlocks, removeBlock } from '../../src/server/abuse/blocks';
import { previewVoid, voidSet } from '../../src/server/abuse/void';
import { TRENDING_FACTOR, TRENDING_MIN_REQUESTS, USUAL_DAYS, watchSummary } from '../../src/server/abuse/watch';
import { allowMethods, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';

/**
 * The Abuse tab (signed in; every read and change is on the audit log).
 * - GET /api/admin/abuse: the last hour and day by network, email domain, school and form, what
 *   runs past its usual rate, and the blocks in force.
 * - POST /api/admin/abuse/blocks {kind, value, reason, expiresAt?}; POST /api/admin/abuse/blocks/remove {id}.
 * - GET /api/admin/abuse/void?dimension=&key=&from=&to=: what voiding would take;
 *   POST /api/admin/abuse/void {dimension, key, from, to, reason}: voids it.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  const action = url.pathname.split('/').slice(4).join('/'); // after /api/admin/abuse
  const onlyPost = () => {
    if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'Use POST.');
  };
  switch (action) {
    case '': {
      if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'Read the watch with GET.');
      const summary = await watchSummary();
      await auditRequest(req, context, session, 'abuse.viewed', `${summary.trending.length} trending`);
      return json({
        ...summary,
        blocks: await listBlocks(),
        thresholds: { factor: TRENDING_FACTOR, minRequests: TRENDING_MIN_REQUESTS, usualDays: USUAL_DAYS },
      } satisfies AbuseView);
    }
    case 'blocks': {
      onlyPost();
      const input = await readJson(req, addBlockSchema);
      const block = await addBlock(input, session.username);
      await auditRequest(
        req,
        context,
        session,
        'abuse.blocked',
        `${block.kind} ${block.value}: ${block.reason}${block.expiresAt ? ` (until ${block.expiresAt})` : ''}`,
      );
      return json({ block }, 201);
    }
    case 'blocks/remove': {
      onlyPost();
      const { id } = await readJson(req, removeBlockSchema);
      const block = await removeBlock(id, session.username);
      if (!block) throw new HttpError(404, 'not_found', 'No block in force has this id.');
      await auditRequest(req, context, session, 'abuse.unblocked', `${block.kind} ${block.value}`);
      return json({ removed: block.id });
    }
    case 'void': {
      if (req.method === 'GET') {
        const parsed = voidPreviewSchema.safeParse(Object.fromEntries(url.searchParams));
        if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
        return json(await previewVoid(parsed.data));
      }
      const input = await readJson(req, voidSchema);
      const outcome = await voidSet(input, session.username);
      await auditRequest(
        req,
        context,
        session,
        'abuse.voided',
        `${input.dimension} ${input.key} ${input.from}–${input.to}: ${outcome.letters} letters, ${outcome.selfReports} self-reports (${outcome.uncounted} counted); ${input.reason}`,
      );
      return json(outcome);
    }
    default:
      throw new HttpError(404, 'not_found', 'There is no such action.');
  }
});

export const config: Config = { path: ['/api/admin/abuse', '/api/admin/abuse/*'] };
