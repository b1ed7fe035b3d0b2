import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin } from '../../src/server/staff/auth';
import { maskAddress } from '../../src/server/data-rights';
import { allowMethods, handle, HttpError, json, readJson } from '../../src/server/http';
import { z } from 'zod';
import { afterDelivery } from '../../src/server/letter/delivery';
import { liftSuppression, listEmails, listSuppressions, readEmail, settleUnknown, unknownEmails } from '../../src/server/mail/queue';
import { sampleEmails } from '../../src/server/mail/samples';
import { stateLabels } from '../../src/server/mail/states';

/**
 * The admin page's Mail tab (signed in, audited):
 * - GET /api/admin/mail/previews: every email the site sends, composed with sample data (subject,
 *   HTML and text), as editors' words in content/emails make them;
 * - GET /api/admin/mail/emails?limit=&cursor=: the mail layer's emails, oldest first: kind, masked
 *   address, state and why — never their content (a confirmation's link is for the parent alone);
 * - GET /api/admin/mail/suppressions: addresses blocked now, and why (their mailbox does not exist,
 *   or they complained), with when the block ends; POST …/suppressions/{key}/lift: staff lift one
 *   (the school fixed its mailbox, asked again), audited;
 * - GET /api/admin/mail/unknown: emails handed over whose outcome never came (the connection ended);
 *   POST …/emails/{id}/settle {decision: sent|resend}: staff settle one, audited (never resent blindly).
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  if (req.method === 'POST') {
    const lift = /^\/api\/admin\/mail\/suppressions\/([0-9a-f]{32})\/lift$/.exec(url.pathname)?.[1];
    if (lift) {
      const lifted = await liftSuppression(lift, session.username);
      if (!lifted) throw new HttpError(404, 'not_found', 'Nothing blocks this address now (it was lifted, or its block ended).');
      await auditRequest(req, context, session, 'mail.suppression_lifted', lifted.masked);
      return json({ lifted: lifted.masked });
    }
    const settle = /^\/api\/admin\/mail\/emails\/([A-Za-z0-9._-]{1,100})\/settle$/.exec(url.pathname)?.[1];
    if (settle) {
      const input = await readJson(req, z.object({ decision: z.enum(['sent', 'resend']) }).strict());
      if (!(await settleUnknown(settle, input.decision)))
        throw new HttpError(409, 'not_unknown', 'This email’s outcome is known now (a report came, or someone settled it); reload the list.');
      const email = await readEmail(settle);
      if (email && input.decision === 'sent') await afterDelivery(email, 'sent', new Date());
      await auditRequest(req, context, session, 'mail.unknown_settled', `${settle} ${input.decision}`);
      return json({ settled: input.decision });
    }
    throw new HttpError(404, 'not_found', 'No such mail action.');
  }
  switch (url.pathname) {
    case '/api/admin/mail/unknown': {
      const unknown = await unknownEmails();
      await auditRequest(req, context, session, 'mail.viewed', 'unknown outcomes');
      return json({
        emails: unknown.map((email) => ({
          id: email.id,
          kind: email.kind,
          to: email.recipient ? maskAddress(email.recipient) : '(erased)',
          detail: email.lastError,
          updatedAt: email.updatedAt,
        })),
      });
    }
    case '/api/admin/mail/previews': {
      const samples = await sampleEmails();
      await auditRequest(req, context, session, 'mail.previewed', `${samples.length} templates`);
      return json({
        previews: samples.map((sample) => ({
          kind: sample.kind,
          label: sample.label,
          to: sample.to,
          subject: sample.content.subject,
          html: sample.content.html,
          text: sample.content.text,
        })),
      });
    }
    case '/api/admin/mail/emails': {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new HttpError(400, 'invalid_request', 'limit must be a whole number from 1 to 200.');
      const cursor = url.searchParams.get('cursor') ?? undefined;
      if (cursor !== undefined && !/^\d{13}-[0-9a-f-]{36}$/.test(cursor)) throw new HttpError(400, 'invalid_request', 'cursor is not valid.');
      const page = await listEmails(limit, cursor);
      await auditRequest(req, context, session, 'mail.viewed', cursor ? `after ${cursor}` : undefined);
      return json({
        emails: page.emails.map((email) => ({
          id: email.id,
          kind: email.kind,
          to: email.recipient ? maskAddress(email.recipient) : '(erased)',
          state: email.state,
          stateLabel: stateLabels[email.state],
          notBefore: email.notBefore,
          attempts: email.attempts,
          lastError: email.lastError,
          sentAt: email.sentAt,
          updatedAt: email.updatedAt,
        })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      });
    }
    case '/api/admin/mail/suppressions': {
      const suppressions = await listSuppressions();
      await auditRequest(req, context, session, 'mail.viewed', 'suppressions');
      return json({ suppressions });
    }
    default:
      throw new HttpError(404, 'not_found', 'No such mail endpoint.');
  }
});

export const config: Config = {
  path: [
    '/api/admin/mail/previews',
    '/api/admin/mail/emails',
    '/api/admin/mail/suppressions',
    '/api/admin/mail/unknown',
    '/api/admin/mail/suppressions/:key/lift',
    '/api/admin/mail/emails/:id/settle',
  ],
  method: ['GET', 'POST'],
};
