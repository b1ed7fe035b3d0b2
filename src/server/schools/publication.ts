/**
 * What a school page shows, and when: the one place a letter comes to count.
 *
 * A letter counts on its school's page (and in the public figures) only when it rests on proof: it
 * is on record (its school is verified and lists the address it went to), and either the platform
 * delivered it after its parent confirmed it from their inbox, or it is a self-report the parent
 * confirmed and staff approved. A letter to the parent's own domain waits for staff too. Verifying a
 * school (or adding an address to it, or merging into it) counts the letters it already has.
 * Everything here is idempotent: counting a letter twice counts it once.
 */
import { query, sql } from '../db';
import { recordSent } from './impact';
import { sameDomain } from '../identity';
import { readMessage, type OutboxMessage } from '../letter/outbox';
import { approved, queueReview } from '../staff/review-items';
import { countStoredAnswer } from './answers';
import { schoolOfLetter } from './letters';

export type Counted = 'counted' | 'review' | 'not_on_record';

/** Counts a letter that was delivered (or a self-report), if and when its proof allows. */
export async function countLetter(message: OutboxMessage, at: Date): Promise<Counted> {
  const place = await schoolOfLetter(message);
  if (!place.onRecord || !place.school) return 'not_on_record';
  if (message.channel === 'self' && !(await approved(message.id, 'self_report'))) return 'review';
  if (message.channel === 'platform' && sameDomain(message.parentEmail, message.to) && !(await approved(message.id, 'self_report'))) {
    await queueReview(message.id, 'self_report', 'own_domain', at);
    return 'review';
  }
  await recordSent(message, place.school.pageKey);
  await countStoredAnswer(message, at);
  return 'counted';
}

/**
 * Counts every letter a school has that may count now (its verification, an address added, a
 * merge): delivered platform letters and approved self-reports to an address its record lists.
 * Returns how many count now.
 */
export async function countSchoolLetters(schoolId: string, now = new Date()): Promise<number> {
  const rows = await query<{ id: string }>(sql`
    SELECT o.id FROM outbox_messages o
    WHERE (o.school_id = ${schoolId} OR lower(trim(o.record->>'to')) IN (SELECT address FROM school_addresses WHERE school_id = ${schoolId}))
      AND o.erased_at IS NULL AND o.status IN ('sent', 'delivered')
      AND NOT EXISTS (SELECT 1 FROM impact_sends i WHERE i.message_id = o.id)
    ORDER BY o.id LIMIT 2000`);
  let counted = 0;
  for (const { id } of rows) {
    const found = await readMessage(id);
    if (found && (await countLetter(found.message, new Date(found.message.sentAt ?? now.toISOString()))) === 'counted') counted++;
  }
  return counted;
}
