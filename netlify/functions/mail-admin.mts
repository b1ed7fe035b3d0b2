import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/audit';
import { requireAdmin } from '../../src/server/auth';
import { maskAddress } from '../../src/server/data-rights';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import { listEmails, listSuppressions } from '../../src/server/mail/queue';
import { sampleEmails } from '../../src/server/mail/samples';
import { stateLabels } from '../../src/server/mail/states';

/**
 * The admin page's Mail tab (signed in, audited):
 * - GET /api/admin/mail/previews: every email the site sends, composed with sample data (subject,
 *   HTML and text), as editors' words in content/emails make them;
 * - GET /api/admin/mail/emails?limit=&cursor=: the mail layer's emails, oldest first: kind, masked
 *   address, state and why — never their content (a confirmation's link is for the parent alone);
 * - GET /api/admin/mail/suppressions: addresses that bounced or complained (masked): the schools
 *   whose address parents should correct.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  switch (url.pathname) {
    case '/api/admin/mail/previews': {
      const samples = await sampleEmails();
      await auditRequest(req, context, session, 'mail.previewed', `${samples.length} templates`);
      return json({ previews: samples.map((sample) => ({ kind: sample.kind, label: sample.label, to: sample.to, subject: sample.content.subject, html: sample.content.html, text: sample.content.text })) });
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

export const config: Config = { path: ['/api/admin/mail/previews', '/api/admin/mail/emails', '/api/admin/mail/suppressions'], method: ['GET'] };
