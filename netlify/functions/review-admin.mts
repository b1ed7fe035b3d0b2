import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { maskAddress } from '../../src/server/data-rights';
import { allowMethods, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { readMessage } from '../../src/server/letter/outbox';
import { decideReview } from '../../src/server/staff/review';
import { listReviewItems, type ReviewItem } from '../../src/server/staff/review-items';
import { readAnswer } from '../../src/server/schools/answers';
import { schoolOfLetter, type LetterSchool } from '../../src/server/schools/letters';

const ID = /^[\w-]{1,120}$/;

const listSchema = z
  .object({
    state: z.enum(['pending', 'approved', 'rejected']).default('pending'),
    cursor: z.string().regex(ID, 'cursor is not one this list gave').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(30),
  })
  .strict();

const decisionSchema = z.object({ decision: z.enum(['approved', 'rejected']) }).strict();

/** What staff read to decide: the claim, the letter's school and its contact (masked), the parent's first name, their answer. */
async function view(item: ReviewItem) {
  const found = await readMessage(item.messageId);
  if (!found) return undefined;
  const { message } = found;
  const place = await schoolOfLetter(message).catch(() => ({ onRecord: false }) as LetterSchool);
  const answer = await readAnswer(message.id);
  return {
    ...item,
    letter: {
      channel: message.channel,
      schoolName: message.schoolName,
      contact: maskAddress(message.to),
      contactName: message.toName,
      parentFirstName: message.parentName.trim().split(/\s+/)[0] ?? '',
      parentDomain: message.parentEmail.split('@').pop() ?? '',
      sentAt: message.sentAt ?? null,
      subject: message.subject,
    },
    school: place.school ? { id: place.school.id, name: place.school.name, status: place.school.status, onRecord: place.onRecord } : null,
    answer: answer ? { kind: answer.kind, comment: answer.comment, at: answer.updatedAt } : null,
  };
}

/**
 * The review queue (signed-in staff). GET /api/admin/review?state=pending: the claims nobody could
 * check themselves (self-reported letters, outcomes reported on them, letters to the parent's own
 * domain), newest first, each with what a person needs to judge it; reading it is audited.
 * POST /api/admin/review/{id} {decision}: approve or reject, once, audited. A school's name and page
 * are its record's, changed in the Schools tab (/api/admin/schools), never here.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  if (req.method === 'GET') {
    if (url.pathname !== '/api/admin/review') throw new HttpError(404, 'not_found', 'Read the queue at GET /api/admin/review.');
    const parsed = listSchema.safeParse(Object.fromEntries(url.searchParams));
    if (!parsed.success) throw new HttpError(400, 'invalid_request', describeIssues(parsed.error));
    const page = await listReviewItems(parsed.data.state, parsed.data.limit, parsed.data.cursor);
    await auditRequest(req, context, session, 'review.viewed', parsed.data.cursor ? `${parsed.data.state} after ${parsed.data.cursor}` : parsed.data.state);
    const items = (await Promise.all(page.items.map(view))).filter((item) => item !== undefined);
    return json({ items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  }
  const id = url.pathname.match(/^\/api\/admin\/review\/([^/]+)$/)?.[1];
  if (!id || !ID.test(id)) throw new HttpError(404, 'not_found', 'Decide an item with POST /api/admin/review/{id}.');
  const input = await readJson(req, decisionSchema);
  const decided = await decideReview(id, input.decision, session.username);
  await auditRequest(
    req,
    context,
    session,
    input.decision === 'approved' ? 'review.approved' : 'review.rejected',
    `${decided.item.claim} ${decided.message.id}`,
  );
  return json({ item: await view(decided.item) });
});

export const config: Config = { path: ['/api/admin/review', '/api/admin/review/:id'], method: ['GET', 'POST'] };
