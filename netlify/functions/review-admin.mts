import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { lineProblem, SCHOOL_MAX } from '../../src/lib/email/fields';
import { auditRequest } from '../../src/server/audit';
import { requireAdmin } from '../../src/server/auth';
import { maskAddress } from '../../src/server/data-rights';
import { allowMethods, describeIssues, handle, HttpError, json, readJson } from '../../src/server/http';
import { readMessage } from '../../src/server/outbox';
import { decideReview } from '../../src/server/review';
import { listReviewItems, type ReviewItem } from '../../src/server/review-items';
import { readAnswer } from '../../src/server/school-answers';
import { readSchoolPage, renameSchoolPage, SCHOOL_KEY, schoolPageKeyIfConfigured } from '../../src/server/school-pages';

const ID = /^[\w-]{1,120}$/;

const listSchema = z
  .object({
    state: z.enum(['pending', 'approved', 'rejected']).default('pending'),
    cursor: z.string().regex(ID, 'cursor is not one this list gave').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(30),
  })
  .strict();

/** A school's name as staff type it: a name, like every name the letters carry. */
const schoolName = z
  .string()
  .max(SCHOOL_MAX * 2)
  .superRefine((value, context) => {
    const problem = value.trim() ? lineProblem(value, SCHOOL_MAX) : 'Please give the school’s name.';
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.normalize('NFKC').replace(/ {2,}/g, ' ').trim());

const decisionSchema = z.object({ decision: z.enum(['approved', 'rejected']), schoolName: schoolName.optional() }).strict();
const renameSchema = z.object({ schoolName }).strict();

/** What staff read to decide: the claim, the letter's school and its contact (masked), the parent's first name, their answer. */
async function view(item: ReviewItem) {
  const found = await readMessage(item.messageId);
  if (!found) return undefined;
  const { message } = found;
  const key = schoolPageKeyIfConfigured(message.to);
  const page = key ? await readSchoolPage(key).catch(() => undefined) : undefined;
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
    page: page ? { key: page.key, published: page.published, schoolName: page.schoolName } : null,
    answer: answer ? { kind: answer.kind, comment: answer.comment, at: answer.updatedAt } : null,
  };
}

/**
 * The review queue (signed-in staff). GET /api/admin/review?state=pending: the claims nobody could
 * check themselves (self-reported letters, outcomes reported on them, letters to the parent's own
 * domain), newest first, each with what a person needs to judge it; reading it is audited.
 * POST /api/admin/review/{id} {decision, schoolName?}: approve or reject, once, audited.
 * POST /api/admin/school-pages/{key} {schoolName}: staff give a school page its name, audited.
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
  const rename = url.pathname.match(/^\/api\/admin\/school-pages\/([^/]+)$/)?.[1];
  if (rename !== undefined) {
    if (!SCHOOL_KEY.test(rename)) throw new HttpError(404, 'not_found', 'There is no school page with this key.');
    const input = await readJson(req, renameSchema);
    if (!(await renameSchoolPage(rename, input.schoolName))) throw new HttpError(404, 'not_found', 'There is no school page with this key.');
    await auditRequest(req, context, session, 'school_page.renamed', rename);
    return json({ key: rename, schoolName: input.schoolName });
  }
  const id = url.pathname.match(/^\/api\/admin\/review\/([^/]+)$/)?.[1];
  if (!id || !ID.test(id)) throw new HttpError(404, 'not_found', 'Decide an item with POST /api/admin/review/{id}.');
  const input = await readJson(req, decisionSchema);
  const decided = await decideReview(id, input.decision, session.username, { schoolName: input.schoolName });
  await auditRequest(req, context, session, input.decision === 'approved' ? 'review.approved' : 'review.rejected', `${decided.item.claim} ${decided.message.id}`);
  return json({ item: await view(decided.item) });
});

export const config: Config = { path: ['/api/admin/review', '/api/admin/review/:id', '/api/admin/school-pages/:key'], method: ['GET', 'POST'] };
