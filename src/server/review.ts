/**
 * What a staff decision in the review queue means (review-items.ts keeps the queue). Approving a
 * self-reported letter (or one a parent sent to their own domain) makes it count: the figures, the
 * school's page (published with the name staff confirm, if it has none yet), and the answer the
 * parent gave about it. Approving an outcome ("they replied", "we have a meeting") counts it and
 * tells the school's other parents. Rejecting changes nothing public. Each decision is taken once
 * and audited by the caller.
 */
import { HttpError } from './http';
import { recordSent } from './impact';
import { readMessage, updateMessage, type OutboxMessage } from './outbox';
import { readReviewItem, takeDecision, reopenReviewItem, type ReviewItem } from './review-items';
import { countAnswer, countStoredAnswer } from './school-answers';
import { publishSchoolPage } from './school-pages';

export interface Decision {
  item: ReviewItem;
  message: OutboxMessage;
}

/**
 * Approves or rejects a pending item, once (a second decision, or two at once, finds it decided:
 * 409). `schoolName` is the name staff confirm for a page that has none yet (the parent's by default).
 */
export async function decideReview(id: string, decision: 'approved' | 'rejected', by: string, options: { schoolName?: string } = {}, now = new Date()): Promise<Decision> {
  const pending = await readReviewItem(id);
  if (!pending) throw new HttpError(404, 'not_found', 'No review item has this id.');
  const found = await readMessage(pending.messageId);
  if (!found) throw new HttpError(404, 'not_found', 'The letter this item is about is gone (deleted by its parent, or purged).');
  const item = await takeDecision(id, decision, by, now);
  if (!item) throw new HttpError(409, 'already_decided', 'Someone decided this item already; reload the queue.');
  let message = found.message;
  // Each effect is idempotent: if one fails (the store down), the item goes back to the queue and
  // deciding it again applies what is missing, never anything twice.
  try {
    if (item.claim === 'self_report') {
      if (message.channel === 'self') message = (await updateMessage(message.id, (current) => ({ ...current, review: decision }))) ?? message;
      if (decision === 'approved') {
        await publishSchoolPage({ to: message.to, schoolName: options.schoolName?.trim() || message.schoolName }, 'staff', now);
        await recordSent(message);
        await countStoredAnswer(message, now);
      }
    } else if (decision === 'approved') {
      await countAnswer(message, item.claim, now);
    }
  } catch (error) {
    await reopenReviewItem(id, now).catch(() => undefined);
    throw error;
  }
  return { item, message };
}
