import type { Config } from '@netlify/functions';
import { auditRequest } from '../../src/server/audit';
import { requireAdmin } from '../../src/server/auth';
import { allowMethods, handle, HttpError, json } from '../../src/server/http';
import { attemptWork, confirmationLink, listMessages, readMessage, saveMessage, type OutboxMessage } from '../../src/server/outbox';
import { canRetryMessage } from '../../src/lib/outbox';
import { optionalHubSpot } from '../../src/server/platform-send';
import { followUpLink, readAnswer } from '../../src/server/school-answers';
import type { OutboxView } from '../../src/lib/schemas/admin';

const PAGE_SIZE = 20;

/**
 * What the admin page shows of a message, with its parent's answer. Links only while HubSpot has not
 * got them (so that without HubSpot the whole path can be walked from the admin page).
 */
async function view(message: OutboxMessage): Promise<OutboxView> {
  const link = message.status === 'awaiting_confirmation' && message.confirmation?.link !== 'delivered' ? confirmationLink(message) : undefined;
  const followUp = message.followUp && message.followUp.link !== 'delivered' ? followUpLink(message) : undefined;
  const answer = message.status === 'sent' ? await readAnswer(message.id) : undefined;
  return { ...message, ...(link ? { confirmationLink: link } : {}), ...(followUp ? { followUpLink: followUp } : {}), ...(answer ? { answer } : {}) };
}

/**
 * The Outbox tab (signed in). GET /api/admin/outbox: messages newest first (`?limit=`, `?cursor=`).
 * POST /api/admin/outbox/{id}/retry: a failed delivery is queued and tried again now.
 */
export default handle(async (req, context) => {
  const refused = allowMethods(req, ['GET', 'POST']);
  if (refused) return refused;
  const session = await requireAdmin(req);
  const url = new URL(req.url);
  if (req.method === 'GET') {
    const limit = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get('limit') ?? '', 10) || PAGE_SIZE));
    const cursor = url.searchParams.get('cursor') ?? undefined;
    if (cursor !== undefined && !/^[\w-]{1,120}$/.test(cursor)) throw new HttpError(400, 'invalid_request', 'cursor is not valid.');
    const page = await listMessages(limit, cursor);
    await auditRequest(req, context, session, 'outbox.viewed', cursor ? `after ${cursor}` : undefined);
    return json({ messages: await Promise.all(page.messages.map(view)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  }
  const id = url.pathname.match(/^\/api\/admin\/outbox\/([\w-]{1,120})\/retry$/)?.[1];
  if (!id) throw new HttpError(404, 'not_found', 'Retry a message with POST /api/admin/outbox/{id}/retry.');
  const found = await readMessage(id);
  if (!found) throw new HttpError(404, 'not_found', 'No message with this id.');
  const { message, etag } = found;
  if (!canRetryMessage(message)) {
    throw new HttpError(409, 'not_retryable', 'Only a confirmed message whose delivery failed can be retried; a message a sending limit refused cannot.');
  }
  const queued: OutboxMessage = { ...message, status: 'queued', attempts: 0, nextAttemptAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
  const saved = await saveMessage(queued, etag);
  if (saved === undefined) throw new HttpError(409, 'changed', 'This message changed meanwhile; reload the list.');
  await auditRequest(req, context, session, 'outbox.retried', id);
  const settled = await attemptWork(optionalHubSpot(), queued, saved);
  return json({ message: await view(settled) });
});

export const config: Config = { path: ['/api/admin/outbox', '/api/admin/outbox/:id/retry'], method: ['GET', 'POST'] };
