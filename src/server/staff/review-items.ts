/**
 * The review queue's store: claims nobody could check by themselves wait here for a person. A
 * self-reported send ("I've sent it myself"), an outcome reported on one ("they agreed to meet"),
 * and a letter a parent sent to their own domain count, show and notify only once staff approve
 * them (`review.ts` does what an approval means). One item per message and claim (a constraint);
 * a decision is taken once, in one statement, so two staff deciding at once cannot both apply it.
 */
import { query, queryOne, sql } from '../db';
import { recordKey } from '../ids';

export type ReviewClaim = 'self_report' | 'replied' | 'meeting';
export type ReviewReason = 'self_report' | 'outcome_on_self_report' | 'outcome_reported' | 'own_domain';
export type ReviewState = 'pending' | 'approved' | 'rejected';

export interface ReviewItem {
  id: string;
  messageId: string;
  claim: ReviewClaim;
  reason: ReviewReason;
  state: ReviewState;
  createdAt: string;
  decidedAt?: string;
  decidedBy?: string;
}

interface Row {
  id: string;
  message_id: string;
  claim: ReviewClaim;
  reason: ReviewReason;
  state: ReviewState;
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
}

const toItem = (row: Row): ReviewItem => ({
  id: row.id,
  messageId: row.message_id,
  claim: row.claim,
  reason: row.reason,
  state: row.state,
  createdAt: row.created_at.toISOString(),
  ...(row.decided_at ? { decidedAt: row.decided_at.toISOString() } : {}),
  ...(row.decided_by ? { decidedBy: row.decided_by } : {}),
});

/** Puts a claim in the queue (once per message and claim; a second report changes nothing). */
export async function queueReview(messageId: string, claim: ReviewClaim, reason: ReviewReason, now = new Date()): Promise<void> {
  await query(sql`
    INSERT INTO review_items (id, message_id, claim, reason, state, created_at) VALUES (${recordKey(now)}, ${messageId}, ${claim}, ${reason}, 'pending', ${now})
    ON CONFLICT ON CONSTRAINT review_items_once DO NOTHING`);
}

/** Whether a claim about a message was approved. */
export async function approved(messageId: string, claim: ReviewClaim): Promise<boolean> {
  return Boolean(await queryOne(sql`SELECT 1 FROM review_items WHERE message_id = ${messageId} AND claim = ${claim} AND state = 'approved'`));
}

/** Takes a decision on a pending item: one statement; undefined when it was decided already (or is gone). */
export async function takeDecision(id: string, decision: 'approved' | 'rejected', by: string, now = new Date()): Promise<ReviewItem | undefined> {
  const row = await queryOne<Row>(sql`
    UPDATE review_items SET state = ${decision}, decided_at = ${now}, decided_by = ${by.slice(0, 200)}
    WHERE id = ${id} AND state = 'pending'
    RETURNING id, message_id, claim, reason, state, created_at, decided_at, decided_by`);
  return row && toItem(row);
}

/** Puts a decision whose effects could not all be applied back in the queue, to be decided again. */
export async function reopenReviewItem(id: string, decidedAt: Date): Promise<void> {
  await query(sql`UPDATE review_items SET state = 'pending', decided_at = NULL, decided_by = NULL WHERE id = ${id} AND decided_at = ${decidedAt}`);
}

export async function readReviewItem(id: string): Promise<ReviewItem | undefined> {
  const row = await queryOne<Row>(sql`SELECT id, message_id, claim, reason, state, created_at, decided_at, decided_by FROM review_items WHERE id = ${id}`);
  return row && toItem(row);
}

/** Items of one state, newest first, a page at a time (keyset on the id, which sorts newest first). */
export async function listReviewItems(state: ReviewState, limit: number, cursor?: string): Promise<{ items: ReviewItem[]; nextCursor?: string }> {
  const rows = await query<Row>(sql`
    SELECT id, message_id, claim, reason, state, created_at, decided_at, decided_by FROM review_items
    WHERE state = ${state} AND (${cursor ?? null}::text IS NULL OR id > ${cursor ?? null}::text)
    ORDER BY id LIMIT ${limit + 1}`);
  const items = rows.slice(0, limit).map(toItem);
  return { items, ...(rows.length > limit ? { nextCursor: items.at(-1)!.id } : {}) };
}

/** The claims still waiting on letters staff voided are rejected with them (nothing is left to decide). */
export async function rejectPendingFor(messageIds: string[], by: string, now = new Date()): Promise<number> {
  if (!messageIds.length) return 0;
  const rows = await query(sql`
    UPDATE review_items SET state = 'rejected', decided_at = ${now}, decided_by = ${by.slice(0, 200)}
    WHERE message_id = ANY(${messageIds}::text[]) AND state = 'pending' RETURNING 1`);
  return rows.length;
}
