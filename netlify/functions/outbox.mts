import type { Config } from '@netlify/functions';
import { canRetryMessage } from '../../src/lib/shared/outbox-retry';
import type { OutboxView } from '../../src/lib/shared/schemas/admin';
import { auditRequest } from '../../src/server/staff/audit';
import { requireAdmin, requireOwner } from '../../src/server/staff/auth';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import { deliverAndFollow, queueLetter } from '../../src/server/letter/delivery';
import { confirmationLink } from '../../src/server/links';
import { emailsAboutMany, retryEmail } from '../../src/server/mail/queue';
import { mailSender } from '../../src/server/mail/senders';
import { serverEnv } from '../../src/server/env';
import { retry } from '../../src/server/letter/life';
import { listMessages, readMessage, type OutboxMessage } from '../../src/server/letter/outbox';
import { readAnswer } from '../../src/server/schools/answers';

const PAGE_SIZE = 20;
const ID = /^[\w-]{1,120}$/;

/**
 * What the admin page shows of a message: the message, its parent's answer, and what became of the
 * emails about it (confirmation, reminder, the letter itself, follow-ups) — never a link that only
 * the parent's inbox may hold.
 */
async function views(messages: OutboxMessage[]): Promise<OutboxView[]> {
  const emails = await emailsAboutMany(messages.map((message) => message.id));
  return Promise.all(
    messages.map(async (message) => {
      const answer = message.status === 'sent' || message.status === 'delivered' ? await readAnswer(message.id) : undefined;
      return { ...message, emails: emails.get(message.id) ?? [], ...(answer ? { answer } : {}) };
    }),
  );
}

/**
 * The Outbox tab (signed in). GET /api/admin/outbox: messages newest first (`?limit=`, `?cursor=`).
 * POST /api/admin/outbox/{id}/retry: a failed delivery is scheduled and tried again now.
 * GET /api/admin/outbox/{id}/confirmation-link: owners only, and only while no mail can be sent
 * (no sender configured): the one way to walk a send without email; recorded in the audit log.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const url = new URL(req.url);
  const linkId = url.pathname.match(/^\/api\/admin\/outbox\/([^/]+)\/confirmation-link$/)?.[1];
  if (linkId !== undefined) return confirmationLinkFor(req, context, linkId);
  const session = await requireAdmin(req);
  if (req.method === 'GET') {
    const limit = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get('limit') ?? '', 10) || PAGE_SIZE));
    const cursor = url.searchParams.get('cursor') ?? undefined;
    if (cursor !== undefined && !ID.test(cursor)) throw new HttpError(400, 'invalid_request', 'cursor is not valid.');
    const page = await listMessages(limit, cursor);
    await auditRequest(req, context, session, 'outbox.viewed', cursor ? `after ${cursor}` : undefined);
    return json({ messages: await views(page.messages), mailConfigured: mailSender() !== null, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  }
  const id = url.pathname.match(/^\/api\/admin\/outbox\/([\w-]{1,120})\/retry$/)?.[1];
  if (!id) throw new HttpError(404, 'not_found', 'Retry a message with POST /api/admin/outbox/{id}/retry.');
  const found = await readMessage(id);
  if (!found) throw new HttpError(404, 'not_found', 'No message with this id.');
  if (!canRetryMessage(found.message)) {
    throw new HttpError(409, 'not_retryable', 'Only a confirmed message whose delivery failed can be retried; a message a sending limit refused cannot.');
  }
  const now = new Date();
  // Its email goes again under the same id (the provider sends nothing twice), in its school's hours
  // and within the hourly maximum, re-checked when a run claims it; a letter that never reached the
  // mail layer is written to it now. The letter's move is life.ts's.
  const delivery = (await retryEmail(id, now))
    ? { ...(found.message.delivery ?? { at: now.toISOString(), timeZone: serverEnv.schoolTimeZone }), at: now.toISOString(), state: 'scheduled' as const }
    : await queueLetter(found.message, found.message.delivery?.timeZone, now);
  const queued = await retry(id, delivery, now);
  if (!queued) throw new HttpError(409, 'changed', 'This message changed meanwhile; reload the list.');
  await auditRequest(req, context, session, 'outbox.retried', id);
  const sender = mailSender();
  if (sender) await deliverAndFollow(id, sender);
  const settled = (await readMessage(id))?.message ?? queued;
  return json({ message: (await views([settled]))[0] });
});

async function confirmationLinkFor(req: Request, context: unknown, id: string): Promise<Response> {
  if (req.method !== 'GET') throw new HttpError(405, 'method_not_allowed', 'Use GET.');
  const session = await requireOwner(req, context);
  if (!ID.test(id)) throw new HttpError(404, 'not_found', 'No message with this id.');
  if (mailSender()) throw new HttpError(409, 'mail_configured', 'This site sends email: the confirmation link goes to the parent’s inbox only.');
  const found = await readMessage(id);
  if (found?.message.status !== 'awaiting_confirmation' || found.message.channel !== 'platform')
    throw new HttpError(404, 'not_found', 'No request waiting for its confirmation has this id.');
  await auditRequest(req, context, session, 'outbox.confirmation_link_viewed', id);
  return json({ link: confirmationLink(found.message) }, 200, { 'Cache-Control': 'no-store' });
}

export const config: Config = {
  path: ['/api/admin/outbox', '/api/admin/outbox/:id/retry', '/api/admin/outbox/:id/confirmation-link'],
  method: ['GET', 'POST'],
};
