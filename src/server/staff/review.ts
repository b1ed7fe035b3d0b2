/**
 * What a staff decision in the review queue means (review-items.ts keeps the queue). Approving a
 * self-reported letter (or one a parent sent to their own domain) makes it count: the figures, its
 * school's page and the answer the parent gave about it, once its school is verified and lists the
 * address (src/server/schools/publication.ts). Approving an outcome ("they replied", "we have a
 * meeting") counts it and tells the school's other parents. Rejecting changes nothing public. Each
 * decision is taken once and audited by the caller.
 */
import { HttpError } from '../http';
import { readMessage, updateMessage, type OutboxMessage } from '../letter/outbox';
import { readReviewItem, takeDecision, reopenReviewItem, type ReviewItem } from './review-items';
import { countAnswer } from '../schools/answers';
import { countLetter } from '../schools/publication';

export interface Decision {
  item: ReviewItem;
  message: OutboxMessage;
}

/**
 * Approves or rejects a pending item, once (a second decision, or two at once, finds it decided: 409).
 */
export async function decideReview(id: string, decision: 'approved' | 'rejected', by: string, now = new Date()): Promise<Decision> {
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
      // It counts when its school is verified and lists the address; else when staff verify the school.
      if (decision === 'approved') await countLetter(message, new Date(message.sentAt ?? now.toISOString()));
    } else if (decision === 'approved') {
      await countAnswer(message, item.claim, now);
    }
  } catch (error) {
    await reopenReviewItem(id, now).catch(() => undefined);
    throw error;
  }
  return { item, message };
}
