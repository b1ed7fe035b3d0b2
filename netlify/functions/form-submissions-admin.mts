import type { Config } from '@netlify/functions';
import { formPurposes, forms, type FormPurpose } from '../../src/config/forms';
import { releaseDraft } from '../../src/server/letter/drafts';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import {
  countSubmissions,
  deleteSubmission,
  deliverSubmission,
  formsHubSpot,
  isSubmissionId,
  listSubmissions,
  HELD_RETENTION_MS,
  readSubmission,
  releaseSubmission,
  requeueSubmission,
  SUBMISSION_RETENTION_MS,
  type StoredSubmission,
} from '../../src/server/forms/submissions';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import type { SubmissionsPage, SubmissionView } from '../../src/lib/shared/schemas/admin';

const PAGE_SIZE = 20;

/** What the admin page shows of a submission: its fields in the form's order, and its delivery. */
function view(record: StoredSubmission): SubmissionView {
  const settledAt = record.delivery.deliveredAt ?? record.delivery.failedAt;
  return {
    id: record.id,
    purpose: record.purpose,
    createdAt: record.createdAt,
    pageUri: record.context.pageUri,
    fields: Object.entries(record.values).map(([name, value]) => ({ name, label: record.labels[name] ?? name, value })),
    consent: record.consent,
    delivery: { ...record.delivery, leaseUntil: undefined },
    ...(settledAt ? { deleteAfter: new Date(Date.parse(settledAt) + SUBMISSION_RETENTION_MS).toISOString() } : {}),
    ...(record.delivery.state === 'held' ? { deleteAfter: new Date(Date.parse(record.createdAt) + HELD_RETENTION_MS).toISOString() } : {}),
  };
}

function purposeOf(value: string | null | undefined): FormPurpose {
  if (!value || !formPurposes.includes(value as FormPurpose)) throw new HttpError(400, 'invalid_request', `form must be one of: ${formPurposes.join(', ')}.`);
  return value as FormPurpose;
}

/**
 * The Form Submissions tab (signed in).
 * GET /api/admin/form-submissions?form={purpose}&limit=&cursor=: one form's submissions, newest first,
 * with the count of every form. DELETE /api/admin/form-submissions/{purpose}/{id}: deletes one.
 * POST /api/admin/form-submissions/{purpose}/{id}/retry: a submission HubSpot refused is sent again.
 * POST /api/admin/form-submissions/{purpose}/{id}/release: a held submission (judged automated) is
 * released and delivered like any other.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST', 'DELETE']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  if (req.method === 'GET') {
    const purpose = purposeOf(url.searchParams.get('form') ?? 'emailGenerator');
    const limit = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get('limit') ?? '', 10) || PAGE_SIZE));
    const cursor = url.searchParams.get('cursor') ?? undefined;
    if (cursor !== undefined && !isSubmissionId(cursor)) throw new HttpError(400, 'invalid_request', 'cursor is not valid.');
    const [page, counts] = await Promise.all([listSubmissions(purpose, limit, cursor), countSubmissions()]);
    // The list shows each submission's fields: every page read is recorded.
    await auditRequest(req, context, session, 'submission.viewed', cursor ? `${purpose} after ${cursor}` : purpose);
    return json({
      form: purpose,
      forms: formPurposes.map((name) => ({ purpose: name, title: forms[name].title, count: counts[name] })),
      submissions: page.submissions.map(view),
      total: page.total,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    } satisfies SubmissionsPage);
  }

  const match = url.pathname.match(/^\/api\/admin\/form-submissions\/([A-Za-z]{1,40})\/([\w-]{1,120})(\/retry|\/release)?$/);
  if (!match) throw new HttpError(404, 'not_found', 'Name a submission: /api/admin/form-submissions/{form}/{id}.');
  const purpose = purposeOf(match[1]);
  const id = match[2]!;
  const found = isSubmissionId(id) ? await readSubmission(purpose, id) : undefined;
  if (!found) throw new HttpError(404, 'not_found', 'No submission with this id.');

  if (req.method === 'DELETE') {
    if (match[3]) throw new HttpError(405, 'method_not_allowed', 'Retry a submission with POST.');
    await deleteSubmission(found.record);
    await auditRequest(req, context, session, 'submission.deleted', `${purpose}/${id}`);
    return json({ deleted: id });
  }
  if (!match[3]) throw new HttpError(405, 'method_not_allowed', 'Delete a submission with DELETE, or retry it with POST …/retry.');
  if (match[3] === '/release') {
    if (found.record.delivery.state !== 'held') throw new HttpError(409, 'not_held', 'Only a held submission can be released.');
    const released = await releaseSubmission(found);
    if (!released) throw new HttpError(409, 'changed', 'This submission changed meanwhile; reload the list.');
    // Its school email (if it made one) may now ask for a send, as any parent's.
    await releaseDraft(id);
    await auditRequest(req, context, session, 'submission.released', `${purpose}/${id}`);
    return json({ submission: view(await deliverSubmission(await formsHubSpot(), released)) });
  }
  if (found.record.delivery.state !== 'failed')
    throw new HttpError(409, 'not_retryable', 'Only a submission HubSpot refused can be sent again; the others are sent by the retry run.');
  const requeued = await requeueSubmission(found);
  if (!requeued) throw new HttpError(409, 'changed', 'This submission changed meanwhile; reload the list.');
  await auditRequest(req, context, session, 'submission.retried', `${purpose}/${id}`);
  const settled = await deliverSubmission(await formsHubSpot(), requeued);
  return json({ submission: view(settled) });
});

export const config: Config = {
  path: [
    '/api/admin/form-submissions',
    '/api/admin/form-submissions/:form/:id',
    '/api/admin/form-submissions/:form/:id/retry',
    '/api/admin/form-submissions/:form/:id/release',
  ],
  method: ['GET', 'POST', 'DELETE'],
};
